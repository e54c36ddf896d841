// The cost measurement (experiments/cost_measurement.hpp) and the cost model's NDEM overhead term
// (experiments/cost_model.hpp): the test systems have Table I's N_p, the counts that define K_NDEM^GS are
// what the PGS did, and the pooled K's are sums of times over sums of counts.
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/error.hpp"
#include "experiments/cost_measurement.hpp"
#include "experiments/cost_model.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(cost_measurement)

// The pack fills a circle of diameter w with a square lattice: (pi/4) w^2 sites per layer within the
// Gauss-circle error (a few per cent at w = 8-16), so N_p is Table I's N_p = (pi/4) w^2 l.
BOOST_AUTO_TEST_CASE(pack_and_column_have_table1_particle_counts) {
  for (const double w : {8.0, 16.0}) {
    CostSystem s;
    s.width = w;
    s.length = 5;
    World world;
    build_cost_system(s, world);
    const double table1 = std::numbers::pi / 4 * w * w * s.length;
    BOOST_TEST_MESSAGE("w = " << w << ": N_p = " << world.particles.size() << ", (pi/4) w^2 l = " << table1);
    BOOST_TEST(std::abs(double(world.particles.size()) / table1 - 1.0) < 0.08);
  }
  CostSystem c;
  c.kind = CostSystemKind::column;
  c.length = 37;
  World world;
  build_cost_system(c, world);
  BOOST_TEST(world.particles.size() == 37u);
}

// Fixed N_it (no residual stop): every step uses N_it iterations, so contact-iterations = N_it x the
// contacts summed over steps. A settled random pack (which starts with gaps of up to 0.1 d, closing in the
// first steps): N_c/N_p up to half the coordination number (4-6, loose random pack) plus floor and wall
// contacts -- between 1 and 3.5.
BOOST_AUTO_TEST_CASE(ndem_counts_are_what_the_pgs_did) {
  CostSystem s;
  s.width = 6;
  s.length = 6;
  const CostTiming t = measure_cost(s, {.method = CostMethod::ndem, .time_step = 0.01, .iterations = 7, .steps = 4});
  BOOST_TEST(t.iterations_mean == 7.0);
  BOOST_TEST(t.contact_iterations == 7.0 * t.contacts_mean * 4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.particle_steps == t.particles * 4);
  BOOST_TEST_MESSAGE("pack w = 6, l = 6: N_c / N_p = " << t.contacts_mean / t.particles);
  BOOST_TEST(t.contacts_mean / t.particles > 1.0);
  BOOST_TEST(t.contacts_mean / t.particles < 3.5);
  BOOST_TEST(t.stages.solve > 0.0);
  BOOST_TEST(t.total_s >= t.stages.solve);
}

// The 1D column: N_c = N_p (one contact below each sphere), Paper I's N_c = N_p.
BOOST_AUTO_TEST_CASE(column_has_one_contact_per_particle) {
  CostSystem s;
  s.kind = CostSystemKind::column;
  s.length = 20;
  const CostTiming t = measure_cost(s, {.method = CostMethod::ndem, .time_step = 0.01, .iterations = 20, .steps = 3});
  BOOST_TEST(t.contacts_mean == 20.0);
}

// SDEM: sum over sum. NDEM: three runs made exactly of cpu/step = K x + K_o N_p give K and K_o back.
BOOST_AUTO_TEST_CASE(pooled_constants_recover_the_cost_law) {
  CostTiming a, b;
  a.method = b.method = CostMethod::sdem;
  a.particle_steps = 100;
  a.cpu_s = 1e-3;
  b.particle_steps = 300;
  b.cpu_s = 5e-3;
  std::vector<CostTiming> runs{a, b};
  const double K = 4e-8, K_o = 3e-7;
  for (const auto& [x, n] : {std::pair{1e4, 500.0}, std::pair{5e4, 500.0}, std::pair{2e4, 2000.0}}) {
    CostTiming t;
    t.method = CostMethod::ndem;
    t.steps = 10;
    t.particles = n;
    t.particle_steps = 10 * n;
    t.contact_iterations = 10 * x;
    t.cpu_s = 10 * (K * x + K_o * n);
    runs.push_back(t);
  }
  CostConstants k = pool_cost_constants(runs);
  BOOST_TEST(k.K_sdem == 6e-3 / 400, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(k.K_ndem == K, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(k.K_ndem_overhead == K_o, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(k.sdem_runs == 2);
  BOOST_TEST(k.ndem_runs == 3);
  // One NDEM run: K alone, the overhead folded into it.
  k = pool_cost_constants({runs[2]});
  BOOST_TEST(k.K_ndem == (K * 1e4 + K_o * 500) / 1e4, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(k.K_ndem_overhead == 0.0);
}

// tau_N/tau_real = (K_NDEM N_it N_c + K_overhead N_p) / h_N; overhead 0 is Paper I's Eq. 38.
BOOST_AUTO_TEST_CASE(overhead_term_adds_per_particle_cost) {
  CostInputs in;
  in.width = 15;
  in.length = 100;
  in.tolerance = 0.05;
  const CostEstimate paper = estimate_cost(in);
  BOOST_TEST(paper.tauN_over_treal == in.K_ndem * paper.N_it * paper.N_c / paper.h_N, boost::test_tools::tolerance(1e-12));
  in.K_ndem_overhead = 3e-6;
  const CostEstimate ours = estimate_cost(in);
  BOOST_TEST(ours.tauN_over_treal - paper.tauN_over_treal == 3e-6 * paper.N_p / paper.h_N, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(ours.tauS_over_treal == paper.tauS_over_treal);
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_parameter) {
  BOOST_CHECK_EXCEPTION(parse_cost_system_kind("heap"), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("kind = 'heap'") != std::string::npos; });
  CostSystem s;
  s.width = 0.5;
  World w;
  BOOST_CHECK_EXCEPTION(build_cost_system(s, w), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("width") != std::string::npos; });
}

BOOST_AUTO_TEST_SUITE_END()
