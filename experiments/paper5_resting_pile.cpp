#include "experiments/paper5_resting_pile.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <numeric>

#include <fmt/format.h>

#include "core/bodies.hpp"
#include "core/error.hpp"

namespace grainlab::paper5 {
namespace {
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
}  // namespace

std::size_t pyramid_count(int layers) {
  const auto n = std::size_t(std::max(layers, 0));
  return n * (n + 1) * (2 * n + 1) / 6;
}

void build_resting_pile(const RestingPile& p, World& w) {
  auto fail = [](const char* key, double value, const char* rule) {
    throw InputError(fmt::format("resting pile: {} = {} is invalid ({})", key, value, rule));
  };
  if (p.layers < 1 || p.layers > 200) fail("layers", p.layers, "must be in [1, 200]");
  if (!(p.diameter > 0)) fail("diameter", p.diameter, "must be > 0");
  if (!(p.lattice_overlap >= 0 && p.lattice_overlap < 0.1)) fail("lattice_overlap", p.lattice_overlap, "must be in [0, 0.1) diameters");
  if (!w.particles.empty()) throw InputError("resting pile: the World must be empty");
  Material m;
  m.name = "paper5_pellet";
  m.density = p.density;
  m.youngs_modulus = 1e7;  // unused by the linear law (k_n is NdemSettings::linear_stiffness); must be valid
  m.poisson_ratio = 0.25;
  m.restitution = p.restitution;
  m.friction = p.friction;
  m.rolling_friction = p.rolling_friction;
  w.gravity.g = Vec3(0, 0, -p.gravity);
  const std::uint16_t mat = w.add_material(m);
  Wall ground;
  ground.name = "ground";
  ground.shape = PlaneShape{};
  ground.material = mat;
  w.add_wall(ground);
  const double r = 0.5 * p.diameter;
  const double a = p.diameter * (1.0 - p.lattice_overlap);  // neighbour distance
  // FCC square pyramid: layer k has (n - k)^2 spheres on a square grid of spacing a, shifted by a/2 in x and y
  // from the layer below and raised by a / sqrt(2), so that each sphere touches the four below it.
  for (int k = 0; k < p.layers; ++k) {
    const int side = p.layers - k;
    const double z = r * (1.0 - p.lattice_overlap) + k * a / std::sqrt(2.0);
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j)
        w.add_sphere(Vec3((i - 0.5 * (side - 1)) * a, (j - 0.5 * (side - 1)) * a, z), r, mat);
  }
}

NdemSettings paper5_ndem_settings(double linear_stiffness, double time_step, int iterations) {
  NdemSettings s;
  s.law = NdemContactLaw::linear;
  s.linear_stiffness = linear_stiffness;
  s.time_step = time_step;
  s.iterations = iterations;
  s.warm_start = NdemWarmStart::cold;  // ledger P15: no warm start
  s.impact_epsilon = 0.01;             // v_imp = eps d / Dt with eps = 0.01 (ledger E1 default, 000 l.1140)
  s.gamma_t = s.gamma_r = 1e-6;
  s.n_s = 2;
  s.validate();
  return s;
}

TimedSteps time_steps(World& w, NdemStepper& ndem, int steps) {
  TimedSteps t;
  t.steps = steps;
  const StageTimers before = w.timers;
  for (int k = 0; k < steps; ++k) {
    const double solve0 = w.timers.solve, reduction0 = w.timers.reduction;
    const double c0 = thread_cpu_seconds();
    ndem.step(w);
    t.cpu_s += thread_cpu_seconds() - c0;
    const NdemStepStats& st = ndem.stats();
    const ReductionStats& rs = st.reduction;
    const double reduction_step = w.timers.reduction - reduction0;
    t.solve_per_step.push_back(w.timers.solve - solve0);
    t.reduction_per_step.push_back(reduction_step > 0 ? reduction_step
                                                      : rs.seconds_merge + rs.seconds_split + rs.seconds_trial);
    t.contacts += double(st.contacts);
    t.solver_contacts += ndem.settings().reduction.enabled ? double(rs.solver_contacts) : double(st.contacts);
    t.level += rs.level;
    t.level_free_only += rs.level_free_only;
    t.level_dof += rs.level_dof;
    t.aggregates += double(rs.aggregates);
    t.reduction_stats_s += rs.seconds_merge + rs.seconds_split + rs.seconds_trial;
  }
  const StageTimers& a = w.timers;
  t.stages = {a.collision - before.collision, a.forces - before.forces, a.solve - before.solve,
              a.integrate - before.integrate, a.reduction - before.reduction, a.observers - before.observers};
  if (steps > 0)
    for (double* x : {&t.contacts, &t.solver_contacts, &t.level, &t.level_free_only, &t.level_dof, &t.aggregates}) *x /= steps;
  return t;
}

std::size_t freeze_lowest(World& w, double fraction) {
  if (!(fraction >= 0 && fraction <= 1)) throw InputError(fmt::format("frozen_fraction = {} must lie in [0, 1]", fraction));
  std::vector<std::size_t> order(w.particles.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return w.particles.position[a].z() < w.particles.position[b].z();
  });
  const auto count = std::min(order.size(), std::size_t(std::llround(fraction * double(order.size()))));
  if (count < 2) return 0;
  order.resize(count);
  std::sort(order.begin(), order.end());
  form_body(w, order);
  return count;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

double max_sphere_speed(const World& w) {
  double v = 0;
  for (const Vec3& u : w.particles.velocity) v = std::max(v, u.norm());
  return v;
}

}  // namespace grainlab::paper5
