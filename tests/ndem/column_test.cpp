// Columns and packings: Hertz overlaps over eight decades of E (issue item 2; 000 l.685, 723), static
// wall load = weight (item 4), warm starting (item 5), semi-smooth limit (item 3), determinism and
// bad input.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include <tbb/global_control.h>

#include "core/error.hpp"
#include "core/scheduling_policy.hpp"
#include "tests/ndem/ndem_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::ndem_test;

namespace {

// Paper IV column (000 l.1625-1640): d = 13 mm, rho = 3700, spheres stacked with zero overlap.
constexpr double col_d = 0.013;

World column(int n, double E, double mu_r = 0.0) {
  Material m = pellet();
  m.youngs_modulus = E;
  m.rolling_friction = mu_r;
  World w = floor_world(m);
  for (int i = 0; i < n; ++i) w.add_sphere(Vec3(0, 0, col_d / 2 + i * col_d), col_d / 2, 0);
  return w;
}

// Hertz overlaps of the resting column: contact j (0 = floor) carries (n - j) m g.
std::vector<double> hertz_overlaps(const World& w, int n) {
  const Material& m = w.materials[0];
  const double mg = w.particles.mass[0] * g_acc;
  std::vector<double> out;
  for (int j = 0; j < n; ++j) {
    const double rstar = j == 0 ? col_d / 2 : col_d / 4;
    out.push_back(std::pow((n - j) * mg / hertz_stiffness(estar(m), rstar), 2.0 / 3.0));
  }
  return out;
}

// Simulated overlaps in the same order (from the positions after the last step).
std::vector<double> sim_overlaps(const World& w, int n) {
  std::vector<double> out;
  out.push_back(col_d / 2 - w.particles.position[0].z());
  for (int j = 1; j < n; ++j) out.push_back(col_d - (w.particles.position[j].z() - w.particles.position[j - 1].z()));
  return out;
}

double height_error(const World& w, int n) {
  // eps_l = (l - l_sim) / l (000 Eq. 12 of Paper IV), l from the Hertz overlaps.
  double l = n * col_d;
  for (double d : hertz_overlaps(w, n)) l -= d;
  const double lsim = w.particles.position[n - 1].z() + col_d / 2;
  return (l - lsim) / l;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_column)

// 20 spheres, N_it = 500: every overlap within 0.001 d of Hertz for E = 1e5 ... 1e13 Pa.
// Time step: 5 ms up to E = 1e9 and 1 ms above (000 l.681 clamps Dt at E = 10 GPa, to 4 ms for
// d = 10 mm; we take 1 ms for margin). Run 1 s of settling.
BOOST_AUTO_TEST_CASE(hertz_column_over_eight_decades) {
  const int n = 20;
  for (double E : {1e5, 1e7, 1e9, 1e11, 1e13}) {
    World w = column(n, E);
    NdemSettings s;
    s.time_step = E > 1e9 ? 0.001 : 0.005;
    s.iterations = 500;
    NdemStepper ndem(s);
    const int steps = int(1.0 / s.time_step);
    for (int k = 0; k < steps; ++k) ndem.step(w);
    const auto h = hertz_overlaps(w, n), sim = sim_overlaps(w, n);
    double worst = 0, mean = 0;
    for (int j = 0; j < n; ++j) {
      worst = std::max(worst, std::abs(sim[j] - h[j]) / col_d);
      mean += std::abs(sim[j] - h[j]) / col_d / n;
    }
    BOOST_TEST_MESSAGE("column E = " << E << ": mean |delta - delta_Hertz| / d = " << mean << ", max = " << worst
                                     << ", floor overlap / d = " << h[0] / col_d);
    // 000 l.723: "mean error of less than 0.001 of a particle diameter"; we also bound the max at 2e-3.
    BOOST_TEST(mean < 1e-3);
    BOOST_TEST(worst < 2e-3);
  }
}

// Static load: the floor carries the weight of a resting packing (rtol 1e-3 at high N_it).
BOOST_AUTO_TEST_CASE(static_load_equals_weight) {
  Material m = pellet();
  World w = floor_world(m);
  const double d = pellet_d, box = 3.3 * d;
  for (Vec3 nrm : {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0)}) {
    Wall side;
    side.name = "side";
    side.shape = PlaneShape{Vec3(box / 2, box / 2, 0) - nrm * (box / 2), nrm};
    w.add_wall(side);
  }
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> jitter(-0.05 * d, 0.05 * d);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        w.add_sphere(Vec3((i + 0.55) * 1.05 * d + jitter(rng), (j + 0.55) * 1.05 * d + jitter(rng), (k + 0.6) * 1.1 * d), d / 2, 0);
  NdemSettings s;
  s.time_step = 0.005;
  s.iterations = 1000;
  s.warm_start = NdemWarmStart::history;
  NdemStepper ndem(s);
  for (int k = 0; k < 600; ++k) ndem.step(w);
  double weight = w.particles.total_mass() * g_acc, load = 0;
  for (const Wall& wall : w.walls) load += -wall.force.z();
  BOOST_TEST_MESSAGE("static load / weight = " << load / weight << ", contacts " << ndem.stats().contacts);
  BOOST_TEST(load == weight, boost::test_tools::tolerance(1e-3));
}

// Warm starting (Paper IV Eq. 7-8): history warm start reaches a smaller column height error than cold
// at the same N_it; warm start without the velocity update is reported (Paper IV: worse than cold).
BOOST_AUTO_TEST_CASE(warm_start_reduces_height_error) {
  const int n = 20;
  std::map<NdemWarmStart, const char*> names{{NdemWarmStart::cold, "cold"},
                                             {NdemWarmStart::history, "history"},
                                             {NdemWarmStart::history_normal_only, "history_normal_only"},
                                             {NdemWarmStart::history_no_velocity_update, "history_no_v"},
                                             {NdemWarmStart::model, "model(4/5)"}};
  for (int nit : {10, 30}) {
    std::map<NdemWarmStart, double> err;
    for (auto& [mode, name] : names) {
      // The model warm start is unstable at this time step with few sweeps (an explicit Hertz guess; the
      // threshold is tested in model_warm_start_test.cpp, explained in docs/ndem.md): skipped below N_it = 30.
      if (mode == NdemWarmStart::model && nit < 30) continue;
      World w = column(n, 6e6, 0.32);
      NdemSettings s;
      s.time_step = 0.005;
      s.iterations = nit;
      s.warm_start = mode;
      NdemStepper ndem(s);
      for (int k = 0; k < 400; ++k) ndem.step(w);
      err[mode] = height_error(w, n);
      BOOST_TEST_MESSAGE("column N_p = 20, N_it = " << nit << ", " << name << ": eps_l = " << err[mode]);
    }
    BOOST_TEST(std::abs(err[NdemWarmStart::history]) < std::abs(err[NdemWarmStart::cold]));
  }
}

// Iterations to a residual tolerance for a resting column: history warm start needs fewer.
BOOST_AUTO_TEST_CASE(warm_start_reduces_iterations) {
  const int n = 20;
  std::map<NdemWarmStart, int> used;
  for (auto mode : {NdemWarmStart::cold, NdemWarmStart::history, NdemWarmStart::history_no_velocity_update}) {
    World w = column(n, 6e6);
    NdemSettings s;
    s.time_step = 0.005;
    s.iterations = 5000;
    s.residual_tolerance = 1e-7;
    s.warm_start = mode;
    NdemStepper ndem(s);
    int total = 0;
    for (int k = 0; k < 300; ++k) {
      ndem.step(w);
      if (k >= 200) total += ndem.stats().iterations_used;
    }
    used[mode] = total / 100;
    BOOST_TEST_MESSAGE("resting column, residual < 1e-7 m/s: mode " << int(mode) << " needs " << used[mode]
                                                                    << " iterations per step");
  }
  BOOST_TEST(used[NdemWarmStart::history] < used[NdemWarmStart::cold]);
}

// Semi-smooth limit (000 l.526-535): with the impact stage off and tau_n = n_s Dt -> 0, a head-on
// Hertz impact approaches the analytic elastic one: peak overlap (5 m v^2 / (4 k_n))^{2/5}.
BOOST_AUTO_TEST_CASE(semi_smooth_limit_hertz_impact) {
  const Material m = pellet();
  const double r = pellet_d / 2, v = 0.1;
  const double mass = m.density * 4.0 / 3.0 * pi * r * r * r;
  const double kn = hertz_stiffness(estar(m), r);
  const double peak = std::pow(5.0 * mass * v * v / (4.0 * kn), 0.4);
  double last_err = 1e9;
  for (double dt : {1e-4, 1e-5, 1e-6}) {
    World w = floor_world(m);
    w.gravity.g.setZero();
    w.add_sphere(Vec3(0, 0, r), r, 0, Vec3(0, 0, -v));
    NdemSettings s;
    s.time_step = dt;
    s.iterations = 20;
    s.impact_stage = false;
    NdemStepper ndem(s);
    double dmax = 0;
    for (int k = 0; k < int(0.01 / dt); ++k) {
      ndem.step(w);
      dmax = std::max(dmax, r - w.particles.position[0].z());
      if (w.particles.velocity[0].z() > 0 && r - w.particles.position[0].z() < 0) break;
    }
    const double err = std::abs(dmax - peak) / peak;
    BOOST_TEST_MESSAGE("semi-smooth limit dt = " << dt << ": peak overlap error " << err);
    BOOST_TEST(err < last_err);
    last_err = err;
  }
  BOOST_TEST(last_err < 0.01);
}

// Same inputs -> bitwise same state.
BOOST_AUTO_TEST_CASE(deterministic) {
  auto run = [] {
    World w = column(10, 6e6, 0.32);
    w.particles.velocity[5] = Vec3(0.01, -0.02, 0);
    NdemSettings s;
    s.warm_start = NdemWarmStart::history;
    NdemStepper ndem(s);
    for (int k = 0; k < 100; ++k) ndem.step(w);
    return w.particles.position;
  };
  const auto a = run(), b = run();
  BOOST_TEST(std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0);
}

namespace {
// Four layers of side x side pellets on the floor, 0.999 d apart in a layer with a jitter of 2 % of d,
// layers `layer_spacing` d apart.
void add_jittered_layers(World& w, int side, double layer_spacing, unsigned seed) {
  const double d = pellet_d;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.02 * d, 0.02 * d);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < side; ++j)
      for (int i = 0; i < side; ++i)
        w.add_sphere(Vec3(i * 0.999 * d + jitter(rng), j * 0.999 * d + jitter(rng), (k + 0.5) * layer_spacing * d), d / 2, 0);
}
}  // namespace

// Graph-coloured parallel PGS: bitwise the same state on 1 and 2 threads, and the same physics (a
// resting packing carries its weight; colours keep no two contacts of a colour on one body). The serial
// sweep too: both pack their records in parallel blocks (policy::ndem_row_block), and 4 x 24 x 24
// pellets give several blocks (~4.8k contacts).
BOOST_AUTO_TEST_CASE(parallel_pgs_deterministic_across_threads) {
  auto run = [](int threads, bool coloured) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    World w = floor_world(pellet());
    add_jittered_layers(w, 24, 0.999, 11);
    NdemSettings s;
    s.parallel = coloured;
    s.iterations = 150;
    s.warm_start = NdemWarmStart::history;
    NdemStepper ndem(s);
    for (int k = 0; k < 40; ++k) ndem.step(w);
    BOOST_TEST(ndem.stats().contacts > 2 * policy::ndem_row_block);
    BOOST_TEST((ndem.stats().colours > 1) == coloured);
    double load = 0;
    for (const Wall& wall : w.walls) load -= wall.force.z();
    BOOST_TEST_MESSAGE((coloured ? "coloured" : "serial") << " PGS, " << threads << " threads: colours " << ndem.stats().colours << ", overflow "
                                        << ndem.stats().overflow << ", contacts " << ndem.stats().contacts
                                        << ", floor load / weight " << load / (w.particles.total_mass() * g_acc));
    return w.particles.position;
  };
  for (const bool coloured : {true, false}) {
    const auto one = run(1, coloured), two = run(2, coloured);
    BOOST_TEST_CONTEXT("coloured " << coloured) {
      BOOST_TEST(std::memcmp(one.data(), two.data(), one.size() * sizeof(Vec3)) == 0);
    }
  }
}

// The plain reference path (the colours' chunks one after another on one thread) gives the coloured
// two-thread solve bit for bit, with and without rolling rows, through settling with impacts (spheres
// dropped from 0.1 d above their rest place).
BOOST_AUTO_TEST_CASE(parallel_pgs_matches_the_reference_path) {
  for (const bool rolling : {false, true}) {
    auto run = [rolling](bool reference) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      Material m = pellet();
      if (!rolling) m.rolling_friction = 0;
      World w = floor_world(m);
      add_jittered_layers(w, 10, 1.1, 5);
      NdemSettings s;
      s.parallel = true;
      s.iterations = 60;
      s.time_step = 1e-3;
      s.warm_start = NdemWarmStart::history;
      NdemStepper ndem(s);
      ndem.set_reference_path(reference);
      int impacts = 0;
      for (int k = 0; k < 60; ++k) {
        ndem.step(w);
        impacts += ndem.stats().impacting > 0;
      }
      BOOST_TEST(impacts > 0);
      BOOST_TEST(ndem.stats().colours > 1);
      std::vector<Vec3> state = w.particles.position;
      state.insert(state.end(), w.particles.angular_velocity.begin(), w.particles.angular_velocity.end());
      return state;
    };
    const auto fast = run(false), plain = run(true);
    BOOST_TEST_CONTEXT("rolling " << rolling) {
      BOOST_TEST(std::memcmp(fast.data(), plain.data(), fast.size() * sizeof(Vec3)) == 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(parallel_pgs_static_load) {
  Material m = pellet();
  World w = floor_world(m);
  const double d = pellet_d;
  for (int k = 0; k < 3; ++k) w.add_sphere(Vec3(0, 0, (k + 0.5) * d), d / 2, 0);
  for (int k = 0; k < 3; ++k) w.add_sphere(Vec3(2 * d, 0, (k + 0.5) * d), d / 2, 0);
  NdemSettings s;
  s.parallel = true;
  s.iterations = 500;
  NdemStepper ndem(s);
  for (int k = 0; k < 300; ++k) ndem.step(w);
  BOOST_TEST(-w.walls[0].force.z() == w.particles.total_mass() * g_acc, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(ndem.stats().colours >= 2);
}

// Observers: per-iteration residuals by row type and the Eq. 13 multiplier error against a reference
// solve from the same start (it must reach 0 when the solve runs as long as the reference).
BOOST_AUTO_TEST_CASE(convergence_observers) {
  World w = column(10, 6e6, 0.32);
  NdemSettings s;
  s.iterations = 50;
  NdemStepper ndem(s);
  for (int k = 0; k < 20; ++k) ndem.step(w);
  BOOST_TEST(ndem.stats().residual_normal.empty());  // off by default
  s.record_residuals = true;
  s.reference_iterations = 50;
  NdemStepper observed(s);
  observed.step(w);
  const auto& st = observed.stats();
  BOOST_TEST(st.residual_normal.size() == 50u);
  BOOST_TEST(st.residual_rolling.size() == 50u);
  BOOST_TEST(st.multiplier_error.size() == 50u);
  BOOST_TEST(st.multiplier_error.back() == 0.0);  // same start, same iterations: identical multipliers
  BOOST_TEST(st.multiplier_error.front() > st.multiplier_error[25]);
  BOOST_TEST(st.residual_normal.front() > st.residual_normal.back());
  BOOST_TEST(st.contacts == 10u);
  BOOST_TEST(st.mean_overlap_over_d > 0);
}

BOOST_AUTO_TEST_CASE(bad_input) {
  NdemSettings s;
  s.iterations = 0;
  BOOST_CHECK_THROW(NdemStepper{s}, InputError);
  s = NdemSettings{};
  s.time_step = -1;
  BOOST_CHECK_THROW(NdemStepper{s}, InputError);
  s = NdemSettings{};
  s.law = NdemContactLaw::linear;  // needs linear_stiffness
  BOOST_CHECK_THROW(NdemStepper{s}, InputError);
  Material m = pellet();
  m.friction = -0.1;
  World w;
  BOOST_CHECK_THROW(w.add_material(m), InputError);
  m = pellet();
  m.restitution = 1.5;
  BOOST_CHECK_THROW(w.add_material(m), InputError);
  // A material changed after it was added is re-validated by the stepper.
  World col = column(2, 6e6);
  col.materials[0].friction = -1;
  NdemStepper ndem{NdemSettings{}};
  BOOST_CHECK_THROW(ndem.step(col), InputError);
  // Ill-posed: E = 1e13 at Dt = 1000 s loses Sigma_n in rounding (000 l.681).
  World stiff = column(2, 1e13);
  stiff.particles.position[1].z() -= 1e-9;
  NdemSettings huge;
  huge.time_step = 1000;
  NdemStepper bad{huge};
  BOOST_CHECK_THROW(bad.step(stiff), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
