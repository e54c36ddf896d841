// Experiment sdem_homogeneous_cooling: a granular gas of smooth spheres in a triply periodic box cools by
// inelastic collisions; its temperature follows Haff's law T0 / (1 + t/tau)^2 with tau from the Enskog
// collision rate (experiments/haff_law.hpp, docs/periodic.md). SDEM, Hertz law with restitution e, no
// friction, no gravity. Start: spheres on a cubic lattice with Gaussian velocities (zero total
// momentum), an elastic warm-up that randomises the positions, then e is switched on at t = 0.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"
#include "experiments/experiment.hpp"
#include "experiments/haff_law.hpp"

namespace grainlab {
namespace {

/// T = <|v - V|^2> / 3 over the particles.
double temperature(const ParticleStore& p) {
  Vec3 mean = Vec3::Zero();
  for (const Vec3& v : p.velocity) mean += v;
  mean /= double(p.size());
  double sum = 0;
  for (const Vec3& v : p.velocity) sum += (v - mean).squaredNorm();
  return sum / (3.0 * double(p.size()));
}

RunResult run(const Parameters& p, RunContext& ctx) {
  const int n = int(p.integer("count"));
  const double phi = p.real("solid_fraction"), d = p.real("diameter"), e = p.real("restitution");
  const double v_rms = p.real("velocity");  // sqrt(3 T0)
  const double T0 = v_rms * v_rms / 3;
  const double L = std::cbrt(n * haff::pi * d * d * d / 6 / phi);
  const int m = int(std::ceil(std::cbrt(double(n)) - 1e-9));
  if (L / m <= d * 1.001)
    throw InputError(fmt::format("solid_fraction = {} is too dense for the cubic start lattice ({} per side)", phi, m));

  World w;
  w.gravity.g.setZero();
  Material mat;
  mat.name = "gas";
  mat.density = p.real("density");
  mat.youngs_modulus = p.real("youngs_modulus");
  mat.poisson_ratio = p.real("poisson_ratio");
  mat.restitution = 1.0;  // elastic warm-up
  mat.friction = 0.0;
  w.add_material(mat);
  for (int k = 0; k < 3; ++k) w.collision.set_periodic(k, 0.0, L);
  std::mt19937_64 rng(std::uint64_t(p.integer("seed")));
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<Vec3> v(n);
  Vec3 mean = Vec3::Zero();
  for (auto& x : v) {
    x = Vec3(gauss(rng), gauss(rng), gauss(rng));
    mean += x;
  }
  mean /= double(n);
  double sum = 0;
  for (auto& x : v) {
    x -= mean;
    sum += x.squaredNorm();
  }
  const double scale = v_rms / std::sqrt(sum / n);
  const double a = L / m;
  for (int i = 0; i < n; ++i) {
    const Vec3 site((i % m + 0.5) * a, (i / m % m + 0.5) * a, (i / (m * m) + 0.5) * a);
    w.add_sphere(site, d / 2, 0, scale * v[i]);
  }

  SdemSettings s;
  // dt from the elastic contact time at the fastest relative speed met in practice (3 v_rms).
  s.time_step = p.real("dt_fraction") * sdem_contact_time(mat, d / 2, mat, d / 2, 3 * v_rms, s);
  const double omega0 = haff::enskog_collision_rate(phi, d, T0, haff::chi_carnahan_starling(phi));
  const double tau_ref = haff::haff_time(phi, d, T0, e, p.text("tau_model"));
  const double tau_enskog = haff::haff_time(phi, d, T0, e);
  const double warmup = p.real("warmup_collisions") / omega0;
  const double duration = p.real("duration_tau") * tau_enskog;
  const auto warm_steps = std::int64_t(std::ceil(warmup / s.time_step));
  const auto steps = std::int64_t(std::ceil(duration / s.time_step));
  const int samples = 40;

  SdemStepper sdem(s);
  for (std::int64_t k = 0; k < warm_steps; ++k) sdem.step(w);
  // Rescale to T0 after the warm-up (the lattice start relaxes, momentum stays zero), then e on.
  const double T_warm = temperature(w.particles);
  for (auto& x : w.particles.velocity) x *= std::sqrt(T0 / T_warm);
  w.materials[0].restitution = e;
  sdem.refresh_materials();

  RunResult out;
  TimeSeries& series = out.series["cooling"];
  series.columns = {"t_over_tau", "T_over_T0", "haff"};
  std::vector<double> t_s, y_s;
  const double t_start = w.time;
  Vec3 p0 = Vec3::Zero();
  for (std::size_t i = 0; i < w.particles.size(); ++i) p0 += w.particles.mass[i] * w.particles.velocity[i];
  for (std::int64_t k = 0; k <= steps; ++k) {
    if (k % std::max<std::int64_t>(1, steps / samples) == 0 || k == steps) {
      const double t = w.time - t_start, ratio = temperature(w.particles) / T0;
      series.rows.push_back({t / tau_enskog, ratio, 1.0 / ((1 + t / tau_enskog) * (1 + t / tau_enskog))});
      t_s.push_back(t);
      y_s.push_back(std::sqrt(1.0 / ratio) - 1.0);  // = t / tau under Haff's law
    }
    if (k < steps) sdem.step(w);
    if (ctx.progress && k % 1000 == 0) ctx.progress(double(k) / double(steps));
  }
  // 1/tau: least-squares slope through the origin of sqrt(T0/T) - 1 against t.
  double num = 0, den = 0;
  for (std::size_t i = 0; i < t_s.size(); ++i) num += t_s[i] * y_s[i], den += t_s[i] * t_s[i];
  const double tau_fit = den / num;
  Vec3 p1 = Vec3::Zero();
  double p_scale = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i) {
    p1 += w.particles.mass[i] * w.particles.velocity[i];
    p_scale += w.particles.mass[i] * v_rms;
  }
  out.metrics = {{"tau_fit", tau_fit},
                 {"tau_reference", tau_ref},
                 {"tau_ratio", tau_fit / tau_ref},
                 {"final_T_over_T0", y_s.empty() ? 0.0 : temperature(w.particles) / T0},
                 {"collision_rate", omega0},
                 {"contact_time_over_free_time", sdem_contact_time(mat, d / 2, mat, d / 2, v_rms, s) * omega0},
                 {"momentum_drift", (p1 - p0).norm() / p_scale},
                 {"box_length", L},
                 {"dt", s.time_step},
                 {"steps", double(warm_steps + steps)}};
  return out;
}

Experiment make() {
  Experiment e;
  e.name = "sdem_homogeneous_cooling";
  e.description = "SDEM granular gas in a triply periodic box: temperature decay vs Haff's law with the Enskog rate";
  e.parameters = {
      {"count", ParamType::integer, "-", std::int64_t{1000}, 8.0, 1e7, "spheres"},
      {"solid_fraction", ParamType::real, "-", 0.15, 1e-4, 0.4, "phi"},
      {"restitution", ParamType::real, "-", 0.9, 0.0, 1.0, "normal restitution e after the warm-up"},
      {"diameter", ParamType::real, "m", 1e-3, 1e-9, 1e3, "sphere diameter sigma"},
      {"density", ParamType::real, "kg/m^3", 2500.0, 1e-6, 1e6, "particle density"},
      {"youngs_modulus", ParamType::real, "Pa", 1e10, 1.0, 1e13, "E (stiff: contact time << free time)"},
      {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "nu"},
      {"velocity", ParamType::real, "m/s", 1.0, 1e-6, 1e3, "initial rms speed sqrt(3 T0)"},
      {"dt_fraction", ParamType::real, "-", 0.04, 1e-4, 1.0, "time step / elastic Hertz t_c at 3 x the rms speed"},
      {"warmup_collisions", ParamType::real, "-", 5.0, 0.0, 1e4, "elastic warm-up, collisions per particle"},
      {"duration_tau", ParamType::real, "-", 2.0, 1e-3, 1e4, "cooling time in units of the Enskog tau"},
      {"tau_model", ParamType::text, "", std::string("enskog"), {}, {}, "reference tau (perturbations: no_pair_correlation, linear_restitution)",
       {"enskog", "no_pair_correlation", "linear_restitution"}},
      {"seed", ParamType::integer, "-", std::int64_t{1}, 0.0, 1e12, "velocity seed"},
  };
  e.run = run;
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
