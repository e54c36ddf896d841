#pragma once
// NdemStepper: semi-smooth nonsmooth DEM with the SPOOK stepper (000 Eq. 9-14, lines 93-137;
// Paper III Algorithm 1, line 1454; Paper IV Algorithm 1 with warm starting, line 1775).
//
// One step (stages in order, each a member function):
//   detect      world.detect_contacts(); contacts with overlap <= 0 are not constraints (no margin)
//   setup       rows: frame (tangent carried in MultiplierHistory::tangent), Jacobians, s = e_H delta^{e_H-1},
//               Sigma, Upsilon, q_n, D^{-1}, bounds                            [timers.forces]
//   impact      Newton restitution for contacts approaching faster than v_imp  [timers.solve]
//   prestep     v = v+ + Dt M^{-1} f_ext
//   warm start  lambda_0 (cold / history / model) and v += M^{-1} G^T lambda_0 (Eq. 7-8)
//   pgs         projected Gauss-Seidel, N_it cap, residual tolerance          [timers.solve]
//   integrate   x += Dt v, orientation, store multipliers, contact and wall forces [timers.integrate]
//
// Sign convention: pgs.hpp (and docs/ndem.md). Constraint force on a: (s lambda_n n + lambda_t1 t1 +
// lambda_t2 t2) / Dt, torque from the lever arms plus (lambda_r1 t1 + lambda_r2 t2 + lambda_rn n) / Dt.
// The contact's MultiplierHistory::lambda (World::model_history; rows 3-5 in AngularMultiplierHistory, kept
// when some material or pair override resists rolling or twisting) holds the continuous-stage multipliers
// (warm start); impact impulses are added to Contact::force but not stored.
// Rigid bodies (core/bodies.hpp): contacts touching a body member or an attached wall, and motor rows,
// are set up, solved (PgsOptions::extra, after the sphere rows in every iteration) and integrated by
// NdemBodyRows (core/ndem/body_rows.hpp); each stage above calls it in one line.
// Threading: serial PGS in contact order (detection order, sorted by key; or, with contact_order = random,
// a seeded permutation per sweep), or with settings.parallel a graph-coloured PGS with TBB per colour;
// bitwise deterministic either way.
// Model reduction (settings.reduction.enabled; core/ndem/reduction.hpp): split before the rows are set up
// (or after the impact stage, SplitPlacement::after_impact), the trial solve of the unreduced system with
// N_it^tr in a second stepper, capture of v_{i+1} before the position update, merge after it. Off: no
// code path of the step changes.
#include <memory>
#include <random>
#include <vector>

#include "core/ndem/body_rows.hpp"
#include "core/ndem/ndem_guards.hpp"
#include "core/ndem/ndem_settings.hpp"
#include "core/ndem/pgs.hpp"
#include "core/ndem/reduction.hpp"
#include "core/thread_arena.hpp"
#include "core/world.hpp"

namespace grainlab {

class NdemStepper;
/// The trial-split stepper of an NdemStepper: copied with it (deep copy; some experiments copy steppers).
class NdemTrialStepper {
 public:
  NdemTrialStepper() = default;
  NdemTrialStepper(const NdemTrialStepper& other);
  NdemTrialStepper& operator=(const NdemTrialStepper& other);
  NdemTrialStepper(NdemTrialStepper&&) noexcept = default;
  NdemTrialStepper& operator=(NdemTrialStepper&&) noexcept = default;
  ~NdemTrialStepper();
  std::unique_ptr<NdemStepper> stepper;
};

class NdemStepper : public Stepper {
 public:
  explicit NdemStepper(NdemSettings settings);

  const char* name() const override { return "ndem"; }
  double time_step() const override { return settings_.time_step; }
  void step(World& world) override;

  const NdemSettings& settings() const { return settings_; }
  const NdemStepStats& stats() const { return stats_; }
  /// Bytes the stepper holds between steps (capacities): rows, body records, colouring, impact impulses,
  /// rigid-body rows. The solver's packed records are per-thread scratch: pgs_thread_scratch_bytes.
  std::size_t memory_bytes() const;
  /// The run guards (warnings of core/ndem/ndem_guards.hpp; reported when the stepper ends).
  const NdemRunGuards& guards() const { return guards_; }
  /// Switches the per-iteration residual record on or off from the next step (one solve of a long run).
  void set_record_residuals(bool on) { settings_.record_residuals = on; }
  /// The plain reference path of the solver (PgsOptions::reference_path): the colours' chunks one after
  /// another on one thread. Results are bitwise those of the parallel path; for tests.
  void set_reference_path(bool on) { reference_path_ = on; }

  /// Extra external force/torque per particle index (N, N m), applied every step in addition to
  /// gravity. Empty = none; otherwise must have one entry per particle.
  std::vector<Vec3> external_force, external_torque;

 private:
  /// Rows, impact stage, pre-step, warm start and continuous solve: everything of a step but the position
  /// update (the trial solve runs this on the unreduced system).
  void solve(World& world);
  /// One step (step() runs it in the arena of World::threads).
  void advance(World& world);
  /// Model reduction stages (settings.reduction.enabled only).
  void reduction_split(World& world);
  void reduction_split_after_impact(World& world);
  std::size_t reduction_trial_split(World& world);  ///< returns the particles freed
  void setup(World& world);
  void impact(World& world);
  void warm_start(World& world);
  void integrate(World& world);

  /// The solver options of both stages (iterations: the continuous stage's).
  PgsOptions pgs_options();

  NdemSettings settings_;
  bool reference_path_ = false;  ///< set_reference_path
  NdemStepStats stats_;
  NdemRows rows_;
  NdemBodies bodies_;
  NdemColouring colouring_;
  std::array<std::vector<double>, 6> impact_impulse_;
  bool had_impact_ = false;
  std::mt19937_64 order_rng_;  ///< sweep permutations of NdemContactOrder::random (seeded once, advances every sweep)
  NdemBodyRows body_rows_;  ///< contacts of rigid bodies and motor rows (core/ndem/body_rows.hpp)
  NdemReducer reducer_;     ///< model reduction (used when settings_.reduction.enabled)
  NdemTrialStepper trial_;  ///< trial solve of the unreduced system (reduction.trial_split)
  ThreadArena arena_;       ///< World::threads
  NdemRunGuards guards_;    ///< run guards (core/ndem/ndem_guards.hpp): read-only, report to the run's warnings
};

}  // namespace grainlab
