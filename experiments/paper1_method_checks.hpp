#pragma once
// Method checks of Paper I (000 l.466-513, 681; ledger ../shared/claims/paper1.md §1.M): three small
// scenes with the semi-smooth NDEM engine, shared by the experiment `paper1_method_checks` and the unit
// tests in tests/ndem/paper1_method_checks_test.cpp, so both measure the same thing.
//
//   rest       (P1-C53, M3, Eq. 34) one sphere settled on a plane at any h: overlap (m g / k_n)^{2/3}
//   collision  (P1-C52, M2, Eq. 31-32) head-on impact of two equal spheres, semi-smooth NDEM vs explicit
//              Hertz SDEM with the same h and the damping of Eq. 32: overlap histories step by step
//   settle     (P1-C52, M2) the same comparison on a 3-sphere column dropped into contact by gravity
//   column     (P1-C33) a 20-sphere column at rest, E = 10 GPa: kinetic energy left in it at rest
//
// Units SI. One material for spheres and plane. Judging is left to the caller (study checks, tests).
#include <array>
#include <string>
#include <vector>

#include "core/material.hpp"

namespace grainlab::paper1 {

/// Paper I's test particle (000 l.596, ledger "Common model / solver settings"): d = 0.01 m, m = 1e-3 kg,
/// i.e. rho = 6 m / (pi d^3) = 1909.86 kg/m^3; k_n = 0.5e6 N/m^1.5 between two spheres, i.e.
/// E/(1 - nu^2) = 1.5e7 Pa with nu = 0.3 (engine: k_n = (4/3) E* sqrt(R*) = E sqrt(d) / (3 (1 - nu^2)));
/// mu = 0.7, e = 0.
Material paper1_material(double youngs_modulus = 1.5e7 * (1 - 0.09), double poisson_ratio = 0.3);
inline constexpr double paper1_diameter = 0.01;
inline constexpr double paper1_density = 1909.8593171027440;

struct GravityRamp {
  double gravity = 9.82;     ///< full magnitude, m/s^2 (the ramp end value of 000 l.598)
  double from = 0.01;        ///< magnitude at t = 0, m/s^2
  double ramp_time = 1.0;    ///< s (0 = full gravity from the start)
};

// --- rest: one sphere on a plane, gravity ramped, then held (M3).
struct RestSetup {
  Material material = paper1_material();
  double diameter = paper1_diameter;
  GravityRamp gravity;
  double duration = 1.5;     ///< s, ramp included
  double time_step = 0.01;   ///< h, s
  int iterations = 500;      ///< N_it
  /// Independent reference stiffness of the sphere-plane contact, k_n / (E sqrt(d)) (Paper I Eq. 11,
  /// validation/paper1/hertz_column_reference.py); <= 0: the *_ref results are NaN.
  double reference_kn_floor = 0;
};
struct RestResult {
  double overlap = 0;          ///< m, r - z at the end
  double overlap_ref = 0;      ///< (m g / k_ref)^{2/3}, m (NaN without a reference)
  double rel_error_ref = 0;    ///< (overlap - overlap_ref) / overlap_ref
  double kinetic_energy = 0;   ///< J at the end (the sphere must be at rest)
  double solve_seconds = 0;    ///< PGS wall time
  long steps = 0;
};
RestResult run_rest(const RestSetup& s);

// --- collision: two equal spheres, head-on, no gravity, each at speed v/2 towards the other (M2).
/// How the SDEM damping c (f_n = k_n (delta^{3/2} + c delta^{1/2} delta')) maps to the NDEM damping time:
///   eH2     Papers III-V, gamma_n^-1 = k_n c / e_H^2, tau_n = eps_n / gamma_n = c / e_H (what Eq. 32 needs:
///           c = tau e_H, 000 l.508): NdemSettings::damping_time = c;
///   eH      Paper I as printed (000 l.478), gamma_n^-1 = k_n c / e_H, tau_n = c: damping_time = e_H c
///           (25 % more damping in NDEM; a deliberate mismatch, ledger P12).
enum class DampingMapping { eH2, eH };
DampingMapping parse_damping_mapping(const std::string& name);

struct CollisionSetup {
  Material material = paper1_material();
  double diameter = paper1_diameter;
  double velocity = 0.1;       ///< approach speed, m/s
  double damping = 5e-4;       ///< SDEM c, s (000 Eq. 2/11); NDEM gets it through `mapping`
  DampingMapping mapping = DampingMapping::eH2;
  double time_step = 1e-6;     ///< h, s, the same in both engines
  int iterations = 20;         ///< NDEM N_it (one contact: exact after one sweep)
};
struct CollisionResult {
  double max_overlap_diff = 0;   ///< max over steps |delta_NDEM - delta_SDEM| / max delta_SDEM
  double peak_overlap_ndem = 0, peak_overlap_sdem = 0;  ///< m
  double peak_overlap_diff = 0;  ///< |peak_N - peak_S| / peak_S
  double rebound_ndem = 0, rebound_sdem = 0;  ///< separation speed / approach speed after the contact
  double contact_steps_ndem = 0, contact_steps_sdem = 0;
  double tau_n = 0;              ///< NDEM damping time used, s
  double impacts = 0;            ///< contacts the NDEM impact stage took (must be 0: smooth limit)
  double solve_seconds = 0;      ///< NDEM PGS wall time
};
CollisionResult run_collision(const CollisionSetup& s);

// --- settle: a short column on a plane dropped into contact by full gravity (touching, zero overlap), both
// engines at the same h and damping as in `collision`, every contact's overlap compared step by step
// (M2's "resting 1D column").
struct SettleSetup {
  Material material = paper1_material();
  double diameter = paper1_diameter;
  int count = 3;
  double gravity = 9.82;       ///< full from t = 0, m/s^2
  double duration = 0.02;      ///< s (several periods of the bottom contact, ~3 ms)
  double damping = 5e-4;
  DampingMapping mapping = DampingMapping::eH2;
  double time_step = 1e-6;
  int iterations = 20;
};
struct SettleResult {
  double max_overlap_diff = 0;    ///< max over steps and contacts |delta_N - delta_S| / max delta_S
  double final_overlap_diff = 0;  ///< max over contacts at the last step, relative to that contact's SDEM overlap
  double peak_overlap_sdem = 0;   ///< m
  double tau_n = 0;
  double solve_seconds = 0;       ///< NDEM PGS wall time
};
SettleResult run_settle(const SettleSetup& s);

// --- column: N spheres on a plane, gravity ramped, N_it fixed, then kinetic energy at rest (C33).
struct ColumnSetup {
  Material material = paper1_material(1e10);
  double diameter = paper1_diameter;
  int count = 20;
  GravityRamp gravity;
  double measure_time = 2.0;   ///< s at full gravity after the ramp (the paper measures 5 s, 000 l.598)
  double settle_time = 1.0;    ///< s of the window before the column counts as at rest (< measure_time)
  double time_step = 0.01;
  int iterations = 500;
};
struct ColumnResult {
  double kinetic_energy_window = 0;  ///< J, time average over the whole measuring window (after the ramp)
  double kinetic_energy_rest = 0;    ///< J, time average over the window after settle_time ("at rest")
  double kinetic_energy_rest_max = 0;  ///< J, largest at rest
  double max_speed_rest = 0;           ///< m/s, largest particle speed at rest
  double weight_energy = 0;        ///< N m g d, J (scale)
  double solve_seconds = 0;
  double iterations_total = 0;     ///< PGS iterations summed over the run (M5: seconds per iteration)
  std::vector<std::array<double, 3>> history;  ///< per step of the window: time (s), kinetic energy (J), max speed (m/s)
};
ColumnResult run_column_rest(const ColumnSetup& s);

}  // namespace grainlab::paper1
