// Experiment paper5_method_checks: the invariants and limits of adaptive model reduction that Paper V states
// for its method (000 l.1942, 2020, 2030, 2048; ledger ../shared/claims/paper5.md P5-C12..C15), measured on
// the NDEM stepper's reducer (core/ndem/reduction.hpp). One run gives every metric:
//   C12 merge: relative change of the linear and angular momentum when random clusters of 2-6 touching
//       spheres with random velocities and spins merge (own_inertia = false: Eq. 9-10 as printed, without
//       the members' own inertia and spin, ledger P3: the perturbation).
//   C13 split: a moving, spinning aggregate split by a sensor: 1 when every particle's position, velocity,
//       orientation and spin are bit for bit unchanged; the change of the particles' total momentum
//       (split_resets_velocity = true: the freed particles lose their velocity, the perturbation).
//   C14 over-splitting: a settled block with reduction; every aggregate released; steps until h is back to
//       >= 90 % of its level before (capped at 50: 51 = never), and the largest displacement in 10 steps
//       (remerge_merge_velocity > 0: a stricter merge test after the split, the perturbation), beside the
//       displacement of the same released block stepped without reduction (the full model's own creep).
//   C15 h limits: h with reduction on but nothing merged (0), and with one aggregate of all N_p particles
//       (1 - 1/N_p; h_definition = free_only, the P4 variant, gives 1: the perturbation).
//   Also: the floor load of the settled, reduced block over its weight, and the wall time of a step on the
//   settled block with and without reduction (same state and N_it; a timing, not checked).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "core/bodies.hpp"
#include "core/error.hpp"
#include "core/io/checkpoint.hpp"
#include "core/ndem/aggregates.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "experiments/experiment.hpp"
#include "experiments/paper5_scenes.hpp"

namespace grainlab {
namespace {

double rel(const Vec3& a, const Vec3& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

Vec3 particle_momentum(const ParticleStore& P) {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < P.size(); ++i) p += P.mass[i] * P.velocity[i];
  return p;
}

// C12: random clusters; returns the largest relative errors of linear and angular momentum.
std::pair<double, double> merge_momentum(int clusters, bool own_inertia, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), radius(0.005, 0.0065);
  std::uniform_int_distribution<int> size(2, 6);
  const Vec3 o(0.3, -0.2, 0.1);
  double lin = 0, ang = 0;
  for (int k = 0; k < clusters; ++k) {
    World w;
    w.gravity.g = Vec3::Zero();
    w.add_material(paper5_material());
    const int n = size(rng);
    for (int i = 0; i < n; ++i) {
      const double r = radius(rng);
      Vec3 x = Vec3::Zero();
      if (i > 0) {  // touching a random earlier sphere (overlap 1e-5 m)
        const std::size_t j = std::uniform_int_distribution<std::size_t>(0, std::size_t(i - 1))(rng);
        Vec3 dir(u(rng), u(rng), u(rng));
        dir.normalize();
        x = w.particles.position[j] + (w.particles.radius[j] + r - 1e-5) * dir;
      }
      w.add_sphere(x, r, 0, 0.1 * Vec3(u(rng), u(rng), u(rng)), 2.0 * Vec3(u(rng), u(rng), u(rng)));
    }
    const Vec3 p0 = total_linear_momentum(w), L0 = total_angular_momentum(w, o);
    std::vector<std::size_t> all(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const ParticleStore before = w.particles;
    form_aggregate(w, all, true);
    const RigidBody& B = w.bodies[0];
    Vec3 omega = B.angular_velocity;
    if (!own_inertia) {  // Eq. 9-10 as printed: I_A and omega_A from the orbital terms only
      Mat3 I = Mat3::Zero();
      Vec3 l = Vec3::Zero();
      for (std::size_t i = 0; i < all.size(); ++i) {
        const Vec3 r = before.position[i] - B.position;
        I += before.mass[i] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
        l += before.mass[i] * r.cross(before.velocity[i] - B.velocity);
      }
      omega = I.inverse() * l;
    }
    // Momenta of the particles moving rigidly with (V, omega) (Eq. 11-13), each spinning with omega.
    Vec3 p = Vec3::Zero(), L = Vec3::Zero();
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Vec3 r = before.position[i] - B.position;
      const Vec3 v = B.velocity + omega.cross(r);
      p += before.mass[i] * v;
      L += before.mass[i] * (before.position[i] - o).cross(v) + before.inertia[i] * omega;
    }
    lin = std::max(lin, rel(p, p0));
    ang = std::max(ang, rel(L, L0));
  }
  return {lin, ang};
}

struct SplitOutcome {
  bool bitwise = false;
  double momentum_error = 0;
  std::size_t freed = 0;
};

// C13: a 3 x 3 x 2 aggregate moving at 0.3 m/s and spinning at 2 rad/s in free space; a sensor frees one corner.
SplitOutcome split_state(bool resets_velocity) {
  Paper5Block b;
  b.nx = b.ny = 3;
  b.nz = 2;
  b.side_walls = false;
  World w = paper5_block_world(b);
  w.gravity.g = Vec3::Zero();
  ParticleStore& P = w.particles;
  const Vec3 v(0.3, 0.1, -0.05), omega(0.5, -1.0, 2.0), centre(0.0195, 0.0195, 0.013);
  std::vector<std::size_t> all(P.size());
  for (std::size_t i = 0; i < P.size(); ++i) {
    P.position[i].z() += 1.0;
    P.velocity[i] = v + omega.cross(P.position[i] - centre - Vec3(0, 0, 1.0));
    P.angular_velocity[i] = omega;
    all[i] = i;
  }
  form_aggregate(w, all, true);
  w.detect_contacts();
  NdemSettings s = paper5_ndem_settings(150);
  s.reduction.enabled = true;
  s.reduction.contact_split = false;
  ReductionSensor sensor;
  sensor.center = P.position[0];
  sensor.half_extent = Vec3(0.001, 0.001, 0.001);
  s.reduction.sensors = {sensor};
  const ParticleStore before = P;
  NdemReducer reducer(s.reduction, s.time_step);
  reducer.begin_step();
  SplitOutcome out;
  out.freed = reducer.split(w);
  if (resets_velocity)  // the perturbation: a split that re-initialises the freed particles
    for (std::size_t i = 0; i < P.size(); ++i)
      if (P.body[i] < 0) {
        P.velocity[i].setZero();
        P.angular_velocity[i].setZero();
      }
  out.bitwise = true;
  for (std::size_t i = 0; i < P.size(); ++i)
    out.bitwise = out.bitwise && P.position[i] == before.position[i] && P.velocity[i] == before.velocity[i] &&
                  P.angular_velocity[i] == before.angular_velocity[i] &&
                  P.orientation[i].coeffs() == before.orientation[i].coeffs();
  out.momentum_error = rel(particle_momentum(P), particle_momentum(before));
  return out;
}

double max_speed(const World& w) {
  double m = 0;
  for (const Vec3& v : w.particles.velocity) m = std::max(m, v.norm());
  return m;
}

Experiment make() {
  Experiment e;
  e.name = "paper5_method_checks";
  e.description = "Paper V method invariants: momentum through merge (C12) and split (C13), re-merging after "
                  "over-splitting (C14), limits of h (C15)";
  e.parameters = {
      {"nx", ParamType::integer, "-", std::int64_t(6), 2.0, 100.0, "C14 block: spheres along x"},
      {"ny", ParamType::integer, "-", std::int64_t(6), 2.0, 100.0, "C14 block: spheres along y"},
      {"nz", ParamType::integer, "-", std::int64_t(6), 2.0, 100.0, "C14 block: layers"},
      {"diameter", ParamType::real, "m", 0.013, 1e-4, 1.0, "particle diameter d (Table 1: 13 mm)"},
      {"iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 10000.0, "N_it (Table 1)"},
      {"settle_steps", ParamType::integer, "-", std::int64_t(600), 10.0, 1e6, "C14: most steps to settle the block"},
      {"rest_speed", ParamType::real, "m/s", 1e-3, 0.0, 1.0, "C14: the block is settled below this largest speed"},
      {"clusters", ParamType::integer, "-", std::int64_t(200), 1.0, 1e6, "C12: random clusters merged"},
      {"seed", ParamType::integer, "-", std::int64_t(5), 0.0, 1e9, "C12: random generator seed"},
      {"own_inertia", ParamType::boolean, "-", true, std::nullopt, std::nullopt,
       "C12: aggregate inertia and spin include the members' own (false: Eq. 9-10 as printed)"},
      {"split_resets_velocity", ParamType::boolean, "-", false, std::nullopt, std::nullopt,
       "C13 perturbation: the split sets the freed particles' velocity and spin to zero"},
      {"merge_velocity", ParamType::real, "m/s", 0.0025, 1e-9, 10.0,
       "C14: merge velocity thresholds xi_nv^{i,s-mrg} = xi_tv^mrg (Table 2: 2.5 mm/s)"},
      {"timing_steps", ParamType::integer, "-", std::int64_t(10), 1.0, 1e6, "steps timed on the settled block"},
      {"remerge_merge_velocity", ParamType::real, "m/s", 0.0, 0.0, 10.0,
       "C14 perturbation: > 0 replaces the merge velocity thresholds after the split (0 = unchanged)"},
      {"h_definition", ParamType::text, "", std::string("nodes"), std::nullopt, std::nullopt,
       "C15: h = 1 - (free + aggregates)/N_p (nodes, the default of P4) or 1 - free/N_p (free_only)",
       {"nodes", "free_only"}},
  };
  e.run = [](const Parameters& p, RunContext& ctx) {
    RunResult out;
    const auto [lin, ang] = merge_momentum(int(p.integer("clusters")), p.boolean("own_inertia"), std::uint64_t(p.integer("seed")));
    out.metrics["merge_linear_momentum_error"] = lin;
    out.metrics["merge_angular_momentum_error"] = ang;
    const SplitOutcome sp = split_state(p.boolean("split_resets_velocity"));
    out.metrics["split_state_bitwise"] = sp.bitwise ? 1.0 : 0.0;
    out.metrics["split_momentum_error"] = sp.momentum_error;
    out.metrics["split_freed"] = double(sp.freed);
    if (ctx.progress) ctx.progress(0.1);

    // C14 and the floor load: a settled block.
    Paper5Block b;
    b.nx = int(p.integer("nx"));
    b.ny = int(p.integer("ny"));
    b.nz = int(p.integer("nz"));
    b.diameter = p.real("diameter");
    World w = paper5_block_world(b);
    NdemSettings s = paper5_ndem_settings(int(p.integer("iterations")));
    s.reduction.enabled = true;
    const double mv = p.real("merge_velocity");
    s.reduction.merge.incident_normal = s.reduction.merge.separating_normal = s.reduction.merge.tangential = mv;
    const bool free_only = p.text("h_definition") == "free_only";
    auto level = [free_only](const ReductionStats& st) { return free_only ? st.level_free_only : st.level; };
    NdemStepper stepper(s);
    const int settle = int(p.integer("settle_steps"));
    int k = 0;
    for (; k < settle; ++k) {
      stepper.step(w);
      if (k > 20 && max_speed(w) < p.real("rest_speed")) break;
    }
    for (int j = 0; j < 20; ++j) stepper.step(w);
    const double h_rest = level(stepper.stats().reduction);
    double weight = 0;
    for (double m : w.particles.mass) weight += m * 9.81;
    out.metrics["settle_steps_used"] = k + 20;
    out.metrics["rest_level"] = h_rest;
    out.metrics["floor_load_ratio"] = -w.walls[0].force.z() / weight;
    if (ctx.progress) ctx.progress(0.5);
    // Cost of a step on the settled block, reduced and unreduced (same state, same N_it; a timing, not a check).
    {
      const std::string bytes = io::checkpoint_bytes(w);
      World reduced = io::world_from_checkpoint(bytes), full = io::world_from_checkpoint(bytes);
      NdemStepper red = stepper;
      NdemSettings off = s;
      off.reduction.enabled = false;
      NdemStepper unreduced(off);
      std::vector<char> every(full.bodies.size(), 1);
      release_aggregates(full, every);
      const int n = int(p.integer("timing_steps"));
      auto time_steps = [n](NdemStepper& st, World& world) {
        st.step(world);  // warm-up (detector rebuild after the copy)
        const auto t0 = std::chrono::steady_clock::now();
        for (int j = 0; j < n; ++j) st.step(world);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n;
      };
      const double t_red = time_steps(red, reduced), t_full = time_steps(unreduced, full);
      out.metrics["step_seconds_reduced"] = t_red;
      out.metrics["step_seconds_unreduced"] = t_full;
      out.metrics["step_speedup"] = t_full / t_red;
      out.metrics["solver_contacts_reduced"] = double(red.stats().reduction.solver_contacts);
      out.metrics["solver_contacts_unreduced"] = double(unreduced.stats().contacts);
    }
    if (ctx.progress) ctx.progress(0.6);
    const std::vector<Vec3> x0 = w.particles.position;
    std::vector<char> all(w.bodies.size(), 1);
    release_aggregates(w, all);  // over-split: every aggregate
    {  // control: the same released block stepped 10 steps without reduction (the full model's own motion)
      World control = io::world_from_checkpoint(io::checkpoint_bytes(w));
      NdemSettings off = s;
      off.reduction.enabled = false;
      NdemStepper unreduced(off);
      for (int j = 0; j < 10; ++j) unreduced.step(control);
      double c = 0;
      for (std::size_t i = 0; i < x0.size(); ++i) c = std::max(c, (control.particles.position[i] - x0[i]).norm());
      out.metrics["unreduced_displacement_over_d"] = c / b.diameter;
    }
    if (p.real("remerge_merge_velocity") > 0) {  // the perturbation: a stricter merge test after the split
      const double v = p.real("remerge_merge_velocity");
      s.reduction.merge.incident_normal = s.reduction.merge.separating_normal = s.reduction.merge.tangential = v;
      stepper = NdemStepper(s);  // the stepper keeps no state between steps that this run uses
    }
    int steps = 51;
    double h10 = 0, shift = 0;
    for (int j = 1; j <= 50; ++j) {
      stepper.step(w);
      const double h = level(stepper.stats().reduction);
      if (steps == 51 && h >= 0.9 * h_rest) steps = j;
      if (j == 10) {
        h10 = h;
        for (std::size_t i = 0; i < x0.size(); ++i) shift = std::max(shift, (w.particles.position[i] - x0[i]).norm());
      }
      if (j >= 10 && steps <= 50) break;
    }
    out.metrics["remerge_steps"] = steps;
    out.metrics["remerge_level_ratio_10"] = h_rest > 0 ? h10 / h_rest : 0.0;
    out.metrics["remerge_displacement_over_d"] = shift / b.diameter;

    // C15: limits of h on a fresh block (reduction on, nothing merged yet; then one aggregate of all).
    World fresh = paper5_block_world(b);
    NdemReducer reducer(s.reduction, s.time_step);
    out.metrics["h_resolved"] = level(reducer.finish_step(fresh, 0));
    std::vector<std::size_t> every(fresh.particles.size());
    for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
    form_aggregate(fresh, every, true);
    const double n = double(every.size());
    out.metrics["h_single"] = level(reducer.finish_step(fresh, 0));
    out.metrics["h_single_expected"] = 1.0 - 1.0 / n;
    out.metrics["h_single_error"] = std::abs(out.metrics["h_single"] - (1.0 - 1.0 / n));
    out.metrics["particles"] = n;
    if (ctx.progress) ctx.progress(1.0);
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
