#include "core/quasistatic/lattice_packing.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::quasistatic {

LatticePacking build_lattice_packing(int disks, int per_row, double r, double mass, double gravity,
                                     const LinkSpring& disk_link, const LinkSpring& wall_link, int threads) {
  if (disks < 1 || per_row < 2) throw InputError(fmt::format("lattice packing: disks = {}, per_row = {} (need >= 1, >= 2)", disks, per_row));
  if (!(r > 0)) throw InputError("lattice packing: radius must be > 0");
  LatticePacking p;
  p.rima.set_threads(threads);
  const double width = 2 * r * per_row, row_height = std::sqrt(3.0) * r;
  Eigen::VectorXd zero;
  for (int row = 0, placed = 0; placed < disks; ++row) {
    const bool long_row = row % 2 == 0;
    const int count = long_row ? per_row : per_row - 1;
    for (int k = 0; k < count && placed < disks; ++k, ++placed) {
      const Vec2 c(r + 2 * r * k + (long_row ? 0 : r), r + row * row_height);
      const int a = p.truss.add_node();
      p.positions.push_back(c);
      zero = Eigen::VectorXd::Zero(2 * (a + 1));
      struct Contact {
        int node;
        Vec2 normal;
        const LinkSpring* spring;
      };
      std::vector<Contact> contacts;
      if (row == 0) contacts.push_back({fixed_node, Vec2(0, -1), &wall_link});
      if (long_row && k == 0) contacts.push_back({fixed_node, Vec2(-1, 0), &wall_link});
      if (long_row && k == count - 1 && c.x() + r >= width - 1e-12) contacts.push_back({fixed_node, Vec2(1, 0), &wall_link});
      for (int j = 0; j < a; ++j) {
        const Vec2 d = p.positions[j] - c;
        if (std::abs(d.norm() - 2 * r) < 1e-9 * r) contacts.push_back({j, d / d.norm(), &disk_link});
      }
      for (std::size_t i = 0; i < contacts.size(); ++i) {
        const Contact& ct = contacts[i];
        const Mat2 c2 = link_stiffness(ct.normal, *ct.spring);
        if (i == 0) ct.node == fixed_node ? p.rima.add_node_to_fixed(c2) : p.rima.add_node_to_node(ct.node, c2);
        else if (ct.node == fixed_node) p.rima.add_fixed_link(a, c2);
        else p.rima.add_link(a, ct.node, c2);
        Link l;
        l.a = a;
        l.b = ct.node;
        l.normal = ct.normal;
        l.spring = *ct.spring;
        p.truss.add_link(l, zero, 0);
      }
    }
  }
  p.gravity_loads = Eigen::VectorXd::Zero(2 * disks);
  for (int i = 0; i < disks; ++i) p.gravity_loads(2 * i + 1) = -mass * gravity;
  return p;
}

}  // namespace grainlab::quasistatic
