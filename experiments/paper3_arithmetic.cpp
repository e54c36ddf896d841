// Experiment `paper3_arithmetic`: Paper III's identification arithmetic (E0, 000 l.1186-1208) and its
// time-step / impact / cost rules (E9, 000 l.1136-1144, 1239, 1416-1442; slides 004 l.202-207), evaluated
// from the printed inputs (the parameter defaults, each with its line) by experiments/paper3_formulas.*.
// No simulation. The checks of studies/paper3_arithmetic.toml compare each result with the printed value.
#include <cmath>
#include <string>

#include "core/math.hpp"
#include "core/ndem/ndem_settings.hpp"
#include "experiments/experiment.hpp"
#include "experiments/paper3_formulas.hpp"

namespace grainlab {
namespace {

RunResult evaluate(const Parameters& p, RunContext&) {
  using namespace paper3;
  const double deg = pi / 180;
  const double d = p.real("diameter"), nu = p.real("poisson_ratio"), g = p.real("gravity");
  const double kn = p.real("hertz_coefficient"), kn_sd = p.real("hertz_coefficient_uncertainty");
  const double mass = p.real("density") * pi * d * d * d / 6;
  const double v_minus = fall_speed(g, p.real("release_height"));
  const double v_plus = fall_speed(g, p.real("bounce_height"));
  const double phi = p.real("onset_angle_deg") * deg;
  const std::string& conv = p.text("rolling_convention");
  const double eps_imp = p.real("impact_epsilon"), eps_rule = p.real("rule_epsilon");
  const double th1 = p.real("theta1_deg") * deg, th2 = p.real("theta2_deg") * deg;
  const double omega = p.real("drum_omega");
  // tau_n = max(n_s Dt, c / e_H) as the engine computes it (000 l.1501; n_s = 2, e_H = 5/4).
  NdemSettings ndem;
  ndem.damping_time = p.real("damping_time");
  auto tau_n = [&](double dt) {
    ndem.time_step = dt;
    return ndem.relaxation_time();
  };
  const double c_over_eH = ndem.damping_time / ndem.hertz_exponent();
  const double v_belt = fall_speed(g, p.real("belt_drop_height"));
  const double layers = bed_depth(p.real("drum_diameter") / 2, th1, th2) / d;
  const double shear = drum_shear_rate(omega, th1, th2);
  // Slide cost line (004 l.205): t_comp of DEM (Dt, N_it = 1) over NDEM (Dt, N_it) for the same system (Eq. 8).
  const double dem_cost = compute_time_per_real_time(1e-6, int(p.integer("slides_dem_iterations")), 3, 1e6, 1,
                                                     p.real("slides_dem_dt"));
  const double ndem_cost = compute_time_per_real_time(1e-6, int(p.integer("slides_ndem_iterations")), 3, 1e6, 1,
                                                      p.real("slides_ndem_dt"));
  RunResult r;
  r.metrics = {
      {"pellet_mass", mass},
      {"youngs_modulus_MPa", youngs_modulus_from_hertz(kn, nu, d) / 1e6},
      {"youngs_modulus_sd_MPa", youngs_modulus_from_hertz(kn_sd, nu, d) / 1e6},
      {"hertz_from_table1_E", hertz_from_youngs_modulus(p.real("youngs_modulus"), nu, d)},
      {"drop_impact_speed", v_minus},
      {"drop_rebound_speed", v_plus},
      {"drop_rebound_speed_sd", fall_speed_uncertainty(g, p.real("bounce_height"), p.real("bounce_height_uncertainty"))},
      {"restitution_identified", v_plus / v_minus},
      {"rolling_resistance_identified", rolling_resistance_from_onset(phi, conv)},
      {"rolling_resistance_sd", rolling_resistance_uncertainty(phi, p.real("onset_angle_uncertainty_deg") * deg, conv)},
      {"square_shape_factor", polygon_shape_factor(int(p.integer("polygon_sides")))},
      {"tau_n_fine_over_c_eH", tau_n(p.real("fine_dt")) / c_over_eH},
      {"tau_n_validation_over_ns_dt", tau_n(p.real("validation_dt")) / (ndem.n_s * p.real("validation_dt"))},
      {"drop_dt_rule_ms", resolving_time_step(eps_imp, d, v_minus) * 1e3},
      {"eps_implied_by_validation_dt", v_minus * p.real("validation_dt") / d},
      {"impact_threshold_fine_dt", impact_threshold(eps_imp, d, p.real("fine_dt"))},
      {"impact_threshold_validation_dt", impact_threshold(eps_imp, d, p.real("validation_dt"))},
      {"drum_dt_rule_ms", time_step_rule(eps_rule, d, p.real("drum_normal_velocity"), g) * 1e3},
      {"belt_impact_speed", v_belt},
      {"belt_dt_rule_ms", resolving_time_step(eps_rule, d, v_belt) * 1e3},
      {"dem_time_step_ms", dem_time_step(p.real("dem_factor"), mass, kn) * 1e3},
      {"drum_bed_layers", layers},
      {"iteration_rule_drum", iteration_rule(layers, eps_rule)},
      {"drum_shear_rate", shear},
      {"drum_shear_velocity", shear * d},
      {"revolution_period", 2 * pi / omega},
      {"slides_dem_over_ndem_cost", dem_cost / ndem_cost},
  };
  return r;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper3_arithmetic",
    .description = "Paper III identification arithmetic (E0) and time-step/impact/cost rules (E9) from the printed "
                   "inputs (000 l.1136-1208, 1239, 1416-1442; 004 l.171-207); formulas only",
    .parameters =
        {
            {"diameter", ParamType::real, "m", 0.0127, 1e-6, 10.0, "pellet diameter d (Table 1, 000 l.1164)"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1.0, 1e5, "pellet density (000 l.1163, 1190)"},
            {"poisson_ratio", ParamType::real, "-", 0.25, 0.0, 0.5, "assumed nu (000 l.1194)"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.1, 100.0, "g_acc (000 l.1140)"},
            {"hertz_coefficient", ParamType::real, "N/m^1.5", 0.35e6, 1.0, 1e12, "k_n fitted to Forsmo's data (000 l.1194)"},
            {"hertz_coefficient_uncertainty", ParamType::real, "N/m^1.5", 0.05e6, 0.0, 1e12, "its +- (000 l.1194)"},
            {"youngs_modulus", ParamType::real, "Pa", 6.2e6, 1.0, 1e13, "Table 1 E (000 l.1165)"},
            {"release_height", ParamType::real, "m", 0.45, 1e-4, 100.0, "drop-test release height (000 l.1198)"},
            {"bounce_height", ParamType::real, "m", 0.012, 1e-6, 100.0, "drop-test bounce height (000 l.1198)"},
            {"bounce_height_uncertainty", ParamType::real, "m", 0.004, 0.0, 100.0, "its +- (000 l.1198)"},
            {"onset_angle_deg", ParamType::real, "deg", 17.8, 0.0, 89.0, "rolling onset angle phi_r (000 l.1206)"},
            {"onset_angle_uncertainty_deg", ParamType::real, "deg", 0.1, 0.0, 45.0,
             "its +- (0.1 deg at 000 l.1206; l.1247 quotes 1 deg)"},
            {"rolling_convention", ParamType::text, "", std::string("tan"), {}, {},
             "mu_r from phi_r: tan (torque balance) or sin (as printed, 000 l.1206)", {"tan", "sin"}},
            {"polygon_sides", ParamType::integer, "-", std::int64_t(4), 3.0, 1e6,
             "regular polygon of the shape-factor footnote (4: the square, 000 l.1208)"},
            {"damping_time", ParamType::real, "s", 1e-3, 0.0, 10.0, "Hertz viscous damping time c (000 l.1426)"},
            {"validation_dt", ParamType::real, "s", 0.005, 1e-7, 1.0, "validation time step (000 l.1360)"},
            {"fine_dt", ParamType::real, "s", 1e-4, 1e-7, 1.0, "the fine drum run's time step (000 l.1426)"},
            {"impact_epsilon", ParamType::real, "-", 0.02, 1e-6, 10.0,
             "eps of v_imp = eps d / Dt (0.02: 000 l.1239, 1424; ledger P3)"},
            {"rule_epsilon", ParamType::real, "-", 0.01, 1e-6, 10.0, "eps of the Eq. 7 time-step argument (000 l.1416)"},
            {"drum_normal_velocity", ParamType::real, "m/s", 0.02, 1e-6, 100.0, "assumed drum v_n (000 l.1416)"},
            {"belt_drop_height", ParamType::real, "m", 0.45, 0.0, 100.0, "drum-to-conveyor distance h_db (000 l.1265)"},
            {"drum_diameter", ParamType::real, "m", 3.7, 0.01, 100.0, "balling drum inner diameter (000 l.1258)"},
            {"drum_omega", ParamType::real, "rad/s", 0.53, 1e-3, 100.0, "drum angular velocity (000 l.1258)"},
            {"theta1_deg", ParamType::real, "deg", 120.0, 0.0, 360.0, "observed bed edge theta_1 (000 l.1291)"},
            {"theta2_deg", ParamType::real, "deg", 167.0, 0.0, 360.0, "observed bed edge theta_2 (000 l.1291)"},
            {"dem_factor", ParamType::real, "-", 0.17, 0.0, 10.0, "Dt_DEM <= factor sqrt(m/k_n) (000 l.1440)"},
            {"slides_dem_dt", ParamType::real, "s", 0.02e-3, 1e-9, 1.0, "slides: DEM time step (004 l.205)"},
            {"slides_dem_iterations", ParamType::integer, "-", std::int64_t(1), 1.0, 1e6, "slides: DEM N_it (004 l.205)"},
            {"slides_ndem_dt", ParamType::real, "s", 0.005, 1e-9, 1.0, "slides: NDEM time step (004 l.205)"},
            {"slides_ndem_iterations", ParamType::integer, "-", std::int64_t(250), 1.0, 1e6,
             "slides: NDEM N_it (004 l.205; the paper uses 150)"},
        },
    .run = evaluate}};

}  // namespace
}  // namespace grainlab
