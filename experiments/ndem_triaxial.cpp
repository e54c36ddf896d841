// Experiment ndem_triaxial: Paper IV E4, the triaxial test (000 l.1719-1737; 001 l.185-205; ledger E4).
// The cell (six 100 kg box-face walls on prismatic motors) is declared by the study's [scene]
// (experiments/scene.hpp); this file supplies the granular fill and the stage logic:
//   fill         N_p bi-disperse spheres placed at random without overlap in the cube |x|,|y|,|z| < box_side/2
//   consolidate  the scene's initial motors (stress-controlled walls at sigma^h) for consolidation_time, with
//                the preparation solver (preparation_iterations, history warm start) and preparation_friction
//   shear        the scene's `shear` motors (axial walls at axial_speed inward), the run's own solver
//                (iterations, warm_start) and friction, until the axial strain reaches strain_to.
// The prepared packing depends only on the preparation parameters; runs in one process share it
// (share_preparation), restored bit for bit from a checkpoint, so every N_it and warm start shears the
// same packing. Metrics and choices: docs/paper4_e4.md.
#include <algorithm>
#include <cmath>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/checkpoint.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/scene.hpp"

namespace grainlab {
namespace {

constexpr double pi = 3.14159265358979323846;

// Random sequential addition in the cube |x_i| <= half - r: large spheres first (they are the hard ones
// to place), each tried up to max_tries positions.
void fill_box(World& w, const Parameters& p) {
  const int n = int(p.integer("count"));
  const int n_small = int(std::lround(p.real("small_fraction") * n));
  const double half = 0.5 * p.real("box_side");
  std::mt19937_64 rng(std::uint64_t(p.integer("seed")));
  std::vector<double> radii;
  for (int i = 0; i < n; ++i) radii.push_back(0.5 * (i < n - n_small ? p.real("diameter") : p.real("diameter_small")));
  std::vector<Vec3> placed;
  std::vector<double> placed_r;
  const int max_tries = 20000;
  for (double r : radii) {
    std::uniform_real_distribution<double> u(-half + r, half - r);
    bool ok = false;
    for (int t = 0; t < max_tries && !ok; ++t) {
      const Vec3 x(u(rng), u(rng), u(rng));
      ok = true;
      for (std::size_t j = 0; j < placed.size() && ok; ++j) ok = (x - placed[j]).squaredNorm() >= std::pow(r + placed_r[j], 2);
      if (ok) {
        placed.push_back(x);
        placed_r.push_back(r);
      }
    }
    if (!ok)
      throw InputError(fmt::format("ndem_triaxial: box_side = {} m is too small to place {} spheres at random (placed {}); "
                                   "a random fill reaches a solid fraction of about 0.3, so enlarge box_side",
                                   p.real("box_side"), n, placed.size()));
  }
  // Sizes mixed in space: the placement order is large-then-small, the particle order shuffled by id.
  for (std::size_t i = 0; i < placed.size(); ++i) w.add_sphere(placed[i], placed_r[i], 0);
}

// The consolidation's history warm start uses Paper IV's beta whatever the shear stage's (the prepared
// packing must not depend on a shear-stage parameter: runs share it).
constexpr double preparation_beta = 0.85;

NdemSettings solver(const Parameters& p, int iterations, const std::string& warm_start, double beta) {
  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = iterations;
  s.warm_start = parse_warm_start(warm_start);
  s.warm_start_beta = beta;
  s.impact_velocity = p.real("impact_velocity");
  return s;
}

std::pair<std::string, std::string> axial_pair(const Parameters& p) {
  std::istringstream in(p.text("axial_bodies"));
  std::string a, b, extra;
  if (!(in >> a >> b) || (in >> extra))
    throw InputError(fmt::format("ndem_triaxial: axial_bodies = '{}' must name two scene bodies (bottom top)", p.text("axial_bodies")));
  return {a, b};
}

// Parameters that act only in the shear stage: the prepared packing does not depend on them (friction does,
// through preparation_friction < 0; axial_speed acts through the scene, which is in the key as text).
bool shear_only(const std::string& name) {
  static const std::vector<std::string> names = {"iterations", "warm_start", "warm_start_beta", "strain_from", "strain_to",
                                                 "share_preparation"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Prepared packings (checkpoint bytes) by the preparation parameters, shared by the runs of one process.
std::string prepared(const Parameters& p, const std::function<std::string()>& make) {
  if (!p.boolean("share_preparation")) return make();
  std::string key;
  for (const auto& [k, v] : p.values)
    if (!shear_only(k)) key += k + "=" + to_string(v) + ";";
  static std::mutex m;
  static std::map<std::string, std::shared_future<std::string>> cache;
  std::promise<std::string> promise;
  std::shared_future<std::string> future;
  bool mine = false;
  {
    std::lock_guard lock(m);
    auto it = cache.find(key);
    if (it == cache.end()) {
      future = promise.get_future().share();
      cache.emplace(key, future);
      mine = true;
    } else {
      future = it->second;
    }
  }
  if (mine) {
    try {
      promise.set_value(make());
    } catch (...) {
      promise.set_exception(std::current_exception());
      std::lock_guard lock(m);
      cache.erase(key);  // a failed preparation is retried by the next run
    }
  }
  return future.get();
}

double solid_volume(const World& w) {
  double v = 0;
  for (double r : w.particles.radius) v += 4.0 / 3.0 * pi * r * r * r;
  return v;
}

RunResult run_triaxial(const Parameters& p, RunContext& ctx) {
  if (p.text("scene").empty())
    throw InputError("ndem_triaxial: no scene: declare the cell's walls in the study's [scene] section (docs/paper4_e4.md)");
  const SceneSpec spec = scene_from_text(p.text("scene"));
  const auto [bottom, top] = axial_pair(p);
  const double sigma_h = p.real("confining_stress");
  const double dt = p.real("dt");
  const double from = p.real("strain_from"), to = p.real("strain_to");
  if (!(from < to)) throw InputError(fmt::format("ndem_triaxial: strain_from = {} must be below strain_to = {}", from, to));

  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  Material m = material_from_parameters(p, "pellet");
  const double prep_mu = p.real("preparation_friction") < 0 ? m.friction : p.real("preparation_friction");
  w.add_material(m);  // index 0: particles and walls (ledger E4: walls use the particle parameters)
  Scene scene(w, spec, p);
  scene.body_index(bottom), scene.body_index(top);  // both named bodies exist
  scene.enter_stage(w, "consolidate");

  // Stage 1 (or its shared result): fill, then stress-controlled consolidation at sigma^h.
  const std::string bytes = prepared(p, [&] {
    World prep = w;
    prep.materials[0].friction = prep_mu;
    fill_box(prep, p);
    NdemStepper stepper(solver(p, int(p.integer("preparation_iterations")), "history", preparation_beta));
    const StabilityGuard guard(prep, {.max_energy_gain = std::numeric_limits<double>::infinity(), .max_overlap_ratio = 2.0},
                               "ndem_triaxial (consolidation)");
    const int steps = int(std::ceil(p.real("consolidation_time") / dt));
    for (int k = 0; k < steps; ++k) {
      scene.before_step(prep);
      stepper.step(prep);
      guard.check(prep);
    }
    return io::checkpoint_bytes(prep);
  });
  w = io::world_from_checkpoint(bytes, "ndem_triaxial preparation");
  w.materials[0].friction = m.friction;  // the shear stage's own friction

  // The prepared state: solid fraction in the box the walls enclose, wall stresses from the contact forces.
  auto box_volume = [&] {  // height between the axial walls x their cross-section
    return (w.bodies[scene.body_index(top)].position - w.bodies[scene.body_index(bottom)].position).norm() * scene.area(w, top);
  };
  auto contact_stress = [&](const std::string& name) {
    const std::size_t wi = scene.wall_index(name);
    const Vec3 n = std::get<PlaneShape>(w.walls[wi].shape).normal;
    return -w.walls[wi].force.dot(n) / scene.area(w, name);
  };
  RunResult out;
  out.metrics["packing_fraction_prepared"] = solid_volume(w) / box_volume();
  out.metrics["prep_axial_stress_ratio"] = 0.5 * (contact_stress(bottom) + contact_stress(top)) / sigma_h;
  double max_wall_speed = 0;
  for (const RigidBody& b : w.bodies) max_wall_speed = std::max(max_wall_speed, b.velocity.norm());
  out.metrics["prep_max_wall_speed"] = max_wall_speed;
  out.metrics["box_height_prepared"] = (w.bodies[scene.body_index(top)].position - w.bodies[scene.body_index(bottom)].position).norm();

  // Stage 2: axial compression with the run's solver.
  scene.enter_stage(w, "shear");
  NdemStepper stepper(solver(p, int(p.integer("iterations")), p.text("warm_start"), p.real("warm_start_beta")));
  const StabilityGuard guard(w, {.max_energy_gain = std::numeric_limits<double>::infinity(), .max_overlap_ratio = 2.0},
                             "ndem_triaxial (shear)");
  const double h0 = out.metrics["box_height_prepared"];
  TimeSeries curve{{"strain", "sigma_z", "deviator", "sigma_lateral_contact"}, {}};
  std::vector<std::pair<double, double>> window;  // (strain, sigma_z) in [from, to]
  double start_sum = 0;
  int start_count = 0;
  double lateral_sum = 0;
  const double max_steps = 10.0 * to * h0 / (2 * p.real("axial_speed") * dt) + 10;
  double strain = 0;
  for (int k = 0; strain < to; ++k) {
    if (k > max_steps)
      throw InputError(fmt::format("ndem_triaxial: the axial walls did not reach strain {} in {} steps (strain {:.3g}): do the "
                                   "scene's shear motors drive '{}' and '{}' inward?", to, k, strain, bottom, top));
    scene.before_step(w);
    stepper.step(w);
    guard.check(w);
    scene.record(w);
    const double h = (w.bodies[scene.body_index(top)].position - w.bodies[scene.body_index(bottom)].position).norm();
    strain = 1 - h / h0;
    const double sz = 0.5 * (scene.stress(w, bottom) + scene.stress(w, top));
    double lateral = 0;
    int lateral_count = 0;
    for (const SceneBody& b : spec.bodies)
      if (b.name != bottom && b.name != top && b.joint != SceneJoint::fixed) lateral += contact_stress(b.name), ++lateral_count;
    lateral = lateral_count ? lateral / lateral_count : std::numeric_limits<double>::quiet_NaN();
    if (k > 0) curve.rows.push_back({strain, sz, sz - sigma_h, lateral});  // step 0: wall acceleration (above)
    // The first step's motor force also accelerates the 100 kg wall to axial_speed (m v / dt / A, ~20 kPa):
    // the start level is read after it, over strain 0.5-2 %, and the curve starts after it.
    if (strain >= 0.005 && strain <= 0.02) start_sum += sz, ++start_count;
    if (strain >= from && strain <= to) {
      window.emplace_back(strain, sz);
      lateral_sum += lateral;
    }
    if (ctx.progress && k % 20 == 0) ctx.progress(std::min(1.0, strain / to));
  }
  if (window.size() < 3) throw InputError(fmt::format("ndem_triaxial: fewer than 3 steps in the strain window [{}, {}]", from, to));
  double sum = 0, sum2 = 0;
  for (const auto& [e, s] : window) sum += s;
  const double mean = sum / double(window.size());
  for (const auto& [e, s] : window) sum2 += (s - mean) * (s - mean);
  // Plateau: the mean over the first and the last fifth of the window.
  auto band_mean = [&](double lo, double hi) {
    double s = 0;
    int c = 0;
    for (const auto& [e, v] : window)
      if (e >= lo && e <= hi) s += v, ++c;
    return c ? s / c : std::numeric_limits<double>::quiet_NaN();
  };
  const double fifth = 0.2 * (to - from);
  out.metrics["sigma_zc"] = mean;
  out.metrics["deviator"] = mean - sigma_h;
  out.metrics["deviator_kpa"] = (mean - sigma_h) / 1000;
  out.metrics["sigma_z_std"] = std::sqrt(sum2 / double(window.size() - 1));
  out.metrics["sigma_z_std_rel"] = out.metrics["sigma_z_std"] / mean;
  out.metrics["plateau_change"] = std::abs(band_mean(to - fifth, to) - band_mean(from, from + fifth)) / mean;
  out.metrics["sigma_z_start"] = start_count ? start_sum / start_count : std::numeric_limits<double>::quiet_NaN();
  out.metrics["rise_ratio"] = mean / out.metrics["sigma_z_start"];
  out.metrics["lateral_stress_ratio"] = lateral_sum / double(window.size()) / sigma_h;
  out.metrics["time_solve"] = w.timers.solve;
  out.series["stress_strain"] = curve;
  out.series["bodies"] = scene.series();
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_triaxial",
    .description = "Triaxial test (Paper IV E4, 000 l.1719-1737): a box of six stress/velocity-controlled walls declared by the "
                   "study's [scene], random bi-disperse fill, consolidation at sigma^h, axial compression; sigma_z^c over a strain window",
    .parameters =
        {
            {"scene", ParamType::text, "", std::string(""), {}, {}, "the cell: set by the study's [scene] section (never by hand)"},
            {"axial_bodies", ParamType::text, "", std::string("z_min z_max"), {}, {},
             "the two scene bodies (bottom top) whose distance is the height H and whose stress is sigma_z"},
            {"count", ParamType::integer, "-", std::int64_t(500), 1.0, 1e6, "number of spheres N_p"},
            {"diameter", ParamType::real, "m", 0.013, 1e-6, 10.0, "large diameter d"},
            {"diameter_small", ParamType::real, "m", 0.010, 1e-6, 10.0, "small diameter d_2"},
            {"small_fraction", ParamType::real, "-", 0.5, 0.0, 1.0, "fraction of small spheres by number"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density"},
            {"youngs_modulus", ParamType::real, "Pa", 60e6, 1.0, 1e15, "Young's modulus E (E4: 60 MPa)"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu_s in the shear stage (walls too)"},
            {"preparation_friction", ParamType::real, "-", -1.0, -1.0, 100.0,
             "friction during fill and consolidation; < 0: the same as friction"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r"},
            {"gravity", ParamType::real, "m/s^2", 0.0, 0.0, 1e3, "gravity magnitude (E4: off, ledger)"},
            {"dt", ParamType::real, "s", 0.005, 1e-9, 1.0, "time step"},
            {"iterations", ParamType::integer, "-", std::int64_t(200), 1.0, 1e7, "PGS iterations N_it in the shear stage"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {}, "warm start in the shear stage",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0, "beta of the history warm start (Eq. 7)"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp"},
            {"preparation_iterations", ParamType::integer, "-", std::int64_t(200), 1.0, 1e7,
             "PGS iterations during consolidation (history warm start)"},
            {"box_side", ParamType::real, "m", 0.12, 1e-4, 100.0, "side of the cube filled at random (the scene's walls enclose it)"},
            {"wall_mass", ParamType::real, "kg", 100.0, 1e-6, 1e9,
             "mass of each cell wall, for the study's [scene] to refer to (Paper IV: 100 kg, 000 l.1721)"},
            {"confining_stress", ParamType::real, "Pa", 100.0, 0.0, 1e9, "sigma^h: the deviator is sigma_z^c - sigma^h"},
            {"axial_speed", ParamType::real, "m/s", 0.01, 0.0, 100.0, "speed of each axial wall in the shear stage"},
            {"consolidation_time", ParamType::real, "s", 5.0, 0.0, 1e4, "duration of the hydrostatic stage"},
            {"strain_from", ParamType::real, "-", 0.10, 0.0, 1.0, "sigma_z^c window: from this axial strain"},
            {"strain_to", ParamType::real, "-", 0.25, 0.0, 0.9, "... to this one (the run ends there)"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "random fill seed"},
            {"share_preparation", ParamType::boolean, "", true, {}, {},
             "runs of one process with equal preparation parameters reuse one prepared packing (bitwise the same)"},
        },
    .run = run_triaxial,
    .scene_stages = {"consolidate", "shear"}}};

}  // namespace
}  // namespace grainlab
