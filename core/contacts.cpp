#include "core/contacts.hpp"

namespace grainlab {

void carry_history(std::span<const Contact> previous, std::span<Contact> current, const ModelHistory* previous_model,
                   ModelHistory* current_model) {
  if (current_model) {
    current_model->keep_as(*previous_model);
    current_model->each([&](auto& column) { column.assign(current.size(), {}); });
  }
  std::size_t j = 0;
  for (std::size_t k = 0; k < current.size(); ++k) {
    Contact& c = current[k];
    while (j < previous.size() && previous[j].key < c.key) ++j;
    if (j < previous.size() && previous[j].key == c.key) {
      take_history(c, previous[j]);
      if (current_model) ModelHistory::zip(*current_model, *previous_model, [&](auto& to, const auto& from) { to[k] = from[j]; });
    }
  }
}

}  // namespace grainlab
