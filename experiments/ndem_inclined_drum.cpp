// Experiment ndem_inclined_drum: Paper III E6, the inclined rotating balling drum RK1 (000 l.1366-1378,
// 1426; Table 3-4; ledger ../shared/claims/paper3.md E6, P1, P3, P10), as the ledger's REDUCED PERIODIC
// AXIAL SLICE. This is not the paper's system: the paper simulates the whole 8.1 m drum from CAD with a
// feed at its centre and an outlet; here a slice of thickness slice_d d, periodic along the axis, with no
// feed and no outlet, so the axial flow comes from the tilt alone (ledger P10).
//
// Scene: drum axis along +y through the origin, diameter drum_diameter, turning at omega about +y; the
// 7 deg inclination enters through gravity g (0, sin beta, -cos beta) (+y is downstream, towards the
// outlet). Shell: core/geometry/drum.hpp make_bumpy_drum, infinite length, Gaussian bumps (20 per m^2,
// FWHM 50 mm, heights 30-50 mm, 000 l.1368) repeating with the slice period (with a 50 mm slice each bump
// and its images form an axial ridge: the slice cannot hold the paper's isolated bumps). Particles wrap
// across y in [-L/2, L/2) (CollisionSettings::periodic). Particle and wall materials: Table 1 (ledger
// "common settings": pellet values for every contact); wall_friction < 0 keeps the pellet mu_s.
// Hold-up: holdup kg per metre of drum (ledger E6: 1.08e5 pellets/m of d = 12.7 mm, the solid cross-section
// implied by the paper's own v_tr), so count = holdup L / m_particle (the d' = 0.8d variant keeps the mass).
//
// Protocol: fill a segment-shaped bed on a lattice (in-plane spacing fill_spacing d with jitter, along the
// axis L / floor(L/d) so the periodic seam closes), settle settle_time at rest with gravity ramped up,
// spin up spinup_time: the preparation, done with the Table 1 material and base solver settings
// (the parameters in `branch_parameters` at their defaults) and shared between runs by the process memo
// (experiments/run_memo.hpp). Each run continues from it with its own material and solver settings for
// relax_time (re-equilibration) and measures over capture_time (paper: one revolution, 12 s, after five).
// Measures (experiments/section_fields.hpp, drum_surface.hpp; ledger E6 defaults): every step adds to the
// time-averaged coarse-grained density/velocity fields on a cell_d d grid; every window_time (0.1 s, the
// ledger's "±" sampling) the window's own fields give a surface fit (theta sample) and the particles at
// the window's end are kept; after the capture the surface of the whole average defines the surface
// layer, whose velocities are taken on every kept instant. Reported values are the mean over the
// windows, "_sd" their standard deviation (the paper's ±).
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/source_rng.hpp"
#include "core/stability_guard.hpp"
#include "experiments/drum_surface.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/run_memo.hpp"
#include "experiments/sample_statistics.hpp"
#include "experiments/section_fields.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// Parameters a run may change after the shared preparation (material and solver of the measured part).
const std::set<std::string> branch_parameters = {"variant", "friction", "rolling_friction", "youngs_modulus", "restitution",
                                                 "wall_friction", "dt", "iterations", "impact_velocity",
                                                 "damping_time", "relax_time", "capture_time", "window_time"};

double radius_of(const Parameters& p) { return 0.5 * p.real("drum_diameter"); }
double slice_length(const Parameters& p) { return p.real("slice_d") * p.real("diameter"); }
double particle_mass(const Parameters& p) {
  const double d = p.real("diameter");
  return p.real("density") * pi / 6 * d * d * d;
}
int particle_count(const Parameters& p) {
  return int(std::llround(p.real("holdup") * slice_length(p) / particle_mass(p)));
}

/// The frame of experiments/drum_surface.hpp: e3 = +y (axis, downstream), e2 = up, e1 = e2 x e3 = -x, so the
/// drum turning at omega > 0 about +y lifts the bed on the +a side.
SectionFrame section_frame() {
  SectionFrame f;
  f.e1 = -Vec3::UnitX();
  f.e2 = Vec3::UnitZ();
  return f;
}

// Segment-shaped lattice bed (see the file comment): sites inside the radius clear of the bumps, bottom up.
void fill_bed(World& w, const Parameters& p, std::uint16_t material) {
  const double d = p.real("diameter"), L = slice_length(p), jitter = p.real("fill_jitter") * d;
  const double a = p.real("fill_spacing") * d;
  if (a < d + 2 * jitter)
    throw InputError(fmt::format("ndem_inclined_drum: fill_spacing = {} d must be at least 1 + 2 fill_jitter = {} d",
                                 p.real("fill_spacing"), 1 + 2 * p.real("fill_jitter")));
  const int layers = int(std::floor(L / d + 1e-9));
  const double reach = radius_of(p) - p.real("bump_height_max") - d / 2 - jitter;
  const int n = int(std::floor(reach / a));
  std::vector<Vec3> sites;
  for (int iz = -n; iz <= 0; ++iz)
    for (int ix = -n; ix <= n; ++ix)
      for (int iy = 0; iy < layers; ++iy) {
        const double x = ix * a, z = iz * a;
        if (x * x + z * z <= reach * reach) sites.emplace_back(x, -L / 2 + (iy + 0.5) * L / layers, z);
      }
  std::stable_sort(sites.begin(), sites.end(), [](const Vec3& l, const Vec3& r) { return l.z() < r.z(); });
  const int count = particle_count(p);
  if (int(sites.size()) < count)
    throw InputError(fmt::format("ndem_inclined_drum: holdup = {} kg/m ({} particles) does not fit the lower half of "
                                 "the drum ({} sites)", p.real("holdup"), count, sites.size()));
  sources::SourceRng rng(std::uint64_t(p.integer("seed")));
  for (int i = 0; i < count; ++i) {
    const Vec3 offset(rng.uniform(-jitter, jitter), 0.0, rng.uniform(-jitter, jitter));
    w.add_sphere(sites[std::size_t(i)] + offset, d / 2, material);
  }
}

World build_world(const Parameters& p) {
  World w;
  const double beta = p.real("inclination_deg") * pi / 180, g = p.real("gravity");
  w.gravity.g = g * Vec3(0, std::sin(beta), -std::cos(beta));
  w.gravity.ramp_duration = p.real("settle_gravity_ramp");
  const double L = slice_length(p);
  w.collision.set_periodic(1, -L / 2, L / 2);
  const Material grain = material_from_parameters(p, "pellet");
  Material wall_material = grain;
  wall_material.name = "drum";
  if (p.real("wall_friction") >= 0) wall_material.friction = p.real("wall_friction");
  const std::uint16_t grain_id = w.add_material(grain);
  const std::uint16_t wall_id = w.add_material(wall_material);
  CylinderShape body;
  body.axis = Vec3::UnitY();
  body.radius = radius_of(p);
  body.length = std::numeric_limits<double>::infinity();
  body.side = CylinderShape::Side::inside;
  BumpParams bumps;
  bumps.density = p.real("bump_density");
  bumps.height_min = p.real("bump_height_min");
  bumps.height_max = p.real("bump_height_max");
  bumps.width = p.real("bump_width");
  bumps.seed = std::uint64_t(p.integer("bump_seed"));
  bumps.axial_period = L;
  Wall shell;
  shell.name = "drum";
  shell.shape = bumps.density > 0 ? make_bumpy_drum(body, Vec3::UnitX(), bumps, "drum")
                                  : make_smooth_drum(body, Vec3::UnitX(), "drum");
  shell.material = wall_id;
  w.add_wall(shell);
  fill_bed(w, p, grain_id);
  return w;
}

/// The run's material (branch parameters) on the prepared world's materials.
void apply_materials(World& w, const Parameters& p) {
  Material grain = material_from_parameters(p, "pellet");
  Material wall = grain;
  wall.name = "drum";
  if (p.real("wall_friction") >= 0) wall.friction = p.real("wall_friction");
  w.materials[0] = grain;
  w.materials[1] = wall;
}

NdemSettings solver_settings(const Parameters& p) {
  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = int(p.integer("iterations"));
  s.n_s = int(p.integer("n_s"));
  s.impact_velocity = p.real("impact_velocity");
  s.impact_epsilon = p.real("impact_epsilon");
  s.damping_time = p.real("damping_time");
  s.friction_shape = parse_friction_shape(p.text("friction_shape"));
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  return s;
}

// The turning drum feeds energy in: the energy part of the guard is off; overlap and finiteness stay.
StabilityGuard make_guard(const World& w, const Parameters& p) {
  return StabilityGuard(w, {.max_energy_gain = std::numeric_limits<double>::infinity(),
                            .max_overlap_ratio = p.real("max_overlap_ratio")}, "ndem_inclined_drum");
}

int steps_of(double time, double dt) { return int(std::llround(time / dt)); }

void set_rotation(World& w, double omega) { w.walls[0].angular_velocity = omega * Vec3::UnitY(); }

/// The run's parameters with the branch parameters at the experiment's defaults (the preparation's).
Parameters preparation_parameters(const Parameters& p, const Experiment& e) {
  Parameters q = p;
  for (const auto& name : branch_parameters) q.values[name] = e.find(name)->default_value;
  return q;
}

World prepare(const Parameters& q, RunContext& ctx) {
  World w = build_world(q);
  NdemSettings settings = solver_settings(q);
  settings.iterations = int(q.integer("prep_iterations"));
  NdemStepper stepper(settings);
  const StabilityGuard guard = make_guard(w, q);
  const double dt = q.real("dt");
  const int settle = steps_of(q.real("settle_time"), dt), spin = steps_of(q.real("spinup_time"), dt);
  set_rotation(w, 0.0);
  for (int k = 0; k < settle + spin; ++k) {
    if (k == settle) set_rotation(w, q.real("omega"));
    stepper.step(w);
    w.wrap_periodic();
    guard.check(w);
    if (ctx.progress && k % 50 == 0) ctx.progress(0.4 * k / std::max(1, settle + spin));
  }
  return w;
}

std::string preparation_key(const Parameters& q) {
  std::string key = "ndem_inclined_drum";
  for (const auto& [name, value] : q.values) key += fmt::format("|{}={}", name, to_string(value));
  return key;
}

struct Snapshot {
  std::vector<Vec3> x, v;
};

const Experiment& self();

RunResult run_inclined_drum(const Parameters& p, RunContext& ctx) {
  RunResult out;
  const double d = p.real("diameter"), R = radius_of(p), omega = p.real("omega"), L = slice_length(p);
  auto& m = out.metrics;
  m["particles"] = particle_count(p);
  m["slice_length"] = L;
  m["froude"] = omega * omega * R / p.real("gravity");
  m["revolution_time"] = 2 * pi / std::abs(omega);
  m["printed_v_s_decomposed"] = std::hypot(p.real("printed_v_s_perp"), p.real("printed_v_sz"));

  const Parameters q = preparation_parameters(p, self());
  const auto prepared = memoized<World>(preparation_key(q), [&] { return prepare(q, ctx); });
  World w = *prepared;
  apply_materials(w, p);
  NdemStepper stepper(solver_settings(p));
  const StabilityGuard guard = make_guard(w, p);
  const double dt = p.real("dt");
  const int relax = steps_of(p.real("relax_time"), dt), capture = steps_of(p.real("capture_time"), dt);
  const int window = std::max(1, steps_of(p.real("window_time"), dt));
  if (capture < 2 * window) throw InputError("ndem_inclined_drum: capture_time must cover at least two window_time");

  const SectionFrame frame = section_frame();
  const SectionGrid grid = disc_grid(R, p.real("cell_d") * d, L);
  SectionFields average(grid), windowed(grid);
  const double margin = p.real("wall_margin_d") * d;
  std::vector<double> theta, v_tr;
  std::vector<Snapshot> kept;
  TimeSeries windows{{"time", "theta_deg", "v_tr"}, {}};
  const auto& P = w.particles;
  for (int k = 0; k < relax + capture; ++k) {
    stepper.step(w);
    w.wrap_periodic();
    guard.check(w);
    if (ctx.progress && k % 50 == 0) ctx.progress(0.4 + 0.6 * k / double(relax + capture));
    if (k < relax) continue;
    average.add_sample(frame, P.position, P.velocity, P.mass);
    windowed.add_sample(frame, P.position, P.velocity, P.mass);
    if ((k - relax + 1) % window != 0) continue;
    const auto rho = windowed.density();
    const SurfaceFit f = fit_free_surface(grid, rho, 0.5 * bulk_density(rho), R, margin);
    theta.push_back(f.valid ? f.angle_deg : nan);
    double mass = 0, axial = 0;
    for (std::size_t i = 0; i < P.size(); ++i) mass += P.mass[i], axial += P.mass[i] * P.velocity[i].y();
    v_tr.push_back(axial / mass);
    windows.rows.push_back({w.time, theta.back(), v_tr.back()});
    kept.push_back({P.position, P.velocity});
    windowed.clear();
  }

  const auto rho = average.density();
  const auto vel = average.velocity();
  const double bulk = bulk_density(rho), threshold = 0.5 * bulk;
  const SurfaceFit fit = fit_free_surface(grid, rho, threshold, R, margin);
  m["theta_deg"] = fit.valid ? fit.angle_deg : nan;
  m["theta_sd_deg"] = sd_of(theta);
  m["theta_window_mean_deg"] = mean_of(theta);
  m["theta1_deg"] = fit.theta1_deg;
  m["theta2_deg"] = fit.theta2_deg;
  m["theta_chord_deg"] = fit.chord_angle_deg;
  m["surface_points"] = fit.points;
  m["surface_rms_d"] = fit.rms_residual / d;
  m["bulk_density"] = bulk;
  m["bulk_solid_fraction"] = bulk / p.real("density");
  m["v_tr"] = mean_of(v_tr);
  m["v_tr_sd"] = sd_of(v_tr);

  std::vector<double> v_s, v_perp, v_sz, count;
  windows.columns.insert(windows.columns.end(), {"v_s", "v_s_perp", "v_sz", "surface_particles"});
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const SurfaceLayer s = surface_layer(frame, fit, kept[i].x, kept[i].v, p.real("surface_layer_d") * d,
                                         p.real("theta3_deg"), p.real("theta4_deg"));
    v_s.push_back(s.speed);
    v_perp.push_back(s.v_perp);
    v_sz.push_back(s.v_axial);
    count.push_back(s.particles);
    windows.rows[i].insert(windows.rows[i].end(), {s.speed, s.v_perp, s.v_axial, double(s.particles)});
  }
  m["v_s"] = mean_of(v_s);
  m["v_s_sd"] = sd_of(v_s);
  m["v_s_perp"] = mean_of(v_perp);
  m["v_s_perp_sd"] = sd_of(v_perp);
  m["v_sz"] = mean_of(v_sz);
  m["v_sz_sd"] = sd_of(v_sz);
  m["v_s_decomposed"] = std::hypot(m["v_s_perp"], m["v_sz"]);
  m["surface_particles"] = mean_of(count);
  const PlugZone plug = plug_zone(grid, rho, vel, threshold, omega, p.real("plug_tolerance"));
  m["plug_fraction"] = plug.plug_fraction;
  m["shear_axial_share"] = plug.shear_axial_share;
  m["contacts_per_particle"] = double(stepper.stats().contacts) / double(P.size());
  out.series["windows"] = windows;

  // The time-averaged fields over the bed's bounding box (+2 cells): the heat maps of Fig. 15.
  int i0 = grid.na, i1 = -1, j0 = grid.nb, j1 = -1;
  for (int j = 0; j < grid.nb; ++j)
    for (int i = 0; i < grid.na; ++i)
      if (rho[grid.index(i, j)] > 0) i0 = std::min(i0, i), i1 = std::max(i1, i), j0 = std::min(j0, j), j1 = std::max(j1, j);
  TimeSeries fields{{"a", "b", "density", "v_inplane", "v_axial", "v_relative"}, {}};
  for (int j = std::max(0, j0 - 2); j <= std::min(grid.nb - 1, j1 + 2); ++j)
    for (int i = std::max(0, i0 - 2); i <= std::min(grid.na - 1, i1 + 2); ++i) {
      const std::size_t k = grid.index(i, j);
      const Vec3& v = vel[k];
      const double rel = std::hypot(v.x() + omega * grid.b(j), v.y() - omega * grid.a(i));
      fields.rows.push_back({grid.a(i), grid.b(j), rho[k], std::hypot(v.x(), v.y()), v.z(), rel});
    }
  out.series["fields"] = fields;
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_inclined_drum",
    .description = "Paper III E6: inclined rotating drum RK1 (D = 3.7 m, 7 deg, 0.53 rad/s, bump texture) as a "
                   "periodic axial slice (no feed, no outlet: not the paper's system), NDEM; dynamic angle, surface "
                   "velocities and plug zone by coarse graining on a 1 d grid (000 l.1366-1378)",
    .parameters =
        {
            {"variant", ParamType::text, "", std::string("base"), {}, {},
             "label of the run in a study (no effect on the physics): checks select runs by it, so a perturbation "
             "tier can give a label other settings"},
            {"diameter", ParamType::real, "m", 0.0127, 1e-4, 1.0, "pellet diameter d (Table 1, monosized, 000 l.1360)"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1.0, 1e5, "pellet density (Table 1)"},
            {"youngs_modulus", ParamType::real, "Pa", 6.2e6, 1.0, 1e15, "Young's modulus E (Table 1)"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio (000 l.1194)"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e (Table 1)"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "surface friction mu_s (Table 1)"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r (Table 1)"},
            {"wall_friction", ParamType::real, "-", -1.0, -1.0, 100.0, "pellet-drum friction (< 0: friction)"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 1e3, "gravity magnitude (000 l.1140)"},
            {"inclination_deg", ParamType::real, "deg", 7.0, -45.0, 45.0, "drum inclination beta_d (Table 3)"},
            {"dt", ParamType::real, "s", 0.005, 1e-6, 0.1, "time step (000 l.1360)"},
            {"iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e5, "PGS iterations N_it (000 l.1360)"},
            {"n_s", ParamType::integer, "-", std::int64_t(2), 1.0, 1000.0, "tau_n >= n_s dt (000 l.1505)"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3,
             "v_imp (000 l.1360); < 0: the rule eps d / dt per contact (000 l.1140, 1426)"},
            {"impact_epsilon", ParamType::real, "-", 0.02, 0.0, 1.0, "eps of the v_imp rule (ledger P3)"},
            {"damping_time", ParamType::real, "s", 0.0, 0.0, 1.0,
             "Hertz damping time c: tau_n = max(n_s dt, c / e_H) (000 l.1426: c = 1 ms for small dt)"},
            {"friction_shape", ParamType::text, "", std::string("cone"), {}, {}, "cone | box", {"cone", "box"}},
            {"max_overlap_ratio", ParamType::real, "-", 2.0, 0.1, 100.0, "stop as unstable beyond this overlap / radius"},
            {"drum_diameter", ParamType::real, "m", 3.7, 0.1, 100.0, "drum inner diameter D (Table 3)"},
            {"omega", ParamType::real, "rad/s", 0.53, -100.0, 100.0, "drum angular velocity about +y (Table 3)"},
            {"slice_d", ParamType::real, "-", 4.0, 2.01, 1e4, "slice thickness along the axis, in d (> 2: periodic images; ledger E6: 0.05 m)"},
            {"holdup", ParamType::real, "kg/m", 428.6, 0.0, 1e6,
             "bed mass per metre of drum (ledger E6: 1.08e5 pellets of 12.7 mm per metre)"},
            {"bump_density", ParamType::real, "1/m^2", 20.0, 0.0, 1e4, "texture bumps per m^2 (000 l.1368; 0: smooth)"},
            {"bump_height_min", ParamType::real, "m", 0.03, 0.0, 1.0, "smallest bump height (000 l.1368)"},
            {"bump_height_max", ParamType::real, "m", 0.05, 0.0, 1.0, "largest bump height (000 l.1368)"},
            {"bump_width", ParamType::real, "m", 0.05, 1e-4, 1.0, "bump FWHM (000 l.1368; ledger: width = FWHM)"},
            {"bump_seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "seed of the bump positions and heights"},
            {"fill_spacing", ParamType::real, "-", 1.05, 1.0, 10.0, "in-plane lattice spacing of the fill, in d"},
            {"fill_jitter", ParamType::real, "-", 0.02, 0.0, 1.0, "in-plane random offset of the fill, in d"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "seed of the fill offsets"},
            {"prep_iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e5,
             "PGS iterations of the preparation (settle and spin-up at dt's default 5 ms)"},
            {"settle_time", ParamType::real, "s", 1.0, 0.0, 1e4, "settling with the drum at rest"},
            {"settle_gravity_ramp", ParamType::real, "s", 0.5, 0.0, 1e4, "gravity ramps from 0 over this time"},
            {"spinup_time", ParamType::real, "s", 23.7, 0.0, 1e4, "rotation before the run's own part (ledger: 2 rev)"},
            {"relax_time", ParamType::real, "s", 2.0, 0.0, 1e4, "the run's own re-equilibration after the preparation"},
            {"capture_time", ParamType::real, "s", 11.86, 0.0, 1e4, "measurement window (000 l.1374: one revolution)"},
            {"window_time", ParamType::real, "s", 0.1, 1e-4, 1e4, "sampling window of the +- (ledger E6: 0.1 s)"},
            {"cell_d", ParamType::real, "-", 1.0, 0.1, 100.0, "coarse-graining cell size, in d (000 l.1374)"},
            {"wall_margin_d", ParamType::real, "-", 4.0, 0.0, 100.0,
             "surface points closer than this to the wall are left out of the fit, in d (bumps reach 4 d)"},
            {"surface_layer_d", ParamType::real, "-", 1.0, 0.1, 100.0, "surface layer half-thickness, in d (ledger E6)"},
            {"theta3_deg", ParamType::real, "deg", 135.0, 0.0, 360.0, "surface-flow region start (000 l.1374)"},
            {"theta4_deg", ParamType::real, "deg", 160.0, 0.0, 360.0, "surface-flow region end (000 l.1374)"},
            {"plug_tolerance", ParamType::real, "m/s", 0.05, 0.0, 100.0,
             "plug zone: |v - omega x r| of the averaged field below this (ledger C40)"},
            {"printed_v_s_perp", ParamType::real, "m/s", 1.17, 0.0, 100.0, "printed v_s_perp (Table 4), for P3-C37"},
            {"printed_v_sz", ParamType::real, "m/s", 0.49, 0.0, 100.0, "printed v_sz (Table 4), for P3-C37"},
        },
    .run = run_inclined_drum}};

const Experiment& self() { return find_experiment("ndem_inclined_drum"); }

}  // namespace
}  // namespace grainlab
