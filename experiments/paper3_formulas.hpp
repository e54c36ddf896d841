#pragma once
// Paper III arithmetic (seed 000 lines 1136-1144, 1186-1208, 1239, 1416-1442; slides 004 l.171-207): the
// laboratory identification of the pellet parameters (E0) and the time-step, impact and cost rules (E9),
// each as the paper writes it, so that a study can regenerate every derived number from the printed inputs.
// Hertz stiffness from E goes through core/hertz.hpp (the engine's convention), nothing is re-derived here.
#include <string>

namespace grainlab::paper3 {

/// E = 3 k_n (1 - nu^2) / sqrt(2 d) (000 l.1194): sphere-on-plane Hertz, k_n in N/m^{3/2}.
double youngs_modulus_from_hertz(double kn, double poisson, double diameter);
/// k_n of a pellet on a plane of the same material from E (core/hertz.hpp, E* = E / (2 (1 - nu^2)), R* = d/2).
double hertz_from_youngs_modulus(double youngs_modulus, double poisson, double diameter);
/// Free-fall speed sqrt(2 g h) (000 l.1198) and its first-order uncertainty for a height uncertainty dh.
double fall_speed(double gravity, double height);
double fall_speed_uncertainty(double gravity, double height, double height_uncertainty);
/// Rolling resistance from the incline onset angle (000 l.1206): "tan" (torque balance of a sphere on an
/// incline) or "sin" (as printed); InputError naming `convention` otherwise.
double rolling_resistance_from_onset(double angle_rad, const std::string& convention);
/// d mu_r / d phi times the angle uncertainty (first order).
double rolling_resistance_uncertainty(double angle_rad, double angle_uncertainty_rad, const std::string& convention);
/// Shape factor 4 pi A / L^2 of a regular polygon with n sides (000 l.1208 footnote; a square is pi/4).
double polygon_shape_factor(int sides);
/// Eq. 7: Dt <~ min(eps d / v_n, sqrt(2 eps d / g)); v_imp = eps d / Dt (000 l.1138-1140). The first
/// term alone (an impact at v_n resolved to eps d) is what l.1239 and l.1416 evaluate.
double resolving_time_step(double eps, double diameter, double normal_velocity);
double time_step_rule(double eps, double diameter, double normal_velocity, double gravity);
double impact_threshold(double eps, double diameter, double time_step);
/// N_it = 0.1 n / eps, n the contacts along gravity (000 l.1140).
double iteration_rule(double contacts_along_gravity, double eps);
/// Depth (sagitta) of a drum bed whose free surface is the chord between the wall angles theta1, theta2.
double bed_depth(double drum_radius, double theta1_rad, double theta2_rad);
/// Characteristic shear rate 2 omega / (1 - cos(theta / 2)), theta = theta2 - theta1 (000 l.1416).
double drum_shear_rate(double omega, double theta1_rad, double theta2_rad);
/// Conventional DEM step 0.17 sqrt(m / k_n) (000 l.1440, their ref. [22]).
double dem_time_step(double factor, double mass, double kn);
/// Eq. 8: t_comp / t_real = K_cpu N_it alpha_p N_p / (N_cpu Dt) (000 l.1142).
double compute_time_per_real_time(double k_cpu, int iterations, double contacts_per_particle, double particles,
                                  int cpus, double time_step);

}  // namespace grainlab::paper3
