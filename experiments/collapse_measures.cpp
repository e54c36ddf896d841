#include "experiments/collapse_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

#include <Eigen/Dense>

namespace grainlab {
namespace {

struct DisjointSets {
  std::vector<std::size_t> parent;
  explicit DisjointSets(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), std::size_t(0)); }
  std::size_t find(std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  // The smaller root wins, so a component's root is its lowest index (deterministic tie-breaks).
  void join(std::size_t a, std::size_t b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

using ColumnKey = std::pair<long, long>;
ColumnKey column_of(const Vec3& x, double column) {
  return {long(std::floor(x.x() / column)), long(std::floor(x.y() / column))};
}

// Highest top (z + r) per column among the masked particles.
std::map<ColumnKey, std::pair<double, std::size_t>> highest_per_column(std::span<const Vec3> x,
                                                                       std::span<const double> r,
                                                                       std::span<const char> mask, double column) {
  std::map<ColumnKey, std::pair<double, std::size_t>> top;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!mask[i]) continue;
    const double z = x[i].z() + r[i];
    auto [it, fresh] = top.try_emplace(column_of(x[i], column), z, i);
    if (!fresh && z > it->second.first) it->second = {z, i};
  }
  return top;
}

}  // namespace

std::vector<char> main_contact_network(std::size_t particles, std::span<const Contact> contacts, double gap) {
  DisjointSets sets(particles);
  for (const Contact& c : contacts)
    if (!c.is_wall() && c.overlap > -gap) sets.join(std::size_t(c.a), std::size_t(c.b));
  std::vector<std::size_t> size(particles, 0);
  for (std::size_t i = 0; i < particles; ++i) ++size[sets.find(i)];
  std::size_t best = 0;
  for (std::size_t i = 1; i < particles; ++i)
    if (size[i] > size[best]) best = i;
  std::vector<char> mask(particles, 0);
  for (std::size_t i = 0; i < particles; ++i) mask[i] = sets.find(i) == best;
  return mask;
}

std::vector<std::size_t> column_tops(std::span<const Vec3> x, std::span<const double> r, std::span<const char> mask,
                                     double column) {
  std::vector<std::size_t> out;
  for (const auto& [key, top] : highest_per_column(x, r, mask, column)) out.push_back(top.second);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::size_t> top_surface(std::span<const Vec3> x, std::span<const double> r, std::span<const char> mask,
                                     double column, double depth) {
  const auto top = highest_per_column(x, r, mask, column);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (mask[i] && x[i].z() + r[i] >= top.at(column_of(x[i], column)).first - depth) out.push_back(i);
  return out;
}

PlaneFit fit_plane(std::span<const Vec3> points) {
  PlaneFit fit;
  fit.points = points.size();
  fit.angle_deg = std::numeric_limits<double>::quiet_NaN();
  if (points.size() < 3) return fit;
  // Normal equations of z = a + b x + c y about the centroid (well conditioned at any offset).
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : points) mean += p;
  mean /= double(points.size());
  Eigen::Matrix2d A = Eigen::Matrix2d::Zero();
  Eigen::Vector2d rhs = Eigen::Vector2d::Zero();
  for (const Vec3& p : points) {
    const Eigen::Vector2d u(p.x() - mean.x(), p.y() - mean.y());
    A += u * u.transpose();
    rhs += u * (p.z() - mean.z());
  }
  const Eigen::FullPivLU<Eigen::Matrix2d> lu(A);
  if (lu.rank() < 2) return fit;
  const Eigen::Vector2d g = lu.solve(rhs);
  fit.slope_x = g.x();
  fit.slope_y = g.y();
  fit.angle_deg = std::atan(g.norm()) * 180.0 / M_PI;
  return fit;
}

Vec3 pair_relative_velocity(const Contact& c, std::span<const Vec3> x, std::span<const Vec3> v,
                            std::span<const Vec3> w) {
  const auto a = std::size_t(c.a), b = std::size_t(c.b);
  return v[a] + w[a].cross(c.point - x[a]) - v[b] - w[b].cross(c.point - x[b]);
}

MergePotential merge_potential(const FrameState& f, const ReductionThresholds& merge, double acceleration,
                               double force_balance) {
  const std::size_t n = f.position.size();
  // Eq. 25 per particle: the external force (gravity) against the summed contact forces.
  std::vector<Vec3> contact_force(n, Vec3::Zero());
  for (const Contact& c : f.contacts) {
    contact_force[std::size_t(c.a)] += c.force;
    if (!c.is_wall()) contact_force[std::size_t(c.b)] -= c.force;
  }
  std::vector<char> balanced(n, 1);
  if (std::isfinite(force_balance))
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 fe = f.mass[i] * f.gravity;
      const double den = fe.norm() + contact_force[i].norm();
      balanced[i] = den > 0 && (fe + contact_force[i]).norm() / den <= force_balance;
    }

  DisjointSets sets(n);
  MergePotential out;
  for (const Contact& c : f.contacts) {
    if (c.is_wall() || !(c.overlap > 0)) continue;
    const auto a = std::size_t(c.a), b = std::size_t(c.b);
    if (!balanced[a] || !balanced[b]) continue;
    // Eq. 26-28: G_n v (> 0 separating), |G_t v| and |G_r v| (Euclidean norms of the tangential and the
    // rolling + twisting parts: a basis-free form of the componentwise bounds).
    const Vec3 u = pair_relative_velocity(c, f.position, f.velocity, f.angular_velocity);
    const double un = u.dot(c.normal);
    const Vec3 ut = u - un * c.normal;
    const Vec3 rolling = f.angular_velocity[a] - f.angular_velocity[b];
    if (un < -merge.incident_normal || un > merge.separating_normal || ut.norm() > merge.tangential ||
        rolling.norm() > merge.rolling)
      continue;
    if (std::isfinite(acceleration) && f.dt > 0) {
      const Vec3 du = u - pair_relative_velocity(c, f.position, f.previous_velocity, f.previous_angular_velocity);
      const double an = du.dot(c.normal) / f.dt, at = (du - du.dot(c.normal) * c.normal).norm() / f.dt;
      if (std::abs(an) > acceleration || at > acceleration) continue;
    }
    ++out.passing_contacts;
    sets.join(a, b);
  }
  std::vector<std::size_t> size(n, 0);
  for (std::size_t i = 0; i < n; ++i) ++size[sets.find(i)];
  std::size_t free = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (size[i] >= 2) ++out.aggregates, out.merged_particles += size[i];
    if (size[i] == 1) ++free;  // a root of size 1 is a free particle
  }
  out.level = n ? 1.0 - double(free + out.aggregates) / double(n) : 0.0;
  return out;
}

}  // namespace grainlab
