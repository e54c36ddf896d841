#include "core/mbd/rigid_clusters.hpp"

#include <numeric>

#include "core/error.hpp"

namespace grainlab::mbd {
namespace {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(std::size_t(n)) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[std::size_t(x)] != x) x = parent[std::size_t(x)] = parent[std::size_t(parent[std::size_t(x)])];
    return x;
  }
  void join(int a, int b) { parent[std::size_t(find(a))] = find(b); }
};

}  // namespace

RigidClusters rigid_clusters(const std::vector<quasistatic::RigidBody>& bodies,
                             const std::vector<quasistatic::ContactLink>& links, double tolerance) {
  const int n = int(bodies.size());
  for (const auto& l : links)
    if (l.a < 0 || l.b < 0 || l.a >= n || l.b >= n || l.a == l.b) throw InputError("rigid_clusters: invalid link");
  // Length scale: the mean lever arm, so that translations and rotations have comparable columns.
  double arm = 0;
  int arms = 0;
  for (const auto& l : links)
    for (int b : {l.a, l.b})
      if (!bodies[std::size_t(b)].fixed) arm += (l.point - bodies[std::size_t(b)].centre).norm(), ++arms;
  const double scale = arms > 0 && arm > 0 ? arms / arm : 1.0;

  UnionFind component(n);  // free bodies joined through links between free bodies
  for (const auto& l : links)
    if (!bodies[std::size_t(l.a)].fixed && !bodies[std::size_t(l.b)].fixed) component.join(l.a, l.b);
  std::vector<std::vector<int>> groups(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    if (!bodies[std::size_t(i)].fixed) groups[std::size_t(component.find(i))].push_back(i);
  std::vector<std::vector<int>> group_links(static_cast<std::size_t>(n));
  for (int k = 0; k < int(links.size()); ++k) {
    const auto& l = links[std::size_t(k)];
    const int free_end = bodies[std::size_t(l.a)].fixed ? l.b : l.a;
    if (!bodies[std::size_t(free_end)].fixed) group_links[std::size_t(component.find(free_end))].push_back(k);
  }

  UnionFind together(n + 1);  // index n: the fixed bodies
  for (int i = 0; i < n; ++i)
    if (bodies[std::size_t(i)].fixed) together.join(i, n);
  for (int root = 0; root < n; ++root) {
    const std::vector<int>& members = groups[std::size_t(root)];
    if (members.empty()) continue;
    // Local problem: the component's free bodies, then one fixed stand-in per fixed end (scaled lengths).
    std::vector<quasistatic::RigidBody> local;
    std::vector<int> local_of(static_cast<std::size_t>(n), -1);
    for (int i : members) {
      local_of[std::size_t(i)] = int(local.size());
      local.push_back({bodies[std::size_t(i)].centre * scale, false});
    }
    std::vector<quasistatic::ContactLink> local_links;
    for (int k : group_links[std::size_t(root)]) {
      const auto& l = links[std::size_t(k)];
      auto end = [&](int b) {
        if (local_of[std::size_t(b)] < 0) {
          local_of[std::size_t(b)] = int(local.size());
          local.push_back({bodies[std::size_t(b)].centre * scale, true});
        }
        return local_of[std::size_t(b)];
      };
      local_links.push_back({end(l.a), end(l.b), l.point * scale});
    }
    const int unknowns = 3 * int(members.size());
    Eigen::MatrixXd basis;  // orthonormal basis of the allowed motions
    if (local_links.empty()) {
      basis = Eigen::MatrixXd::Identity(unknowns, unknowns);
    } else {
      const Eigen::MatrixXd a = quasistatic::nonslip_constraints(local, local_links);
      Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a.transpose());
      qr.setThreshold(1e-10);
      const int rank = int(qr.rank());
      const Eigen::MatrixXd q = qr.householderQ();
      basis = q.rightCols(unknowns - rank);
    }
    const int dims = int(basis.cols());
    for (int x = 0; x < int(members.size()); ++x) {
      const Eigen::MatrixXd vx = basis.middleRows(3 * x, 3);
      if (dims == 0 || vx.norm() < tolerance) together.join(members[std::size_t(x)], n);
    }
    for (int x = 0; x < int(members.size()); ++x)
      for (int y = x + 1; y < int(members.size()); ++y) {
        const int i = members[std::size_t(x)], j = members[std::size_t(y)];
        if (together.find(i) == together.find(j)) continue;
        // body j's motion minus the rigid motion of body i carried to j's centre
        const Eigen::Vector2d d = local[std::size_t(y)].centre - local[std::size_t(x)].centre;
        Eigen::MatrixXd diff = basis.middleRows(3 * y, 3) - basis.middleRows(3 * x, 3);
        diff.row(0) += d.y() * basis.row(3 * x + 2);
        diff.row(1) -= d.x() * basis.row(3 * x + 2);
        if (diff.norm() < tolerance) together.join(i, j);
      }
  }
  RigidClusters out;
  out.label.assign(std::size_t(n), -1);
  std::vector<int> label_of_root(static_cast<std::size_t>(n + 1), -1);
  label_of_root[std::size_t(together.find(n))] = 0;
  for (int i = 0; i < n; ++i) {
    int& l = label_of_root[std::size_t(together.find(i))];
    if (l < 0) l = out.labels++;
    out.label[std::size_t(i)] = l;
  }
  return out;
}

}  // namespace grainlab::mbd
