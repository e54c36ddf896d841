// Experiment ndem_outlet_drum: Paper II E1/E2 (000 l.893-936; ledger ../shared/claims/paper2.md): the 1:4
// laboratory balling drum, fed at its upper end, emptying through a spiral-gap outlet onto a belt; NDEM
// (h = 0.01 s, N_it = 25, Hertz k = 25 kN/m^{3/2}, mu = 0.7, e = 0).
//
// Scene (world: x along the belt's motion, y horizontal along the drum, z up, gravity -z): the drum axis
// a = (0, cos theta, -sin theta) descends at theta = 7.5 deg from the feed end (axial 0, centre at the origin,
// closed by a flat end plate) over the drum length L (bumpy shell, Gaussian bumps, core/geometry/drum.hpp),
// then the outlet of length l (smooth shell of the same diameter with the gaps of experiments/outlet_design.hpp,
// open at its far end). Drum and outlet turn together at omega about +a. A 0.3 x 0.1 x 0.2 m box near the
// feed end emits d = 10 mm spheres at rest at feed_rate. A ball whose centre has left the shell (through a
// gap) or passed the open end is in free fall: it is deleted (ledger P13: no pile on the belt) and its
// crossing of the belt plane (belt_drop below the lowest outlet point) is computed ballistically and
// recorded in belt coordinates: x (world x) and y = y1 + (y - start of the outlet's axis projection),
// y1 = 0.15 m (000 l.987).
//
// Protocol: fill for fill_time with the outlet design (init_gap_angle_deg, init_gap_base_width), memoised
// per process (the paper's saved E1 state, 000 l.928); then the run's design replaces the outlet, adapt
// for adapt_time and record for record_time (000 l.928-932: 10.4 s and 5.2 s).
// Metrics and series: docs/paper2_drum.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/emitter.hpp"
#include "experiments/belt_evaluation.hpp"
#include "experiments/experiment.hpp"
#include "experiments/outlet_design.hpp"
#include "experiments/run_memo.hpp"
#include "experiments/sample_statistics.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double belt_y1 = 0.15;  ///< m, where the outlet's projection starts on the belt (000 l.987)

/// Parameters that only the design run (after the fill) depends on.
const std::set<std::string> design_parameters = {"gap_angle_deg", "gap_base_width", "adapt_time", "record_time",
                                                 "window_time", "belt_speed", "profile_cell"};

struct Geometry {
  double R, L, l, theta, d;
  Vec3 axis;
  double z_belt;     ///< belt plane height
  double y_outlet;   ///< world y of the outlet start on the axis
  double gravity;    ///< m/s^2
};

Geometry geometry_of(const Parameters& p) {
  Geometry g;
  g.R = 0.5 * p.real("drum_diameter");
  g.L = p.real("drum_length");
  g.l = p.real("outlet_length");
  g.theta = p.real("inclination_deg") * pi / 180;
  g.d = p.real("diameter");
  g.axis = Vec3(0, std::cos(g.theta), -std::sin(g.theta));
  const double lowest = -std::sin(g.theta) * (g.L + g.l) - g.R * std::cos(g.theta);
  g.z_belt = lowest - p.real("belt_drop");
  g.y_outlet = g.L * std::cos(g.theta);
  g.gravity = p.real("gravity");
  return g;
}

/// k = (4/3) E* sqrt(R*) (core/hertz.hpp): the Young's modulus (nu = 0) that gives the paper's particle-pair
/// stiffness k (000 l.920) for equal spheres of diameter d (R* = d/4, 1/E* = 2/E). Walls take the same E, so
/// a wall contact (R* = d/2) is sqrt(2) stiffer: the paper gives no wall value (ledger E1 default "same k").
double modulus_for_stiffness(double k, double d) { return 2 * k / (4.0 / 3.0 * std::sqrt(d / 4)); }

OutletDesign design_of(const Parameters& p, bool initial) {
  OutletDesign o;
  o.gap_angle_deg = p.real(initial ? "init_gap_angle_deg" : "gap_angle_deg");
  o.gap_base_width = p.real(initial ? "init_gap_base_width" : "gap_base_width");
  o.bisector_deg = p.real("gap_bisector_deg");
  o.count = int(p.integer("gap_count"));
  o.alpha_convention = p.text("alpha_convention");
  return o;
}

constexpr std::size_t outlet_wall = 2;  // walls: drum, feed plate, outlet

World build_world(const Parameters& p) {
  const Geometry g = geometry_of(p);
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  Material m;
  m.name = "ball";
  m.density = p.real("density");
  m.youngs_modulus = modulus_for_stiffness(p.real("contact_stiffness"), g.d);
  m.poisson_ratio = 0;
  m.restitution = 0;
  m.friction = p.real("friction");
  const std::uint16_t ball = w.add_material(m);
  const Vec3 omega = p.real("omega") * g.axis;
  CylinderShape drum_body;
  drum_body.center = 0.5 * g.L * g.axis;
  drum_body.axis = g.axis;
  drum_body.radius = g.R;
  drum_body.length = g.L;
  const Vec3 reference = Vec3::UnitX();
  BumpParams bumps;
  bumps.density = p.real("bump_density");
  bumps.height_min = p.real("bump_height_min");
  bumps.height_max = p.real("bump_height_max");
  bumps.width = p.real("bump_width");
  bumps.seed = std::uint64_t(p.integer("seed"));
  Wall drum;
  drum.name = "drum";
  drum.shape = bumps.density > 0 ? make_bumpy_drum(drum_body, reference, bumps, "drum")
                                 : make_smooth_drum(drum_body, reference, "drum");
  drum.material = ball;
  drum.angular_velocity = omega;
  w.add_wall(drum);
  Wall plate;
  plate.name = "feed_plate";
  plate.shape = PlaneShape{Vec3::Zero(), g.axis};
  plate.material = ball;
  w.add_wall(plate);
  CylinderShape outlet_body = drum_body;
  outlet_body.center = (g.L + 0.5 * g.l) * g.axis;
  outlet_body.length = g.l;
  Wall outlet;
  outlet.name = "outlet";
  DrumShape shell = make_smooth_drum(outlet_body, reference, "outlet");
  shell.slots = outlet_slots(design_of(p, true), g.R, g.l);
  outlet.shape = shell;
  outlet.material = ball;
  outlet.angular_velocity = omega;
  w.add_wall(outlet);
  return w;
}

/// Replaces the outlet's gaps by `design`, keeping its turning phase.
void set_outlet(World& w, const OutletDesign& design, const Geometry& g) {
  auto& shell = std::get<DrumShape>(w.walls.at(outlet_wall).shape);
  shell.slots = outlet_slots(design, g.R, g.l);
  validate(w.walls[outlet_wall]);
}

sources::ParticleEmitter make_emitter(const Parameters& p) {
  sources::EmitterSettings s;
  const double d = p.real("diameter");
  const double mass = p.real("density") * pi / 6 * d * d * d;
  s.rate = p.real("feed_rate") / mass;
  // Low in the drum, near the feed plate: at h = 0.01 s a ball falling more than ~5 cm moves more than its
  // radius per step (ledger P6) and can pass through the ball it lands on.
  const double R = 0.5 * p.real("drum_diameter");
  s.region = sources::BoxRegion{Vec3(-0.27 * R, 0.03, -0.88 * R), Vec3(0.27 * R, 0.13, -0.72 * R)};
  s.radii = sources::RadiusDistribution::uniform(0.5 * d, 0.5 * d);
  s.seed = std::uint64_t(p.integer("seed"));
  return sources::ParticleEmitter(s);
}

NdemSettings solver_settings(const Parameters& p) {
  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = int(p.integer("iterations"));
  s.n_s = 2;
  s.damping_time = p.real("damping_time");
  s.impact_velocity = p.real("impact_velocity");
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  return s;
}

/// Stops an unstable run with a diagnosis (non-finite state, overlap beyond the limit). No energy test: the
/// drum turns (energy in), the feed adds and the belt removes particles, and the world starts empty.
struct OverlapGuard {
  double max_overlap_ratio;
  void check(const World& w) const { w.check_stability(max_overlap_ratio); }
};
OverlapGuard make_guard(const World&, const Parameters& p) { return {p.real("max_overlap_ratio")}; }

/// One landed particle in belt coordinates.
struct Landing {
  double time, x, y, mass;
};

/// The state shared by the fill and the design run.
struct DrumState {
  World world;
  std::string emitter_state;
  std::size_t landed = 0;
};

/// Whether a ball has left drum and outlet: its centre lies outside the shell (it fell through a gap) or
/// beyond the open end. Nothing but the belt is below it then (the shell's outside is not a contact surface,
/// core/geometry/shell_slots.hpp), so it is in free fall.
bool left_the_drum(const Vec3& x, double r, const Geometry& g) {
  const double axial = x.dot(g.axis);
  const double rho = (x - axial * g.axis).norm();
  return rho > g.R + r || axial > g.L + g.l + r || x.z() < g.z_belt;
}

/// Where and when a ball in free fall from (x, v) at time t crosses the belt plane (exact under gravity).
Landing landing_of(const Vec3& x, const Vec3& v, double mass, double t, const Geometry& g) {
  const double drop = std::max(0.0, x.z() - g.z_belt);
  const double fall = (v.z() + std::sqrt(v.z() * v.z() + 2 * g.gravity * drop)) / g.gravity;
  return {t + fall, x.x() + v.x() * fall, belt_y1 + x.y() + v.y() * fall - g.y_outlet, mass};
}

/// Steps `seconds`; calls `sample` after each step, then deletes and records the landed particles.
template <class Sample>
void advance(DrumState& s, sources::ParticleEmitter& emitter, NdemStepper& stepper, const OverlapGuard& guard,
             const Geometry& g, double seconds, std::vector<Landing>* landings, Sample sample) {
  World& w = s.world;
  const int steps = int(std::llround(seconds / stepper.time_step()));
  std::vector<char> keep;
  for (int k = 0; k < steps; ++k) {
    emitter.emit(w, stepper.time_step());
    stepper.step(w);
    guard.check(w);
    sample(w);  // before the landings are deleted: the contact records index this step's particles
    const auto& x = w.particles.position;
    bool any = false;
    keep.assign(w.particles.size(), 1);
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!left_the_drum(x[i], w.particles.radius[i], g)) continue;
      keep[i] = 0;
      any = true;
      ++s.landed;
      if (landings) landings->push_back(landing_of(x[i], w.particles.velocity[i], w.particles.mass[i], w.time, g));
    }
    if (any) {
      w.particles.compact(keep);
      w.detector.invalidate();
    }
  }
}


std::string fill_key(const Parameters& p) {
  std::string key = "ndem_outlet_drum";
  for (const auto& [name, value] : p.values)
    if (!design_parameters.contains(name)) key += fmt::format("|{}={}", name, to_string(value));
  return key;
}

DrumState fill(const Parameters& p) {
  DrumState s{build_world(p), {}, 0};
  auto emitter = make_emitter(p);
  NdemStepper stepper(solver_settings(p));
  const OverlapGuard guard = make_guard(s.world, p);
  advance(s, emitter, stepper, guard, geometry_of(p), p.real("fill_time"), nullptr, [](const World&) {});
  s.emitter_state = emitter.save_state();
  return s;
}

/// Solid volume in angular bins of a mid-drum slice -> bed depth normal to the wall (solid fraction phi).
double bed_depth(const World& w, const Geometry& g, double phi) {
  constexpr int bins = 72;
  std::vector<double> volume(bins, 0.0);
  const double mid = 0.5 * g.L, half = std::min(0.05, 0.25 * g.L);
  const Vec3 e1 = Vec3::UnitX(), e2 = g.axis.cross(e1);
  for (std::size_t i = 0; i < w.particles.size(); ++i) {
    const Vec3& x = w.particles.position[i];
    const double z = x.dot(g.axis);
    if (std::abs(z - mid) > half) continue;
    const Vec3 radial = x - z * g.axis;
    const double a = std::atan2(radial.dot(e2), radial.dot(e1)) + pi;
    const int b = std::clamp(int(a / (2 * pi) * bins), 0, bins - 1);
    const double r = w.particles.radius[i];
    volume[std::size_t(b)] += 4.0 / 3.0 * pi * r * r * r;
  }
  double best = 0;
  const double wedge = 2 * pi / bins * 2 * half;  // angle x slice thickness
  for (const double v : volume) {
    // v = phi wedge (R^2 - (R - h)^2) / 2
    const double inner2 = g.R * g.R - 2 * v / (phi * wedge);
    best = std::max(best, inner2 <= 0 ? g.R : g.R - std::sqrt(inner2));
  }
  return best;
}

/// RMS relative velocity of contacting particle pairs in the drum section whose members both move off the
/// drum's rigid rotation by more than a quarter of the wall speed (the flowing layer).
double flowing_contact_speed(const World& w, const Geometry& g, double omega) {
  const auto& contacts = w.contacts();
  const std::size_t pairs = w.pair_contact_count();
  const auto& x = w.particles.position;
  const auto& v = w.particles.velocity;
  auto flowing = [&](std::size_t i) {
    const Vec3 rigid = omega * g.axis.cross(x[i]);
    return (v[i] - rigid).norm() > 0.25 * omega * g.R && x[i].dot(g.axis) < g.L;
  };
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t c = 0; c < pairs && c < contacts.size(); ++c) {
    const Contact& k = contacts[c];
    if (k.overlap < 0 || k.b < 0) continue;
    const auto i = std::size_t(k.a), j = std::size_t(k.b);
    if (!flowing(i) || !flowing(j)) continue;
    sum += (v[i] - v[j]).squaredNorm();
    ++n;
  }
  return n ? std::sqrt(sum / double(n)) : nan;
}

/// Lag (s) of the first autocorrelation maximum of the landing rate within [lo, hi] s.
double landing_period(const std::vector<Landing>& landings, double t0, double t1, double lo, double hi) {
  constexpr double bin = 0.02;
  const int n = int((t1 - t0) / bin);
  if (n < 4 || landings.empty()) return nan;
  std::vector<double> rate(std::size_t(n), 0.0);
  for (const Landing& l : landings) {
    const int b = int((l.time - t0) / bin);
    if (b >= 0 && b < n) rate[std::size_t(b)] += 1;
  }
  const double mean = std::accumulate(rate.begin(), rate.end(), 0.0) / n;
  for (double& r : rate) r -= mean;
  double best = -std::numeric_limits<double>::infinity(), lag_best = nan;
  for (int lag = int(lo / bin); lag <= int(hi / bin) && lag < n - 1; ++lag) {
    double c = 0;
    for (int k = 0; k + lag < n; ++k) c += rate[std::size_t(k)] * rate[std::size_t(k + lag)];
    c /= double(n - lag);
    if (c > best) {
      best = c;
      lag_best = lag * bin;
    }
  }
  return lag_best;
}

RunResult run_outlet_drum(const Parameters& p, RunContext& ctx) {
  const Geometry g = geometry_of(p);
  RunResult out;
  const OutletDesign design = design_of(p, false);
  outlet_slots(design, g.R, g.l);  // validates the design before the (shared) fill
  const auto filled = memoized<DrumState>(fill_key(p), [&] { return fill(p); });
  if (ctx.progress) ctx.progress(0.5);
  DrumState s = *filled;
  set_outlet(s.world, design, g);
  auto emitter = make_emitter(p);
  emitter.restore_state(s.emitter_state);
  NdemStepper stepper(solver_settings(p));
  const OverlapGuard guard = make_guard(s.world, p);
  const double dt = p.real("dt"), omega = p.real("omega");
  const double t_start = s.world.time;
  const double t_record = t_start + p.real("adapt_time");
  const double window = p.real("window_time");
  TimeSeries holdup{{"time", "particles", "landed"}, {}};
  std::vector<double> speeds, depths, record_holdup, overlaps, max_overlaps;
  std::vector<Landing> landings;
  int step = 0;
  const double phi = 0.6;  // solid fraction of the bed (ledger E1 assumption)
  advance(s, emitter, stepper, guard, g, p.real("adapt_time") + p.real("record_time"), &landings, [&](const World& w) {
    ++step;
    if (w.time > t_record + 0.5 * dt) {
      record_holdup.push_back(double(w.particles.size()));  // before deletion
      overlaps.push_back(stepper.stats().mean_overlap_over_d);
      max_overlaps.push_back(stepper.stats().max_overlap_over_d);
    }
    if (step % 10 != 0) return;
    holdup.rows.push_back({w.time, double(w.particles.size()), double(s.landed)});
    if (w.time > t_record) {
      speeds.push_back(flowing_contact_speed(w, g, omega));
      depths.push_back(bed_depth(w, g, phi));
    }
  });
  const double t_end = s.world.time;
  const double feed = p.real("feed_rate");
  auto& m = out.metrics;
  // Outflow (C02, C03): landed mass per window; the largest change between consecutive windows, over the
  // recording and over adaptation + recording (windows counted back from the end).
  auto rate_in = [&](double from, double to) {
    double mass = 0;
    for (const Landing& l : landings)
      if (l.time > from && l.time <= to) mass += l.mass;
    return mass / (to - from);
  };
  auto window_variation = [&](double from) {
    std::vector<double> rates;
    for (double b = t_end; b - window >= from - 0.5 * dt; b -= window) rates.push_back(rate_in(b - window, b));
    double spread = rates.size() >= 2 ? 0.0 : nan;
    for (std::size_t k = 1; k < rates.size(); ++k)
      spread = std::max(spread, std::abs(rates[k] - rates[k - 1]) / (0.5 * (rates[k] + rates[k - 1])));
    return spread;
  };
  m["feed_failed_fraction"] = double(emitter.failed()) / std::max(1.0, double(emitter.inserted() + emitter.failed()));
  m["outflow_rate"] = rate_in(t_record, t_end);
  m["outflow_over_feed"] = m["outflow_rate"] / feed;
  m["outflow_window_variation"] = window_variation(t_record);
  m["outflow_window_variation_all"] = window_variation(t_start);
  m["holdup"] = mean_of(record_holdup);
  m["holdup_drift"] = record_holdup.empty() ? nan : (record_holdup.back() - record_holdup.front()) / m["holdup"];
  m["abs_holdup_drift"] = std::abs(m["holdup_drift"]);
  m["holdup_fill_end"] = double(filled->world.particles.size());
  // Hold-up per metre of drum (drum section only) at the end: the quantity that scales with length (C01).
  std::size_t in_drum = 0;
  for (const Vec3& x : s.world.particles.position) in_drum += x.dot(g.axis) < g.L;
  m["holdup_drum_per_m"] = double(in_drum) / g.L;
  m["holdup_outlet"] = double(s.world.particles.size() - in_drum);
  // The hold-up a drum of the paper's length would have at this bed (C01): per-metre drum hold-up x 2.5 m +
  // outlet. A lower bound: in a longer drum the bed deepens towards the feed end to carry the feed.
  m["holdup_at_paper_length"] = m["holdup_drum_per_m"] * p.real("paper_drum_length") + m["holdup_outlet"];
  m["contact_speed_rms"] = mean_of(speeds);
  m["mean_overlap_over_d"] = mean_of(overlaps);  // ledger P6: record overlap statistics in every run
  m["max_overlap_over_d"] = max_overlaps.empty() ? nan : *std::max_element(max_overlaps.begin(), max_overlaps.end());
  m["contact_speed_scale"] = omega * 2 * g.R / 10;  // omega d / 10 (000 l.920), d the drum diameter
  m["bed_depth"] = depths.empty() ? nan : *std::max_element(depths.begin(), depths.end());
  m["bed_depth_mean"] = mean_of(depths);
  // Gap period from the landing rate (C04): three gaps pass once per revolution each.
  const double period = landing_period(landings, t_record, t_end, 0.3, 1.5);
  m["landing_period"] = period;
  m["stripe_spacing"] = period * p.real("belt_speed");
  m["gap_periods_recorded"] = p.real("record_time") / period;
  // The belt (000 l.932-956): deposits of the record in the lab frame, times from the record's start;
  // CA surface, Eq. (2) profile and Eq. (3) objective (experiments/belt_evaluation.hpp).
  std::vector<BeltDeposit> deposits;
  TimeSeries landed{{"time", "x", "y", "mass"}, {}};
  for (const Landing& l : landings) {
    if (l.time <= t_record || l.time > t_end) continue;  // ballistic landings after the end are not recorded
    deposits.push_back({l.x, l.y, l.time - t_record, l.mass});
    landed.rows.push_back({l.time - t_record, l.x, l.y, l.mass});
  }
  BeltSurfaceSettings belt;
  belt.belt_speed = p.real("belt_speed");
  belt.cell_size = p.real("profile_cell");
  belt.solid_density = p.real("density");
  const double record = p.real("record_time");
  const BeltEvaluation e = evaluate_belt(deposits, record, belt);
  m["landing_zone"] = e.landing_zone;
  m["f"] = e.f;
  m["f_window"] = e.f_window;
  m["f_over_mean"] = e.f_over_mean;
  m["termination_criterion"] = e.termination_criterion ? 1.0 : 0.0;
  m["off_belt"] = double(e.dropped);
  m["profile_argmax_y"] = e.argmax_y;
  m["profile_max"] = *std::max_element(e.h.begin(), e.h.end());
  m["profile_mean"] = std::accumulate(e.h.begin(), e.h.end(), 0.0) / double(e.h.size());
  m["interior_cov"] = e.interior_cov;
  m["end_heap_over_interior_max"] = e.end_heap_ratio;
  // E4 (000 l.952): the same deposits post-processed at half and double the belt speed.
  for (const auto& [name, factor] : {std::pair{"half", 0.5}, std::pair{"double", 2.0}}) {
    BeltSurfaceSettings other = belt;
    other.belt_speed = factor * belt.belt_speed;
    const BeltEvaluation o = evaluate_belt(deposits, record, other);
    m[fmt::format("f_belt_{}", name)] = o.f;
    m[fmt::format("f_change_belt_{}", name)] = o.f / e.f - 1;
    m[fmt::format("f_over_mean_change_belt_{}", name)] = o.f_over_mean / e.f_over_mean - 1;
  }
  TimeSeries profile{{"y", "h"}, {}};
  for (std::size_t j = 0; j < e.h.size(); ++j) profile.rows.push_back({(double(j) + 0.5) * e.cell, e.h[j]});
  m["landed_recorded"] = double(landed.rows.size());
  m["time_solve"] = s.world.timers.solve;
  m["time_collision"] = s.world.timers.collision;
  out.series["holdup"] = std::move(holdup);
  out.series["landings"] = std::move(landed);
  out.series["profile"] = std::move(profile);
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_outlet_drum",
    .description = "Paper II E1/E2: laboratory balling drum (D = 0.75 m, 7.5 deg, 2.5 rad/s) fed at its upper end, "
                   "spiral-gap outlet (alpha, beta), landings on a belt; NDEM h = 0.01 s, N_it = 25 (000 l.893-936)",
    .parameters =
        {
            {"diameter", ParamType::real, "m", 0.01, 1e-3, 0.1, "ball diameter d (000 l.903)"},
            {"density", ParamType::real, "kg/m^3", 2500.0, 1.0, 1e5, "ball density (000 l.903)"},
            {"contact_stiffness", ParamType::real, "N/m^1.5", 25e3, 1.0, 1e12, "Hertz k (000 l.920)"},
            {"damping_time", ParamType::real, "s", 0.02, 0.0, 10.0, "Hertz damping c (000 l.920, unit s: ledger P5)"},
            {"friction", ParamType::real, "-", 0.7, 0.0, 10.0, "friction mu, particles and walls (000 l.903)"},
            {"gravity", ParamType::real, "m/s^2", 9.81, 0.1, 100.0, "gravity (ledger default)"},
            {"dt", ParamType::real, "s", 0.01, 1e-5, 0.1, "time step h (000 l.920)"},
            {"iterations", ParamType::integer, "-", std::int64_t(25), 1.0, 1e5, "PGS iterations N_it (000 l.920)"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 100.0, "v_imp (ledger default, 000 l.1360)"},
            {"drum_diameter", ParamType::real, "m", 0.75, 0.05, 10.0, "drum diameter (000 l.899)"},
            {"drum_length", ParamType::real, "m", 2.5, 0.05, 20.0, "drum length without the outlet (000 l.899)"},
            {"paper_drum_length", ParamType::real, "m", 2.5, 0.05, 20.0,
             "drum length the hold-up is scaled to (metric holdup_at_paper_length; 000 l.899)"},
            {"outlet_length", ParamType::real, "m", 0.75, 0.05, 10.0, "outlet length l (000 l.899)"},
            {"inclination_deg", ParamType::real, "deg", 7.5, 0.0, 45.0, "drum inclination (000 l.899)"},
            {"omega", ParamType::real, "rad/s", 2.5, -100.0, 100.0, "drum rotation about +axis (000 l.899)"},
            {"feed_rate", ParamType::real, "kg/s", 4.4, 1e-3, 100.0, "feed at the upper end (000 l.903)"},
            {"bump_density", ParamType::real, "1/m^2", 700.0, 0.0, 1e5, "texture bumps per m^2 (000 l.903; 0: smooth)"},
            {"bump_height_min", ParamType::real, "m", 0.002, 1e-5, 1.0, "bump height range (000 l.903)"},
            {"bump_height_max", ParamType::real, "m", 0.008, 1e-5, 1.0, "bump height range (000 l.903)"},
            {"bump_width", ParamType::real, "m", 0.0125, 1e-4, 1.0,
             "bump width (FWHM); the paper's range [0.005, 0.02] m, one width here: its middle"},
            {"gap_angle_deg", ParamType::real, "deg", 0.2, 0.0, 44.0, "design alpha (000 l.901, Table 1)"},
            {"gap_base_width", ParamType::real, "m", 0.048, 1e-4, 1.0, "design beta (000 l.901, Table 1)"},
            {"init_gap_angle_deg", ParamType::real, "deg", 0.3, 0.0, 44.0, "alpha during the fill (ledger default)"},
            {"init_gap_base_width", ParamType::real, "m", 0.105, 1e-4, 1.0, "beta during the fill (ledger default)"},
            {"gap_bisector_deg", ParamType::real, "deg", 15.0, 0.0, 79.0, "gap bisector eta from the axis (000 l.901)"},
            {"gap_count", ParamType::integer, "-", std::int64_t(3), 1.0, 100.0, "gaps (000 l.901)"},
            {"alpha_convention", ParamType::text, "", std::string("half_angle"), {}, {},
             "half_angle (width beta + 2 s tan alpha) | full_angle (beta + s tan alpha) (ledger P1)",
             {"half_angle", "full_angle"}},
            {"belt_drop", ParamType::real, "m", 0.2, 0.0, 10.0, "belt plane below the lowest outlet point (ledger)"},
            {"belt_speed", ParamType::real, "m/s", 0.25, 1e-3, 10.0, "belt speed v (000 l.899)"},
            {"profile_cell", ParamType::real, "m", 0.025, 1e-3, 0.5, "CA cell on the belt, 2.5 d (000 l.936)"},
            {"fill_time", ParamType::real, "s", 40.0, 0.0, 1e4, "initialisation (000 l.928)"},
            {"adapt_time", ParamType::real, "s", 10.4, 0.0, 1e4, "adaptation to the design (000 l.928)"},
            {"record_time", ParamType::real, "s", 5.2, 0.01, 1e4, "recording (000 l.932)"},
            {"window_time", ParamType::real, "s", 2.6, 0.01, 1e4, "outflow windows for stationarity (ledger C02)"},
            {"max_overlap_ratio", ParamType::real, "-", 4.0, 0.1, 100.0,
             "stop as unstable beyond this overlap / radius (4: balls dropping onto the empty drum's bumps reach "
             "~2.3 r at h = 0.01 s, ledger P6; the shell and bump contacts push them out)"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "texture and emitter seed"},
        },
    .run = run_outlet_drum}};

}  // namespace
}  // namespace grainlab
