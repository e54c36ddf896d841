#pragma once
// Contact detection: broad phase (uniform cell grid with a Verlet skin) + narrow phase.
//
// The contact list holds particle-pair *candidates* (pairs closer than the skin at the last rebuild),
// sorted by key, followed by the wall contacts of this step. Candidate pairs persist between rebuilds,
// so their history stays in place; at a rebuild `carry_history` moves it to the new list by key. The
// grid is rebuilt when any particle has moved more than half the skin since the last rebuild (or the
// particle count changed). Touching means overlap > 0; candidates not touching have their history reset.
//
// Threading: grid build, candidate search, history carry, narrow phase and wall contacts are TBB
// parallel over fixed-size chunks whose results are written at offsets fixed by the chunk order, so
// the list is identical for any thread count. Buffers are kept between calls (no per-step allocation
// once sizes have settled).
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/contacts.hpp"
#include "core/error.hpp"
#include "core/particles.hpp"
#include "core/walls.hpp"

namespace grainlab {

struct CollisionSettings {
  double skin = 0.0;  ///< Verlet skin (m); 0: 10 % of the mean particle radius at the first update
  /// Periodic boundaries, each pair of faces on its own: along every axis k with periodic[k], pairs
  /// interact through their nearest image and World::wrap_periodic keeps positions in
  /// [periodic_lo[k], periodic_hi[k]) (checked at each candidate rebuild: period > 4 r_max).
  std::array<bool, 3> periodic{false, false, false};
  Vec3 periodic_lo = Vec3::Zero(), periodic_hi = Vec3::Zero();

  /// Makes axis k (0, 1, 2) periodic over [lo, hi).
  void set_periodic(int axis, double lo, double hi) {
    if (axis < 0 || axis > 2) throw InputError(fmt::format("periodic axis must be 0, 1 or 2 (got {})", axis));
    periodic[axis] = true;
    periodic_lo[axis] = lo;
    periodic_hi[axis] = hi;
  }
  bool any_periodic() const { return periodic[0] || periodic[1] || periodic[2]; }
  double period(int axis) const { return periodic_hi[axis] - periodic_lo[axis]; }
};

struct CollisionStats {
  std::uint64_t rebuilds = 0;
  std::size_t candidates = 0;
  std::size_t wall_contacts = 0;
};

/// Everything ContactDetector::update depends on besides its arguments; checkpoints save and restore
/// it so that the step after a restart is bitwise the step the original run takes.
struct DetectorState {
  bool valid = false;
  std::vector<Vec3> reference_position;  ///< positions at the last rebuild
  std::size_t pair_count = 0;
  double skin = 0;
  CollisionStats stats;
};

class ContactDetector {
 public:
  /// Updates `contacts` for the current positions (see file comment). Returns nothing; `pair_count()`
  /// tells where the wall contacts start. `model`, when given, is the contacts' model history: its kept
  /// columns are carried, reset and resized with the records.
  /// With `pair_geometry` false the pair candidates keep last step's geometry: the caller computes it
  /// (sphere_sphere) and resets the history of separated pairs itself, fused with its own pass over the
  /// pairs (the SDEM force kernel does; one pass over the contact list instead of two).
  /// `before_rebuild` runs before the candidates are rebuilt (World: bring deferred history into the records).
  /// `pair_history`, when given, receives at a rebuild each pair candidate's overlap and tangential spring
  /// as its record holds them (World: the SDEM stepper's deferred history, which then need not be read
  /// back from the records and the springs' column). With `pair_history_current` it also holds the previous
  /// candidates' (the records' lag behind), and the rebuild carries them from there.
  void update(const ParticleStore& particles, const std::vector<Wall>& walls, const CollisionSettings& settings,
              std::vector<Contact>& contacts, ModelHistory* model, bool pair_geometry = true,
              const std::function<void()>& before_rebuild = {}, std::vector<PairHistory>* pair_history = nullptr,
              bool pair_history_current = false);
  /// Particle indices a, b of pair candidate k at 2k and 2k + 1, as of the last rebuild (empty after
  /// restore() or take_pair_particles(): then only the records have them).
  const std::vector<std::int32_t>& pair_particles() const { return pair_particles_; }
  /// Moves pair_particles() out (the SDEM stepper keeps them until the next rebuild, so that they are
  /// not held twice); empty afterwards.
  std::vector<std::int32_t> take_pair_particles() { return std::exchange(pair_particles_, {}); }
  /// Particle index and wall index of wall contact e (list index pair_count() + e) at 2e and 2e + 1, as of
  /// the last update (empty after restore()).
  const std::vector<std::uint32_t>& wall_particles() const { return wall_particles_; }

  std::size_t pair_count() const { return pair_count_; }
  const CollisionStats& stats() const { return stats_; }
  /// Forces a rebuild at the next update (after particles were added, removed or teleported).
  void invalidate() { valid_ = false; }
  /// Heap bytes held by the detector's own buffers (by capacity), for memory reports.
  std::size_t memory_bytes() const {
    std::size_t bytes = reference_position_.capacity() * sizeof(Vec3) + pair_particles_.capacity() * sizeof(std::int32_t) +
                        wall_particles_.capacity() * sizeof(std::uint32_t) +
                        carried_.capacity() * sizeof(CarriedHistory) + old_walls_.capacity() * sizeof(Contact) +
                        carried_model_.memory_bytes() + old_wall_model_.memory_bytes() +
                        plane_offset_.capacity() * sizeof(std::uint32_t) + plane_wall_.capacity() * sizeof(std::uint16_t) +
                        plane_particle_.capacity() * sizeof(std::uint32_t) +
                        (id_order_.capacity() + cell_index_.capacity() + cell_start_.capacity() +
                         cell_fill_.capacity()) * sizeof(std::uint32_t) +
                        grid_.memory_bytes();
    for (const auto& v : pair_found_) bytes += v.capacity() * sizeof(CandidatePair);
    for (const auto& v : wall_found_) bytes += v.capacity() * sizeof(WallRecord);
    return bytes;
  }
  /// Copy of the detector state (for checkpoints).
  DetectorState state() const { return {valid_, reference_position_, pair_count_, skin_, stats_}; }
  /// Restores a state taken by state(); `contacts` must be the list that went with it.
  void restore(DetectorState s) {
    plane_lists_valid_ = false;
    pair_particles_.clear();
    wall_particles_.clear();
    valid_ = s.valid;
    reference_position_ = std::move(s.reference_position);
    pair_count_ = s.pair_count;
    skin_ = s.skin;
    stats_ = s.stats;
  }

 private:
  /// A candidate pair found at a rebuild: key and particle indices a < b.
  struct CandidatePair {
    std::uint64_t key;
    std::uint32_t a, b;
  };
  /// The particles in cell order, as columns (the candidate search tests four at a time), with
  /// `grid_pad` entries more that a search loads but never keeps.
  struct Grid {
    std::vector<double> x, y, z, r;
    std::vector<std::uint32_t> index, id;
    void resize(std::size_t n) {
      for (auto* v : {&x, &y, &z, &r}) v->resize(n);
      index.resize(n);
      id.resize(n);
    }
    std::size_t memory_bytes() const { return x.capacity() * 4 * sizeof(double) + index.capacity() * 2 * sizeof(std::uint32_t); }
  };
  static constexpr std::size_t grid_pad = 3;
  /// A touching wall contact found this step, before it is written into the list.
  struct WallRecord {
    std::uint64_t key;
    Vec3 normal, point;
    double overlap;
    double radius;  ///< the particle's (the contact's effective radius)
    std::uint32_t particle;
    std::uint16_t wall;
  };

  struct CellGrid;  ///< the cell grid of a rebuild (collision.cpp)
  /// Last step's wall contacts, sorted by key, and their model history (null without one; wall e's at
  /// index model_offset + e of its columns).
  struct OldWalls {
    std::span<const Contact> records;
    const ModelHistory* model = nullptr;
    std::size_t model_offset = 0;
  };

  // The candidate rebuild and its stages (collision.cpp).
  OldWalls rebuild_pairs(const ParticleStore& particles, const CollisionSettings& settings, std::vector<Contact>& contacts,
                         ModelHistory* model, std::size_t old_pairs, std::vector<PairHistory>* pair_history,
                         bool pair_history_current);
  OldWalls carry_aside(const std::vector<Contact>& contacts, const ModelHistory* model, std::size_t old_pairs,
                       const PairHistory* current_history);
  CellGrid grid_for(const ParticleStore& particles, const CollisionSettings& settings) const;
  void sort_into_cells(const ParticleStore& particles, const CellGrid& grid);
  void find_candidates(const ParticleStore& particles, const CollisionSettings& settings, const CellGrid& grid);
  void write_candidates(const ParticleStore& particles, std::vector<Contact>& contacts, ModelHistory* model,
                        std::size_t old_pairs, std::vector<PairHistory>* pair_history);
  // The wall contact search and its stages (collision.cpp).
  void find_wall_contacts(const ParticleStore& particles, const std::vector<Wall>& walls);
  bool scan_wall_chunk(const ParticleStore& particles, const std::vector<Wall>& walls, std::size_t begin,
                       std::size_t end, std::vector<WallRecord>& out) const;
  bool wall_chunks_in_key_order() const;
  void segment_wall_chunks();
  void sort_wall_records();
  void write_wall_contacts(std::vector<Contact>& contacts, ModelHistory* model, OldWalls old_tail,
                           bool tail_in_place);
  bool needs_rebuild(const ParticleStore& particles, const CollisionSettings& settings) const;
  bool static_planes_unchanged(const std::vector<Wall>& walls) const;
  void build_plane_lists(const ParticleStore& particles, const std::vector<Wall>& walls);

  bool valid_ = false;
  std::vector<Vec3> reference_position_;  ///< positions at the last rebuild
  std::size_t pair_count_ = 0;
  double skin_ = 0;
  CollisionStats stats_;
  // The previous candidates' keys and history at a rebuild (their records are overwritten by the new
  // list); between rebuilds outdated, its storage kept for the next.
  std::vector<CarriedHistory> carried_;
  ModelHistory carried_model_;  ///< their model history, when kept
  std::vector<std::int32_t> pair_particles_;  ///< pair_particles()
  std::vector<std::uint32_t> wall_particles_;  ///< wall_particles()
  std::vector<Contact> old_walls_;   ///< copy of last step's wall contacts when the set changed or at a rebuild (their history)
  ModelHistory old_wall_model_;  ///< their model history, when kept
  std::vector<std::uint32_t> id_order_;              ///< particle indices by increasing id (when ids are unsorted)
  std::vector<std::uint32_t> cell_index_, cell_start_, cell_fill_;  ///< grid of the last rebuild
  Grid grid_;                                        ///< particles by cell
  std::vector<std::vector<CandidatePair>> pair_found_;  ///< per particle chunk, at rebuilds
  std::vector<std::vector<WallRecord>> wall_found_;     ///< per particle chunk (or key-sorted slices), every step
  std::vector<WallRecord> wall_sorted_;              ///< all wall records by key, when chunks are not in key order
  std::vector<std::span<const WallRecord>> wall_segment_;  ///< the records in key order, in pieces
  std::vector<std::size_t> wall_offset_;             ///< where wall_segment_[s] starts in the tail
  std::vector<char> wall_chunk_sorted_;              ///< wall_found_[c] strictly increasing by key
  bool wall_keys_unique_ = true;                     ///< no two wall records of this step share a key
  std::vector<std::uint16_t> unlisted_walls_;        ///< walls not in the static plane lists, increasing
  // Static plane walls and their candidate particles (derived from reference_position_ and the walls;
  // rebuilt after a restore): walls plane_wall_[plane_offset_[i] .. plane_offset_[i+1]) for particle i.
  bool plane_lists_valid_ = false;
  std::vector<char> plane_listed_;
  std::vector<PlaneShape> plane_snapshot_;
  std::vector<std::uint32_t> plane_offset_;
  std::vector<std::uint16_t> plane_wall_;
  std::vector<std::uint32_t> plane_particle_;  ///< the particle of each plane_wall_ entry
};

/// a - b with the minimum-image convention along each periodic axis.
inline Vec3 periodic_delta(Vec3 d, const CollisionSettings& s) {
  for (int k = 0; k < 3; ++k)
    if (s.periodic[k]) {
      const double L = s.periodic_hi[k] - s.periodic_lo[k];
      d[k] -= L * std::round(d[k] / L);
    }
  return d;
}

/// Geometry of a particle pair: normal from b to a, overlap, contact point (middle of the overlap
/// region, measured from a) and R*.
struct PairGeometry {
  Vec3 normal;
  double overlap;
  Vec3 point;
  double effective_radius;

  void store(Contact& c) const {
    c.normal = normal;
    c.overlap = overlap;
    c.point = point;
    c.effective_radius = effective_radius;
  }
};

inline PairGeometry pair_geometry(const ParticleStore& p, const CollisionSettings& settings, int a, int b) {
  const Vec3 xa = p.position[a];
  const Vec3 d = periodic_delta(xa - p.position[b], settings);
  const double dist = d.norm();
  const double ra = p.radius[a], rb = p.radius[b];
  PairGeometry g;
  g.normal = dist > 0 ? Vec3((1.0 / dist) * d) : Vec3::UnitZ();
  g.overlap = ra + rb - dist;
  g.point = xa - (ra - 0.5 * g.overlap) * g.normal;
  g.effective_radius = ra * rb / (ra + rb);
  return g;
}

/// Writes the geometry of pair contact c (normal, overlap, point, R*) into c.
inline void sphere_sphere(const ParticleStore& p, const CollisionSettings& settings, Contact& c) {
  pair_geometry(p, settings, c.a, c.b).store(c);
}

/// Forgets what pair k remembers once it no longer touches (`model`: the list's model history, if any).
inline void reset_history(Contact& c, ModelHistory* model = nullptr, std::size_t k = 0) {
  c.age = 0;
  if (model) model->reset(k);
}

}  // namespace grainlab
