#include "experiments/paper3_formulas.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/math.hpp"

namespace grainlab::paper3 {

double youngs_modulus_from_hertz(double kn, double poisson, double diameter) {
  return 3 * kn * (1 - poisson * poisson) / std::sqrt(2 * diameter);
}

double hertz_from_youngs_modulus(double youngs_modulus, double poisson, double diameter) {
  return hertz_stiffness(youngs_modulus / (2 * (1 - poisson * poisson)), diameter / 2);
}

double fall_speed(double gravity, double height) { return std::sqrt(2 * gravity * height); }

double fall_speed_uncertainty(double gravity, double height, double height_uncertainty) {
  return fall_speed(gravity, height) * height_uncertainty / (2 * height);
}

namespace {
bool use_tan(const std::string& convention) {
  if (convention == "tan") return true;
  if (convention == "sin") return false;
  throw InputError("rolling_convention: '" + convention + "' is not one of tan, sin");
}
}  // namespace

double rolling_resistance_from_onset(double angle_rad, const std::string& convention) {
  return use_tan(convention) ? std::tan(angle_rad) : std::sin(angle_rad);
}

double rolling_resistance_uncertainty(double angle_rad, double angle_uncertainty_rad, const std::string& convention) {
  const double c = std::cos(angle_rad);
  return angle_uncertainty_rad * (use_tan(convention) ? 1 / (c * c) : c);
}

double polygon_shape_factor(int sides) {
  if (sides < 3) throw InputError("polygon_sides: " + std::to_string(sides) + " must be >= 3");
  const double n = sides;
  return pi / (n * std::tan(pi / n));  // A = n s^2 / (4 tan(pi/n)), L = n s
}

double resolving_time_step(double eps, double diameter, double normal_velocity) {
  return eps * diameter / normal_velocity;
}

double time_step_rule(double eps, double diameter, double normal_velocity, double gravity) {
  return std::min(resolving_time_step(eps, diameter, normal_velocity), std::sqrt(2 * eps * diameter / gravity));
}

double impact_threshold(double eps, double diameter, double time_step) { return eps * diameter / time_step; }

double iteration_rule(double contacts_along_gravity, double eps) { return 0.1 * contacts_along_gravity / eps; }

double bed_depth(double drum_radius, double theta1_rad, double theta2_rad) {
  return drum_radius * (1 - std::cos((theta2_rad - theta1_rad) / 2));
}

double drum_shear_rate(double omega, double theta1_rad, double theta2_rad) {
  return 2 * omega / (1 - std::cos((theta2_rad - theta1_rad) / 2));
}

double dem_time_step(double factor, double mass, double kn) { return factor * std::sqrt(mass / kn); }

double compute_time_per_real_time(double k_cpu, int iterations, double contacts_per_particle, double particles,
                                  int cpus, double time_step) {
  return k_cpu * iterations * contacts_per_particle * particles / (cpus * time_step);
}

}  // namespace grainlab::paper3
