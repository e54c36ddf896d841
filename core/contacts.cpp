#include "core/contacts.hpp"

namespace grainlab {

void carry_history(std::span<const Contact> previous, std::span<Contact> current) {
  std::size_t j = 0;
  for (auto& c : current) {
    while (j < previous.size() && previous[j].key < c.key) ++j;
    if (j < previous.size() && previous[j].key == c.key) take_history(c, previous[j]);
  }
}

}  // namespace grainlab
