#pragma once
// Contacts keyed by body pair, persistent across steps: the narrow phase rebuilds the geometric part
// every step, and `carry_history` copies what a contact remembers (its age; with a model history, the SDEM
// tangential, rolling and twisting springs, the NDEM multipliers and tangent frame) from last step's
// contact with the same key.
//
// Sign convention (one for the whole engine): `normal` is a unit vector pointing from body b towards
// body a, and overlap >= 0 means the bodies interpenetrate. A force f = f_n * normal pushes a away
// from b and acts on b with the opposite sign.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/math.hpp"

namespace grainlab {

/// Key of a particle pair: (smaller id, larger id). Key of a particle-wall contact: particle id in the
/// high word, then the wall flag bit, the wall index and the wall feature in the low word.
inline std::uint64_t pair_key(std::uint32_t id_a, std::uint32_t id_b) {
  if (id_a > id_b) std::swap(id_a, id_b);
  return (std::uint64_t(id_a) << 32) | id_b;
}
inline std::uint64_t wall_key(std::uint32_t particle_id, std::uint16_t wall, std::uint16_t feature) {
  return (std::uint64_t(particle_id) << 32) | (std::uint64_t(1) << 31) | (std::uint64_t(wall & 0x7fff) << 16) | feature;
}

/// The persistent record of a contact: ids, geometry, force and age, in 112 bytes.
/// What only some contact models remember is kept apart, in World::model_history() (ModelHistory below).
struct Contact {
  std::uint64_t key = 0;
  std::int32_t a = 0;        ///< particle index of body a
  std::int32_t b = 0;        ///< particle index of body b, or -1 - wall_index for a wall contact
  Vec3 normal = Vec3::UnitZ();  ///< unit, from b towards a
  Vec3 point = Vec3::Zero();    ///< contact point
  double overlap = 0;           ///< delta >= 0 when interpenetrating (may be slightly negative within the margin)
  double effective_radius = 0;  ///< R* = r_a r_b / (r_a + r_b); the particle radius against a wall
  Vec3 force = Vec3::Zero();  ///< total contact force on a, N (filled by the force/solve stage, for observers)
  std::uint32_t age = 0;      ///< history: steps this contact has existed (0 = new this step)

  bool is_wall() const { return b < 0; }
  int wall_index() const { return -1 - b; }
};
static_assert(sizeof(Contact) == 112);

/// SDEM tangential spring of a contact (kept once an SDEM stepper ran).
struct TangentialSpringHistory {
  Vec3 elongation = Vec3::Zero();  ///< tangential spring elongation, m
};
static_assert(sizeof(TangentialSpringHistory) == 24);

/// SDEM rolling and twisting springs of a contact (kept when some pair has those resistances).
struct SpringHistory {
  Vec3 rolling_spring = Vec3::Zero();  ///< relative rolling rotation, rad
  double twisting_spring = 0;          ///< relative rotation about the normal, rad
};
static_assert(sizeof(SpringHistory) == 32);

/// NDEM multipliers of the normal and friction rows and the tangent frame of a contact (kept once an NDEM
/// stepper ran).
struct MultiplierHistory {
  Vec3 tangent = Vec3::Zero();     ///< first tangent direction carried with the contact
  std::array<double, 3> lambda{};  ///< normal, 2 friction
};
static_assert(sizeof(MultiplierHistory) == 48);

/// NDEM multipliers of the rolling and twisting rows of a contact (kept once an NDEM stepper ran with a
/// material or pair override that resists rolling or twisting).
struct AngularMultiplierHistory {
  std::array<double, 3> lambda{};  ///< 2 rolling, twisting
};
static_assert(sizeof(AngularMultiplierHistory) == 24);

/// The history a contact carries only under some models, kept apart from the records: a column per
/// model part, parallel to the contact list (index k is contact k's) once a stepper that uses it asked
/// for it (World::keep_tangential_springs, keep_springs, keep_multipliers), empty before. An SDEM run keeps
/// the tangential springs (and, with rolling or twisting resistance, the springs), an NDEM run the multipliers.
struct ModelHistory {
  std::vector<TangentialSpringHistory> tangential_springs;
  std::vector<SpringHistory> springs;
  std::vector<MultiplierHistory> multipliers;
  std::vector<AngularMultiplierHistory> angular_multipliers;
  bool tangential_springs_kept = false, springs_kept = false, multipliers_kept = false,
       angular_multipliers_kept = false;

  bool any_kept() const {
    return tangential_springs_kept || springs_kept || multipliers_kept || angular_multipliers_kept;
  }
  /// Keeps the columns `other` keeps (and only those).
  void keep_as(const ModelHistory& other) {
    tangential_springs_kept = other.tangential_springs_kept;
    springs_kept = other.springs_kept;
    multipliers_kept = other.multipliers_kept;
    angular_multipliers_kept = other.angular_multipliers_kept;
  }
  /// Heap bytes of the columns (by capacity), for memory reports.
  std::size_t memory_bytes() const {
    return tangential_springs.capacity() * sizeof(TangentialSpringHistory) +
           springs.capacity() * sizeof(SpringHistory) + multipliers.capacity() * sizeof(MultiplierHistory) +
           angular_multipliers.capacity() * sizeof(AngularMultiplierHistory);
  }
  /// f(column) for each kept column of `to`, with the same column of `from` (f(to_column, from_column)).
  template <class To, class From, class F>
  static void zip(To& to, From& from, F&& f) {
    if (from.tangential_springs_kept) f(to.tangential_springs, from.tangential_springs);
    if (from.springs_kept) f(to.springs, from.springs);
    if (from.multipliers_kept) f(to.multipliers, from.multipliers);
    if (from.angular_multipliers_kept) f(to.angular_multipliers, from.angular_multipliers);
  }
  /// f(column) for each kept column.
  template <class F>
  void each(F&& f) {
    zip(*this, *this, [&](auto& column, auto&) { f(column); });
  }
  /// Contact k forgets its model history.
  void reset(std::size_t k) {
    each([&](auto& column) { column[k] = {}; });
  }
};

/// What the SDEM force stage carries for a pair candidate from step to step, kept outside the records and
/// the model history (World::deferred_contacts) so that the per-step kernel streams 32 bytes per candidate.
struct PairHistory {
  double overlap = 0;  ///< at the last force evaluation; > 0: touching, and the spring is kept
  Vec3 tangential_spring = Vec3::Zero();
};
static_assert(sizeof(PairHistory) == 32);

/// The wrench of a pair candidate on its two spheres in one 64-byte line. Both lever arms lie on the
/// normal (p - x_a = -la n, p - x_b = lb n), so the torques are -la (n x f) on a and -lb (n x f) on b;
/// b receives -force. A rolling-resistance torque comes on top and is kept apart (rarely present).
struct alignas(64) PairWrench {
  Vec3 force = Vec3::Zero();  ///< on a, N
  double la = 0;              ///< lever arm of a, m
  Vec3 n_cross_f = Vec3::Zero();
  double lb = 0;              ///< lever arm of b, m
};
static_assert(sizeof(PairWrench) == 64, "the gather reads a pair wrench as two four-double vectors");

/// Force and torque (about the body's centre) of a contact on one body.
struct BodyWrench {
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
};
/// The wrench of a wall contact: on[0] on the particle; on[1] the reaction on the wall at the contact
/// point (its torque is the rolling reaction only; the wall loads add the lever arm about the wall's
/// centre).
struct ContactWrench {
  BodyWrench on[2];
};

/// Pair-candidate state that a stepper (SDEM) keeps outside World::contacts between synchronisations.
struct DeferredContacts {
  /// `history` equals the records' overlap and the tangential springs' column (set when the stepper loads
  /// it; cleared whenever the records may have changed, so that the stepper loads them again).
  bool mirrors_records = false;
  /// The records' pair overlap, force, normal and point and the pairs' tangential springs lag behind
  /// `history` and `force`: World::sync_contacts() brings them up to date.
  bool records_stale = false;
  std::vector<PairHistory> history;   ///< per pair candidate
  std::vector<Vec3> force;            ///< per pair candidate: its force on a at the last force evaluation
};

/// What a pair candidate hands on at a candidate rebuild: its key, last overlap and age, copied aside
/// (24 bytes instead of the 112-byte record; its model history, if kept, separately) while the new list
/// is written over the old one.
struct CarriedHistory {
  std::uint64_t key = 0;
  double overlap = 0;
  std::uint32_t age = 0;

  explicit CarriedHistory(const Contact& c) : key(c.key), overlap(c.overlap), age(c.age) {}
  CarriedHistory() = default;
};
static_assert(sizeof(CarriedHistory) == 24);

/// What a contact remembers from step to step in its record: `c` takes `previous`'s history (same key),
/// one step older. `previous` is a Contact or a CarriedHistory. The model history is copied beside it.
template <class Previous>
void take_history(Contact& c, const Previous& previous) {
  c.age = previous.age + 1;
}

/// Copies history from `previous` into `current` where keys match and increments the age. Both must be
/// sorted by key (the narrow phase produces them so); linear merge. With `previous_model` (parallel to
/// `previous`), `current_model` gets its kept columns, parallel to `current`.
void carry_history(std::span<const Contact> previous, std::span<Contact> current,
                   const ModelHistory* previous_model = nullptr, ModelHistory* current_model = nullptr);

}  // namespace grainlab
