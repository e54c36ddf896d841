#pragma once
// Adaptive model reduction in the NDEM stepper (Paper V, Servin & Wang, 000 l.1834-2263; ledger
// ../shared/claims/paper5.md §4-5; docs/reduction.md). Particles in resting contact merge into rigid
// aggregates (core/ndem/aggregates.hpp) and split back when the dynamics needs them resolved.
//
// Place in the step (Algorithm 1, 000 l.1992-2008, ledger P2; NdemStepper::step):
//   detect -> split() -> rows -> impact MCP -> continuous MCP -> capture() -> x_{i+1} = x_i + Dt v_{i+1}
//   -> merge()
// split() tests the contacts on v_i (the state at the start of the step) and relabels only (P5-C13).
// capture() stores v_i and v_{i+1} of every particle and body before the position update; merge() then tests
// the contacts that were solved (geometry of x_i) on v_{i+1}, exactly Alg. 1's test; only the projection of
// the velocities on the rigid motion follows the position update (a difference below 1e-5 m in the frozen
// offsets). MergePlacement::after_position_update tests the contacts found at x_{i+1} instead (C54).
//
// Merge test per contact (both sides dynamic, different nodes; a node is a free particle or an aggregate):
//   Eq. 26-28 on v_{i+1}: -xi_nv^{i-mrg} <= G_n v <= xi_nv^{s-mrg}, |G_t v| <= xi_tv^mrg, |G_r v| <= xi_rv^mrg;
//   reconstructed acceleration (ledger P8): |G_n (v+ - v-)| / Dt <= a_n, |G_t (v+ - v-)| / Dt <= a_t;
//   force balance of both nodes (Eq. 25 with f_ext + G^T lambda / Dt, ledger P13):
//   |f_e + f_c| / (|f_e| + |f_c| + eps) <= xi_f with f_e + f_c = m (v+ - v-) / Dt (impulses included).
// Eligible contacts are joined with a union-find over nodes in contact order; every component of two or
// more nodes becomes one aggregate (its aggregates are released and re-formed with form_body; aggregates
// that merge with nothing are left alone). Walls never join (merge_with_walls is not implemented, P11).
// Split (000 l.2036-2076): contact split (Eq. 29-31: contacts of a member with anything outside its
// aggregate whose G v on v_i leaves [-xi^{i-c}, xi^{s-c}] or |G_t v| > xi_tv^c or |G_r v| > xi_rv^c) frees
// the member and the members up to N_c-spl - 1 contact layers from it (N_c-spl = 2: "directly and their
// contact neighbours", 000 l.2048); the separation split is the xi^{s-c} part; sensor split frees the
// members whose sphere overlaps a sensor box; trial split frees the members failing Eq. 32-36 in a trial
// solve of the unreduced system (NdemStepper runs it, see trial_split()). What is left of a split aggregate
// is re-formed per connected component without touching any particle state.
// Internal contacts leave the solver: World::detect_contacts masks contacts inside a body
// (mask_self_contacts) and NdemBodyRows solves the aggregate's contacts with the rest as one 6-DOF body.
//
// Determinism: serial, in contact and particle order; no state outside the World besides statistics.
#include <vector>

#include "core/ndem/pgs.hpp"
#include "core/ndem/reduction_settings.hpp"
#include "core/world.hpp"

namespace grainlab {

/// Frees the aggregate members flagged in `release` (one entry per particle; others ignored) without touching
/// any particle state (P5-C13), re-forms the rest of each touched aggregate per connected component of its
/// internal contacts, and gives the contacts between particles that no longer share a body their geometry
/// back. Call it before removing particles that may be in aggregates (resolve_members refuses a body whose
/// member is gone), e.g. discharged particles of a conveyor.
void release_members(World& world, const std::vector<char>& release);

class NdemReducer {
 public:
  NdemReducer(ReductionSettings settings, double time_step);

  const ReductionSettings& settings() const { return settings_; }

  /// Clears the statistics of the step (call first in every step).
  void begin_step();

  /// Contact, separation and sensor split on v_i (the particles' state); relabels only. Contacts between
  /// particles that no longer share a body get their geometry back. Returns the particles freed.
  std::size_t split(World& world);

  /// Trial split: frees the members of aggregates that fail Eq. 32-36 in the trial solution. `trial` holds
  /// v_{i+1} of every particle from a solve of the unreduced system (the caller ran it with N_it^tr);
  /// `external_force` as NdemStepper::external_force (may be empty). Returns the particles freed.
  std::size_t trial_split(World& world, const NdemBodies& trial, const std::vector<Vec3>& external_force);

  /// Before the position update: v_i and v_{i+1} of every particle (free ones from `free_plus`, members from
  /// their body's rigid motion) and body; the merge test reads them.
  void capture(const World& world, const NdemBodies& free_plus, const std::vector<Vec3>& body_v,
               const std::vector<Vec3>& body_w, const std::vector<Vec3>& external_force);

  /// Merge test and merge (after the position update, on the captured velocities).
  void merge(World& world);

  /// Counts and levels h of the current world into the statistics (P4 variants) and returns them.
  const ReductionStats& finish_step(const World& world, std::size_t solver_contacts);
  const ReductionStats& stats() const { return stats_; }
  /// Wall time of the trial solve (the caller runs it) into seconds_trial.
  void add_trial_seconds(double s) { stats_.seconds_trial += s; }

 private:
  /// |f_e + f_c| / (|f_e| + |f_c| + eps) of a node from its momentum change over the step.
  double balance_ratio(double mass, const Vec3& dv, const Vec3& f_ext) const;
  // merge() stages that read the captured velocities (reduction.cpp).
  bool resting_motion(const World& world, const Contact& c) const;
  double node_balance_ratio(const World& world, std::size_t node) const;

  ReductionSettings settings_;
  double dt_;
  ReductionStats stats_;
  // capture(): per particle v_i, w_i, v_{i+1}, w_{i+1}; per body the same for the centre of mass.
  std::vector<Vec3> v0_, w0_, v1_, w1_;
  std::vector<Vec3> body_v0_, body_v1_;
  std::vector<Vec3> external_;
  Vec3 gravity_ = Vec3::Zero();
};

}  // namespace grainlab
