#include "core/contacts.hpp"

namespace grainlab {

void carry_history(std::span<const Contact> previous, std::span<Contact> current,
                   std::span<const ModelHistory> previous_model, std::span<ModelHistory> current_model) {
  const bool model = !current_model.empty();
  std::size_t j = 0;
  for (std::size_t k = 0; k < current.size(); ++k) {
    Contact& c = current[k];
    while (j < previous.size() && previous[j].key < c.key) ++j;
    if (j < previous.size() && previous[j].key == c.key) {
      take_history(c, previous[j]);
      if (model) current_model[k] = previous_model[j];
    }
  }
}

}  // namespace grainlab
