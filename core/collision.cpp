#include "core/collision.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <variant>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <fmt/format.h>

#include "core/buffer_growth.hpp"
#include "core/error.hpp"
#include "core/scheduling_policy.hpp"

namespace grainlab {

namespace {

constexpr std::size_t chunk_size = policy::detector_chunk;
constexpr std::size_t wall_chunk_size = policy::wall_chunk;

/// The minimum-image convention needs a period above 4 r_max: then a pair touches through one image
/// at most and no sphere touches its own image.
void check_periodic(const ParticleStore& p, const CollisionSettings& s) {
  double r_max = 0;
  for (double r : p.radius) r_max = std::max(r_max, r);
  for (int k = 0; k < 3; ++k) {
    if (!s.periodic[k]) continue;
    const double L = s.period(k);
    if (!(L > 0) || !std::isfinite(L))
      throw InputError(fmt::format("periodic interval [{}, {}) of axis {} must have periodic_hi > periodic_lo", s.periodic_lo[k],
                                   s.periodic_hi[k], k));
    if (L <= 4 * r_max)
      throw InputError(fmt::format("periodic interval length {} m of axis {} must exceed 4 x the largest radius ({} m)", L, k, 4 * r_max));
  }
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

// The cell grid of a rebuild: cells of at least 2 r_max + skin per side, so that every pair within reach
// lies in neighbouring cells; a periodic axis is divided into whole cells of its period.
struct ContactDetector::CellGrid {
  Vec3 lo;
  Eigen::Array3i dims;
  Eigen::Array3d size;
  std::array<bool, 3> periodic;

  Eigen::Array3i cell_of(const Vec3& x) const {
    Eigen::Array3i c;
    for (int k = 0; k < 3; ++k) {
      int ck = int(std::floor((x[k] - lo[k]) / size[k]));
      if (periodic[k]) ck = ((ck % dims[k]) + dims[k]) % dims[k];
      c[k] = std::clamp(ck, 0, dims[k] - 1);
    }
    return c;
  }
  std::size_t linear(int x, int y, int z) const {
    return std::size_t(x) + dims[0] * (std::size_t(y) + dims[1] * std::size_t(z));
  }
  std::size_t cells() const { return std::size_t(dims[0]) * dims[1] * dims[2]; }
  // Neighbouring cell coordinates along axis k of cell coordinate c, each once: a periodic axis wraps
  // (with fewer than 3 cells, -1 and +1 would reach the same cell), another axis stops at the grid edge.
  int neighbours(int k, int c, int (&out)[3]) const {
    int m = 0;
    if (periodic[k]) {  // ascending
      const int d = dims[k];
      if (d < 3) {
        for (int x = 0; x < d; ++x) out[m++] = x;
      } else {
        if (c == d - 1) out[m++] = 0;
        if (c > 0) out[m++] = c - 1;
        out[m++] = c;
        if (c + 1 < d) out[m++] = c + 1;
        if (c == 0) out[m++] = d - 1;
      }
    } else {
      if (c > 0) out[m++] = c - 1;
      out[m++] = c;
      if (c + 1 < dims[k]) out[m++] = c + 1;
    }
    return m;
  }
};

// Rebuild of the candidate list (at most every few steps), in three stages:
//  1. sort_into_cells: counting sort of the particles by cell (grid_for);
//  2. find_candidates: per particle i, in increasing id order, over its own and all 26 neighbouring
//     cells, the partners j with id[j] > id[i] within reach |x_i - x_j| <= r_i + r_j + skin; each
//     particle's few partners are sorted by id, so the chunks come out in key order and no global sort
//     is needed (the reach test is symmetric in i and j bit for bit, so the set is the one the former
//     half-stencil search found);
//  3. write_candidates: the list at per-chunk offsets, each new candidate taking the history of the
//     previous candidate with its key (merge against the previous list, which is sorted by key).
// Reads positions, radii and ids; writes `contacts` (candidates only; the caller appends the wall
// contacts) over the previous list, whose history carry_aside copies first. Returns last step's wall
// contacts, copied aside (the caller carries the wall history from them). Parallel over fixed particle
// chunks; the result does not depend on the thread count.
ContactDetector::OldWalls ContactDetector::rebuild_pairs(const ParticleStore& p, const CollisionSettings& settings,
                                                         std::vector<Contact>& contacts, ModelHistory* model,
                                                         std::size_t old_pairs, std::vector<PairHistory>* pair_history,
                                                         bool pair_history_current) {
  ++stats_.rebuilds;
  reference_position_ = p.position;
  valid_ = true;
  const PairHistory* current_history =
      pair_history && pair_history_current && pair_history->size() >= old_pairs ? pair_history->data() : nullptr;
  const OldWalls old_tail = carry_aside(contacts, model, old_pairs, current_history);
  if (p.size() == 0) {
    contacts.clear();
    if (model) model->each([](auto& column) { column.clear(); });
    pair_particles_.clear();
    if (pair_history) pair_history->clear();
    pair_count_ = 0;
    return old_tail;
  }
  const CellGrid grid = grid_for(p, settings);
  sort_into_cells(p, grid);
  find_candidates(p, settings, grid);
  write_candidates(p, contacts, model, old_pairs, pair_history);
  return old_tail;
}

// The new list is written over the old one: the previous candidates' keys and history go to carried_
// (24 of their 112 bytes; their model history to carried_model_) and the wall tail to old_walls_ first.
// With `current_history` (the pair history, where the records lag behind) their overlap and tangential
// spring come from there, so that the pair history can be written over in place too. Returns the copied
// tail.
ContactDetector::OldWalls ContactDetector::carry_aside(const std::vector<Contact>& contacts, const ModelHistory* model,
                                                       std::size_t old_pairs, const PairHistory* current_history) {
  resize_with_headroom(carried_, old_pairs);
  const std::size_t tail = contacts.size() - old_pairs;
  if (old_walls_.size() < tail) old_walls_.resize(tail);
  if (model) {
    for (ModelHistory* h : {&carried_model_, &old_wall_model_})
      h->keep_as(*model);
    carried_model_.each([&](auto& column) { resize_with_headroom(column, old_pairs); });
    old_wall_model_.each([&](auto& column) {
      if (column.size() < tail) column.resize(tail);
    });
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, contacts.size(), chunk_size), [&](const auto& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k)
      if (k < old_pairs) {
        carried_[k] = CarriedHistory(contacts[k]);
        if (current_history) carried_[k].overlap = current_history[k].overlap;
      } else
        old_walls_[k - old_pairs] = contacts[k];
    if (model) {
      const std::size_t split = std::clamp(old_pairs, r.begin(), r.end());
      ModelHistory::zip(carried_model_, *model, [&](auto& to, const auto& from) {
        std::copy(from.begin() + std::ptrdiff_t(r.begin()), from.begin() + std::ptrdiff_t(split), to.begin() + std::ptrdiff_t(r.begin()));
      });
      if (current_history && carried_model_.tangential_springs_kept)
        for (std::size_t k = r.begin(); k < split; ++k)
          carried_model_.tangential_springs[k].elongation = current_history[k].tangential_spring;
      if (split < r.end())
        ModelHistory::zip(old_wall_model_, *model, [&](auto& to, const auto& from) {
          std::copy(from.begin() + std::ptrdiff_t(split), from.begin() + std::ptrdiff_t(r.end()),
                    to.begin() + std::ptrdiff_t(split - old_pairs));
        });
    }
  });
  return {{old_walls_.data(), tail}, model ? &old_wall_model_ : nullptr, 0};
}

ContactDetector::CellGrid ContactDetector::grid_for(const ParticleStore& p, const CollisionSettings& settings) const {
  const std::size_t n = p.size();
  CellGrid g;
  for (int k = 0; k < 3; ++k) g.periodic[k] = settings.periodic[k];
  Vec3 hi = p.position[0];
  g.lo = p.position[0];
  double r_max = 0;
  for (std::size_t i = 0; i < n; ++i) {
    g.lo = g.lo.cwiseMin(p.position[i]);
    hi = hi.cwiseMax(p.position[i]);
    r_max = std::max(r_max, p.radius[i]);
  }
  const double cell = 2 * r_max + skin_;
  for (int k = 0; k < 3; ++k) {
    if (settings.periodic[k]) {
      g.lo[k] = settings.periodic_lo[k];
      const int m = int(std::floor(settings.period(k) / cell));
      g.dims[k] = std::max(m, 1);
    } else {
      g.dims[k] = std::max(1, int((hi[k] - g.lo[k]) / cell) + 1);
    }
  }
  // Guard against absurd grids (a stray particle far away, a dilute periodic box): at most a few cells per
  // particle. Open axes shrink first; periodic ones only when no open axis has more than one cell left
  // (fewer, larger cells of a period stay at least `cell` wide).
  const double cap = policy::grid_cells_per_particle * double(n) + policy::grid_cells_floor;
  while (double(g.dims[0]) * g.dims[1] * g.dims[2] > cap) {
    bool open_left = false;
    for (int k = 0; k < 3; ++k)
      if (!settings.periodic[k]) {
        open_left = open_left || g.dims[k] > 1;
        g.dims[k] = std::max(1, (g.dims[k] + 1) / 2);
      }
    if (!open_left)
      for (int k = 0; k < 3; ++k)
        if (settings.periodic[k]) g.dims[k] = std::max(1, g.dims[k] / 2);
  }
  for (int k = 0; k < 3; ++k) {
    const double extent = settings.periodic[k] ? settings.period(k) : hi[k] - g.lo[k];
    g.size[k] = settings.periodic[k] ? extent / g.dims[k] : std::max(cell, extent / g.dims[k] * (1 + 1e-9));
  }
  return g;
}

// Counting sort of particle indices by cell; positions, radii and ids copied in cell order so that
// the search streams contiguous memory.
void ContactDetector::sort_into_cells(const ParticleStore& p, const CellGrid& g) {
  const std::size_t n = p.size();
  cell_index_.resize(n);
  cell_start_.assign(g.cells() + 1, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, chunk_size), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const Eigen::Array3i c = g.cell_of(p.position[i]);
      cell_index_[i] = std::uint32_t(g.linear(c[0], c[1], c[2]));
    }
  });
  for (std::size_t i = 0; i < n; ++i) ++cell_start_[cell_index_[i] + 1];
  std::partial_sum(cell_start_.begin(), cell_start_.end(), cell_start_.begin());
  grid_.resize(n + grid_pad);
  cell_fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t t = cell_fill_[cell_index_[i]]++;
    grid_.x[t] = p.position[i].x(), grid_.y[t] = p.position[i].y(), grid_.z[t] = p.position[i].z();
    grid_.r[t] = p.radius[i], grid_.index[t] = std::uint32_t(i), grid_.id[t] = p.id[i];
  }
}

// The candidates of each particle chunk into pair_found_[chunk], in key order.
void ContactDetector::find_candidates(const ParticleStore& p, const CollisionSettings& settings, const CellGrid& g) {
  const std::size_t n = p.size();
  // Particles in increasing id order: the index order unless ids were permuted.
  const bool ids_sorted = std::is_sorted(p.id.begin(), p.id.end());
  if (!ids_sorted) {
    id_order_.resize(n);
    std::iota(id_order_.begin(), id_order_.end(), 0u);
    std::sort(id_order_.begin(), id_order_.end(), [&](std::uint32_t x, std::uint32_t y) { return p.id[x] < p.id[y]; });
  }
  const Grid& grid = grid_;
  const std::vector<std::uint32_t>& start = cell_start_;
  const double skin = skin_;
  const std::size_t nchunks = (n + chunk_size - 1) / chunk_size;
  pair_found_.resize(nchunks);
  tbb::parallel_for(std::size_t(0), nchunks, [&](std::size_t chunk) {
    std::vector<CandidatePair>& out = pair_found_[chunk];
    out.clear();
    std::vector<std::uint32_t> found;
    const std::size_t end = std::min(n, (chunk + 1) * chunk_size);
    for (std::size_t q = chunk * chunk_size; q < end; ++q) {
      const std::uint32_t i = ids_sorted ? std::uint32_t(q) : id_order_[q];
      const Vec3 xi = p.position[i];
      const double ri = p.radius[i];
      const std::uint32_t id = p.id[i];
      const std::size_t lc = cell_index_[i];
      const int c[3] = {int(lc % g.dims[0]), int(lc / g.dims[0] % g.dims[1]), int(lc / (std::size_t(g.dims[0]) * g.dims[1]))};
      int nx[3], ny[3], nz[3];
      const int mx = g.neighbours(0, c[0], nx), my = g.neighbours(1, c[1], ny), mz = g.neighbours(2, c[2], nz);
      const bool x_run = nx[mx - 1] - nx[0] == mx - 1;  // the x neighbours are adjacent cells: one range
      // The cell ranges to scan (the x neighbours of a row are adjacent cells: one range).
      std::uint32_t range[27][2];
      int nr = 0;
      std::size_t length = 0;
      for (int a = 0; a < mz; ++a)
        for (int b = 0; b < my; ++b) {
          if (x_run) {
            range[nr][0] = start[g.linear(nx[0], ny[b], nz[a])];
            range[nr][1] = start[g.linear(nx[mx - 1], ny[b], nz[a]) + 1];
            length += range[nr][1] - range[nr][0];
            ++nr;
          } else {
            for (int e = 0; e < mx; ++e, ++nr) {
              const std::size_t lj = g.linear(nx[e], ny[b], nz[a]);
              range[nr][0] = start[lj];
              range[nr][1] = start[lj + 1];
              length += range[nr][1] - range[nr][0];
            }
          }
        }
      // Partners found from the smaller id, as grid entries. Every entry is written and kept by
      // advancing the count (no branch: the partner test would be a coin flip for the branch predictor).
      if (found.size() < length + grid_pad + 1) found.resize(length + grid_pad + 1);
      std::size_t kept = 0;
      if (settings.any_periodic()) {
        for (int r = 0; r < nr; ++r)
          for (std::uint32_t t = range[r][0]; t < range[r][1]; ++t) {
            const Vec3 d = periodic_delta(xi - Vec3(grid.x[t], grid.y[t], grid.z[t]), settings);
            const double reach = ri + grid.r[t] + skin;
            found[kept] = t;
            kept += (grid.id[t] > id) & !(d.squaredNorm() > reach * reach);
          }
      } else {  // four entries at a time (a range's last group masked by lane)
        using V = double __attribute__((vector_size(32)));
        using M = long long __attribute__((vector_size(32)));
        const V x0 = V{} + xi.x(), y0 = V{} + xi.y(), z0 = V{} + xi.z(), reach0 = V{} + (ri + skin);
        const M lane{0, 1, 2, 3};
        for (int r = 0; r < nr; ++r)
          for (std::uint32_t t = range[r][0]; t < range[r][1]; t += 4) {
            V gx, gy, gz, gr;
            std::memcpy(&gx, &grid.x[t], sizeof gx);
            std::memcpy(&gy, &grid.y[t], sizeof gy);
            std::memcpy(&gz, &grid.z[t], sizeof gz);
            std::memcpy(&gr, &grid.r[t], sizeof gr);
            const V dx = x0 - gx, dy = y0 - gy, dz = z0 - gz, reach = reach0 + gr;
            const M later{grid.id[t], grid.id[t + 1], grid.id[t + 2], grid.id[t + 3]};
            const M keep = ~(dx * dx + dy * dy + dz * dz > reach * reach) & (later > (long long)id) &
                           (lane < (long long)(range[r][1] - t));
            for (int l = 0; l < 4; ++l) {
              found[kept] = t + std::uint32_t(l);
              kept += std::size_t(keep[l] & 1);
            }
          }
      }
      const std::size_t first = out.size();
      out.resize(first + kept);
      for (std::size_t m = 0; m < kept; ++m) {
        const std::uint32_t j = grid.index[found[m]];
        out[first + m] = {(std::uint64_t(id) << 32) | grid.id[found[m]], std::min(i, j), std::max(i, j)};  // pair_key
      }
      // This particle's partners by key (insertion sort: a handful of entries).
      for (std::size_t u = first + 1; u < out.size(); ++u) {
        const CandidatePair x = out[u];
        std::size_t v = u;
        for (; v > first && out[v - 1].key > x.key; --v) out[v] = out[v - 1];
        out[v] = x;
      }
    }
  });
}

// The new list at per-chunk offsets, with the history of the previous candidates carried by key.
void ContactDetector::write_candidates(const ParticleStore& p, std::vector<Contact>& contacts, ModelHistory* model,
                                       std::size_t old_pairs, std::vector<PairHistory>* pair_history) {
  const std::size_t nchunks = pair_found_.size();
  std::vector<std::size_t> offset(nchunks + 1, 0);
  for (std::size_t ch = 0; ch < nchunks; ++ch) offset[ch + 1] = offset[ch] + pair_found_[ch].size();
  const std::size_t total = offset[nchunks];
  if (contacts.size() < total) resize_with_headroom(contacts, total);  // the tail is set by the caller
  if (model)
    model->each([&](auto& column) {
      if (column.size() < total) resize_with_headroom(column, total);
    });
  resize_with_headroom(pair_particles_, 2 * total);
  if (pair_history) resize_with_headroom(*pair_history, total);
  const std::span<const CarriedHistory> old(carried_.data(), old_pairs);
  tbb::parallel_for(std::size_t(0), nchunks, [&](std::size_t chunk) {
    const std::vector<CandidatePair>& found = pair_found_[chunk];
    if (found.empty()) return;
    auto first_not_less = [](const CarriedHistory& c, std::uint64_t key) { return c.key < key; };
    std::size_t j = std::size_t(std::lower_bound(old.begin(), old.end(), found[0].key, first_not_less) - old.begin());
    for (std::size_t m = 0; m < found.size(); ++m) {
      const CandidatePair& f = found[m];
      Contact c;
      c.key = f.key;
      c.a = std::int32_t(f.a);
      c.b = std::int32_t(f.b);
      c.effective_radius = p.radius[c.a] * p.radius[c.b] / (p.radius[c.a] + p.radius[c.b]);  // constant per pair
      // The overlap of the last geometry pass for a carried pair, zero (not touching) for a new one:
      // the SDEM kernel resets the history of a pair that touched last step and no longer does, and a
      // new pair has none (a narrow phase with pair geometry recomputes it anyway).
      c.overlap = 0;
      const std::size_t k = offset[chunk] + m;
      while (j < old.size() && old[j].key < f.key) ++j;
      const bool carried = j < old.size() && old[j].key == f.key;
      if (model)
        ModelHistory::zip(*model, carried_model_, [&](auto& to, const auto& from) {
          to[k] = carried ? from[j] : std::decay_t<decltype(from[j])>{};
        });
      if (carried) {
        take_history(c, old[j]);  // as carry_history
        c.overlap = old[j].overlap;
      }
      contacts[k] = c;
      pair_particles_[2 * k] = c.a, pair_particles_[2 * k + 1] = c.b;
      if (pair_history)
        (*pair_history)[k] = {c.overlap, model && model->tangential_springs_kept ? model->tangential_springs[k].elongation : Vec3::Zero()};
    }
  });
  pair_count_ = total;
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

// Static plane lists, parallel over particle chunks: a counting pass, an offset pass, a filling pass.
void ContactDetector::build_plane_lists(const ParticleStore& p, const std::vector<Wall>& walls) {
  const std::size_t n = p.size(), nw = walls.size();
  plane_listed_.assign(nw, 0);
  plane_snapshot_.assign(nw, PlaneShape{});
  unlisted_walls_.clear();
  for (std::size_t w = 0; w < nw; ++w) {
    if (const PlaneShape* plane = std::get_if<PlaneShape>(&walls[w].shape))
      if (walls[w].velocity.isZero(0) && walls[w].angular_velocity.isZero(0)) {
        plane_listed_[w] = 1;
        plane_snapshot_[w] = *plane;
      }
    if (!plane_listed_[w]) unlisted_walls_.push_back(std::uint16_t(w));
  }
  auto within_reach = [&](std::size_t i, std::size_t w) {
    const PlaneShape& plane = plane_snapshot_[w];
    return plane_listed_[w] && p.radius[i] + skin_ - (reference_position_[i] - plane.point).dot(plane.normal) > 0;
  };
  plane_offset_.assign(n + 1, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, chunk_size), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i)
      for (std::size_t w = 0; w < nw; ++w) plane_offset_[i + 1] += within_reach(i, w);
  });
  for (std::size_t i = 0; i < n; ++i) plane_offset_[i + 1] += plane_offset_[i];
  plane_wall_.resize(plane_offset_[n]);
  plane_particle_.resize(plane_offset_[n]);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, chunk_size), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      std::uint32_t e = plane_offset_[i];
      for (std::size_t w = 0; w < nw; ++w)
        if (within_reach(i, w)) {
          plane_particle_[e] = std::uint32_t(i);
          plane_wall_[e++] = std::uint16_t(w);
        }
    }
  });
  plane_lists_valid_ = true;
}

// Touching wall contacts of this step as compact records, parallel over fixed chunks, particle by
// particle and wall by wall (increasing index): static planes through their candidate lists, other
// planes for every particle, both rejecting a particle with one dot product (the same expression as
// collide(PlaneShape), so the decision is bit-identical to the full call); other shapes through
// collide_sphere. With ids increasing along the particles (the usual case) the chunks come out in key
// order; otherwise (permuted ids, or a shape listing its features out of order) the records are sorted
// by key (stable sort). Result: wall_segment_ = the records in key order, wall_offset_ = where each
// segment starts in the tail.
void ContactDetector::find_wall_contacts(const ParticleStore& p, const std::vector<Wall>& walls) {
  const std::size_t n = p.size();
  // Only static planes (the usual case): fixed chunks of the (particle, plane) candidate entries, in
  // particle order. Otherwise fixed chunks of particles.
  const std::size_t nu = unlisted_walls_.size();
  const std::size_t items = nu == 0 ? plane_wall_.size() : n;
  // A bed has a few thousand entries: chunks of 256 let two threads share them evenly.
  const std::size_t chunk = nu == 0 ? wall_chunk_size : chunk_size;
  const std::size_t nchunks = (items + chunk - 1) / chunk;
  wall_found_.resize(nchunks);
  wall_chunk_sorted_.assign(nchunks, 1);
  tbb::parallel_for(std::size_t(0), nchunks, [&](std::size_t c) {
    const std::size_t begin = c * chunk, end = std::min(items, begin + chunk);
    wall_chunk_sorted_[c] = scan_wall_chunk(p, walls, begin, end, wall_found_[c]);
  });
  const bool in_order = wall_chunks_in_key_order();
  wall_segment_.clear();
  wall_offset_.assign(1, 0);
  wall_keys_unique_ = in_order;  // strictly increasing
  if (in_order)
    segment_wall_chunks();
  else
    sort_wall_records();
}

// The touching wall records of items [begin, end) into `out`: candidate entries when every wall is a
// listed static plane, otherwise particles (each against the listed and unlisted walls merged by wall
// index). Returns whether `out` is strictly increasing by key.
bool ContactDetector::scan_wall_chunk(const ParticleStore& p, const std::vector<Wall>& walls, std::size_t begin,
                                      std::size_t end, std::vector<WallRecord>& out) const {
  out.clear();
  std::vector<WallHit> hits;
  bool in_order = true;
  auto keep_hits = [&](std::size_t i, std::uint16_t w) {
    for (const WallHit& h : hits) {
      if (h.overlap <= 0) continue;
      const std::uint64_t key = wall_key(p.id[i], w, h.feature);
      if (!out.empty() && out.back().key >= key) in_order = false;
      out.push_back({key, h.normal, h.point, h.overlap, p.radius[i], std::uint32_t(i), w});
    }
  };
  auto collide_one = [&](std::size_t i, std::uint16_t w) {
    hits.clear();
    collide_sphere(walls[w].shape, p.position[i], p.radius[i], 0.0, hits);
    keep_hits(i, w);
  };
  auto unlisted = [&](std::size_t i, std::uint16_t w) {
    if (const PlaneShape* plane = std::get_if<PlaneShape>(&walls[w].shape)) {
      const Vec3 point = plane->point, normal = plane->normal;
      if (!(p.radius[i] - (p.position[i] - point).dot(normal) > 0)) return;
    }
    collide_one(i, w);
  };
  auto listed = [&](std::size_t i, std::uint16_t w) {
    const PlaneShape& plane = plane_snapshot_[w];  // bitwise the wall's shape (static_planes_unchanged)
    if (!(p.radius[i] - (p.position[i] - plane.point).dot(plane.normal) > 0)) return;
    hits.clear();
    collide(plane, p.position[i], p.radius[i], 0.0, hits);  // as collide_sphere, without the dispatch
    keep_hits(i, w);
  };
  const std::size_t nu = unlisted_walls_.size();
  if (nu == 0) {
    // The particles next to a wall are scattered over the store: ask for their radius and position a
    // few entries ahead (the loads would otherwise wait on memory one at a time).
    constexpr std::size_t ahead = policy::wall_prefetch_ahead;
    for (std::size_t e = begin; e < end; ++e) {
      if (e + ahead < end) {
        const std::uint32_t i = plane_particle_[e + ahead];
        __builtin_prefetch(&p.radius[i]), __builtin_prefetch(&p.position[i]);
      }
      listed(plane_particle_[e], plane_wall_[e]);
    }
  } else {
    for (std::size_t i = begin; i < end; ++i) {  // the two wall lists merged by wall index
      std::uint32_t e = plane_offset_[i];
      const std::uint32_t e_end = plane_offset_[i + 1];
      std::size_t u = 0;
      while (e < e_end || u < nu) {
        if (u < nu && (e == e_end || unlisted_walls_[u] < plane_wall_[e]))
          unlisted(i, unlisted_walls_[u++]);
        else
          listed(i, plane_wall_[e++]);
      }
    }
  }
  return in_order;
}

// Whether the chunks, each strictly increasing by key, follow one another in key order.
bool ContactDetector::wall_chunks_in_key_order() const {
  bool in_order = true;
  const WallRecord* last = nullptr;
  for (std::size_t ch = 0; ch < wall_found_.size() && in_order; ++ch) {
    in_order = wall_chunk_sorted_[ch];
    if (wall_found_[ch].empty()) continue;
    if (last && last->key >= wall_found_[ch].front().key) in_order = false;
    last = &wall_found_[ch].back();
  }
  return in_order;
}

// Chunks already in key order: one segment per non-empty chunk, in place.
void ContactDetector::segment_wall_chunks() {
  for (const auto& f : wall_found_)
    if (!f.empty()) {
      wall_segment_.emplace_back(f);
      wall_offset_.push_back(wall_offset_.back() + f.size());
    }
}

// Otherwise: all records stably sorted by key into wall_sorted_, cut into segments of wall_chunk_size;
// wall_keys_unique_ from the sorted keys.
void ContactDetector::sort_wall_records() {
  wall_sorted_.clear();
  for (const auto& f : wall_found_) wall_sorted_.insert(wall_sorted_.end(), f.begin(), f.end());
  std::stable_sort(wall_sorted_.begin(), wall_sorted_.end(), [](const WallRecord& x, const WallRecord& y) { return x.key < y.key; });
  for (std::size_t k = 0; k < wall_sorted_.size(); k += wall_chunk_size) {
    const std::size_t m = std::min(wall_chunk_size, wall_sorted_.size() - k);
    wall_segment_.emplace_back(wall_sorted_.data() + k, m);
    wall_offset_.push_back(k + m);
  }
  wall_keys_unique_ = std::adjacent_find(wall_sorted_.begin(), wall_sorted_.end(), [](const WallRecord& x, const WallRecord& y) {
                        return x.key == y.key;
                      }) == wall_sorted_.end();
}

// Writes the wall records into the tail of the list, each taking the history of last step's wall
// contact with its key (`old_tail`, sorted by key), as carry_history does. When the keys are the ones
// of last step, position for position (the common case in a resting bed), the contacts are updated in
// place: geometry overwritten, force cleared, age incremented, history left where it is. Otherwise a
// fresh contact is written for each record (the old tail first copied aside when it lies in the list).
// Parallel over the segments; each writes its own range of the tail.
void ContactDetector::write_wall_contacts(std::vector<Contact>& contacts, ModelHistory* model,
                                          OldWalls old, bool tail_in_place) {
  std::span<const Contact> old_tail = old.records;
  const std::size_t m = wall_offset_.back(), nseg = wall_segment_.size();
  const std::size_t base = pair_count_;
  wall_particles_.resize(2 * m);
  auto note_particle = [&](std::size_t e, const WallRecord& w) {
    wall_particles_[2 * e] = w.particle;
    wall_particles_[2 * e + 1] = w.wall;
  };
  if (tail_in_place && wall_keys_unique_ && old_tail.size() == m) {
    const bool same_keys = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, nseg, 1), true,
        [&](const tbb::blocked_range<std::size_t>& r, bool same) {
          for (std::size_t s = r.begin(); s != r.end() && same; ++s) {
            const Contact* c = contacts.data() + base + wall_offset_[s];
            for (const WallRecord& w : wall_segment_[s]) same = same && (c++)->key == w.key;
          }
          return same;
        },
        [](bool x, bool y) { return x && y; });
    if (same_keys) {
      tbb::parallel_for(std::size_t(0), nseg, [&](std::size_t s) {
        Contact* c = contacts.data() + base + wall_offset_[s];
        std::size_t e = wall_offset_[s];
        for (const WallRecord& w : wall_segment_[s]) {
          c->a = std::int32_t(w.particle);
          c->b = -1 - std::int32_t(w.wall);
          c->normal = w.normal;
          c->point = w.point;
          c->overlap = w.overlap;
          c->effective_radius = w.radius;
          c->force.setZero();
          ++c->age;
          ++c;
          note_particle(e++, w);
        }
      });
      return;
    }
  }
  if (tail_in_place) {  // the old tail is about to be overwritten: keep a copy for its history
    if (old_walls_.size() < old_tail.size()) old_walls_.resize(old_tail.size());
    if (model) {
      old_wall_model_.keep_as(*model);
      old_wall_model_.each([&](auto& column) {
        if (column.size() < old_tail.size()) column.resize(old_tail.size());
      });
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, old_tail.size(), wall_chunk_size), [&](const auto& r) {
      std::copy(old_tail.begin() + r.begin(), old_tail.begin() + r.end(), old_walls_.begin() + r.begin());
      if (model)
        ModelHistory::zip(old_wall_model_, *old.model, [&](auto& to, const auto& from) {
          const auto first = from.begin() + std::ptrdiff_t(old.model_offset);
          std::copy(first + std::ptrdiff_t(r.begin()), first + std::ptrdiff_t(r.end()), to.begin() + std::ptrdiff_t(r.begin()));
        });
    });
    old_tail = std::span<const Contact>(old_walls_.data(), old_tail.size());
    if (model) old.model = &old_wall_model_, old.model_offset = 0;
  }
  resize_with_headroom(contacts, base + m);
  if (model) model->each([&](auto& column) { resize_with_headroom(column, base + m); });
  tbb::parallel_for(std::size_t(0), nseg, [&](std::size_t s) {
    const std::span<const WallRecord> records = wall_segment_[s];
    auto first_not_less = [](const Contact& c, std::uint64_t key) { return c.key < key; };
    std::size_t j = std::size_t(std::lower_bound(old_tail.begin(), old_tail.end(), records[0].key, first_not_less) - old_tail.begin());
    Contact* out = contacts.data() + base + wall_offset_[s];
    std::size_t e = wall_offset_[s];
    for (const WallRecord& w : records) {
      note_particle(e++, w);
      Contact c;
      c.key = w.key;
      c.a = std::int32_t(w.particle);
      c.b = -1 - std::int32_t(w.wall);
      c.normal = w.normal;
      c.point = w.point;
      c.overlap = w.overlap;
      c.effective_radius = w.radius;
      while (j < old_tail.size() && old_tail[j].key < w.key) ++j;
      const bool carried = j < old_tail.size() && old_tail[j].key == w.key;
      if (carried) take_history(c, old_tail[j]);  // as carry_history
      if (model)
        ModelHistory::zip(*model, *old.model, [&](auto& to, const auto& from) {
          to[base + e - 1] = carried ? from[old.model_offset + j] : std::decay_t<decltype(from[j])>{};
        });
      *out++ = c;
    }
  });
}

void ContactDetector::update(const ParticleStore& p, const std::vector<Wall>& walls, const CollisionSettings& settings,
                             std::vector<Contact>& contacts, ModelHistory* model, bool pair_geometry,
                             const std::function<void()>& before_rebuild, std::vector<PairHistory>* pair_history,
                             bool pair_history_current) {
  // Default skin: 10 % of the mean radius.
  if (settings.skin > 0) {
    skin_ = settings.skin;
  } else if (skin_ == 0 && p.size() > 0) {
    double r = 0;
    for (double x : p.radius) r += x;
    skin_ = 0.1 * r / double(p.size());
  }
  const bool rebuild = needs_rebuild(p, settings) || contacts.size() < pair_count_;
  if (rebuild && before_rebuild) before_rebuild();
  if (model)
    model->each([&](const auto& column) {
      if (column.size() != contacts.size())
        throw std::logic_error("ContactDetector::update: the model history is not parallel to the contacts");
    });
  if (contacts.size() < pair_count_) valid_ = false;  // not the list that went with this detector
  const std::size_t old_pairs = std::min(pair_count_, contacts.size());
  OldWalls old_tail;  // last step's wall contacts
  if (rebuild) {
    if (settings.any_periodic()) check_periodic(p, settings);  // at rebuilds only: O(N), serial
    old_tail = rebuild_pairs(p, settings, contacts, model, old_pairs, pair_history, pair_history_current);
    plane_lists_valid_ = false;
  } else {
    old_tail.records = std::span<const Contact>(contacts).subspan(old_pairs);
    if (model) old_tail.model = model, old_tail.model_offset = old_pairs;
  }
  if (!plane_lists_valid_ || !static_planes_unchanged(walls)) build_plane_lists(p, walls);

  // Narrow phase for the pair candidates, in place.
  if (pair_geometry)
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pair_count_, chunk_size), [&](const auto& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        Contact& c = contacts[k];
        sphere_sphere(p, settings, c);
        if (c.overlap <= 0) reset_history(c, model, k);  // separated: forget the history
      }
    });

  // Wall contacts: recomputed every step, keyed by particle id, wall and feature; history from last
  // step's wall contacts (the tail of the previous list).
  if (walls.empty() || p.size() == 0) {
    contacts.resize(pair_count_);
    if (model) model->each([&](auto& column) { column.resize(pair_count_); });
    wall_particles_.clear();
  } else {
    find_wall_contacts(p, walls);
    write_wall_contacts(contacts, model, old_tail, !rebuild);
  }
  stats_.candidates = pair_count_;
  stats_.wall_contacts = contacts.size() - pair_count_;
}

}  // namespace grainlab
