#include "core/quasistatic/link_element.hpp"

namespace grainlab::quasistatic {

Mat2 link_stiffness(const Vec2& n, const LinkSpring& s) {
  const Vec2 t = link_tangent(n);
  return s.k_normal * n * n.transpose() + s.k_tangential * t * t.transpose();
}

Mat2 link_compliance(const Vec2& n, const LinkSpring& s) {
  const Vec2 t = link_tangent(n);
  return n * n.transpose() / s.k_normal + t * t.transpose() / s.k_tangential;
}

}  // namespace grainlab::quasistatic
