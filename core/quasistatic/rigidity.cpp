#include "core/quasistatic/rigidity.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/error.hpp"

namespace grainlab::quasistatic {

Eigen::MatrixXd nonslip_constraints(const std::vector<RigidBody>& bodies, const std::vector<ContactLink>& links,
                                    int equations_per_link, std::vector<int>* column_out) {
  if (equations_per_link < 2 || equations_per_link > 3) throw InputError("rigidity: equations_per_link must be 2 or 3");
  std::vector<int> column(bodies.size(), -1);
  int free = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!bodies[i].fixed) column[i] = 3 * free++;
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(equations_per_link * links.size(), 3 * free);
  for (std::size_t k = 0; k < links.size(); ++k) {
    const ContactLink& l = links[k];
    if (l.a < 0 || l.b < 0 || l.a >= int(bodies.size()) || l.b >= int(bodies.size()) || l.a == l.b)
      throw InputError("rigidity: invalid link");
    // velocity of the contact point on body i: u_i + w_i e_z x (p - x_i); a gets +, b gets -.
    auto put = [&](int body, double sign) {
      if (column[body] < 0) return;
      const Eigen::Vector2d r = l.point - bodies[body].centre;
      const int c = column[body], row = equations_per_link * int(k);
      a(row, c) += sign;
      a(row + 1, c + 1) += sign;
      a(row, c + 2) += -sign * r.y();
      a(row + 1, c + 2) += sign * r.x();
      if (equations_per_link == 3) a(row + 2, c + 2) += sign;
    };
    put(l.a, 1);
    put(l.b, -1);
  }
  if (column_out) *column_out = column;
  return a;
}

int degrees_of_freedom(const std::vector<RigidBody>& bodies, const std::vector<ContactLink>& links,
                       int equations_per_link) {
  const Eigen::MatrixXd a = nonslip_constraints(bodies, links, equations_per_link);
  if (a.cols() == 0) return 0;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  qr.setThreshold(1e-10);
  return int(a.cols()) - int(qr.rank());
}

std::vector<int> planar_face_sizes(const std::vector<Eigen::Vector2d>& p, const std::vector<std::pair<int, int>>& edges) {
  // Half-edges sorted by angle around each vertex; a face is traced by turning to the next edge clockwise.
  const int n = int(p.size());
  std::vector<std::vector<int>> around(n);  // neighbour lists sorted by angle
  for (auto [u, v] : edges) around[u].push_back(v), around[v].push_back(u);
  for (int v = 0; v < n; ++v)
    std::sort(around[v].begin(), around[v].end(), [&](int x, int y) {
      return std::atan2(p[x].y() - p[v].y(), p[x].x() - p[v].x()) < std::atan2(p[y].y() - p[v].y(), p[y].x() - p[v].x());
    });
  std::map<std::pair<int, int>, bool> used;
  std::vector<int> sizes;
  for (int u = 0; u < n; ++u)
    for (int v : around[u]) {
      if (used[{u, v}]) continue;
      int size = 0, a = u, b = v;
      while (!used[{a, b}]) {
        used[{a, b}] = true;
        ++size;
        // at b, the next neighbour after a in clockwise order = previous in the ccw-sorted list
        const auto& nb = around[b];
        const int i = int(std::find(nb.begin(), nb.end(), a) - nb.begin());
        const int next = nb[(i - 1 + int(nb.size())) % int(nb.size())];
        a = b;
        b = next;
      }
      sizes.push_back(size);
    }
  return sizes;
}

}  // namespace grainlab::quasistatic
