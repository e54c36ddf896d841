#include "core/contacts.hpp"

namespace grainlab {

void carry_history(std::span<const Contact> previous, std::span<Contact> current) {
  std::size_t j = 0;
  for (auto& c : current) {
    while (j < previous.size() && previous[j].key < c.key) ++j;
    if (j < previous.size() && previous[j].key == c.key) {
      const Contact& p = previous[j];
      c.age = p.age + 1;
      c.tangential_spring = p.tangential_spring;
      c.rolling_spring = p.rolling_spring;
      c.tangent = p.tangent;
      c.lambda = p.lambda;
    }
  }
}

}  // namespace grainlab
