#pragma once
// The simulated system: particles, materials, walls, contacts and time. Steppers (SDEM in core/sdem,
// NDEM in core/ndem) advance a World; observers read it. A World knows nothing of files or studies.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/bodies.hpp"
#include "core/collision.hpp"
#include "core/contacts.hpp"
#include "core/material.hpp"
#include "core/particles.hpp"
#include "core/walls.hpp"

namespace grainlab {

/// Gravity, optionally ramped linearly in magnitude from `ramp_from` to |g| over `ramp_duration`
/// seconds (000 line 598: 0.01 -> 9.82 m/s^2 over 60 s to settle a packing gently).
/// Default: g = (0, 0, -9.82) m/s^2 (z up; 9.82 is the papers' value, 000 line 598, not standard 9.80665),
/// no ramp. Experiments take their own `gravity` parameter (docs/guards.md lists the defaults).
struct Gravity {
  Vec3 g = Vec3(0, 0, -9.82);  ///< m/s^2 at full strength
  double ramp_from = 0.0;      ///< magnitude at t = 0 when ramping, m/s^2
  double ramp_duration = 0.0;  ///< s; 0 = no ramp
  Vec3 at(double t) const;
};

/// Wall-clock seconds spent per stage, accumulated over the run (every run measures its own K).
struct StageTimers {
  double collision = 0, forces = 0, solve = 0, integrate = 0, reduction = 0, observers = 0;
  double total() const { return collision + forces + solve + integrate + reduction + observers; }
};

class World {
 public:
  ParticleStore particles;
  MaterialTable materials;
  PairOverrides pair_overrides;  ///< per material pair: restitution, friction, ... instead of the mixing rule
  std::vector<Wall> walls;
  std::vector<RigidBody> bodies;  ///< rigid bodies: aggregates and dynamic walls (core/bodies.hpp)
  ContactDetector detector;
  CollisionSettings collision;
  Gravity gravity;
  double time = 0;         ///< s
  std::uint64_t step = 0;  ///< steps taken
  /// Threads a stepper may use for a step (core/thread_arena.hpp); 0: the caller's (TBB default or the
  /// arena it runs in). Results do not depend on it.
  int threads = 0;
  StageTimers timers;

  /// Pair candidates (sorted by key), then this step's wall contacts. The SDEM stepper keeps the pair
  /// candidates' overlap, tangential spring and force in deferred_contacts() between steps and does not
  /// write them into the records (the spring into its model-history column): after an SDEM step, call
  /// sync_contacts() before reading the records (observers do). The const accessor never writes: reading
  /// stale records through it throws std::logic_error. The non-const accessor is for callers that may
  /// change the records: it syncs them first and tells the stepper to read them again.
  const std::vector<Contact>& contacts() const {
    if (deferred_.records_stale) throw_stale_contacts();
    return contacts_;
  }
  std::vector<Contact>& contacts() {
    sync_contacts();
    deferred_.mirrors_records = false;
    return contacts_;
  }
  /// Brings the records up to date with the stepper's deferred pair state: overlap, spring and force of
  /// the last force evaluation; normal and point of the current positions. No-op when already current.
  void sync_contacts() {
    if (deferred_.records_stale) write_deferred(/*history_only=*/false);
  }
  /// Whether the records hold the last step's pair state (sync_contacts() has nothing to do).
  bool contacts_current() const { return !deferred_.records_stale; }
  /// Contact k as sync_contacts() would write it, current or not, leaving the records as they are (a
  /// checkpoint saves a const World this way).
  Contact contact(std::size_t k) const;
  std::size_t contact_count() const { return contacts_.size(); }
  /// The records as they are, for the detector and the steppers (no sync).
  std::vector<Contact>& contact_records() { return contacts_; }

  /// The contacts' model history: a column per model part, parallel to the records (index k is contact
  /// k's) once a stepper asked for it, empty before: `tangential_springs` (SDEM), `springs` (SDEM rolling
  /// and twisting resistance), `multipliers` and `angular_multipliers` (NDEM; the latter with rolling or
  /// twisting resistance). The detector carries and resets it with the records. Only the pair candidates'
  /// tangential springs are deferred, as their overlap is: sync_contacts() writes them.
  ModelHistory& model_history() { return model_history_; }
  const ModelHistory& model_history() const { return model_history_; }
  /// Tangential spring of contact k as sync_contacts() would write it (zero when no column keeps it).
  Vec3 tangential_spring(std::size_t k) const;
  /// From now on the contacts keep their tangential springs (zero for every present contact: no stepper
  /// has written them). Called by the SDEM stepper.
  void keep_tangential_springs() { keep(model_history_.tangential_springs, model_history_.tangential_springs_kept); }
  /// The same for the rolling and twisting springs (called by the SDEM stepper when some pair has rolling
  /// or twisting resistance).
  void keep_springs() { keep(model_history_.springs, model_history_.springs_kept); }
  /// The same for the NDEM multipliers and tangent frames (called by the NDEM stepper).
  void keep_multipliers() { keep(model_history_.multipliers, model_history_.multipliers_kept); }
  /// The same for the NDEM rolling and twisting multipliers (called by the NDEM stepper when some
  /// material or pair override resists rolling or twisting).
  void keep_angular_multipliers() { keep(model_history_.angular_multipliers, model_history_.angular_multipliers_kept); }
  DeferredContacts& deferred_contacts() { return deferred_; }
  const DeferredContacts& deferred_contacts() const { return deferred_; }

  /// Validates and appends a material; returns its index.
  std::uint16_t add_material(const Material& m);
  /// Adds a sphere of material `material` (density from the material). Returns its index.
  std::size_t add_sphere(const Vec3& x, double radius, std::uint16_t material, const Vec3& v = Vec3::Zero(),
                         const Vec3& w = Vec3::Zero());
  std::size_t add_wall(Wall w);

  /// Runs contact detection (timed into timers.collision); `pair_geometry`: see ContactDetector::update.
  void detect_contacts(bool pair_geometry = true);
  /// First index of the wall contacts in `contacts`.
  std::size_t pair_contact_count() const { return detector.pair_count(); }
  /// Moves kinematic walls by dt.
  void advance_walls(double dt);
  /// Wraps positions into the periodic interval of each periodic axis.
  void wrap_periodic();
  /// Throws InstabilityError (with the step number) on a non-finite state or an overlap beyond
  /// `max_overlap_ratio` of the smaller radius.
  void check_stability(double max_overlap_ratio = 0.5) const;

 private:
  /// Writes the deferred pair state into the records and the tangential springs' column (parallel over
  /// candidates). `history_only`: just the overlap and the spring, for a candidate rebuild, which carries
  /// only the history into its new records (one cache line of each record instead of two, no geometry).
  void write_deferred(bool history_only);
  /// Applies the deferred state of pair candidate k to its record `c` (see write_deferred; not the spring).
  void apply_deferred(std::size_t k, Contact& c, bool history_only) const;
  template <class Column>
  void keep(Column& column, bool& kept) {
    if (kept) return;
    kept = true;
    column.assign(contacts_.size(), {});
  }
  /// Pair candidates whose deferred state is ahead of the records while records_stale.
  std::size_t deferred_pairs() const;
  [[noreturn]] void throw_stale_contacts() const;
  std::vector<Contact> contacts_;
  ModelHistory model_history_;
  DeferredContacts deferred_;
};

/// A time-stepping method (SDEM or NDEM) with its own settings.
class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual const char* name() const = 0;
  virtual double time_step() const = 0;
  /// Advances the world by one time step.
  virtual void step(World& world) = 0;
};

}  // namespace grainlab
