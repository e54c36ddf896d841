// Experiment paper1_cylinder: Paper I's cylindrical containers (E2; 000 l.598, 610-614; ledger
// ../shared/claims/paper1.md E2, P15, P19-P21). N_p spheres on a jittered cubic lattice inside a
// container of diameter Phi (a regular 20-gon prism whose faces are tangent to the circle of diameter
// Phi, plus a floor), settled by the NDEM engine under a gravity ramp, then measured over a window at
// full gravity. Reports the mean overlap <eps_c>, the bed height, contact counts, the cost in
// contact-iterations, and the pressure profile p(z) two ways: the wall pressure on strips of dz = 5 d
// and sigma_zz coarse-grained on the axis (core/io/axial_stress.hpp), with straight-line and Janssen
// fits (experiments/janssen_fit.hpp). Study: studies/paper1_e2_cylinder.toml (its header documents
// every metric).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/axial_stress.hpp"
#include "core/io/vtk_writer.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/fill.hpp"
#include "core/stability_guard.hpp"
#include "experiments/cost_model.hpp"
#include "experiments/experiment.hpp"
#include "experiments/janssen_fit.hpp"
#include "experiments/material_parameters.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr int floor_wall = 0, side_wall = 1;

// Accuracy and pressure metrics that a diverged run (on_instability = "record") reports as NaN.
const char* const accuracy_metrics[] = {
    "eps_c", "eps_c_max", "bed_height_d", "bed_height_drift_d", "inertial_number", "contacts",
    "contacts_per_particle", "coordination", "p0_axis", "p0_wall", "p_floor", "p_hydrostatic",
    "p0_axis_over_hydrostatic", "p_linear_r2", "bottom_slope_ratio", "bottom_slope_ratio_raw", "janssen_lambda_d", "janssen_p_sat",
    "janssen_r2", "mean_speed", "bulk_density", "eq41_nit", "eq41_nit_saturated"};

/// Bed height: the mean top (z + r) of the k highest particles, k = half a layer of the container's
/// cross-section (area / (2 d^2)); robust to a single particle resting on the surface.
double bed_height(const World& w, std::size_t k, std::vector<double>& scratch) {
  scratch.resize(w.particles.size());
  for (std::size_t i = 0; i < scratch.size(); ++i) scratch[i] = w.particles.position[i].z() + w.particles.radius[i];
  k = std::clamp<std::size_t>(k, 1, scratch.size());
  std::nth_element(scratch.begin(), scratch.begin() + std::ptrdiff_t(k - 1), scratch.end(), std::greater<>());
  return std::accumulate(scratch.begin(), scratch.begin() + std::ptrdiff_t(k), 0.0) / double(k);
}

RunResult run_cylinder(const Parameters& p, RunContext& ctx) {
  const double d = p.real("diameter"), ratio = p.real("diameter_ratio");
  const double radius = ratio * d / 2;  // apothem of the polygon (faces tangent to the circle of diameter Phi)
  const auto count = std::size_t(p.integer("count"));
  const int faces = int(p.integer("polygon_faces"));
  const double ramp = p.real("gravity_ramp_time"), window = p.real("measure_time"), dt = p.real("dt");
  const std::string on_instability = p.text("on_instability");

  World w;
  w.add_material(material_from_parameters(p, "paper1"));
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  w.gravity.ramp_duration = ramp;
  w.gravity.ramp_from = p.real("gravity_ramp_from");
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  Wall side;
  side.name = "cylinder";
  CylinderShape cyl;
  cyl.radius = radius;
  cyl.length = std::numeric_limits<double>::infinity();
  cyl.polygon_faces = faces;
  side.shape = cyl;
  w.add_wall(side);

  if (p.real("lattice_jitter") > 0.5 * (p.real("lattice_spacing") - 1))
    throw InputError(fmt::format("paper1_cylinder: lattice_jitter = {} d must be <= (lattice_spacing - 1)/2 = {} d "
                                 "(initial spheres may not overlap)", p.real("lattice_jitter"),
                                 0.5 * (p.real("lattice_spacing") - 1)));
  // Paper I (000 l.598): "a regular cubic grid with slight perturbation", bottom layer first.
  sources::LatticeFill fill;
  fill.radius = d / 2;
  fill.spacing = p.real("lattice_spacing") * d;
  fill.jitter = p.real("lattice_jitter") * d;
  fill.seed = std::uint64_t(p.integer("seed"));
  fill.region = {Vec3(-radius, -radius, 0), Vec3(radius, radius, double(count + 2) * fill.spacing)};
  fill.clip = sources::Region(sources::CylinderRegion{Vec3::Zero(), Vec3::UnitZ(), radius, fill.region.hi.z()});
  fill.max_count = count;
  if (sources::lattice_fill(w, fill).added != count)
    throw InputError(fmt::format("paper1_cylinder: diameter_ratio = {} leaves no lattice site for a sphere "
                                 "(spacing {} d, jitter {} d)", ratio, p.real("lattice_spacing"), p.real("lattice_jitter")));

  NdemSettings s;
  s.time_step = dt;
  s.iterations = int(p.integer("iterations"));
  s.warm_start = parse_warm_start(p.text("warm_start"));
  s.warm_start_beta = p.real("warm_start_beta");
  s.friction_shape = parse_friction_shape(p.text("friction_shape"));
  s.impact_velocity = p.real("impact_velocity");
  NdemStepper ndem(s);
  // The ramp does work on the packing, so the energy part of the guard is off; overlaps beyond the
  // engine's limit and non-finite states still stop the run.
  const StabilityGuard guard(w, {.max_energy_gain = std::numeric_limits<double>::infinity(),
                                 .max_overlap_ratio = s.max_overlap_ratio}, "paper1_cylinder");

  const int ramp_steps = int(std::ceil(ramp / dt - 1e-9)), steps = ramp_steps + int(std::ceil(window / dt - 1e-9));
  const double area = faces >= 3 ? faces * radius * radius * std::tan(pi / faces) : pi * radius * radius;
  const double perimeter = faces >= 3 ? 2 * faces * radius * std::tan(pi / faces) : 2 * pi * radius;
  const double dz = p.real("strip_height") * d;
  const int slices = int(std::ceil(fill.region.hi.z() / dz)) + 1;
  io::AxialSlices axis;
  axis.radius = p.real("axis_radius") * d;
  axis.slice_height = dz;
  axis.slices = slices;
  axis.kernel_width = p.real("kernel_width") * d;
  const auto top_k = std::size_t(std::max(1.0, std::round(area / (2 * d * d))));
  const int profile_every = int(p.integer("profile_every"));

  std::vector<double> scratch, p_axis(std::size_t(slices), 0.0), p_wall(std::size_t(slices), 0.0);
  double overlap_sum = 0, overlap_max = 0, contact_sum = 0, contact_iterations = 0, height_sum = 0, speed_sum = 0;
  double floor_force = 0, height_first = nan, height_last = nan;
  int window_steps = 0, profiles = 0;
  try {
    for (int k = 0; k < steps; ++k) {
      ndem.step(w);
      guard.check(w);
      const NdemStepStats& st = ndem.stats();
      contact_iterations += double(st.iterations_used) * double(st.contacts);
      if (ctx.progress && k % 20 == 0) ctx.progress(double(k) / steps);
      if (k < ramp_steps) continue;
      // Measurement window: every step at full gravity.
      ++window_steps;
      overlap_sum += st.mean_overlap_over_d * double(st.contacts);
      contact_sum += double(st.contacts);
      overlap_max = std::max(overlap_max, st.max_overlap_over_d);
      const double h = bed_height(w, top_k, scratch);
      height_sum += h;
      if (std::isnan(height_first)) height_first = h;
      height_last = h;
      double speed = 0;
      for (const Vec3& v : w.particles.velocity) speed += v.norm();
      speed_sum += speed / double(count);
      floor_force -= w.walls[floor_wall].force.z();  // the particles push the floor down
      if ((window_steps - 1) % profile_every == 0) {
        const auto sa = io::axial_stress_zz(io::contact_branches(w), axis);
        const auto sw = io::wall_strip_pressure(w, side_wall, 0.0, dz, slices, perimeter * dz);
        for (std::size_t i = 0; i < p_axis.size(); ++i) p_axis[i] += sa[i], p_wall[i] += sw[i];
        ++profiles;
      }
    }
  } catch (const InstabilityError&) {
    if (on_instability == "fail") throw;
    RunResult out;
    for (const char* m : accuracy_metrics) out.metrics[m] = nan;
    out.metrics["diverged"] = 1;
    out.metrics["diverged_time"] = w.time;
    out.metrics["stable"] = 0;
    out.metrics["particles"] = double(count);
    out.metrics["width_d"] = ratio;
    out.metrics["contact_iterations"] = contact_iterations;
    out.metrics["time_solve"] = w.timers.solve;
    return out;
  }
  for (std::size_t i = 0; i < p_axis.size(); ++i) p_axis[i] /= profiles, p_wall[i] /= profiles;

  const double mass = w.particles.mass[0], g = p.real("gravity");
  const double H = height_sum / window_steps;  // m
  const double bulk_density = double(count) * mass / (area * H);
  // Profile inside the bed: slices whose top lies below the bed surface; depth from the surface.
  std::vector<double> zc, depth, pa, pw;
  for (int i = 0; i < slices; ++i) {
    if ((i + 1) * dz > H) break;
    zc.push_back((i + 0.5) * dz);
    depth.push_back(H - zc.back());
    pa.push_back(p_axis[std::size_t(i)]);
    pw.push_back(p_wall[std::size_t(i)]);
  }
  // A shape needs points: fewer than 4 slices in the bed give NaN fits (a 2-point line has R^2 = 1).
  constexpr std::size_t min_slices = 4;
  const LineFit line = zc.size() >= min_slices ? fit_line(depth, pa) : LineFit{nan, nan, nan};
  // Bottom 30 % of the bed (at least the two lowest slices): slope dp/d(depth) against hydrostatic rho_b g.
  std::size_t bottom = 0;
  while (bottom < zc.size() && zc[bottom] <= 0.3 * H) ++bottom;
  bottom = std::min(zc.size(), std::max<std::size_t>(bottom, 2));
  const LineFit bottom_fit = zc.size() >= 2 ? fit_line(std::span(depth).first(bottom), std::span(pa).first(bottom))
                                             : LineFit{nan, nan, nan};
  const JanssenFit jan = zc.size() >= min_slices ? fit_janssen(depth, pa, 0.5 * d, 1e4 * d) : JanssenFit{nan, nan, nan};

  RunResult out;
  out.metrics["eps_c"] = contact_sum > 0 ? overlap_sum / contact_sum : nan;
  out.metrics["eps_c_max"] = overlap_max;
  out.metrics["bed_height_d"] = H / d;
  out.metrics["bed_height_drift_d"] = (height_last - height_first) / d;
  // A resting container: I = 0 by the ledger's convention (E4 fits with I = 0); the measured mean
  // particle speed is reported beside it.
  out.metrics["inertial_number"] = 0;
  out.metrics["mean_speed"] = speed_sum / window_steps;
  out.metrics["width_d"] = ratio;
  out.metrics["particles"] = double(count);
  out.metrics["contacts"] = contact_sum / window_steps;
  out.metrics["contacts_per_particle"] = contact_sum / window_steps / double(count);
  out.metrics["coordination"] = 2 * contact_sum / window_steps / double(count);
  out.metrics["contact_iterations"] = contact_iterations;
  out.metrics["bulk_density"] = bulk_density;
  // Paper I Eq. 41 at eps = 0.05, I = 0 (c0, c1, c2 of 000 l.677): at the measured bed height, and its
  // saturation level for l -> infinity (6w ... in the w >= 5 branch; none below w = 5, ledger P15).
  CostInputs eq41;
  eq41.width = ratio;
  eq41.length = H / d;
  eq41.tolerance = 0.05;
  out.metrics["eq41_nit"] = estimate_cost(eq41).N_it;
  eq41.length = 1e9;
  out.metrics["eq41_nit_saturated"] = ratio >= 5 ? estimate_cost(eq41).N_it : nan;
  out.metrics["p0_axis"] = p_axis[0];
  out.metrics["p0_wall"] = p_wall[0];
  out.metrics["p_floor"] = floor_force / window_steps / area;
  out.metrics["p_hydrostatic"] = double(count) * mass * g / area;
  out.metrics["p0_axis_over_hydrostatic"] = p_axis[0] / (double(count) * mass * g / area);
  out.metrics["p_linear_r2"] = line.r2;
  // Saturation at the bottom (ledger C07: "the bottom 30 % of the column has slope < 20 % of the hydrostatic
  // slope"): the slope of the Janssen fit at the top of the bottom 30 % (depth 0.7 H), p_sat/lambda
  // exp(-0.7 H/lambda), over rho_b g. The raw slope of the 2-3 lowest slices is kept beside it: with ~7
  // particles per layer in the central cylinder it is noise-dominated (quick tier, Phi = 9d: 0.44 at
  // N_it = 10, -0.51 at 100, 0.46 at 500), and cannot tell a hydrostatic profile from a saturated one.
  out.metrics["bottom_slope_ratio"] = jan.p_sat / jan.lambda * std::exp(-0.7 * H / jan.lambda) / (bulk_density * g);
  out.metrics["bottom_slope_ratio_raw"] = bottom_fit.slope / (bulk_density * g);
  out.metrics["janssen_lambda_d"] = jan.lambda / d;
  out.metrics["janssen_p_sat"] = jan.p_sat;
  out.metrics["janssen_r2"] = jan.r2;
  // Paper I's "stable initial state" (C11): the run stayed finite, the bed surface moved by at most half a
  // diameter over the window and nothing flows or flies: mean speed below 0.1 sqrt(g d) (31 mm/s at
  // d = 1 cm; a resting NDEM pack at h = 10 ms keeps ~3 mm/s of solver noise).
  const bool stable = std::abs(height_last - height_first) <= 0.5 * d && speed_sum / window_steps <= 0.1 * std::sqrt(g * d);
  out.metrics["stable"] = stable ? 1 : 0;
  out.metrics["diverged"] = 0;
  out.metrics["diverged_time"] = nan;
  out.metrics["time_solve"] = w.timers.solve;
  TimeSeries profile{{"z_d", "depth_d", "p_axis", "p_wall"}, {}};
  for (std::size_t i = 0; i < zc.size(); ++i) profile.rows.push_back({zc[i] / d, depth[i] / d, pa[i], pw[i]});
  out.series["pressure_profile"] = profile;
  if (p.boolean("snapshot") && !ctx.output_dir.empty()) io::write_vtp(w, ctx.output_dir / "final_state.vtp");
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper1_cylinder",
    .description = "Paper I E2: spheres settled in a 20-gon cylinder container with the NDEM engine; mean overlap "
                   "<eps_c>, bed height, contacts, wall and axis pressure profiles (000 l.598, 610-614)",
    .parameters =
        {
            {"diameter_ratio", ParamType::real, "-", 6.0, 1.5, 1000.0, "container diameter Phi / d"},
            {"count", ParamType::integer, "-", std::int64_t(1000), 1.0, 1e7, "number of spheres N_p"},
            {"iterations", ParamType::integer, "-", std::int64_t(100), 1.0, 1e6, "PGS iterations N_it (fixed)"},
            {"diameter", ParamType::real, "m", 0.01, 1e-6, 10.0, "sphere diameter d"},
            {"density", ParamType::real, "kg/m^3", 1909.86, 1e-3, 1e5,
             "particle density (1909.86: m = 1e-3 kg at d = 0.01 m, 000 l.596)"},
            {"youngs_modulus", ParamType::real, "Pa", 1.5e7, 1.0, 1e15,
             "E; with poisson_ratio 0 the engine's k_n = E sqrt(d)/3 = 0.5e6 N/m^1.5 between spheres (000 l.596)"},
            {"poisson_ratio", ParamType::real, "-", 0.0, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.0, 0.0, 1.0, "restitution e (particles and walls)"},
            {"friction", ParamType::real, "-", 0.7, 0.0, 100.0, "friction mu (particles and walls)"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 1e3, "gravity at the end of the ramp"},
            {"gravity_ramp_from", ParamType::real, "m/s^2", 0.01, 0.0, 1e3, "gravity at t = 0"},
            {"gravity_ramp_time", ParamType::real, "s", 60.0, 0.0, 1e5, "linear gravity ramp (settling), s"},
            {"measure_time", ParamType::real, "s", 5.0, 1e-9, 1e5, "measurement window at full gravity, s"},
            {"dt", ParamType::real, "s", 0.01, 1e-9, 1.0, "time step h"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "cold | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0, "beta of the history warm starts"},
            {"friction_shape", ParamType::text, "", std::string("cone"), {}, {},
             "friction law in the PGS: cone (Paper I App. B) or box", {"cone", "box"}},
            {"impact_velocity", ParamType::real, "m/s", -1.0, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / dt)"},
            {"polygon_faces", ParamType::integer, "-", std::int64_t(20), 0.0, 1000.0,
             "faces of the container (000 l.598: 20), tangent to the circle of diameter Phi; 0 = circular"},
            {"lattice_spacing", ParamType::real, "d", 1.05, 1.0, 10.0, "initial cubic grid spacing, in d"},
            {"lattice_jitter", ParamType::real, "d", 0.025, 0.0, 4.5,
             "uniform perturbation per axis, in d (<= (spacing - 1)/2: no initial overlaps)"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 4e18, "seed of the perturbation"},
            {"strip_height", ParamType::real, "d", 5.0, 0.1, 1e4, "height of wall strips and axis slices, in d"},
            {"axis_radius", ParamType::real, "d", 1.5, 0.1, 1e4, "radius of the central cylinder of sigma_zz, in d"},
            {"kernel_width", ParamType::real, "d", 1.0, 0.0, 1e4, "Gaussian coarse-graining width in z, in d"},
            {"profile_every", ParamType::integer, "-", std::int64_t(1), 1.0, 1e9,
             "sample the pressure profiles every k steps of the window"},
            {"on_instability", ParamType::text, "", std::string("fail"), {}, {},
             "fail: a diverging run fails; record: diverged = 1, stable = 0, NaN metrics", {"fail", "record"}},
            {"label", ParamType::text, "", std::string(""), {}, {},
             "name of a group of runs for a study's where filters (one group, several tiers); no effect on the run"},
            {"snapshot", ParamType::boolean, "", false, {}, {},
             "write final_state.vtp (positions, contact_force per particle) into the run folder"},
        },
    .run = run_cylinder}};

}  // namespace
}  // namespace grainlab
