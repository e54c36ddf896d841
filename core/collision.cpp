#include "core/collision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
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

  // Counting sort of particle indices by cell; positions and radii copied in cell order so that the
  // search below streams contiguous memory.
  const std::size_t ncell = std::size_t(dims[0]) * dims[1] * dims[2];
  std::vector<std::uint32_t> cell_index(n), start(ncell + 1, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, chunk_size), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) cell_index[i] = std::uint32_t(linear(cell_of(p.position[i])));
  });
  for (std::size_t i = 0; i < n; ++i) ++start[cell_index[i] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  struct Sorted {
    Vec3 x;
    double r;
    std::uint32_t index;
  };
  std::vector<Sorted> sorted(n);
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) sorted[fill[cell_index[i]]++] = {p.position[i], p.radius[i], std::uint32_t(i)};
  }

  // Candidate pairs: each cell with itself and with 13 of its 26 neighbours (the half stencil: every
  // neighbouring pair of cells once). With fewer than 3 cells along the periodic axis a neighbour can
  // be reached twice; the sort below removes such duplicates. Fixed cell chunks, concatenated in order.
  struct Pair {
    std::uint64_t key;
    std::uint32_t a, b;
  };
  static constexpr int stencil[13][3] = {{1, 0, 0},  {-1, 1, 0}, {0, 1, 0},  {1, 1, 0},  {-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
                                         {-1, 0, 1}, {0, 0, 1},  {1, 0, 1},  {-1, 1, 1}, {0, 1, 1},   {1, 1, 1}};
  const double skin = skin_;
  const std::size_t cells_per_chunk = std::max<std::size_t>(1, ncell * chunk_size / std::max<std::size_t>(n, 1));
  const std::size_t nchunks = (ncell + cells_per_chunk - 1) / cells_per_chunk;
  std::vector<std::vector<Pair>> found(nchunks);
  tbb::parallel_for(std::size_t(0), nchunks, [&](std::size_t chunk) {
    auto& out = found[chunk];
    auto test = [&](const Sorted& u, const Sorted& v) {
      const Vec3 d = periodic_delta(u.x - v.x, settings);
      const double reach = u.r + v.r + skin;
      if (d.squaredNorm() > reach * reach) return;
      const std::uint32_t a = std::min(u.index, v.index), b = std::max(u.index, v.index);
      out.push_back({pair_key(p.id[a], p.id[b]), a, b});
    };
    const std::size_t end = std::min(ncell, (chunk + 1) * cells_per_chunk);
    for (std::size_t lc = chunk * cells_per_chunk; lc < end; ++lc) {
      const std::uint32_t s0 = start[lc], s1 = start[lc + 1];
      if (s0 == s1) continue;
      for (std::uint32_t s = s0; s < s1; ++s)
        for (std::uint32_t t = s + 1; t < s1; ++t) test(sorted[s], sorted[t]);
      const Eigen::Array3i ci(int(lc % dims[0]), int(lc / dims[0] % dims[1]), int(lc / (std::size_t(dims[0]) * dims[1])));
      for (const auto& o : stencil) {
        Eigen::Array3i cj = ci + Eigen::Array3i(o[0], o[1], o[2]);
        bool skip = false;
        for (int k = 0; k < 3; ++k) {
          if (k == settings.periodic_axis)
            cj[k] = ((cj[k] % dims[k]) + dims[k]) % dims[k];
          else if (cj[k] < 0 || cj[k] >= dims[k])
            skip = true;
        }
        if (skip) continue;
        const std::size_t lj = linear(cj);
        if (lj == lc) continue;  // a period of one cell: the cell itself is done above
        for (std::uint32_t s = s0; s < s1; ++s)
          for (std::uint32_t t = start[lj]; t < start[lj + 1]; ++t) test(sorted[s], sorted[t]);
      }
    }
  });
  std::vector<Pair> pairs;
  {
    std::size_t total = 0;
    for (auto& f : found) total += f.size();
    pairs.reserve(total);
    for (auto& f : found) pairs.insert(pairs.end(), f.begin(), f.end());
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.key < y.key; });
  pairs.erase(std::unique(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.key == y.key; }), pairs.end());
  contacts.resize(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    Contact& c = contacts[k];
    c = Contact{};
    c.key = pairs[k].key;
    c.a = std::int32_t(pairs[k].a);
    c.b = std::int32_t(pairs[k].b);
    c.effective_radius = p.radius[c.a] * p.radius[c.b] / (p.radius[c.a] + p.radius[c.b]);  // constant per pair
    // Not yet known: read as "touched last step", so that the first geometry pass after the rebuild
    // resets the carried history of a pair that no longer touches (the SDEM kernel resets only pairs
    // that touched last step).
    c.overlap = std::numeric_limits<double>::infinity();
  }
  carry_history(scratch_, contacts);
  pair_count_ = contacts.size();
}

// A plane wall is static when it does not move (zero velocity and angular velocity). Its candidates are
// the particles within reach (r + skin) of it at the last rebuild (reference positions): until the next
// rebuild no particle moves more than skin / 2, so no other particle can touch it. A listed plane that
// changed since (moved, edited, removed) makes the lists be built again.
bool ContactDetector::static_planes_unchanged(const std::vector<Wall>& walls) const {
  if (walls.size() != plane_listed_.size()) return false;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    if (!plane_listed_[w]) continue;
    const PlaneShape* plane = std::get_if<PlaneShape>(&walls[w].shape);
    if (!plane || plane->point != plane_snapshot_[w].point || plane->normal != plane_snapshot_[w].normal ||
        !walls[w].velocity.isZero(0) || !walls[w].angular_velocity.isZero(0))
      return false;
  }
  return true;
}

void ContactDetector::build_plane_lists(const ParticleStore& p, const std::vector<Wall>& walls) {
  const std::size_t n = p.size(), nw = walls.size();
  plane_listed_.assign(nw, 0);
  plane_snapshot_.assign(nw, PlaneShape{});
  for (std::size_t w = 0; w < nw; ++w)
    if (const PlaneShape* plane = std::get_if<PlaneShape>(&walls[w].shape))
      if (walls[w].velocity.isZero(0) && walls[w].angular_velocity.isZero(0)) {
        plane_listed_[w] = 1;
        plane_snapshot_[w] = *plane;
      }
  plane_offset_.assign(n + 1, 0);
  plane_wall_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t w = 0; w < nw; ++w) {
      if (!plane_listed_[w]) continue;
      const PlaneShape& plane = plane_snapshot_[w];
      if (p.radius[i] + skin_ - (reference_position_[i] - plane.point).dot(plane.normal) > 0)
        plane_wall_.push_back(std::uint16_t(w));
    }
    plane_offset_[i + 1] = std::uint32_t(plane_wall_.size());
  }
  plane_lists_valid_ = true;
}

void ContactDetector::update(const ParticleStore& p, const std::vector<Wall>& walls, const CollisionSettings& settings,
                             std::vector<Contact>& contacts, bool pair_geometry) {
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
  old_walls_.assign(contacts.begin() + pairs, contacts.end());
  contacts.resize(pairs);
  if (needs_rebuild(p, settings)) {
    if (settings.periodic_axis >= 0) check_periodic(p, settings);  // at rebuilds only: O(N), serial
    rebuild_pairs(p, settings, contacts);
    plane_lists_valid_ = false;
  }
  if (!plane_lists_valid_ || !static_planes_unchanged(walls)) build_plane_lists(p, walls);

  // Narrow phase for the pair candidates, in place.
  if (pair_geometry)
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pair_count_, chunk_size), [&](const auto& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        Contact& c = contacts[k];
        sphere_sphere(p, settings, c);
        if (c.overlap <= 0) reset_history(c);  // separated: forget the history
      }
    });

  // Wall contacts: recomputed every step, keyed by particle id, wall and feature. Per chunk of
  // particles: static planes through their candidate lists, other planes for every particle, both
  // rejecting a particle with one dot product (the same expression as collide(PlaneShape), so the
  // decision is bit-identical to the full call); other shapes through collide_sphere.
  if (!walls.empty()) {
    const std::size_t n = p.size();
    const std::size_t nchunks = (n + chunk_size - 1) / chunk_size;
    std::vector<std::vector<Contact>> found(nchunks);
    tbb::parallel_for(std::size_t(0), nchunks, [&](std::size_t chunk) {
      std::vector<WallHit> hits;
      const std::size_t begin = chunk * chunk_size, end = std::min(n, begin + chunk_size);
      auto collide_one = [&](std::size_t i, std::size_t w) {
        hits.clear();
        collide_sphere(walls[w].shape, p.position[i], p.radius[i], 0.0, hits);
        for (const WallHit& h : hits) {
          if (h.overlap <= 0) continue;
          Contact& c = found[chunk].emplace_back();
          c.key = wall_key(p.id[i], std::uint16_t(w), h.feature);
          c.a = std::int32_t(i);
          c.b = -1 - std::int32_t(w);
          c.normal = h.normal;
          c.point = h.point;
          c.overlap = h.overlap;
          c.effective_radius = p.radius[i];
        }
      };
      for (std::size_t i = begin; i < end; ++i)
        for (std::uint32_t e = plane_offset_[i]; e < plane_offset_[i + 1]; ++e) {
          const PlaneShape& plane = plane_snapshot_[plane_wall_[e]];
          if (p.radius[i] - (p.position[i] - plane.point).dot(plane.normal) > 0) collide_one(i, plane_wall_[e]);
        }
      for (std::size_t w = 0; w < walls.size(); ++w) {
        if (plane_listed_[w]) continue;
        if (const PlaneShape* plane = std::get_if<PlaneShape>(&walls[w].shape)) {
          const Vec3 point = plane->point, normal = plane->normal;
          for (std::size_t i = begin; i < end; ++i)
            if (p.radius[i] - (p.position[i] - point).dot(normal) > 0) collide_one(i, w);
        } else {
          for (std::size_t i = begin; i < end; ++i) collide_one(i, w);
        }
      }
    });
    // Sorted by key straight into the tail of the list (an index sort: the records are large).
    struct Ref {
      std::uint64_t key;
      std::uint32_t chunk, index;
    };
    std::vector<Ref> order;
    for (std::size_t ch = 0; ch < nchunks; ++ch)
      for (std::size_t j = 0; j < found[ch].size(); ++j) order.push_back({found[ch][j].key, std::uint32_t(ch), std::uint32_t(j)});
    std::sort(order.begin(), order.end(), [](const Ref& x, const Ref& y) { return x.key < y.key; });
    contacts.resize(pair_count_ + order.size());
    for (std::size_t j = 0; j < order.size(); ++j) contacts[pair_count_ + j] = found[order[j].chunk][order[j].index];
    carry_history(old_walls_, std::span<Contact>(contacts).subspan(pair_count_));  // both sorted by key
  }
  stats_.candidates = pair_count_;
  stats_.wall_contacts = contacts.size() - pair_count_;
}

}  // namespace grainlab
