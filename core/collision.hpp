#pragma once
// Contact detection: broad phase (uniform cell grid with a Verlet skin) + narrow phase.
//
// The contact list holds particle-pair *candidates* (pairs closer than the skin at the last rebuild),
// sorted by key, followed by the wall contacts of this step. Candidate pairs persist between rebuilds,
// so their history stays in place; at a rebuild `carry_history` moves it to the new list by key. The
// grid is rebuilt when any particle has moved more than half the skin since the last rebuild (or the
// particle count changed). Touching means overlap > 0; candidates not touching have their history reset.
//
// Threading: grid build and narrow phase are TBB parallel over fixed-size chunks whose results are
// concatenated in chunk order, so the list is identical for any thread count.
#include <cstdint>
#include <vector>

#include "core/contacts.hpp"
#include "core/particles.hpp"
#include "core/walls.hpp"

namespace grainlab {

struct CollisionSettings {
  double skin = 0.0;  ///< Verlet skin (m); 0: 10 % of the mean particle radius at the first update
  int periodic_axis = -1;  ///< -1: none; 0,1,2: particles wrap across [periodic_lo, periodic_hi)
  double periodic_lo = 0.0, periodic_hi = 0.0;
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
  /// tells where the wall contacts start.
  void update(const ParticleStore& particles, const std::vector<Wall>& walls, const CollisionSettings& settings,
              std::vector<Contact>& contacts);

  std::size_t pair_count() const { return pair_count_; }
  const CollisionStats& stats() const { return stats_; }
  /// Forces a rebuild at the next update (after particles were added, removed or teleported).
  void invalidate() { valid_ = false; }
  /// Heap bytes held by the detector's own buffers (by capacity), for memory reports.
  std::size_t memory_bytes() const {
    return reference_position_.capacity() * sizeof(Vec3) + scratch_.capacity() * sizeof(Contact);
  }
  /// Copy of the detector state (for checkpoints).
  DetectorState state() const { return {valid_, reference_position_, pair_count_, skin_, stats_}; }
  /// Restores a state taken by state(); `contacts` must be the list that went with it.
  void restore(DetectorState s) {
    valid_ = s.valid;
    reference_position_ = std::move(s.reference_position);
    pair_count_ = s.pair_count;
    skin_ = s.skin;
    stats_ = s.stats;
  }

 private:
  void rebuild_pairs(const ParticleStore& particles, const CollisionSettings& settings, std::vector<Contact>& contacts);
  bool needs_rebuild(const ParticleStore& particles, const CollisionSettings& settings) const;

  bool valid_ = false;
  std::vector<Vec3> reference_position_;  ///< positions at the last rebuild
  std::size_t pair_count_ = 0;
  double skin_ = 0;
  CollisionStats stats_;
  std::vector<Contact> scratch_;
};

/// Geometry of a particle pair (normal from b to a, overlap, contact point, R*) written into c.
void sphere_sphere(const ParticleStore& p, const CollisionSettings& settings, Contact& c);

}  // namespace grainlab
