// The model-based warm start (Paper IV Eq. 9, 000 l.1604-1616) on the Paper IV E1 column is stable only
// from a threshold N_it that grows with N_p and dt (studies/paper4_e1_wm_stability.toml,
// docs/paper4_e1.md): both sides of the threshold at two points of the full-tier map, and the same
// under-iterated column stable at a smaller dt. Runs through experiment ndem_column as the study does.
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

#include "experiments/experiment.hpp"

using namespace grainlab;

namespace {

// Paper IV Table 1 column (d = 13 mm, E = 6 MPa, e = 0.18, v_imp = 0.05 m/s), 1e-5 d initial overlap;
// divergence (overlap > 2 radii, a pass-through, a non-finite state) recorded as diverged = 1.
double diverged(int count, int iterations, double factor, double dt) {
  const Experiment& e = find_experiment("ndem_column");
  RunContext ctx;
  const RunResult r = e.run(e.complete({{"count", std::int64_t(count)},
                                        {"iterations", std::int64_t(iterations)},
                                        {"warm_start", std::string("model")},
                                        {"model_warm_start_factor", factor},
                                        {"dt", dt},
                                        {"duration", 3.0},
                                        {"gravity", 9.81},
                                        {"impact_velocity", 0.05},
                                        {"initial_overlap", 1e-5},
                                        {"on_pass_through", std::string("stop")},
                                        {"max_energy_gain", 1000.0},
                                        {"on_instability", std::string("record")}}),
                            ctx);
  return r.metrics.at("diverged");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_model_warm_start_threshold)

// Printed factor 5/4, N_p = 5, dt = 5 ms: diverges at N_it = 8, stable at 15 (threshold 12).
BOOST_AUTO_TEST_CASE(printed_factor_np5) {
  BOOST_TEST(diverged(5, 8, 1.25, 0.005) == 1.0);
  BOOST_TEST(diverged(5, 15, 1.25, 0.005) == 0.0);
}

// Consistent factor 4/5, N_p = 25, dt = 5 ms: diverges at N_it = 10, stable at 18 (threshold 15).
BOOST_AUTO_TEST_CASE(consistent_factor_np25) {
  BOOST_TEST(diverged(25, 10, 0.8, 0.005) == 1.0);
  BOOST_TEST(diverged(25, 18, 0.8, 0.005) == 0.0);
}

// The threshold falls with dt: the N_p = 5 column that diverges at N_it = 8 with dt = 5 ms is stable at 1 ms.
BOOST_AUTO_TEST_CASE(smaller_dt_is_stable) { BOOST_TEST(diverged(5, 8, 1.25, 0.001) == 0.0); }

BOOST_AUTO_TEST_SUITE_END()
