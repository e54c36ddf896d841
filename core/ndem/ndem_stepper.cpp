#include "core/ndem/ndem_stepper.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <tbb/task_arena.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/ndem/aggregates.hpp"
#include "core/ndem/row_frame.hpp"
#include "core/ndem/row_levers.hpp"
#include "core/ndem/row_load.hpp"
#include "core/ndem/row_blocks.hpp"
#include "core/ndem/row_model.hpp"
#include "core/ndem/row_residuals.hpp"
#include "core/ndem/row_setup.hpp"
#include "core/bodies.hpp"

namespace grainlab {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

void NdemSettings::validate() const {
  auto fail = [](const char* key, double value, const char* rule) {
    throw InputError(fmt::format("ndem: {} = {} is invalid ({})", key, value, rule));
  };
  if (!std::isfinite(time_step) || time_step <= 0) fail("time_step", time_step, "must be > 0");
  if (iterations < 1) fail("iterations", iterations, "N_it must be >= 1");
  if (impact_iterations == 0) fail("impact_iterations", impact_iterations, "must be >= 1, or < 0 for N_it");
  if (!std::isfinite(residual_tolerance) || residual_tolerance < 0) fail("residual_tolerance", residual_tolerance, "must be >= 0");
  if (!(over_relaxation > 0 && over_relaxation < 2)) fail("over_relaxation", over_relaxation, "must be in (0, 2)");
  if (law == NdemContactLaw::linear && !(linear_stiffness > 0 && std::isfinite(linear_stiffness)))
    fail("linear_stiffness", linear_stiffness, "must be > 0 for the linear contact law");
  if (!std::isfinite(damping_time) || damping_time < 0) fail("damping_time", damping_time, "must be >= 0");
  if (n_s < 1) fail("n_s", n_s, "must be >= 1");
  if (!(gamma_t > 0 && std::isfinite(gamma_t))) fail("gamma_t", gamma_t, "must be > 0");
  if (!(gamma_r > 0 && std::isfinite(gamma_r))) fail("gamma_r", gamma_r, "must be > 0");
  if (!std::isfinite(impact_velocity)) fail("impact_velocity", impact_velocity, "must be finite (< 0 selects the rule)");
  if (!(impact_epsilon > 0 && std::isfinite(impact_epsilon))) fail("impact_epsilon", impact_epsilon, "must be > 0");
  if (!(overlap_floor_ratio > 0 && overlap_floor_ratio < 1e-2)) fail("overlap_floor_ratio", overlap_floor_ratio, "must be in (0, 1e-2)");
  if (!(warm_start_beta >= 0 && warm_start_beta <= 1)) fail("warm_start_beta", warm_start_beta, "must be in [0, 1]");
  if (!std::isfinite(model_warm_start_factor)) fail("model_warm_start_factor", model_warm_start_factor, "must be finite");
  if (max_colours < 1 || max_colours > 63) fail("max_colours", max_colours, "must be in [1, 63]");
  if (reference_iterations < 0) fail("reference_iterations", reference_iterations, "must be >= 0");
  if (!(max_overlap_ratio > 0)) fail("max_overlap_ratio", max_overlap_ratio, "must be > 0");
  if (contact_order == NdemContactOrder::random && parallel)
    throw InputError("ndem: contact_order = random needs the serial solver (parallel = false): the coloured sweep "
                     "fixes its own order");
  reduction.validate();
}

NdemWarmStart parse_warm_start(const std::string& name) {
  if (name == "cold") return NdemWarmStart::cold;
  if (name == "history") return NdemWarmStart::history;
  if (name == "history_normal_only") return NdemWarmStart::history_normal_only;
  if (name == "history_no_velocity_update") return NdemWarmStart::history_no_velocity_update;
  if (name == "model") return NdemWarmStart::model;
  throw InputError(fmt::format("ndem: warm_start = '{}' is invalid (cold, history, history_normal_only, "
                               "history_no_velocity_update, model)", name));
}

NdemFrictionShape parse_friction_shape(const std::string& name) {
  if (name == "box") return NdemFrictionShape::box;
  if (name == "cone") return NdemFrictionShape::cone;
  throw InputError(fmt::format("ndem: friction_shape = '{}' is invalid (box, cone)", name));
}

NdemContactOrder parse_contact_order(const std::string& name) {
  if (name == "sequential") return NdemContactOrder::sequential;
  if (name == "random") return NdemContactOrder::random;
  throw InputError(fmt::format("ndem: contact_order = '{}' is invalid (sequential, random)", name));
}

NdemTrialStepper::NdemTrialStepper(const NdemTrialStepper& other)
    : stepper(other.stepper ? std::make_unique<NdemStepper>(*other.stepper) : nullptr) {}
NdemTrialStepper& NdemTrialStepper::operator=(const NdemTrialStepper& other) {
  if (this != &other) stepper = other.stepper ? std::make_unique<NdemStepper>(*other.stepper) : nullptr;
  return *this;
}
NdemTrialStepper::~NdemTrialStepper() = default;

NdemStepper::NdemStepper(NdemSettings settings)
    : settings_(std::move(settings)),
      order_rng_(settings_.contact_order_seed),
      reducer_(settings_.reduction, settings_.time_step) {
  settings_.validate();
  guards_.set_impact_stage(settings_.impact_stage);
  if (settings_.reduction.enabled && settings_.reduction.trial_split) {
    NdemSettings trial = settings_;
    trial.reduction = ReductionSettings{};  // the trial solves the full system, it does not reduce
    trial.iterations = settings_.reduction.trial_iterations;
    trial.impact_iterations = settings_.impact_iterations > 0 ? std::min(settings_.impact_iterations, trial.iterations)
                                                              : trial.iterations;
    trial.record_residuals = trial.record_row_residuals = trial.record_contact_statistics = false;
    trial.reference_iterations = 0;
    trial_.stepper = std::make_unique<NdemStepper>(trial);
    trial_.stepper->guards_.set_enabled(false);  // its steps are this stepper's steps, guarded here
  }
}

// ---------------------------------------------------------------------------------------------------
// setup stages (free functions: the stepper's state passes in explicitly).
namespace {

// Materials valid, and the external loads (if any) one per particle; throws InputError otherwise.
void check_setup_inputs(const World& world, const std::vector<Vec3>& external_force,
                        const std::vector<Vec3>& external_torque) {
  for (const Material& m : world.materials) m.validate();  // mu < 0, e outside [0, 1], ... -> InputError
  const std::size_t np = world.particles.size();
  if (!external_force.empty() && external_force.size() != np)
    throw InputError(fmt::format("ndem: external_force has {} entries for {} particles", external_force.size(), np));
  if (!external_torque.empty() && external_torque.size() != np)
    throw InputError(fmt::format("ndem: external_torque has {} entries for {} particles", external_torque.size(), np));
}

// Active contacts of the sphere rows: touching (overlap > 0), not a rigid-body contact, at least one
// movable body. Indices into contacts, in contact order.
std::vector<std::uint32_t> active_sphere_contacts(const std::vector<Contact>& contacts, const ParticleStore& P,
                                                  const NdemBodyRows& body_rows) {
  std::vector<std::uint32_t> active;
  active.reserve(contacts.size());
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const Contact& c = contacts[k];
    if (!(c.overlap > 0) || body_rows.claims(c)) continue;
    const bool a_moves = P.inv_mass[c.a] > 0;
    const bool b_moves = !c.is_wall() && P.inv_mass[c.b] > 0;
    if (a_moves || b_moves) active.push_back(std::uint32_t(k));
  }
  return active;
}

// How many of the active contacts are wall contacts. The rows keep a wall bias for those only, as a suffix
// (NdemRows::first_wall): the detector lists the wall contacts after the particle pairs.
std::size_t active_wall_contacts(const std::vector<Contact>& contacts, const std::vector<std::uint32_t>& active) {
  auto pair = [&](std::uint32_t k) { return !contacts[k].is_wall(); };
  if (!std::is_partitioned(active.begin(), active.end(), pair))
    throw std::logic_error("ndem: a particle pair follows a wall contact in the contact list");
  return std::size_t(active.end() - std::partition_point(active.begin(), active.end(), pair));
}

// D^-1 of every row: 1 / (s^2 G M^-1 G^T + Sigma_n) for the normal row, 1 / (G M^-1 G^T + Sigma) for the
// others. Throws when Sigma_n is lost in rounding against G M^-1 G^T (ill-posed regularisation, 000 l.681).
// Rows in parallel; the first ill-posed row in contact order is the one reported.
void set_inverse_diagonals(NdemRows& R, const NdemBodies& bodies, double dt) {
  auto ill_posed = [&](std::size_t i, double k0) { return R.sigma_n[i] < 1e-13 * R.scale[i] * R.scale[i] * k0; };
  std::atomic<std::size_t> first_bad{R.size()};
  ndem_rows::for_each_in_blocks(R.size(), [&](std::size_t i) {
    const double k0 = ndem_row_mass(R, bodies, i, 0);
    R.inv_diag[0][i] = 1.0 / (R.scale[i] * R.scale[i] * k0 + R.sigma_n[i]);
    if (ill_posed(i, k0)) {  // keep the smallest such row
      std::size_t seen = first_bad.load();
      while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
      }
    }
    for (int r = 1; r < (R.angular_columns ? 6 : 3); ++r)
      R.inv_diag[r][i] = 1.0 / (ndem_row_mass(R, bodies, i, r) + (r < 3 ? R.sigma_t : R.sigma_r));
  });
  if (const std::size_t i = first_bad.load(); i < R.size()) {
    const double k0 = ndem_row_mass(R, bodies, i, 0);
    throw InputError(fmt::format(
        "ndem: time_step = {} s is too large for the contact stiffness k_n = {:.3g} (Sigma_n / (G M^-1 G^T) = {:.2g} "
        "< 1e-13: the regularisation is lost in rounding, 000 line 681); reduce the time step",
        dt, R.stiffness[i], R.sigma_n[i] / (R.scale[i] * R.scale[i] * k0)));
  }
}

// r_a + r_b of row i (2 r_a against a wall), as ndem_row_law's diameter.
double row_diameter(const NdemRows& R, const ParticleStore& P, std::size_t i) {
  return R.b[i] < 0 ? 2.0 * P.radius[R.a[i]] : P.radius[R.a[i]] + P.radius[R.b[i]];
}

// The step's contact statistics: count, mean and maximum overlap / d, and with record_contact_statistics
// the per-row overlap / d and impact speed.
void record_setup_stats(NdemStepStats& stats, const NdemRows& R, const ParticleStore& P, double sum_ratio,
                        double max_ratio, bool per_contact) {
  stats = NdemStepStats{};
  stats.contacts = R.size();
  stats.mean_overlap_over_d = R.size() ? sum_ratio / double(R.size()) : 0.0;
  stats.max_overlap_over_d = max_ratio;
  if (per_contact) {
    stats.contact_overlap_over_d.resize(R.size());
    for (std::size_t i = 0; i < R.size(); ++i) {
      stats.contact_overlap_over_d[i] = R.overlap[i] / row_diameter(R, P, i);
    }
    stats.contact_impact_speed = R.impact_speed;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// setup: rows of every touching contact. Reads world.contacts() (overlap, normal, point, R*, tangent),
// particles, materials, walls; writes rows_ (all but lambda and q_n) and bodies_.
// Equations: s = e_H delta^{e_H-1} (000 l.478, corrected Eq. 15 of Paper IV: derivative in delta);
// eps_n = e_H / k_n, tau_n = max(n_s Dt, c / e_H), Upsilon = 1/(1 + 4 tau_n/Dt),
// Sigma_n = 4 eps_n Upsilon / Dt^2, Sigma_t = gamma_t/Dt, Sigma_r = gamma_r/Dt (000 l.1520-1533).
PgsOptions NdemStepper::pgs_options() {
  PgsOptions opt;
  opt.iterations = settings_.iterations;
  opt.tolerance = settings_.residual_tolerance;
  opt.omega = settings_.over_relaxation;
  opt.cone = settings_.friction_shape == NdemFrictionShape::cone;
  if (settings_.parallel) opt.colouring = &colouring_;
  if (settings_.contact_order == NdemContactOrder::random) opt.shuffle = &order_rng_;
  if (body_rows_.active()) opt.extra = &body_rows_;
  opt.reference_path = reference_path_;
  return opt;
}

void NdemStepper::setup(World& world) {
  const NdemSettings& S = settings_;
  const double dt = S.time_step;
  check_setup_inputs(world, external_force, external_torque);
  const ParticleStore& P = world.particles;

  bodies_.v.resize(P.size());
  bodies_.w.resize(P.size());
  bodies_.inv_mass.resize(P.size());
  bodies_.inv_inertia.resize(P.size());
  ndem_rows::for_each_in_blocks(P.size(), [&](std::size_t i) {
    bodies_.v[i] = P.velocity[i];
    bodies_.w[i] = P.angular_velocity[i];
    bodies_.inv_mass[i] = P.inv_mass[i];
    bodies_.inv_inertia[i] = P.inv_inertia[i];
  });
  body_rows_.setup(world, settings_, bodies_);  // rigid-body contacts go to body_rows_, not to the sphere rows

  const std::vector<Contact>& contacts = world.contacts();
  const std::vector<MultiplierHistory>& model = world.model_history().multipliers;
  const std::vector<std::uint32_t> active = active_sphere_contacts(contacts, P, body_rows_);
  NdemRows& R = rows_;
  R.resize(active.size(), active_wall_contacts(contacts, active), world.model_history().angular_multipliers_kept);
  R.sigma_t = S.gamma_t / dt;
  R.sigma_r = S.gamma_r / dt;
  R.rolling = false;
  const double tau = S.relaxation_time();
  const double upsilon = 1.0 / (1.0 + 4.0 * tau / dt);
  // Row i of every active contact: frame and wall bias (row_frame.hpp), lever arms, and the contact law
  // (row_setup.hpp), each shared with the body rows. The levers' cross products are formed where they are
  // used (row_levers.hpp). Rows in parallel: each is a function of its own contact.
  auto set_row = [&](std::size_t i) {
    const Contact& c = contacts[active[i]];
    const int a = c.a;
    const bool wall = c.is_wall();
    R.contact[i] = active[i];
    R.a[i] = a;
    R.b[i] = wall ? -1 : c.b;
    const Vec3 n = c.normal;
    const Vec3 t1 = ndem_rows::frame_t1(n, model[active[i]].tangent);
    const Vec3 t2 = ndem_rows::frame_t2(n, t1);
    R.n[i] = n;
    R.t1[i] = t1;
    R.ra[i] = c.point - P.position[a];
    // p - x_b without periodic images: the contact point lies on the line of centres.
    R.arm_b[i] = wall ? 0.0 : ndem_rows::sphere_arm_b(P.radius[c.b], c.overlap);
    const NdemRowLaw law = ndem_row_law(world, S, c, upsilon);
    R.scale[i] = law.s;
    R.overlap[i] = law.overlap;
    R.stiffness[i] = law.stiffness;
    R.sigma_n[i] = law.sigma_n;
    R.mu[i] = law.mu;
    if (R.angular_columns) {
      R.mu_roll[i] = law.mu_roll;
      R.mu_twist[i] = law.mu_twist;
    }
    R.restitution[i] = law.restitution;
    R.impact_speed[i] = law.impact_speed;
    if (wall) {
      double bias[6];
      ndem_rows::wall_bias(world.walls[c.wall_index()], c.point, n, t1, t2, R.angular_columns ? 6 : 3, bias);
      for (int r = 0; r < (R.angular_columns ? 6 : 3); ++r) R.bias[r][i - R.first_wall] = bias[r];
    }
  };
  ndem_rows::for_each_in_blocks(active.size(), [&](std::size_t i) { set_row(i); });
  // In contact order: the rolling flag and the overlap sums.
  double sum_ratio = 0, max_ratio = 0;
  for (std::size_t i = 0; i < R.size(); ++i) {
    if (R.angular_columns && (R.mu_roll[i] > 0 || R.mu_twist[i] > 0)) R.rolling = true;
    const double d = row_diameter(R, P, i);
    sum_ratio += R.overlap[i] / d;
    max_ratio = std::max(max_ratio, R.overlap[i] / d);
  }
  set_inverse_diagonals(R, bodies_, dt);
  record_setup_stats(stats_, R, P, sum_ratio, max_ratio, S.record_contact_statistics);
  if (S.parallel) {
    colouring_.build(R, P.size(), S.max_colours);
    stats_.colours = colouring_.colours_used;
    stats_.overflow = colouring_.overflow;
  }
  guards_.observe_setup(world, R, dt);
}

// ---------------------------------------------------------------------------------------------------
// impact: contacts with unscaled approach speed -G_n v > v_imp get G_n v+ = -e G_n v- (000 l.744-760,
// l.1134); reads bodies_ (v_i), writes bodies_ (v_i+) and impact_impulse_. Cold started (Paper IV).
void NdemStepper::impact(World&) {
  had_impact_ = false;
  if (settings_.record_contact_statistics) {  // v- of every row, whether or not the impact stage runs
    stats_.contact_approach_speed.resize(rows_.size());
    ndem_rows::for_each_in_blocks(rows_.size(), [&](std::size_t i) {
      stats_.contact_approach_speed[i] = -normal_velocity(rows_, bodies_, i);
    });
  }
  guards_.observe_first_touch_speeds(rows_, bodies_);
  const std::size_t body_impacts = body_rows_.begin_impact(bodies_, settings_.impact_stage);
  if (!settings_.impact_stage || (rows_.size() == 0 && body_impacts == 0)) return;
  const std::size_t m = rows_.size();
  std::vector<char> impacting(m, 0);
  std::vector<double> u_minus(m, 0.0);
  ndem_rows::for_each_in_blocks(m, [&](std::size_t i) {
    u_minus[i] = normal_velocity(rows_, bodies_, i);
    impacting[i] = -u_minus[i] > rows_.impact_speed[i];
  });
  const std::size_t count = std::size_t(std::count(impacting.begin(), impacting.end(), 1));
  stats_.impacting = count;
  stats_.impacting_fraction = m ? double(count) / double(m) : 0.0;
  guards_.observe_impacts(count + body_impacts);
  if (count + body_impacts == 0) return;
  PgsOptions opt = pgs_options();
  opt.iterations = settings_.impact_iterations > 0 ? settings_.impact_iterations : settings_.iterations;
  const PgsResult r = solve_impact(rows_, impacting, u_minus, bodies_, opt, impact_impulse_);
  stats_.impact_iterations_used = r.iterations;
  had_impact_ = true;
  double worst = 0, sum_e = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (!impacting[i]) continue;
    const double u_plus = normal_velocity(rows_, bodies_, i);
    worst = std::max(worst, std::abs(u_plus + rows_.restitution[i] * u_minus[i]) / std::abs(u_minus[i]));
    sum_e += -u_plus / u_minus[i];
  }
  stats_.impact_law_error = worst;
  stats_.impact_restitution = count ? sum_e / double(count) : std::nan("");
}

// ---------------------------------------------------------------------------------------------------
// warm start: lambda_0 per settings (Eq. 7 history, Eq. 9-11 model with the corrections of
// docs/ndem.md), then v += M^{-1} G^T lambda_0 (Eq. 8) unless the variant omits it.
void NdemStepper::warm_start(World& world) {
  NdemRows& R = rows_;
  const NdemSettings& S = settings_;
  for (auto& l : R.lambda) std::fill(l.begin(), l.end(), 0.0);
  const int nrows = R.rolling ? 6 : 3;
  switch (S.warm_start) {
    case NdemWarmStart::cold: return;
    case NdemWarmStart::history:
    case NdemWarmStart::history_no_velocity_update:
    case NdemWarmStart::history_normal_only: {
      const int last = S.warm_start == NdemWarmStart::history_normal_only ? 1 : nrows;
      const ModelHistory& model = world.model_history();
      ndem_rows::for_each_in_blocks(R.size(), [&](std::size_t i) {
        const MultiplierHistory& m = model.multipliers[R.contact[i]];  // new contacts carry lambda = 0
        for (int r = 0; r < std::min(last, 3); ++r) R.lambda[r][i] = S.warm_start_beta * m.lambda[r];
        for (int r = 3; r < last; ++r)  // 6 rows: angular multipliers kept (setup)
          R.lambda[r][i] = S.warm_start_beta * model.angular_multipliers[R.contact[i]].lambda[r - 3];
      });
      break;
    }
    case NdemWarmStart::model: {
      // Eq. 9 (000 l.1606) with the consistent factor f = 1/e_H: the static SPOOK solution
      // Sigma_n lambda_n = (4/Dt) Upsilon delta^{e_H} gives lambda_n = Dt k_n delta^{e_H} / e_H, whose
      // force s lambda_n / Dt = k_n delta^{3/2} is Hertz (docs/ndem.md; tests/ndem/model_warm_start_test.cpp).
      // Eq. 10-11 as multipliers: lambda = -(Dt/gamma) G v from G v + Sigma lambda = 0, then projected
      // like the solver projects (box per row, or a disk per friction/rolling pair with the cone), so the
      // guess is feasible. This guess is an explicit force evaluation: it is stable only when N_it sweeps
      // remove its error (docs/ndem.md, "Model warm start").
      const double eH = S.hertz_exponent();
      const double f = S.model_warm_start_factor >= 0 ? S.model_warm_start_factor : 1.0 / eH;
      const double dt = S.time_step;
      const bool cone = S.friction_shape == NdemFrictionShape::cone;
      // Rows (r, r + 1) unprojected, then projected as the solver projects them (row_model.hpp).
      auto pair = [&](std::size_t i, int r, double sigma, double bound) {
        double x = -ndem_row_velocity(R, bodies_, i, r) / sigma, y = -ndem_row_velocity(R, bodies_, i, r + 1) / sigma;
        ndem_rows::project_pair(x, y, bound, cone);
        R.lambda[r][i] = x;
        R.lambda[r + 1][i] = y;
      };
      ndem_rows::for_each_in_blocks(R.size(), [&](std::size_t i) {
        const double ln = f * dt * R.stiffness[i] * std::pow(R.overlap[i], eH);
        R.lambda[0][i] = ln;
        const double fn = R.scale[i] * ln;  // |G_n^T lambda_n|: the bounds use the physical normal impulse
        pair(i, 1, R.sigma_t, R.mu[i] * fn);
        if (nrows == 6) {
          pair(i, 3, R.sigma_r, R.mu_roll[i] * fn);
          const double bound = R.mu_twist[i] * fn;
          R.lambda[5][i] = std::clamp(-ndem_row_velocity(R, bodies_, i, 5) / R.sigma_r, -bound, bound);
        }
      });
      break;
    }
  }
  if (S.warm_start != NdemWarmStart::history_no_velocity_update) apply_impulses(R, bodies_);
}

// ---------------------------------------------------------------------------------------------------
// integrate: v_{i+1} = v; stores multipliers, frame and forces in the contacts, total forces and torques
// in the particles, loads in the walls; then x_{i+1} = x_i + Dt v_{i+1}, orientation.
void NdemStepper::integrate(World& world) {
  const double dt = settings_.time_step;
  ParticleStore& P = world.particles;
  const Vec3 g = world.gravity.at(world.time);
  ndem_rows::for_each_in_blocks(P.size(), [&](std::size_t i) {
    P.force[i] = P.inv_mass[i] > 0 ? Vec3(P.mass[i] * g) : Vec3::Zero();
    P.torque[i].setZero();
    if (!external_force.empty()) P.force[i] += external_force[i];
    if (!external_torque.empty()) P.torque[i] += external_torque[i];
    if (P.inv_mass[i] > 0) P.velocity[i] = bodies_.v[i];
    if (P.inv_inertia[i] > 0) {
      P.angular_velocity[i] = bodies_.w[i];
    } else if (P.inv_mass[i] > 0) {
      P.angular_velocity[i].setZero();  // rotation locked
    }
  });
  for (Wall& w : world.walls) {
    w.force.setZero();
    w.torque.setZero();
  }
  std::vector<Contact>& contacts = world.contacts();
  ModelHistory& history = world.model_history();
  std::vector<MultiplierHistory>& model = history.multipliers;
  ndem_rows::for_each_in_blocks(contacts.size(), [&](std::size_t k) {
    contacts[k].force.setZero();
    if (!(contacts[k].overlap > 0)) {
      model[k].lambda = {};
      if (history.angular_multipliers_kept) history.angular_multipliers[k].lambda = {};
    }
  });
  const NdemRows& R = rows_;
  // Rows 3-5 hold multipliers only where the rows have angular columns (NdemRows::resize); the impact
  // impulses have as many rows as the solve.
  const int rows = R.angular_columns ? 6 : 3, impact_rows = had_impact_ ? (R.rolling ? 6 : 3) : 0;
  auto multipliers = [&](std::size_t i, double* L) {  // the step's: continuous stage plus impact stage
    for (int r = 0; r < 6; ++r) L[r] = 0.0;
    for (int r = 0; r < rows; ++r)
      L[r] = R.lambda[r][i] + (r < impact_rows ? impact_impulse_[r][i] / (r == 0 ? R.scale[i] : 1.0) : 0.0);
  };
  // Row i's contact: its multipliers, tangent and force (a row writes only its own contact).
  auto store_row = [&](std::size_t i) {
    MultiplierHistory& m = model[R.contact[i]];
    double L[6];
    multipliers(i, L);
    for (int r = 0; r < 3; ++r) m.lambda[r] = R.lambda[r][i];
    if (history.angular_multipliers_kept)
      for (int r = 3; r < 6; ++r) history.angular_multipliers[R.contact[i]].lambda[r - 3] = R.lambda[r][i];
    m.tangent = R.t1[i];
    contacts[R.contact[i]].force = ndem_rows::contact_force(R.scale[i] * L[0], L[1], L[2], R.n[i], R.t1[i], R.t2_of(i), dt);
  };
  // Row i's load on particle a and on particle or wall b (or on one of them), from the stored force. Added
  // in row order: a particle's sum in any other order would differ in the last bits.
  auto add_load = [&](std::size_t i, bool to_a, bool to_b) {
    const Contact& c = contacts[R.contact[i]];
    const Vec3 f = c.force;
    double L[6];
    multipliers(i, L);
    const Vec3 tr = ndem_rows::contact_pure_torque(L + 3, R.n[i], R.t1[i], R.t2_of(i), dt);
    if (to_a) {
      const int a = R.a[i];
      P.force[a] += f;
      P.torque[a] += ndem_rows::contact_torque(R.ra[i], f, tr);
    }
    if (!to_b) return;
    if (R.b[i] >= 0) {
      const int b = R.b[i];
      P.force[b] -= f;
      P.torque[b] -= ndem_rows::contact_torque(R.rb_of(i), f, tr);
    } else {
      Wall& W = world.walls[c.wall_index()];
      W.force -= f;
      W.torque -= ndem_rows::contact_torque(c.point - W.rotation_center, f, tr);
    }
  };
  if (tbb::this_task_arena::max_concurrency() > 1) {  // the rows in parallel, then the sums per particle range
    ndem_rows::for_each_in_blocks(R.size(), store_row);
    ndem_rows::add_rows_by_body(P.size(), R.a, R.b, add_load);
  } else {  // one pass, while the row is in the cache; the same results
    for (std::size_t i = 0; i < R.size(); ++i) {
      store_row(i);
      add_load(i, true, true);
    }
  }
  body_rows_.write_back(world, dt);
  // Positions advance after every write-back, so that the torques use the levers the solve used.
  ndem_rows::for_each_in_blocks(P.size(), [&](std::size_t i) {
    if (P.inv_mass[i] > 0) P.position[i] += dt * bodies_.v[i];
    if (P.inv_inertia[i] > 0) {
      const Vec3 w = bodies_.w[i];
      Quat& q = P.orientation[i];
      const Quat dq(0, 0.5 * dt * w.x(), 0.5 * dt * w.y(), 0.5 * dt * w.z());
      q.coeffs() += (dq * q).coeffs();
      q.normalize();
    }
  });
  body_rows_.integrate(world, dt);  // rigid bodies: pose, members, attached walls
}

std::size_t NdemStepper::memory_bytes() const {
  std::size_t total = rows_.memory_bytes() + body_rows_.memory_bytes() + capacity_bytes(bodies_.v) +
                      capacity_bytes(bodies_.w) + capacity_bytes(bodies_.inv_mass) + capacity_bytes(bodies_.inv_inertia) +
                      capacity_bytes(colouring_.order) + capacity_bytes(colouring_.start) + capacity_bytes(external_force) +
                      capacity_bytes(external_torque);
  for (const auto& v : impact_impulse_) total += capacity_bytes(v);
  return total;
}

void NdemStepper::step(World& world) {
  arena_.run(world.threads, [&] { advance(world); });
}

void NdemStepper::advance(World& world) {
  settings_.validate();
  const double dt = settings_.time_step;
  world.keep_multipliers();  // warm start and tangent frames
  if (may_resist_rolling_or_twisting(world.materials, world.pair_overrides)) world.keep_angular_multipliers();
  world.detect_contacts();
  const bool reduce = settings_.reduction.enabled;
  auto t0 = Clock::now();
  if (reduce) {  // split stages (with the trial solve) count as timers.reduction
    reducer_.begin_step();
    if (settings_.reduction.split_placement == SplitPlacement::before_impact) reduction_split(world);
    world.timers.reduction += seconds_since(t0);
  }
  solve(world);

  if (reduce) {
    t0 = Clock::now();
    reducer_.capture(world, bodies_, body_rows_.body_velocities(), body_rows_.body_angular_velocities(), external_force);
    world.timers.reduction += seconds_since(t0);
  }
  t0 = Clock::now();
  integrate(world);
  world.advance_walls(dt);
  if (settings_.wrap_periodic) world.wrap_periodic();
  world.time += dt;
  ++world.step;
  world.timers.integrate += seconds_since(t0);
  if (reduce) {
    t0 = Clock::now();
    if (settings_.reduction.merge_placement == MergePlacement::after_position_update) world.detect_contacts();
    reducer_.merge(world);
    stats_.reduction = reducer_.finish_step(world, rows_.size() + body_rows_.contact_rows());
    world.timers.reduction += seconds_since(t0);
  }
  world.check_stability(settings_.max_overlap_ratio);
}

void NdemStepper::solve(World& world) {
  const double dt = settings_.time_step;
  auto t0 = Clock::now();
  setup(world);
  world.timers.forces += seconds_since(t0);

  t0 = Clock::now();
  impact(world);
  if (settings_.reduction.enabled && settings_.reduction.split_placement == SplitPlacement::after_impact)
    reduction_split_after_impact(world);
  // q_n = (4/Dt) Upsilon delta^{e_H} + Upsilon s G_n v_i^+  (000 l.1499 with our sign convention)
  {
    const double eH = settings_.hertz_exponent();
    const double tau = settings_.relaxation_time();
    const double upsilon = 1.0 / (1.0 + 4.0 * tau / dt);
    ndem_rows::for_each_in_blocks(rows_.size(), [&](std::size_t i) {
      rows_.q_n[i] = 4.0 / dt * upsilon * std::pow(rows_.overlap[i], eH) +
                     upsilon * rows_.scale[i] * normal_velocity(rows_, bodies_, i);
    });
    body_rows_.compute_q(bodies_);
  }
  // pre-step: v = v+ + Dt M^{-1} f_ext
  {
    const Vec3 g = world.gravity.at(world.time);
    ndem_rows::for_each_in_blocks(bodies_.v.size(), [&](std::size_t i) {
      if (bodies_.inv_mass[i] > 0) bodies_.v[i] += dt * g;
      if (!external_force.empty()) bodies_.v[i] += dt * bodies_.inv_mass[i] * external_force[i];
      if (!external_torque.empty()) bodies_.w[i] += dt * bodies_.inv_inertia[i] * external_torque[i];
    });
    body_rows_.prestep(world, dt);
  }
  // reference_cold_start: the reference solve starts from here (lambda = 0, v = M^-1 p), before any warm start.
  NdemRows cold_rows;
  NdemBodies cold_bodies;
  if (settings_.reference_cold_start && settings_.reference_iterations > 0) {
    cold_rows = rows_;
    for (auto& l : cold_rows.lambda) std::fill(l.begin(), l.end(), 0.0);
    cold_bodies = bodies_;
  }
  warm_start(world);
  body_rows_.warm_start(world, settings_, bodies_);

  PgsOptions opt = pgs_options();
  opt.record_residuals = settings_.record_residuals;
  std::vector<double> reference;
  if (settings_.reference_iterations > 0 && rows_.size() > 0) {
    NdemRows ref_rows = settings_.reference_cold_start ? std::move(cold_rows) : rows_;
    NdemBodies ref_bodies = settings_.reference_cold_start ? std::move(cold_bodies) : bodies_;
    PgsOptions ref = opt;
    ref.iterations = settings_.reference_iterations;
    ref.tolerance = 0;
    ref.record_residuals = false;
    ref.extra = nullptr;  // the reference solve must not touch the body rows' state
    ref.shuffle = nullptr;  // nor the random order's generator (sequential reference)
    solve_continuous(ref_rows, ref_bodies, ref);
    reference = ref_rows.lambda[0];
    opt.after_iteration = [this, &reference](int) {
      double sum = 0;
      std::size_t n = 0;
      for (std::size_t i = 0; i < reference.size(); ++i)
        if (reference[i] != 0) {
          sum += std::abs(reference[i] - rows_.lambda[0][i]) / std::abs(reference[i]);
          ++n;
        }
      stats_.multiplier_error.push_back(n ? sum / double(n) : 0.0);
    };
  }
  const PgsResult r = solve_continuous(rows_, bodies_, opt);
  stats_.iterations_used = r.iterations;
  stats_.final_residual = r.final_residual;
  stats_.residual_normal = r.residual_normal;
  stats_.residual_friction = r.residual_friction;
  stats_.residual_rolling = r.residual_rolling;
  world.timers.solve += seconds_since(t0);
  if (settings_.record_row_residuals) {  // an observer: one probing sweep on copies (row_residuals.hpp)
    t0 = Clock::now();
    NdemRowResiduals rr = probe_row_residuals(rows_, bodies_, opt);
    stats_.row_residual_normal = std::move(rr.normal);
    stats_.row_residual_friction = std::move(rr.friction);
    stats_.row_residual_rolling = std::move(rr.rolling);
    world.timers.observers += seconds_since(t0);
  }
}

// ---------------------------------------------------------------------------------------------------
// Model reduction stages (core/ndem/reduction.hpp). Split: contact, separation and sensor split on v_i,
// then the trial split. All relabel only; World::detect_contacts has masked the contacts inside aggregates.
void NdemStepper::reduction_split(World& world) {
  reducer_.split(world);
  if (settings_.reduction.trial_split) reduction_trial_split(world);
}

// Trial solve (000 l.2052): the unreduced system, members as free spheres with their rigid-motion velocity
// v_i (Eq. 11-13), internal contacts back in, N_it^tr iterations; the reducer then tests Eq. 32-36.
std::size_t NdemStepper::reduction_trial_split(World& world) {
  ParticleStore& P = world.particles;
  bool any = false;
  std::vector<char> agg(world.bodies.size(), 0);
  for (std::size_t k = 0; k < agg.size(); ++k) {
    agg[k] = is_aggregate(world, k) ? 1 : 0;
    any = any || agg[k];
  }
  if (!any) return 0;
  const auto t0 = Clock::now();
  const std::vector<std::int32_t> labels = P.body;
  std::vector<Contact>& contacts = world.contacts();
  const std::size_t pairs = std::min(world.pair_contact_count(), contacts.size());
  for (std::size_t k = 0; k < pairs; ++k) {  // internal contacts: geometry back
    Contact& c = contacts[k];
    if (c.is_wall()) continue;
    const std::int32_t b = P.body[std::size_t(c.a)];
    if (b >= 0 && b == P.body[std::size_t(c.b)] && agg[std::size_t(b)]) sphere_sphere(P, world.collision, c);
  }
  for (std::size_t i = 0; i < P.size(); ++i)
    if (P.body[i] >= 0 && agg[std::size_t(P.body[i])]) P.body[i] = -1;
  NdemStepper& trial = *trial_.stepper;
  trial.external_force = external_force;
  trial.external_torque = external_torque;
  const StageTimers timers = world.timers;  // the trial solve is reduction overhead, not the step's solve
  trial.solve(world);
  world.timers = timers;
  P.body = labels;
  reducer_.add_trial_seconds(seconds_since(t0));
  const std::size_t freed = reducer_.trial_split(world, trial.bodies_, external_force);
  mask_self_contacts(world);  // what is still inside an aggregate leaves the solver again
  return freed;
}

// SplitPlacement::after_impact (ablation C55): the impact stage has run with the aggregates rigid; the split
// tests read the post-impact velocities, and when they free anything the rows are set up again from the
// post-impact state (the impact stage is not repeated; its impulses are then missing from the step's
// reported contact forces).
void NdemStepper::reduction_split_after_impact(World& world) {
  ParticleStore& P = world.particles;
  const std::vector<Vec3> v0 = P.velocity, w0 = P.angular_velocity;
  std::vector<Vec3> body_v0, body_w0;
  for (const RigidBody& B : world.bodies) {
    body_v0.push_back(B.velocity);
    body_w0.push_back(B.angular_velocity);
  }
  const std::vector<Vec3> bv = body_rows_.body_velocities(), bw = body_rows_.body_angular_velocities();
  for (std::size_t k = 0; k < world.bodies.size(); ++k) {
    world.bodies[k].velocity = bv[k];
    world.bodies[k].angular_velocity = bw[k];
  }
  for (std::size_t i = 0; i < P.size(); ++i) {
    if (P.body[i] < 0) {
      P.velocity[i] = bodies_.v[i];
      P.angular_velocity[i] = bodies_.w[i];
    } else {
      const RigidBody& B = world.bodies[std::size_t(P.body[i])];
      P.velocity[i] = B.velocity + B.angular_velocity.cross(P.position[i] - B.position);
      P.angular_velocity[i] = B.angular_velocity;
    }
  }
  std::size_t freed = reducer_.split(world);
  if (settings_.reduction.trial_split) freed += reduction_trial_split(world);
  if (freed) {  // the new bodies start from the post-impact state
    const NdemStepStats keep = stats_;
    setup(world);
    stats_.impacting = keep.impacting;
    stats_.impact_iterations_used = keep.impact_iterations_used;
    had_impact_ = false;
  } else {
    for (std::size_t k = 0; k < world.bodies.size(); ++k) {
      world.bodies[k].velocity = body_v0[k];
      world.bodies[k].angular_velocity = body_w0[k];
    }
  }
  P.velocity = v0;  // v_i again for the merge test's acceleration (the solve works on its own copies)
  P.angular_velocity = w0;
}

}  // namespace grainlab
