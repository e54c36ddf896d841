#pragma once
// Settings and statistics of adaptive model reduction (Paper V, Servin & Wang; 000 l.1834-2263, ledger
// ../shared/claims/paper5.md): particles in resting contact merge into rigid aggregates (core/bodies.hpp
// form_body) and split back (dissolve_body) on contact events, sensors or a background trial solve.
// Defaults are Table 2 as reconstructed in the ledger (§3; 000 l.2097-2120). Thresholds are bounds on the
// contact velocities G v: normal (< 0 incident / approaching, > 0 separating), tangential (|G_t v|) and
// rolling (|G_r v|); infinity switches a test off.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/math.hpp"

namespace grainlab {

inline constexpr double reduction_off = std::numeric_limits<double>::infinity();

struct ReductionThresholds {
  double incident_normal = reduction_off;    ///< m/s, bound on -G_n v (approach)
  double separating_normal = reduction_off;  ///< m/s, bound on +G_n v (separation)
  double tangential = reduction_off;         ///< m/s, bound on |G_t v|
  double rolling = reduction_off;            ///< rad/s, bound on |G_r v|
};

/// A sensor: an oriented box fixed in the world frame; aggregates with a member centre inside it are
/// dissolved (sensor split, 000 l.2050).
struct ReductionSensor {
  Vec3 center = Vec3::Zero();
  Vec3 half_extent = Vec3::Zero();  ///< along the box axes, m (> 0)
  Mat3 axes = Mat3::Identity();     ///< rows: the box axes in the world frame (orthonormal)
  bool contains(const Vec3& x) const {
    const Vec3 local = axes * (x - center);
    return std::abs(local.x()) <= half_extent.x() && std::abs(local.y()) <= half_extent.y() &&
           std::abs(local.z()) <= half_extent.z();
  }
};

/// Conditions of the trial split (000 l.2052-2070): f = force balance (Eq. 35), v = contact velocities
/// (Eq. 32-34), fv = both.
enum class TrialConditions : std::uint8_t { force, velocity, force_velocity };
/// Where the merge test sits in the step (C54): on the new velocities before the position update (Alg. 1)
/// or after it (with the contacts found at the new positions).
enum class MergePlacement : std::uint8_t { before_position_update, after_position_update };
/// Where the splits run (C55): before the impact-stage MCP (Alg. 1) or after it.
enum class SplitPlacement : std::uint8_t { before_impact, after_impact };

struct ReductionSettings {
  bool enabled = false;
  // Merge (Eq. 26-28; Table 2 l.2098-2106)
  ReductionThresholds merge{0.0025, 0.0025, 0.0025, 0.5};
  double merge_normal_acceleration = 5.0;      ///< m/s^2, bound on |G_n (v+ - v-)| / Dt (reconstructed, P8)
  double merge_tangential_acceleration = 5.0;  ///< m/s^2, bound on |G_t (v+ - v-)| / Dt (reconstructed)
  double merge_force_balance = 1.0 / 3.0;      ///< xi_f^mrg of Eq. 25 (reconstructed); infinity = off
  bool merge_with_walls = false;               ///< aggregates may include walls / kinematic bodies (P11)
  MergePlacement merge_placement = MergePlacement::before_position_update;
  int min_merge_contacts = 1;                  ///< resting contacts a particle needs to join
  // Contact-event split (Eq. 29-31; Table 2 l.2107-2111); separation split = contact.separating_normal
  bool contact_split = true;
  int contact_split_depth = 2;                 ///< N_c-spl: layers of members freed around an impacted member
  ReductionThresholds contact{0.15, reduction_off, 0.15, reduction_off};
  // Sensor split (000 l.2050)
  std::vector<ReductionSensor> sensors;
  // Trial split (Eq. 32-36; Table 2 l.2112-2118)
  bool trial_split = false;
  int trial_iterations = 50;                   ///< N_it^tr
  TrialConditions trial_conditions = TrialConditions::force;
  ReductionThresholds trial{2.6, 0.26, 0.26, reduction_off};  ///< xi^tr (2.6 m/s as printed; P10: maybe 0.26)
  double trial_force_balance = 0.25;           ///< xi_f^tr: split where the Eq. 35 ratio exceeds it
  double trial_torque_balance = reduction_off; ///< xi_tau^tr (Eq. 36)
  SplitPlacement split_placement = SplitPlacement::before_impact;
  double start_time = 0.0;                     ///< s: no merging before this world time

  /// Throws InputError naming the parameter ("reduction.<name>") on invalid values.
  void validate() const;
};

/// "f", "v", "fv"; InputError otherwise.
TrialConditions parse_trial_conditions(const std::string& name);

/// What reduction did in the last step (observers read it; NdemStepStats::reduction).
struct ReductionStats {
  std::size_t particles = 0;              ///< N_p (dynamic spheres)
  std::size_t free_particles = 0;         ///< not in an aggregate
  std::size_t aggregates = 0;             ///< aggregate bodies
  std::size_t aggregated_particles = 0;   ///< members of aggregates
  double level = 0;                       ///< h = 1 - (free + aggregates) / N_p (000 l.2093; P4 default)
  double level_free_only = 0;             ///< h = 1 - free / N_p (P4 variant)
  double level_dof = 0;                   ///< h = 1 - n~/n over DOF (000 l.1942): 6 per free sphere and aggregate
  std::size_t merged = 0;                 ///< particles that joined an aggregate this step
  std::size_t split_contact = 0, split_separation = 0, split_sensor = 0, split_trial = 0;  ///< particles freed
  std::size_t solver_contacts = 0;        ///< contacts left in the solver (internal contacts removed)
  double seconds_merge = 0, seconds_split = 0, seconds_trial = 0;  ///< wall time of the reduction stages
};

}  // namespace grainlab
