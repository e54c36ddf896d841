#pragma once
// Measuring the scale factors of Paper I's cost model (seed 000 lines 525-552, Eq. 36 and 38) on our own
// engines: K_SDEM, the time per particle and SDEM step, and K_NDEM^GS, the time per contact and PGS
// iteration. The experiments paper1_cost_measurement and paper1_cost_prediction and `grainlab advise
// --measure` all measure through this file, and `grainlab advise` pools stored runs with the same
// `pool_cost_constants`, so there is one definition of each K.
//
// Test systems (`build_cost_system`), all of spheres of diameter d on the sites of a simple-cubic lattice
// within w/2 sites of the axis, l layers, so that N_p = (pi/4) w^2 l as Table I counts it (cost_model.hpp):
//   column  a 1D column of l spheres on a floor (Paper I E1; w is ignored), placed at rest at its Hertz
//           overlaps under gravity: N_c = N_p
//   pack    the sites (spacing d (1 + jitter)) in a cylinder (radius ((1 + jitter) w + 1) d / 2) on a
//           floor, shifted sideways at random by up to jitter d / 2 and settled
//           under gravity with NDEM for settle_time (untimed; spheres 10 % larger while settling, so the
//           pack starts without the PGS's overlap error): a random pack at rest, N_c ~ 2.5-3 N_p
//   flow    the jittered lattice, unsettled, with a random velocity of rms `flow_speed` per sphere:
//           it collapses under gravity, a collisional flow whose contacts come and go
// What is timed: the step() calls of the timed steps (not the set-up, not the stability guard), as CPU
// time of the one thread that runs them (measure_cost runs the engine in a one-thread TBB arena): Paper I's
// single-core cost (000 l.527 "assuming no parallelization"), and unaffected by other programs sharing
// the cores, which the wall time is not (on a busy 2-core machine the wall time of a run varied 2x). The
// engine's stage timers (wall clock) split that CPU time into stages (CostTiming::solve_cpu_s).
// Reads only its inputs; each measurement builds and steps its own World.
#include <cstdint>
#include <string>
#include <vector>

#include "core/world.hpp"

namespace grainlab {

enum class CostSystemKind { column, pack, flow };
enum class CostMethod { sdem, ndem };

/// "column", "pack", "flow"; InputError naming `parameter` otherwise.
CostSystemKind parse_cost_system_kind(const std::string& name, const std::string& parameter = "kind");
/// "sdem", "ndem"; InputError naming `parameter` otherwise.
CostMethod parse_cost_method(const std::string& name, const std::string& parameter = "method");

struct CostSystem {
  CostSystemKind kind = CostSystemKind::pack;
  double d = 0.01;                ///< sphere diameter, m
  double youngs_modulus = 1e7;    ///< Pa
  double density = 2500.0;        ///< kg/m^3
  double poisson_ratio = 0.3;
  double friction = 0.7;          ///< 000 l.596
  double restitution = 0.1;       ///< not Paper I's e = 0: SDEM with e = 0 (eta = 20) at h = sqrt(m/k) blew up in the column at step 28; the cost does not depend on e
  double gravity = 9.82;          ///< m/s^2
  double width = 6.0;             ///< w, in diameters (pack, flow)
  double length = 10.0;           ///< l, in diameters (layers; column: spheres)
  double lattice_overlap = 0.0;   ///< initial overlap of lattice neighbours, in diameters
  double jitter = 0.2;            ///< pack, flow: random sideways shift of each site, up to jitter d / 2
  double settle_time = 1.0;       ///< pack: NDEM settling before the measurement (h = sqrt(0.1 d/g), N_it of Eq. 41 at eps = 0.01), s
  double flow_speed = 0.1;        ///< rms speed of the flow's random velocities, m/s
  std::uint64_t seed = 1;         ///< jitter and flow velocities
};

/// Fills an empty World with the system. InputError naming the parameter on bad input.
void build_cost_system(const CostSystem& system, World& world);

struct CostRunSettings {
  CostMethod method = CostMethod::ndem;
  double time_step = 0.01;         ///< s
  int iterations = 50;             ///< NDEM PGS iteration cap N_it
  double residual_tolerance = 0.0; ///< NDEM early stop (0: always N_it, as Paper I's fixed N_it, 000 l.596)
  int warmup_steps = 2;            ///< untimed steps first (contacts created, caches warm); a settled pack: at least its gaps' closing time
  int steps = 20;                  ///< timed steps
};

/// What one measurement saw over its timed steps.
struct CostTiming {
  CostMethod method = CostMethod::ndem;
  double particles = 0;           ///< N_p
  double steps = 0;               ///< timed steps
  double particle_steps = 0;      ///< N_p * steps
  double contact_iterations = 0;  ///< NDEM: sum over steps of iterations_used * active contacts
  double contacts_mean = 0;       ///< NDEM: active contacts per step; SDEM: touching contacts at the end
  double iterations_mean = 0;     ///< NDEM: iterations used per step
  StageTimers stages;             ///< engine stage timers over the timed steps (wall clock), s
  double total_s = 0;             ///< wall time of the timed step() calls, s
  double cpu_s = 0;               ///< CPU time of the timed step() calls (one thread), s
  /// The solve stage's share of cpu_s by the stage timers: cpu_s * stages.solve / stages.total() (timers
  /// only: a preemption outside them would otherwise count against every stage).
  double solve_cpu_s() const;
};

/// Builds the system, runs `warmup_steps` then `steps` steps of the method under the stability guard
/// (SDEM limits 0.25 / half a radius, NDEM 2 / the engine's limit: core/stability_guard.hpp), and times them.
CostTiming measure_cost(const CostSystem& system, const CostRunSettings& settings);

/// The scale factors of the cost model. The model of Paper I (Eq. 36, 38) uses K_sdem and K_ndem;
/// K_ndem_overhead is ours: the rest of an NDEM step (detection, row set-up, integration) per particle,
/// which Eq. 38 leaves out and which matters at small N_it (cost_model.hpp).
struct CostConstants {
  double K_sdem = 0;           ///< s per particle and SDEM step (whole step, Eq. 36)
  double K_ndem = 0;           ///< s per contact and PGS iteration (Eq. 38)
  double K_ndem_overhead = 0;  ///< s per particle and NDEM step besides the iterations
  int sdem_runs = 0, ndem_runs = 0;
};

/// Pooled estimates over many measurements, from CPU times (robust to other load, unlike the wall-clock
/// stage timers, whose split of a run varied by 5x on a busy machine):
///   K_sdem = sum cpu_s / sum particle_steps;
///   K_ndem, K_ndem_overhead: least squares of cpu per step = K_ndem x + K_ndem_overhead N_p over the NDEM
///   runs (x = contact-iterations per step), in relative terms; with one run, collinear runs or a negative
///   part, K_ndem alone (overhead 0). Eq. 38's K_NDEM^GS is then the marginal cost of a contact-iteration.
/// A method without measurements leaves its constants 0.
CostConstants pool_cost_constants(const std::vector<CostTiming>& timings);

/// Measures the constants now on two reference systems of the default material (d = 0.01 m, E = 1e7 Pa:
/// the K's are costs per particle-step and per contact-iteration, which do not depend on the material; a
/// stiff or small material would only make the reference runs fragile): a pack (w = 8, l = 10, N_p ~ 500)
/// and a column of 200, the two ends of neighbours per particle (SDEM costs ~1e-7 s per particle-step in
/// the pack and ~5e-8 in a column: the pooled K sits between). SDEM at h = sqrt(m/k) of cost_model.hpp;
/// NDEM at h = min(h_N of Eq. 37 at eps = 0.05, 0.01 s) and N_it = 10 and 100; pooled by
/// pool_cost_constants. About 0.5 s of CPU.
CostConstants calibrate_cost_constants();

}  // namespace grainlab
