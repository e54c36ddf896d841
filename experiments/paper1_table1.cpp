// Experiment `paper1_table1`: the SDEM vs NDEM cost model of Paper I (seed 000 lines 541-573, 660-745,
// Eq. 35-42), evaluated for one row of Table I (000 lines 687-721). No simulation: formulas only.
//
// Inputs per row: particle diameter d, Young's modulus E, inertial number I, system length l and width w
// (in particle diameters), NDEM error tolerance eps. Constants: K_SDEM = K_NDEM^GS = 1e-6 s (000 l.552, 679),
// c0 = 0.3, c1 = 2.0, c2 = 0.44 (000 l.677). The paper leaves four conventions unstated; the ones below are
// the only ones found to reproduce the printed table (claims/paper1.md E5 and 3.2, pitfall P1):
//   N_p   = (pi/4) w^2 l for w >= 5, else l;        N_c = N_p
//   N_it  = c0 (1 + c1 I)/eps * h_eff, h_eff = w (1 - exp(-c2 l/w)) for w >= 5, else c2 l       (Eq. 41)
//   v_n   = 0.2 I sqrt(p/rho), p = (2/3) rho g d h_eff                                          (000 l.681)
//   h_S   = sqrt(m/k), m = rho pi d^3/6, k = E sqrt(2d)/(3(1 - nu^2))                            (Eq. 36)
//   h_N   = min(eps d/v_n, sqrt(2 eps d/g)), then min(h_N, h_ndem_max) (000 l.681 clamps)      (Eq. 37)
//   tau_S/tau_real = K_SDEM N_p/h_S;  tau_N/tau_real = K_NDEM N_it N_c/h_N                  (Eq. 35, 38)
// Reads only its parameters; writes nothing; no threads.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

RunResult table1_row(const Parameters& p, RunContext&) {
  const double d = p.real("d"), E = p.real("youngs_modulus"), I = p.real("inertial_number");
  const double l = p.real("length"), w = p.real("width"), eps = p.real("tolerance");
  const double rho = p.real("density"), nu = p.real("poisson_ratio"), g = p.real("gravity");
  const double c0 = p.real("c0"), c1 = p.real("c1"), c2 = p.real("c2");
  const double K_s = p.real("K_sdem"), K_n = p.real("K_ndem"), h_max = p.real("h_ndem_max");
  const bool wide = w >= 5.0;  // narrow systems (w = 1) are 1D columns: N_p = l, Eq. (41) narrow limit
  const double N_p = wide ? std::numbers::pi / 4.0 * w * w * l : l;
  const double N_c = N_p;
  const double h_eff = wide ? w * (1.0 - std::exp(-c2 * l / w)) : c2 * l;
  const double N_it = c0 * (1.0 + c1 * I) / eps * h_eff;
  const double v_n = 0.2 * I * std::sqrt(2.0 / 3.0 * g * d * h_eff);
  const double m = rho * std::numbers::pi * d * d * d / 6.0;
  const double k = E * std::sqrt(2.0 * d) / (3.0 * (1.0 - nu * nu));
  const double h_S = std::sqrt(m / k);
  double h_N = std::sqrt(2.0 * eps * d / g);
  if (v_n > 0.0) h_N = std::min(h_N, eps * d / v_n);
  if (h_max > 0.0) h_N = std::min(h_N, h_max);
  const double tau_S = K_s * N_p / h_S, tau_N = K_n * N_it * N_c / h_N;
  RunResult r;
  r.metrics = {{"N_p", N_p},           {"N_c", N_c},           {"N_it", N_it},
               {"v_n_mm_s", v_n * 1e3}, {"h_S_ms", h_S * 1e3},  {"h_N_ms", h_N * 1e3},
               {"tauS_over_treal", tau_S}, {"tauN_over_treal", tau_N}, {"tauN_over_tauS", tau_N / tau_S}};
  return r;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper1_table1",
    .description = "Paper I cost model (Eq. 35-42): SDEM vs NDEM time per real time for one row of Table I",
    .parameters =
        {
            {"row", ParamType::integer, "-", std::int64_t{0}, 0.0, 1000.0, "row label of Table I (not used in the formulas)"},
            {"d", ParamType::real, "m", 0.01, 1e-6, 10.0, "particle diameter"},
            {"youngs_modulus", ParamType::real, "Pa", 1e7, 1.0, 1e13, "Young's modulus E"},
            {"inertial_number", ParamType::real, "-", 0.0, 0.0, 10.0, "inertial number I of the flow"},
            {"length", ParamType::real, "d", 10.0, 1.0, 1e9, "system length l (height) in particle diameters"},
            {"width", ParamType::real, "d", 1.0, 1.0, 1e9, "system width w in particle diameters (w < 5: 1D column)"},
            {"tolerance", ParamType::real, "-", 0.05, 1e-9, 1.0, "NDEM error tolerance eps"},
            {"density", ParamType::real, "kg/m^3", 2500.0, 1.0, 1e5, "particle density rho (reconstructed, 000 l.541)"},
            {"poisson_ratio", ParamType::real, "-", 0.3, 0.0, 0.5, "Poisson ratio nu in k (reconstructed)"},
            {"gravity", ParamType::real, "m/s^2", 9.8, 0.0, 1000.0, "gravitational acceleration g"},
            {"c0", ParamType::real, "-", 0.3, 0.0, 100.0, "Eq. (41) coefficient c0 (000 l.677)"},
            {"c1", ParamType::real, "-", 2.0, 0.0, 100.0, "Eq. (41) coefficient c1 (000 l.677)"},
            {"c2", ParamType::real, "-", 0.44, 0.0, 100.0, "Eq. (41) coefficient c2 (000 l.677)"},
            {"K_sdem", ParamType::real, "s", 1e-6, 0.0, 1.0, "SDEM cost per particle and step (000 l.679)"},
            {"K_ndem", ParamType::real, "s", 1e-6, 0.0, 1.0, "NDEM GS cost per contact and iteration (000 l.679)"},
            {"h_ndem_max", ParamType::real, "s", 0.0, 0.0, 1.0, "clamp of the NDEM step, 0 = none (000 l.681)"},
        },
    .run = table1_row}};

}  // namespace
}  // namespace grainlab
