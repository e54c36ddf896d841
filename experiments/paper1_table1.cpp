// Experiment `paper1_table1`: the SDEM vs NDEM cost model of Paper I (seed 000 lines 541-573, 660-745,
// Eq. 35-42), evaluated for one row of Table I (000 lines 687-721). No simulation: formulas only.
//
// Inputs per row: d, E, I, l, w (in particle diameters), eps; constants K_SDEM = K_NDEM^GS = 1e-6 s
// (000 l.552, 679), c0-c2 (000 l.677). The formulas and their reconstructed conventions: cost_model.hpp.
// Metrics ndem_faster (tau_N/tau_S < 1), and with the printed ratio given, printed_ndem_faster and
// winner_flips: for a Table I evaluated with other K (studies/paper1_table1_measured.toml).
// Reads only its parameters; writes nothing; no threads.
#include <limits>

#include "experiments/cost_model.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

RunResult table1_row(const Parameters& p, RunContext&) {
  CostInputs in;
  in.d = p.real("d");
  in.youngs_modulus = p.real("youngs_modulus");
  in.inertial_number = p.real("inertial_number");
  in.length = p.real("length");
  in.width = p.real("width");
  in.tolerance = p.real("tolerance");
  in.density = p.real("density");
  in.poisson_ratio = p.real("poisson_ratio");
  in.gravity = p.real("gravity");
  in.c0 = p.real("c0");
  in.c1 = p.real("c1");
  in.c2 = p.real("c2");
  in.K_sdem = p.real("K_sdem");
  in.K_ndem = p.real("K_ndem");
  in.h_ndem_max = p.real("h_ndem_max");
  in.contacts_per_particle = p.real("contacts_per_particle");
  in.normal_velocity = p.real("normal_velocity");
  in.particles = p.real("particles");
  in.iterations = p.real("iterations");
  in.sdem_time_step = p.real("h_sdem");
  in.ndem_time_step = p.real("h_ndem");
  const CostEstimate c = estimate_cost(in);
  // Which method wins this row, and whether that differs from the printed table (a Table I with other K).
  const double printed = p.real("printed_tauN_over_tauS");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double ndem_faster = c.tauN_over_tauS() < 1.0 ? 1.0 : 0.0;
  const double printed_ndem_faster = printed > 0 ? (printed < 1.0 ? 1.0 : 0.0) : nan;
  RunResult r;
  r.metrics = {{"N_p", c.N_p},
               {"N_c", c.N_c},
               {"N_it", c.N_it},
               {"v_n_mm_s", c.v_n * 1e3},
               {"h_S_ms", c.h_S * 1e3},
               {"h_N_ms", c.h_N * 1e3},
               {"tauS_over_treal", c.tauS_over_treal},
               {"tauN_over_treal", c.tauN_over_treal},
               {"tauN_over_tauS", c.tauN_over_tauS()},
               {"ndem_faster", ndem_faster},
               {"printed_ndem_faster", printed_ndem_faster},
               {"winner_flips", printed > 0 ? double(ndem_faster != printed_ndem_faster) : nan}};
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
            {"contacts_per_particle", ParamType::real, "-", 1.0, 0.0, 100.0,
             "N_c/N_p (reconstructed 1 for Table I; the text suggests n_c/2 = 3-6, 000 l.544, 738)"},
            {"normal_velocity", ParamType::real, "m/s", 0.0, 0.0, 1e3, "v_n when stated (0: 0.2 I sqrt(p/rho))"},
            {"particles", ParamType::real, "-", 0.0, 0.0, 1e12, "N_p when stated (0: from l and w)"},
            {"iterations", ParamType::real, "-", 0.0, 0.0, 1e9, "N_it when stated (0: Eq. 41)"},
            {"h_sdem", ParamType::real, "s", 0.0, 0.0, 1.0, "SDEM step when stated (0: sqrt(m/k), Eq. 36)"},
            {"h_ndem", ParamType::real, "s", 0.0, 0.0, 1.0, "NDEM step when stated (0: Eq. 37)"},
            {"printed_tauN_over_tauS", ParamType::real, "-", 0.0, 0.0, 1e9,
             "the row's printed tau_N/tau_S (for winner_flips); 0 = not given (then NaN)"},
        },
    .run = table1_row}};

}  // namespace
}  // namespace grainlab
