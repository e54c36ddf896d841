#pragma once
// Single-body SDEM verification scenarios with known answers. The experiments sdem_impact,
// sdem_incline, sdem_rolling and sdem_column (experiments/sdem_*.cpp) wrap these, and the tests in
// tests/sdem call them directly, so the study pipeline and the unit tests measure the same thing.
// Each returns measured values next to the analytic ones; judging is left to the caller.
//
// Common conventions: one material for spheres and walls; planes at z = 0 with normal +z; the time step
// is dt_fraction times the elastic Hertz contact time (core/sdem/hertz_theory.hpp) at a stated speed.
#include <array>
#include <string>
#include <vector>

#include "core/material.hpp"
#include "experiments/experiment.hpp"
#include "core/sdem/sdem_stepper.hpp"

namespace grainlab::sdem {

struct SphereSpec {
  double radius = 0.005;          ///< m
  double density = 2500;          ///< kg/m^3
  double youngs_modulus = 5e6;    ///< Pa
  double poisson_ratio = 0.25;
  double restitution = 0.5;
  double friction = 0.5;
  double rolling_friction = 0.0;
  Material material() const;
  double mass() const;
};

// --- Normal impact (no gravity, no friction): sphere on sphere (head-on, equal spheres, each moving
// at velocity/2) or sphere on a fixed plane.
struct ImpactSetup {
  SphereSpec sphere;
  std::string target = "sphere";  ///< "sphere" or "wall"
  double velocity = 1.0;          ///< approach speed, m/s
  double dt_fraction = 0.02;      ///< dt = dt_fraction * t_c(velocity)
  SdemSettings settings;          ///< time_step is overwritten
};
struct ImpactResult {
  double peak_overlap = 0, peak_overlap_analytic = 0;  ///< m
  double peak_force = 0, peak_force_analytic = 0;      ///< N
  double contact_time = 0, contact_time_analytic = 0;  ///< s; measured: time with overlap > 0
  double restitution_measured = 0, restitution_requested = 0;
  double time_step = 0;
  std::vector<std::array<double, 3>> history;  ///< per step in contact: time (s, from first touch), overlap (m), f_n (N)
};
ImpactResult run_impact(const ImpactSetup& setup);

// --- Oblique impact on a fixed plane (no gravity): speed v at angle_deg from the normal, no spin.
struct ObliqueSetup {
  SphereSpec sphere;
  double velocity = 1.0, angle_deg = 45;
  double dt_fraction = 0.01;
  SdemSettings settings;
};
struct ObliqueResult {
  double vn_before = 0, vt_before = 0;   ///< normal (towards the wall, > 0) and tangential speeds before
  double vn_after = 0, vt_after = 0;     ///< after: normal away from the wall (> 0), tangential along +x
  double spin_after = 0;                 ///< angular velocity about the axis of rolling (+y), rad/s
};
ObliqueResult run_oblique(const ObliqueSetup& setup);

// --- Sphere released at rest on an incline of angle_deg (gravity tilted; plane at z = 0).
struct InclineSetup {
  SphereSpec sphere;
  double angle_deg = 20;
  double gravity = 9.81;
  double duration = 0.3;       ///< s
  double dt_fraction = 0.02;   ///< of t_c at 0.1 m/s
  SdemSettings settings;
};
struct InclineResult {
  double acceleration = 0, acceleration_analytic = 0;  ///< downhill, m/s^2
  int regime = 0, regime_analytic = 0;                 ///< 0 rest, 1 rolling, 2 sliding
  double displacement = 0;                             ///< downhill, m
  double slip_ratio = 0;                               ///< |v - w r| / |v| at the end (0 = rolling)
};
InclineResult run_incline(const InclineSetup& setup);

// --- Sphere launched rolling without slip on a flat plane; rolling resistance decelerates it.
struct RollingSetup {
  SphereSpec sphere;
  double velocity = 1.0;       ///< m/s
  double gravity = 9.81;
  double dt_fraction = 0.02;   ///< of t_c at 0.1 m/s
  SdemSettings settings;
};
struct RollingResult {
  double deceleration = 0, deceleration_analytic = 0;  ///< m/s^2 (> 0)
  double slip_ratio = 0;
  std::vector<std::array<double, 2>> history;  ///< time (s), speed (m/s), every 1 % of the run
};
RollingResult run_rolling(const RollingSetup& setup);

// --- Column of `count` spheres on a plane, settled under gravity.
struct ColumnSetup {
  SphereSpec sphere;
  int count = 10;
  double gravity = 9.81;
  double duration = 2.0;       ///< settling time, s
  double dt_fraction = 0.02;   ///< of t_c at 0.1 m/s (sphere on wall)
  SdemSettings settings;
};
struct ColumnResult {
  double bottom_force = 0, weight = 0;  ///< N
  double max_overlap_error = 0;         ///< max over contacts |d - (load/k_n)^{2/3}| / (load/k_n)^{2/3}
  double max_speed = 0;                 ///< at the end, m/s (how settled)
};
ColumnResult run_column(const ColumnSetup& setup);

/// Experiment parameters shared by the sdem_* experiments: radius, density, youngs_modulus,
/// poisson_ratio, restitution, friction, rolling_friction (defaults from `defaults`), with ranges.
std::vector<ParameterSpec> sphere_parameters(const SphereSpec& defaults, bool with_friction);
SphereSpec sphere_from(const Parameters& p, bool with_friction);

/// 0 rest, 1 rolling, 2 sliding for a sphere released on an incline (see docs/sdem.md).
int incline_regime(double angle_rad, double friction, double rolling_friction);
double incline_acceleration(double angle_rad, double friction, double rolling_friction, double g);

}  // namespace grainlab::sdem
