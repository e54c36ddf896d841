#include "experiments/sdem_scenarios.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/sdem/hertz_theory.hpp"
#include "core/stability_guard.hpp"
#include "core/world.hpp"

namespace grainlab::sdem {

namespace {

constexpr double deg = 3.14159265358979323846 / 180.0;

Wall floor_plane(std::uint16_t material) {
  Wall w;
  w.name = "floor";
  w.shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()};
  w.material = material;
  return w;
}

// Least-squares slope of y(t).
double slope(const std::vector<double>& t, const std::vector<double>& y) {
  const double n = double(t.size());
  double st = 0, sy = 0;
  for (std::size_t i = 0; i < t.size(); ++i) st += t[i], sy += y[i];
  const double mt = st / n, my = sy / n;
  double num = 0, den = 0;
  for (std::size_t i = 0; i < t.size(); ++i) num += (t[i] - mt) * (y[i] - my), den += (t[i] - mt) * (t[i] - mt);
  return den > 0 ? num / den : 0.0;
}

// Hertz stiffness of a sphere against a wall of the same material, and the resting overlap under load.
double wall_kn(const SphereSpec& s) { return hertz_stiffness(mix(s.material(), s.material()).effective_modulus, s.radius); }
double resting_overlap(double load, double kn) { return std::pow(load / kn, 2.0 / 3.0); }

// Time step as a fraction of the sphere-on-wall contact time at a reference speed of 0.1 m/s.
double wall_time_step(const SphereSpec& s, double fraction, const SdemSettings& settings) {
  if (!std::isfinite(fraction) || fraction <= 0) throw InputError(fmt::format("dt_fraction = {} is invalid (must be > 0)", fraction));
  return fraction * sdem_contact_time(s.material(), s.radius, s.material(), 0.0, 0.1, settings);
}

}  // namespace

Material SphereSpec::material() const {
  Material m;
  m.name = "sphere";
  m.density = density;
  m.youngs_modulus = youngs_modulus;
  m.poisson_ratio = poisson_ratio;
  m.restitution = restitution;
  m.friction = friction;
  m.rolling_friction = rolling_friction;
  m.validate();
  return m;
}

std::vector<ParameterSpec> sphere_parameters(const SphereSpec& d, bool with_friction) {
  std::vector<ParameterSpec> out = {
      {"radius", ParamType::real, "m", d.radius, 1e-6, 10.0, "sphere radius"},
      {"density", ParamType::real, "kg/m^3", d.density, 1e-3, 1e5, "sphere density"},
      {"youngs_modulus", ParamType::real, "Pa", d.youngs_modulus, 1.0, 1e13, "Young's modulus E (spheres and plane)"},
      {"poisson_ratio", ParamType::real, "-", d.poisson_ratio, -0.999, 0.499, "Poisson ratio nu"},
      {"restitution", ParamType::real, "-", d.restitution, 0.0, 1.0, "requested normal coefficient of restitution e"},
  };
  if (with_friction) {
    out.push_back({"friction", ParamType::real, "-", d.friction, 0.0, 10.0, "sliding friction mu"});
    out.push_back({"rolling_friction", ParamType::real, "-", d.rolling_friction, 0.0, 10.0,
                   "rolling resistance mu_r (torque limit mu_r R* f_n)"});
  }
  return out;
}

SphereSpec sphere_from(const Parameters& p, bool with_friction) {
  SphereSpec s;
  s.radius = p.real("radius");
  s.density = p.real("density");
  s.youngs_modulus = p.real("youngs_modulus");
  s.poisson_ratio = p.real("poisson_ratio");
  s.restitution = p.real("restitution");
  if (with_friction) {
    s.friction = p.real("friction");
    s.rolling_friction = p.real("rolling_friction");
  }
  return s;
}

double SphereSpec::mass() const { return density * 4.0 / 3.0 * 3.14159265358979323846 * radius * radius * radius; }

ImpactResult run_impact(const ImpactSetup& s) {
  if (s.target != "sphere" && s.target != "wall")
    throw InputError(fmt::format("target = '{}' is invalid (must be \"sphere\" or \"wall\")", s.target));
  if (!std::isfinite(s.velocity) || s.velocity <= 0) throw InputError(fmt::format("velocity = {} is invalid (must be > 0)", s.velocity));
  if (!std::isfinite(s.dt_fraction) || s.dt_fraction <= 0)
    throw InputError(fmt::format("dt_fraction = {} is invalid (must be > 0)", s.dt_fraction));
  const bool wall = s.target == "wall";
  SphereSpec spec = s.sphere;
  spec.friction = 0;
  spec.rolling_friction = 0;
  const Material mat = spec.material();
  const double r = spec.radius, m = spec.mass(), v = s.velocity;
  const double m_eff = wall ? m : 0.5 * m;
  const double kn = hertz_stiffness(mix(mat, mat).effective_modulus, wall ? r : 0.5 * r);

  ImpactResult out;
  out.peak_overlap_analytic = hertz_peak_overlap(m_eff, kn, v);
  out.peak_force_analytic = hertz_peak_force(m_eff, kn, v);
  out.contact_time_analytic = hertz_contact_time(m_eff, kn, v);
  out.restitution_requested = spec.restitution;

  SdemSettings settings = s.settings;
  if (settings.normal_law != SdemNormalLaw::linear)
    settings.time_step = s.dt_fraction * out.contact_time_analytic;
  else
    settings.time_step = s.dt_fraction * linear_contact_time(m_eff, settings.linear_stiffness);
  const double dt = settings.time_step;
  out.time_step = dt;

  World world;
  world.gravity.g = Vec3::Zero();
  const auto mi = world.add_material(mat);
  // Start 1.37 steps of travel apart, so the first touch falls inside a step (interpolated below).
  const double gap = 1.37 * v * dt;
  std::size_t a;
  if (wall) {
    world.add_wall(floor_plane(mi));
    a = world.add_sphere(Vec3(0, 0, r + gap), r, mi, Vec3(0, 0, -v));
  } else {
    a = world.add_sphere(Vec3(0, 0, 2 * r + gap), r, mi, Vec3(0, 0, -0.5 * v));
    world.add_sphere(Vec3(0, 0, 0), r, mi, Vec3(0, 0, 0.5 * v));
  }
  auto overlap = [&] {
    const auto& x = world.particles.position;
    return wall ? r - x[a].z() : 2 * r - (x[0] - x[1]).norm();
  };
  auto normal_speed = [&] {  // approach speed along +z separation (> 0 while approaching)
    const auto& u = world.particles.velocity;
    return wall ? -u[a].z() : -(u[0].z() - u[1].z());
  };
  SdemStepper stepper(settings);
  const StabilityGuard guard(world, {}, "sdem_impact");
  const double vn_before = normal_speed();
  double t_in = -1, t_out = -1, d_prev = overlap();
  const long max_steps = long(20.0 / s.dt_fraction) + 100;
  for (long k = 0; k < max_steps; ++k) {
    stepper.step(world);
    guard.check(world);
    // The contacts were detected at the start of this step and carry this step's force.
    for (const Contact& c : world.contacts()) {
      out.peak_overlap = std::max(out.peak_overlap, c.overlap);
      out.peak_force = std::max(out.peak_force, c.force.dot(c.normal));
      if (c.overlap > 0 && t_in >= 0) out.history.push_back({world.time - dt - t_in, c.overlap, c.force.dot(c.normal)});
    }
    const double d = overlap();
    const double t = world.time;
    if (t_in < 0 && d_prev <= 0 && d > 0) t_in = t - dt + dt * (-d_prev) / (d - d_prev);
    if (t_in >= 0 && t_out < 0 && d_prev > 0 && d <= 0) t_out = t - dt + dt * d_prev / (d_prev - d);
    d_prev = d;
    if (t_out >= 0 && world.time > t_out + 2 * dt) break;
  }
  if (t_out < 0)
    throw InstabilityError(fmt::format("sdem_impact: step {}: contact did not end within {} steps "
                                       "(restitution too low?)", world.step, max_steps),
                           world.step);
  out.contact_time = t_out - t_in;
  out.restitution_measured = -normal_speed() / vn_before;
  return out;
}

ObliqueResult run_oblique(const ObliqueSetup& s) {
  const SphereSpec& spec = s.sphere;
  const Material mat = spec.material();
  const double r = spec.radius, m = spec.mass(), v = s.velocity;
  const double kn = hertz_stiffness(mix(mat, mat).effective_modulus, r);
  const double vn = v * std::cos(s.angle_deg * deg), vt = v * std::sin(s.angle_deg * deg);
  SdemSettings settings = s.settings;
  settings.time_step = s.dt_fraction * hertz_contact_time(m, kn, vn);
  const double dt = settings.time_step;
  World world;
  world.gravity.g = Vec3::Zero();
  const auto mi = world.add_material(mat);
  world.add_wall(floor_plane(mi));
  world.add_sphere(Vec3(0, 0, r + 1.37 * vn * dt), r, mi, Vec3(vt, 0, -vn));
  SdemStepper stepper(settings);
  const StabilityGuard guard(world, {}, "sdem_oblique");
  bool touched = false;
  const long max_steps = long(20.0 / s.dt_fraction) + 100;
  for (long k = 0; k < max_steps; ++k) {
    stepper.step(world);
    guard.check(world);
    const bool touching = world.particles.position[0].z() < r;
    touched = touched || touching;
    if (touched && !touching && world.contacts().size() == 0) break;
  }
  ObliqueResult out;
  out.vn_before = vn;
  out.vt_before = vt;
  out.vn_after = world.particles.velocity[0].z();
  out.vt_after = world.particles.velocity[0].x();
  out.spin_after = world.particles.angular_velocity[0].y();
  return out;
}

int incline_regime(double alpha, double mu, double mu_r) {
  const double t = std::tan(alpha);
  if (t <= mu_r) return 0;
  // Rolling needs the friction force 2/7 m g sin(a) + 5/7 mu_r m g cos(a) <= mu m g cos(a).
  if (2.0 / 7.0 * t + 5.0 / 7.0 * mu_r <= mu) return 1;
  return 2;
}

double incline_acceleration(double alpha, double mu, double mu_r, double g) {
  switch (incline_regime(alpha, mu, mu_r)) {
    case 0: return 0.0;
    case 1: return 5.0 / 7.0 * g * (std::sin(alpha) - mu_r * std::cos(alpha));
    default: return g * (std::sin(alpha) - mu * std::cos(alpha));
  }
}

namespace {

// Measures the downhill acceleration (least-squares slope of v_x over the second half of the run)
// and the final slip of a sphere resting on the plane z = 0 under gravity `g_vec`.
struct SlopeRun {
  double acceleration, displacement, slip_ratio, final_speed;
  std::vector<std::array<double, 2>> history;  // time, downhill speed
};

SlopeRun run_on_plane(const SphereSpec& spec, const Vec3& g_vec, double v0, double duration, double dt_fraction,
                      SdemSettings settings) {
  const Material mat = spec.material();
  const double r = spec.radius, m = spec.mass();
  settings.time_step = wall_time_step(spec, dt_fraction, settings);
  World world;
  world.gravity.g = g_vec;
  const auto mi = world.add_material(mat);
  world.add_wall(floor_plane(mi));
  // Start at the Hertz equilibrium overlap under the normal load, rolling without slip at v0.
  const double d0 = resting_overlap(m * std::abs(g_vec.z()), wall_kn(spec));
  world.add_sphere(Vec3(0, 0, r - d0), r, mi, Vec3(v0, 0, 0), Vec3(0, v0 / r, 0));
  SdemStepper stepper(settings);
  const StabilityGuard guard(world, {}, "sdem_plane");
  const long steps = std::max(10L, long(duration / settings.time_step));
  std::vector<double> t, v;
  t.reserve(steps / 2 + 1);
  v.reserve(steps / 2 + 1);
  std::vector<std::array<double, 2>> history;
  const long every = std::max(1L, steps / 100);
  for (long k = 0; k < steps; ++k) {
    stepper.step(world);
    guard.check(world);
    if (k % every == 0) history.push_back({world.time, world.particles.velocity[0].x()});
    if (k >= steps / 2) {
      t.push_back(world.time);
      v.push_back(world.particles.velocity[0].x());
    }
  }
  const auto& p = world.particles;
  const double vx = p.velocity[0].x();
  const double slip = vx - p.angular_velocity[0].y() * r;
  return {slope(t, v), p.position[0].x(), std::abs(vx) > 0 ? std::abs(slip) / std::abs(vx) : 0.0, std::abs(vx),
          std::move(history)};
}

}  // namespace

InclineResult run_incline(const InclineSetup& s) {
  if (!std::isfinite(s.angle_deg) || s.angle_deg < 0 || s.angle_deg >= 90)
    throw InputError(fmt::format("angle_deg = {} is invalid (must be in [0, 90))", s.angle_deg));
  const double alpha = s.angle_deg * deg;
  const Vec3 g(s.gravity * std::sin(alpha), 0, -s.gravity * std::cos(alpha));
  const SlopeRun run = run_on_plane(s.sphere, g, 0.0, s.duration, s.dt_fraction, s.settings);
  InclineResult out;
  out.acceleration = run.acceleration;
  out.displacement = run.displacement;
  out.slip_ratio = run.slip_ratio;
  out.regime_analytic = incline_regime(alpha, s.sphere.friction, s.sphere.rolling_friction);
  out.acceleration_analytic = incline_acceleration(alpha, s.sphere.friction, s.sphere.rolling_friction, s.gravity);
  // Measured regime: at rest if it moved less than 1 % of the radius (elastic creep of the springs is
  // ~1e-3 r); rolling if the slip is below 1 % of the speed; sliding otherwise.
  if (std::abs(run.displacement) < 0.01 * s.sphere.radius) out.regime = 0;
  else out.regime = run.slip_ratio < 0.01 ? 1 : 2;
  return out;
}

RollingResult run_rolling(const RollingSetup& s) {
  if (!std::isfinite(s.velocity) || s.velocity <= 0) throw InputError(fmt::format("velocity = {} is invalid (must be > 0)", s.velocity));
  RollingResult out;
  out.deceleration_analytic = 5.0 / 7.0 * s.sphere.rolling_friction * s.gravity;
  // Run while the sphere still rolls: 60 % of the stopping time (at most 0.5 s).
  const double stop = out.deceleration_analytic > 0 ? s.velocity / out.deceleration_analytic : 1.0;
  const SlopeRun run = run_on_plane(s.sphere, Vec3(0, 0, -s.gravity), s.velocity, std::min(0.5, 0.6 * stop), s.dt_fraction,
                                    s.settings);
  out.deceleration = -run.acceleration;
  out.slip_ratio = run.slip_ratio;
  out.history = run.history;
  return out;
}

ColumnResult run_column(const ColumnSetup& s) {
  if (s.count < 1) throw InputError(fmt::format("count = {} is invalid (must be >= 1)", s.count));
  const SphereSpec& spec = s.sphere;
  const Material mat = spec.material();
  const double r = spec.radius, m = spec.mass();
  SdemSettings settings = s.settings;
  settings.time_step = wall_time_step(spec, s.dt_fraction, settings);
  World world;
  world.gravity.g = Vec3(0, 0, -s.gravity);
  const auto mi = world.add_material(mat);
  world.add_wall(floor_plane(mi));
  for (int i = 0; i < s.count; ++i) world.add_sphere(Vec3(0, 0, r + 2 * r * i), r, mi);  // touching, no overlap
  SdemStepper stepper(settings);
  const StabilityGuard guard(world, {}, "sdem_column");
  const long steps = long(s.duration / settings.time_step);
  for (long k = 0; k < steps; ++k) {
    stepper.step(world);
    guard.check(world);
  }
  world.detect_contacts();
  stepper.compute_forces(world);  // forces of the final state

  ColumnResult out;
  out.weight = s.count * m * s.gravity;
  out.bottom_force = world.walls[0].force.norm();
  const double kn_wall = wall_kn(spec);
  const double kn_pair = hertz_stiffness(mix(mat, mat).effective_modulus, 0.5 * r);
  for (const Contact& c : world.contacts()) {
    if (c.overlap <= 0) continue;
    // Sphere i (from the bottom, 0-based) carries the weight of the spheres above it: the contact
    // below sphere i carries (count - i) m g.
    const auto& z = world.particles.position;
    const int lower = c.is_wall() ? -1 : std::int32_t(std::min(z[c.a].z(), z[c.b].z()) / (2 * r) + 1e-9);
    const int i = c.is_wall() ? 0 : lower + 1;
    const double load = (s.count - i) * m * s.gravity;
    const double expected = resting_overlap(load, c.is_wall() ? kn_wall : kn_pair);
    out.max_overlap_error = std::max(out.max_overlap_error, std::abs(c.overlap - expected) / expected);
  }
  for (const Vec3& v : world.particles.velocity) out.max_speed = std::max(out.max_speed, v.norm());
  return out;
}

}  // namespace grainlab::sdem
