#include "core/collision.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <variant>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

namespace {

constexpr std::size_t chunk_size = 1024;  // fixed chunking keeps results independent of thread count

Vec3 periodic_delta(Vec3 d, const CollisionSettings& s) {
  if (s.periodic_axis >= 0) {
    const double L = s.periodic_hi - s.periodic_lo;
    d[s.periodic_axis] -= L * std::round(d[s.periodic_axis] / L);
  }
  return d;
}

/// The minimum-image convention needs a period above 4 r_max: then a pair touches through one image
/// at most and no sphere touches its own image.
void check_periodic(const ParticleStore& p, const CollisionSettings& s) {
  if (s.periodic_axis > 2) throw InputError(fmt::format("periodic_axis must be -1, 0, 1 or 2 (got {})", s.periodic_axis));
  const double L = s.periodic_hi - s.periodic_lo;
  if (!(L > 0) || !std::isfinite(L))
    throw InputError(fmt::format("periodic interval [{}, {}) must have periodic_hi > periodic_lo", s.periodic_lo, s.periodic_hi));
  double r_max = 0;
  for (double r : p.radius) r_max = std::max(r_max, r);
  if (L <= 4 * r_max)
    throw InputError(fmt::format("periodic interval length {} m must exceed 4 x the largest radius ({} m)", L, 4 * r_max));
}

}  // namespace

void sphere_sphere(const ParticleStore& p, const CollisionSettings& settings, Contact& c) {
  const Vec3 d = periodic_delta(p.position[c.a] - p.position[c.b], settings);
  const double dist = d.norm();
  const double ra = p.radius[c.a], rb = p.radius[c.b];
  c.normal = dist > 0 ? Vec3(d / dist) : Vec3::UnitZ();
  c.overlap = ra + rb - dist;
  // Contact point: middle of the overlap region, measured from a.
  c.point = p.position[c.a] - (ra - 0.5 * c.overlap) * c.normal;
  c.effective_radius = ra * rb / (ra + rb);
}

bool ContactDetector::needs_rebuild(const ParticleStore& particles, const CollisionSettings& settings) const {
  if (!valid_ || reference_position_.size() != particles.size()) return true;
  const double limit2 = 0.25 * skin_ * skin_;
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, particles.size(), chunk_size), false,
      [&](const tbb::blocked_range<std::size_t>& r, bool moved) {
        for (std::size_t i = r.begin(); i != r.end() && !moved; ++i)
          // Minimum image: a particle wrapped across the periodic seam has not moved by the period.
          moved = periodic_delta(particles.position[i] - reference_position_[i], settings).squaredNorm() > limit2;
        return moved;
      },
      [](bool x, bool y) { return x || y; });
}

void ContactDetector::rebuild_pairs(const ParticleStore& p, const CollisionSettings& settings,
                                    std::vector<Contact>& contacts) {
  const std::size_t n = p.size();
  ++stats_.rebuilds;
  reference_position_ = p.position;
  valid_ = true;
  scratch_.swap(contacts);  // the previous candidates, sorted by key
  contacts.clear();
  if (n == 0) {
    pair_count_ = 0;
    return;
  }

  // Grid bounds and cell size.
  Vec3 lo = p.position[0], hi = p.position[0];
  double r_max = 0;
  for (std::size_t i = 0; i < n; ++i) {
    lo = lo.cwiseMin(p.position[i]);
    hi = hi.cwiseMax(p.position[i]);
    r_max = std::max(r_max, p.radius[i]);
  }
  const double cell = 2 * r_max + skin_;
  Eigen::Array3i dims;
  for (int k = 0; k < 3; ++k) {
    if (k == settings.periodic_axis) {
      lo[k] = settings.periodic_lo;
      const int m = int(std::floor((settings.periodic_hi - settings.periodic_lo) / cell));
      dims[k] = std::max(m, 1);
    } else {
      dims[k] = std::max(1, int((hi[k] - lo[k]) / cell) + 1);
    }
  }
  // Guard against absurd grids (a stray particle far away): at most a few cells per particle.
  const double cap = 8.0 * double(n) + 64;
  while (double(dims[0]) * dims[1] * dims[2] > cap)
    for (int k = 0; k < 3; ++k)
      if (k != settings.periodic_axis) dims[k] = std::max(1, (dims[k] + 1) / 2);
  Eigen::Array3d size;
  for (int k = 0; k < 3; ++k) {
    const double extent = k == settings.periodic_axis ? settings.periodic_hi - settings.periodic_lo : hi[k] - lo[k];
    size[k] = k == settings.periodic_axis ? extent / dims[k] : std::max(cell, extent / dims[k] * (1 + 1e-9));
  }
  auto cell_of = [&](const Vec3& x) {
    Eigen::Array3i c;
    for (int k = 0; k < 3; ++k) {
      int ck = int(std::floor((x[k] - lo[k]) / size[k]));
      if (k == settings.periodic_axis) ck = ((ck % dims[k]) + dims[k]) % dims[k];
      c[k] = std::clamp(ck, 0, dims[k] - 1);
    }
    return c;
  };
  auto linear = [&](const Eigen::Array3i& c) { return std::size_t(c[0]) + dims[0] * (std::size_t(c[1]) + dims[1] * std::size_t(c[2])); };

  // Counting sort of particle indices by cell.
  const std::size_t ncell = std::size_t(dims[0]) * dims[1] * dims[2];
  std::vector<std::uint32_t> cell_index(n), start(ncell + 1, 0), order(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, chunk_size), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) cell_index[i] = std::uint32_t(linear(cell_of(p.position[i])));
  });
  for (std::size_t i = 0; i < n; ++i) ++start[cell_index[i] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) order[fill[cell_index[i]]++] = std::uint32_t(i);
  }

  // Candidate pairs: for each particle, neighbours with a larger index in the 27 surrounding cells.
  const std::size_t nchunks = (n + chunk_size - 1) / chunk_size;
  std::vector<std::vector<Contact>> found(nchunks);
  tbb::parallel_for(std::size_t(0), nchunks, [&](std::size_t chunk) {
    auto& out = found[chunk];
    const std::size_t end = std::min(n, (chunk + 1) * chunk_size);
    for (std::size_t i = chunk * chunk_size; i < end; ++i) {
      const Eigen::Array3i ci = cell_of(p.position[i]);
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            Eigen::Array3i cj = ci + Eigen::Array3i(dx, dy, dz);
            bool skip = false;
            for (int k = 0; k < 3; ++k) {
              if (k == settings.periodic_axis) {
                cj[k] = ((cj[k] % dims[k]) + dims[k]) % dims[k];
              } else if (cj[k] < 0 || cj[k] >= dims[k]) {
                skip = true;
              }
            }
            if (skip) continue;
            const std::size_t lc = linear(cj);
            for (std::uint32_t s = start[lc]; s < start[lc + 1]; ++s) {
              const std::uint32_t j = order[s];
              if (j <= i) continue;
              const Vec3 d = periodic_delta(p.position[i] - p.position[j], settings);
              const double reach = p.radius[i] + p.radius[j] + skin_;
              if (d.squaredNorm() > reach * reach) continue;
              Contact c;
              c.a = std::int32_t(i);
              c.b = std::int32_t(j);
              c.key = pair_key(p.id[i], p.id[j]);
              out.push_back(c);
            }
          }
    }
  });
  std::size_t total = 0;
  for (auto& f : found) total += f.size();
  contacts.reserve(total);
  for (auto& f : found) contacts.insert(contacts.end(), f.begin(), f.end());
  // Small periodic boxes (fewer than 3 cells) can visit a neighbour cell twice: remove duplicates.
  std::sort(contacts.begin(), contacts.end(), [](const Contact& x, const Contact& y) { return x.key < y.key; });
  contacts.erase(std::unique(contacts.begin(), contacts.end(), [](const Contact& x, const Contact& y) { return x.key == y.key; }),
                 contacts.end());
  carry_history(scratch_, contacts);
  pair_count_ = contacts.size();
}

void ContactDetector::update(const ParticleStore& p, const std::vector<Wall>& walls, const CollisionSettings& settings,
                             std::vector<Contact>& contacts) {
  // Default skin: 10 % of the mean radius.
  if (settings.skin > 0) {
    skin_ = settings.skin;
  } else if (skin_ == 0 && p.size() > 0) {
    double r = 0;
    for (double x : p.radius) r += x;
    skin_ = 0.1 * r / double(p.size());
  }
  // Last step's wall contacts, kept for their history.
  const std::size_t pairs = std::min(pair_count_, contacts.size());
  std::vector<Contact> old_walls(contacts.begin() + pairs, contacts.end());
  contacts.resize(pairs);
  if (needs_rebuild(p, settings)) {
    if (settings.periodic_axis >= 0) check_periodic(p, settings);  // at rebuilds only: O(N), serial
    rebuild_pairs(p, settings, contacts);
  }

  // Narrow phase for the pair candidates, in place.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pair_count_, chunk_size), [&](const auto& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      Contact& c = contacts[k];
      sphere_sphere(p, settings, c);
      if (c.overlap <= 0) {  // separated: forget the history
        c.age = 0;
        c.tangential_spring.setZero();
        c.rolling_spring.setZero();
        c.tangent.setZero();
        c.lambda = {};
      }
    }
  });

  // Wall contacts: recomputed every step (walls are few), keyed by particle id, wall and feature.
  std::vector<Contact> wall_contacts;
  if (!walls.empty()) {
    const std::size_t n = p.size();
    const std::size_t nchunks = (n + chunk_size - 1) / chunk_size;
    std::vector<std::vector<Contact>> found(nchunks);
    tbb::parallel_for(std::size_t(0), nchunks, [&](std::size_t chunk) {
      std::vector<WallHit> hits;
      const std::size_t end = std::min(n, (chunk + 1) * chunk_size);
      for (std::size_t i = chunk * chunk_size; i < end; ++i) {
        for (std::size_t w = 0; w < walls.size(); ++w) {
          // Fast reject for infinite planes (the common box walls): the same expression as
          // collide(PlaneShape), so the decision is bit-identical to the full call below.
          if (const PlaneShape* plane = std::get_if<PlaneShape>(&walls[w].shape)) {
            const double distance = (p.position[i] - plane->point).dot(plane->normal);
            if (p.radius[i] - distance <= 0) continue;
          }
          hits.clear();
          collide_sphere(walls[w].shape, p.position[i], p.radius[i], 0.0, hits);
          for (const WallHit& h : hits) {
            if (h.overlap <= 0) continue;
            Contact c;
            c.key = wall_key(p.id[i], std::uint16_t(w), h.feature);
            c.a = std::int32_t(i);
            c.b = -1 - std::int32_t(w);
            c.normal = h.normal;
            c.point = h.point;
            c.overlap = h.overlap;
            c.effective_radius = p.radius[i];
            found[chunk].push_back(c);
          }
        }
      }
    });
    for (auto& f : found) wall_contacts.insert(wall_contacts.end(), f.begin(), f.end());
    std::sort(wall_contacts.begin(), wall_contacts.end(), [](const Contact& x, const Contact& y) { return x.key < y.key; });
    carry_history(old_walls, wall_contacts);  // both sorted by key
  }
  stats_.candidates = pair_count_;
  stats_.wall_contacts = wall_contacts.size();
  contacts.insert(contacts.end(), wall_contacts.begin(), wall_contacts.end());
}

}  // namespace grainlab
