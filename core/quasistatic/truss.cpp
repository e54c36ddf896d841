#include "core/quasistatic/truss.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::quasistatic {

Vec2 Truss::relative(const Link& l, const Eigen::VectorXd& d) const {
  Vec2 delta = d.segment<2>(2 * l.a);
  if (l.b != fixed_node) delta -= d.segment<2>(2 * l.b);
  return delta;
}

int Truss::add_link(Link link, const Eigen::VectorXd& d, double overlap) {
  if (link.a < 0 || link.a >= nodes_ || link.b >= nodes_ || link.b < fixed_node || link.a == link.b)
    throw InputError(fmt::format("QS truss: invalid link ({}, {})", link.a, link.b));
  if (!(link.spring.k_normal > 0) || !(link.spring.k_tangential > 0))
    throw InputError("QS truss: link stiffnesses must be > 0");
  link.normal.normalize();
  const Vec2 delta = relative(link, d);
  link.offset_normal = link.normal.dot(delta) - overlap;
  link.offset_tangential = link_tangent(link.normal).dot(delta);
  links_.push_back(link);
  return int(links_.size()) - 1;
}

Eigen::SparseMatrix<double> Truss::stiffness() const {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(links_.size() * 16);
  auto put = [&](int row, int col, const Mat2& c, double sign) {
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) t.emplace_back(2 * row + i, 2 * col + j, sign * c(i, j));
  };
  for (const Link& l : links_) {
    if (!l.active) continue;
    const Mat2 c = stiffness_block(l);
    put(l.a, l.a, c, 1);
    if (l.b == fixed_node) continue;
    put(l.b, l.b, c, 1);
    put(l.a, l.b, c, -1);
    put(l.b, l.a, c, -1);
  }
  Eigen::SparseMatrix<double> k(2 * nodes_, 2 * nodes_);
  k.setFromTriplets(t.begin(), t.end());
  return k;
}

Eigen::VectorXd Truss::apply_stiffness(const Eigen::VectorXd& d) const {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(d.size());
  for (const Link& l : links_) {
    if (!l.active) continue;
    const Vec2 force = stiffness_block(l) * relative(l, d);
    f.segment<2>(2 * l.a) += force;
    if (l.b != fixed_node) f.segment<2>(2 * l.b) -= force;
  }
  return f;
}

Eigen::VectorXd Truss::offset_loads() const {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(2 * nodes_);
  for (const Link& l : links_) {
    if (!l.active) continue;
    const Vec2 p = l.spring.k_normal * l.offset_normal * l.normal +
                   l.spring.k_tangential * l.offset_tangential * link_tangent(l.normal);
    f.segment<2>(2 * l.a) += p;
    if (l.b != fixed_node) f.segment<2>(2 * l.b) -= p;
  }
  return f;
}

LinkStress Truss::stress(const Link& l, const Eigen::VectorXd& d) const {
  const Vec2 delta = relative(l, d);
  return {l.spring.k_normal * (l.normal.dot(delta) - l.offset_normal),
          l.spring.k_tangential * (link_tangent(l.normal).dot(delta) - l.offset_tangential)};
}

double Truss::slide(Link& l, const Eigen::VectorXd& d) {
  const LinkStress s = stress(l, d);
  const double delta_t = s.tangential / l.spring.k_tangential;
  const double delta_max = std::max(0.0, l.spring.friction * s.normal / l.spring.k_tangential);
  const double length = std::abs(delta_t) - delta_max;
  if (!(length > 0)) return 0;
  const double slide = std::copysign(length, delta_t);
  l.offset_tangential += slide;
  l.slide_energy += std::abs(l.spring.k_tangential * delta_t * slide);  // (4.36)
  ++l.slides;
  return length;
}

}  // namespace grainlab::quasistatic
