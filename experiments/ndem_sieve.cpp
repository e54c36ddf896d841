// Experiment ndem_sieve: a roller-sieve proxy for Paper IV's balling circuit (000 l.1741-1743; 001 l.207-211):
// "the particles disperse over a roller sieve with increasing gap size downwards ... The flow on the roller
// sieve is more disperse and collision dominated requiring only few iterations and it can be expected that
// warm and cold starting are equally efficient". The paper gives no sieve geometry (Paper III Table 3,
// 000 l.1257-1269, lists only the drum, outlet and conveyor); ours is stated in the parameters below.
//
// Scene (sieve frame: s down the slope, y across, h normal to the roller plane): roller_count rotating
// rollers (solid cylinders, axes along y) whose centres lie on a plane inclined by incline_deg, spaced by
// roller_diameter + gap_k with gaps growing linearly from gap_first to gap_last; side walls at y = +-width/2.
// The top of each roller moves down the slope at roller_speed. Bi-disperse Table 1 pellets (diameter,
// diameter_small, number fraction small_fraction) are fed from a box above the head of the sieve. The
// particle count is constant: a particle that has passed a gap (h below the roller centres by more than a
// roller radius: "sieved") or left over the tail ("overs") is counted and put back into the feed box (at
// a random free spot, with feed_velocity), so the feed rate equals the throughput and the flow reaches a
// steady state. With end_wall the tail is closed and with roller_speed = 0, incline_deg = 0 and gaps
// below the small diameter the particles build a static bed instead (the perturbation of the study).
//
// Protocol (as the drum's N_it ladder, experiments/paper1_drum.cpp): a common preparation of prep_time at
// prep_iterations (COLD), then for every rung of iteration_ladder a copy of that state runs transient_time
// with the variant under test (warm_start) and N_it = rung, then measure_time during which three observables
// are averaged:
//   depth       mean height of the particles on the sieve above the plane of the roller axes (flow depth /
//               bed height; particles resting in the gaps sit below the roller tops),
//   transport   mean down-slope velocity of the particles on the sieve,
//   throughput  sieved particles per second.
// n_required_<obs> = the smallest rung from which every larger rung is within `tolerance` (relative) of the
// largest rung's value (the variant's own reference, as Paper IV's theta'^500, 000 l.1713).
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/source_rng.hpp"
#include "experiments/experiment.hpp"
#include "experiments/iteration_ladder.hpp"
#include "experiments/material_parameters.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::vector<int> parse_ladder(const std::string& text) {
  std::vector<int> out = parse_iteration_ladder("ndem_sieve", text);
  if (out.empty()) throw InputError("ndem_sieve: iteration_ladder is empty (give rungs such as \"1,2,4,8\")");
  return out;
}

// The sieve: frame, rollers and the feed box.
struct Sieve {
  double cos_a = 1, sin_a = 0;  ///< incline
  double roller_radius = 0;
  double s_end = 0;             ///< s of the last roller centre
  double width = 0;
  // Feed box in world coordinates.
  Vec3 feed_lo, feed_hi;
  Vec3 feed_velocity;

  double s_of(const Vec3& x) const { return x.x() * cos_a - x.z() * sin_a; }
  double h_of(const Vec3& x) const { return x.x() * sin_a + x.z() * cos_a; }
  Vec3 down_slope() const { return Vec3(cos_a, 0, -sin_a); }
};

Sieve build_scene(World& w, const Parameters& p) {
  Sieve sv;
  const double a = p.real("incline_deg") * pi / 180;
  sv.cos_a = std::cos(a);
  sv.sin_a = std::sin(a);
  sv.roller_radius = p.real("roller_diameter") / 2;
  sv.width = p.real("width");
  const int rollers = int(p.integer("roller_count"));
  const double g0 = p.real("gap_first"), g1 = p.real("gap_last");
  const double omega = p.real("roller_speed") / sv.roller_radius;
  double s = 0;
  for (int k = 0; k < rollers; ++k) {
    const Vec3 c = s * sv.down_slope();
    Wall roller;
    roller.name = fmt::format("roller{}", k);
    roller.shape = CylinderShape{.center = c, .axis = Vec3::UnitY(), .radius = sv.roller_radius, .length = sv.width,
                                 .side = CylinderShape::Side::outside};
    roller.rotation_center = c;
    roller.angular_velocity = Vec3(0, omega, 0);  // top surface moves down the slope (+s) for omega > 0
    w.add_wall(roller);
    sv.s_end = s;
    const double gap = rollers > 2 ? g0 + (g1 - g0) * k / double(rollers - 2) : g0;
    s += 2 * sv.roller_radius + gap;
  }
  for (int side : {-1, 1}) {
    Wall wall;
    wall.name = side < 0 ? "side_lo" : "side_hi";
    wall.shape = PlaneShape{.point = Vec3(0, side * sv.width / 2, 0), .normal = Vec3(0, -side, 0)};
    w.add_wall(wall);
  }
  if (p.boolean("end_wall")) {  // closes the tail: a plane normal to the slope just past the last roller
    Wall end;
    end.name = "end";
    end.shape = PlaneShape{.point = (sv.s_end + sv.roller_radius) * sv.down_slope(), .normal = -sv.down_slope()};
    w.add_wall(end);
  }
  const double r_big = p.real("diameter") / 2;
  // Feed box above the head: from one roller radius before the first roller to the second roller, between
  // feed_height and 2 feed_height above the roller tops (in world z).
  const double top = sv.roller_radius;
  sv.feed_lo = Vec3(-sv.roller_radius, -sv.width / 2 + r_big, top + p.real("feed_height"));
  sv.feed_hi = Vec3(std::max(sv.roller_radius, 2 * sv.roller_radius + g0) + 2 * r_big, sv.width / 2 - r_big,
                    top + 2 * p.real("feed_height") + 4 * r_big);
  sv.feed_velocity = Vec3(p.real("feed_velocity"), 0, 0);
  return sv;
}

// True when a sphere of radius r at x overlaps no particle but i.
bool free_spot(const World& w, std::size_t i, const Vec3& x, double r) {
  const auto& P = w.particles;
  for (std::size_t j = 0; j < P.size(); ++j)
    if (j != i && (P.position[j] - x).squaredNorm() < std::pow(P.radius[j] + r, 2)) return false;
  return true;
}

// Puts particle i at a random free spot of the feed box (20 tries; false if none is free: retried next step).
bool place_in_feed(World& w, const Sieve& sv, std::size_t i, sources::SourceRng& rng) {
  auto& P = w.particles;
  const double r = P.radius[i];
  for (int attempt = 0; attempt < 20; ++attempt) {
    const Vec3 x(rng.uniform(sv.feed_lo.x() + r, sv.feed_hi.x() - r), rng.uniform(sv.feed_lo.y(), sv.feed_hi.y()),
                 rng.uniform(sv.feed_lo.z() + r, sv.feed_hi.z() - r));
    if (!free_spot(w, i, x, r)) continue;
    P.position[i] = x;
    P.velocity[i] = sv.feed_velocity;
    P.angular_velocity[i].setZero();
    return true;
  }
  return false;
}

// Initial state: particles at rest at random free spots in a layer of thickness `layer` just above the
// roller tops, along the whole sieve (in the sieve frame, so that none falls from high above).
bool place_on_sieve(World& w, const Sieve& sv, std::size_t i, double layer, sources::SourceRng& rng) {
  auto& P = w.particles;
  const double r = P.radius[i];
  for (int attempt = 0; attempt < 200; ++attempt) {
    const double s = rng.uniform(0, sv.s_end), y = rng.uniform(-sv.width / 2 + r, sv.width / 2 - r);
    const double h = rng.uniform(sv.roller_radius + r + 1e-3, sv.roller_radius + r + 1e-3 + layer);
    const Vec3 x = s * sv.down_slope() + Vec3(0, y, 0) + h * Vec3(sv.sin_a, 0, sv.cos_a);
    if (!free_spot(w, i, x, r)) continue;
    P.position[i] = x;
    return true;
  }
  return false;
}

struct Counters {
  std::size_t sieved = 0, sieved_small = 0, overs = 0;
};

// Recycles every particle that has left the sieve (through a gap, over the tail or out of the scene).
void recycle(World& w, const Sieve& sv, double small_radius, sources::SourceRng& rng, Counters& c) {
  auto& P = w.particles;
  for (std::size_t i = 0; i < P.size(); ++i) {
    const Vec3& x = P.position[i];
    const double h = sv.h_of(x), s = sv.s_of(x);
    const bool sieved = h < -sv.roller_radius - P.radius[i];
    const bool over = s > sv.s_end + sv.roller_radius + 2 * P.radius[i] && h < sv.roller_radius;
    const bool lost = std::abs(x.y()) > sv.width || h < -10 * sv.roller_radius;
    if (!(sieved || over || lost)) continue;
    if (!place_in_feed(w, sv, i, rng)) continue;  // box momentarily full: try again next step
    if (sieved) {
      ++c.sieved;
      if (P.radius[i] <= small_radius * (1 + 1e-9)) ++c.sieved_small;
    } else if (over) {
      ++c.overs;
    }
  }
}

struct Observation {
  double depth = nan, transport = nan, throughput = nan, on_sieve = nan, small_in_sieved = nan, contacts = nan;
};

// Continues `w` for `steps` steps with `ndem` (recycling every step) and averages the observables over the
// last `measure` steps.
Observation continue_and_measure(World& w, NdemStepper& ndem, const Sieve& sv, double small_radius,
                                 sources::SourceRng& rng, int steps, int measure) {
  double depth_sum = 0, transport_sum = 0, on_sum = 0, contacts_sum = 0;
  std::size_t samples = 0;
  Counters before, c;
  for (int k = 0; k < steps; ++k) {
    ndem.step(w);
    w.check_stability(ndem.settings().max_overlap_ratio);
    if (k == steps - measure) before = c;
    recycle(w, sv, small_radius, rng, c);
    if (k < steps - measure) continue;
    const auto& P = w.particles;
    double dsum = 0, vsum = 0;
    std::size_t on = 0;
    for (std::size_t i = 0; i < P.size(); ++i) {
      const double s = sv.s_of(P.position[i]), h = sv.h_of(P.position[i]);
      if (s < -sv.roller_radius || s > sv.s_end + sv.roller_radius || h < 0 || h > sv.feed_lo.z()) continue;
      dsum += h;
      vsum += P.velocity[i].dot(sv.down_slope());
      ++on;
    }
    if (on > 0) {
      depth_sum += dsum / double(on);
      transport_sum += vsum / double(on);
      ++samples;
    }
    on_sum += double(on);
    contacts_sum += double(ndem.stats().contacts);
  }
  Observation o;
  const double dt = ndem.settings().time_step;
  if (samples > 0) {
    o.depth = depth_sum / double(samples);
    o.transport = transport_sum / double(samples);
  }
  o.on_sieve = on_sum / measure;
  o.contacts = contacts_sum / measure;
  const double sieved = double(c.sieved - before.sieved);
  o.throughput = sieved / (measure * dt);
  o.small_in_sieved = sieved > 0 ? double(c.sieved_small - before.sieved_small) / sieved : nan;
  return o;
}

// Smallest rung from which every larger rung is within `tol` (relative) of the largest rung's value.
double required_rung(const std::vector<int>& ladder, const std::vector<double>& values, double tol) {
  const double ref = values.back();
  double best = nan;
  for (std::size_t r = ladder.size(); r-- > 0;) {
    if (!(std::abs(values[r] - ref) <= tol * std::abs(ref))) break;
    best = ladder[r];
  }
  return best;
}

RunResult run_sieve(const Parameters& p, RunContext& ctx) {
  const double dt = p.real("dt");
  const std::vector<int> ladder = parse_ladder(p.text("iteration_ladder"));
  const double r_big = p.real("diameter") / 2, r_small = p.real("diameter_small") / 2;
  if (r_small > r_big)
    throw InputError(fmt::format("ndem_sieve: diameter_small = {} m exceeds diameter = {} m", 2 * r_small, 2 * r_big));
  if (p.real("gap_first") > p.real("gap_last"))
    throw InputError(fmt::format("ndem_sieve: gap_first = {} m exceeds gap_last = {} m (the gaps grow downwards, "
                                 "000 l.1741)", p.real("gap_first"), p.real("gap_last")));
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  w.add_material(material_from_parameters(p, "pellet"));
  const Sieve sv = build_scene(w, p);
  sources::SourceRng rng(std::uint64_t(p.integer("seed")));
  const int count = int(p.integer("count"));
  const double small_fraction = p.real("small_fraction");
  for (int i = 0; i < count; ++i) {
    const double r = rng.uniform() < small_fraction ? r_small : r_big;
    const std::size_t k = w.add_sphere(Vec3(0, 0, -1e3 - 10 * i), r, 0);  // parked far below, then placed
    // A loose layer (about 10 % solid) over the whole sieve.
    const double layer = 10 * count * (4.0 / 3.0) * pi * std::pow(r_big, 3) / (sv.s_end * sv.width) + 2 * r_big;
    if (!place_on_sieve(w, sv, k, layer, rng))
      throw InputError(fmt::format("ndem_sieve: no room for particle {} of count = {} in the feed box; reduce count or "
                                   "raise feed_height", i, count));
  }

  NdemSettings s;
  s.time_step = dt;
  s.impact_velocity = p.real("impact_velocity");
  s.warm_start_beta = p.real("warm_start_beta");
  s.iterations = int(p.integer("prep_iterations"));
  s.warm_start = NdemWarmStart::cold;
  NdemStepper prep(s);
  const int prep_steps = int(std::ceil(p.real("prep_time") / dt - 1e-9));
  Counters prep_counts;
  for (int k = 0; k < prep_steps; ++k) {
    prep.step(w);
    w.check_stability(s.max_overlap_ratio);
    recycle(w, sv, r_small, rng, prep_counts);
    if (ctx.progress && k % 50 == 0) ctx.progress(0.2 * k / std::max(1, prep_steps));
  }

  const int transient = int(std::ceil(p.real("transient_time") / dt - 1e-9));
  const int measure = int(std::ceil(p.real("measure_time") / dt - 1e-9));
  if (measure < 1) throw InputError("ndem_sieve: measure_time must cover at least one step");
  NdemSettings variant = s;
  variant.warm_start = parse_warm_start(p.text("warm_start"));
  TimeSeries series{{"iterations", "depth", "transport", "throughput", "on_sieve", "small_in_sieved", "contacts"}, {}};
  std::vector<double> depth, transport, throughput;
  double solve = w.timers.solve;  // preparation, then each rung's own solve time
  for (std::size_t r = 0; r < ladder.size(); ++r) {
    World rung = w;
    sources::SourceRng rung_rng = rng;  // every rung recycles with the same random stream
    variant.iterations = ladder[r];
    NdemStepper ndem(variant);
    const Observation o = continue_and_measure(rung, ndem, sv, r_small, rung_rng, transient + measure, measure);
    solve += rung.timers.solve - w.timers.solve;
    depth.push_back(o.depth);
    transport.push_back(o.transport);
    throughput.push_back(o.throughput);
    series.rows.push_back({double(ladder[r]), o.depth, o.transport, o.throughput, o.on_sieve, o.small_in_sieved, o.contacts});
    if (ctx.progress) ctx.progress(0.2 + 0.8 * double(r + 1) / double(ladder.size()));
  }
  const double tol = p.real("tolerance");
  RunResult out;
  out.metrics["n_required_depth"] = required_rung(ladder, depth, tol);
  out.metrics["n_required_transport"] = required_rung(ladder, transport, tol);
  out.metrics["n_required_throughput"] = required_rung(ladder, throughput, tol);
  out.metrics["depth_ref"] = depth.back();
  out.metrics["transport_ref"] = transport.back();
  out.metrics["throughput_ref"] = throughput.back();
  out.metrics["on_sieve_ref"] = series.rows.back()[4];
  out.metrics["small_in_sieved_ref"] = series.rows.back()[5];
  out.metrics["contacts_ref"] = series.rows.back()[6];
  out.metrics["contacts_per_particle_ref"] = series.rows.back()[6] / count;
  out.metrics["time_solve"] = solve;
  out.series["ladder"] = std::move(series);
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_sieve",
    .description = "Roller-sieve proxy (Paper IV 000 l.1741-1743): bi-disperse pellets recirculated over inclined "
                   "rotating rollers; flow depth, transport speed and throughput vs an N_it ladder, required N_it",
    .parameters =
        {
            {"count", ParamType::integer, "-", std::int64_t(200), 1.0, 1e6, "particles (constant: recycled to the feed)"},
            {"diameter", ParamType::real, "m", 0.013, 1e-6, 10.0, "large diameter d"},
            {"diameter_small", ParamType::real, "m", 0.010, 1e-6, 10.0, "small diameter d2"},
            {"small_fraction", ParamType::real, "-", 0.5, 0.0, 1.0, "number fraction of small particles"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density"},
            {"youngs_modulus", ParamType::real, "Pa", 6e6, 1.0, 1e15, "Young's modulus E"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu (particles and walls)"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r"},
            {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "gravity magnitude"},
            {"dt", ParamType::real, "s", 0.005, 1e-6, 1.0, "time step"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / dt)"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "variant on the ladder: cold | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0, "beta of the history warm starts (Eq. 7)"},
            {"roller_count", ParamType::integer, "-", std::int64_t(12), 1.0, 1e4, "rollers"},
            {"roller_diameter", ParamType::real, "m", 0.04, 1e-4, 10.0, "roller diameter"},
            {"gap_first", ParamType::real, "m", 0.006, 0.0, 10.0, "gap after the first roller"},
            {"gap_last", ParamType::real, "m", 0.012, 0.0, 10.0, "gap before the last roller (linear in between)"},
            {"incline_deg", ParamType::real, "deg", 15.0, 0.0, 60.0, "inclination of the roller plane"},
            {"roller_speed", ParamType::real, "m/s", 0.3, 0.0, 100.0, "surface speed of the rollers, down the slope"},
            {"width", ParamType::real, "m", 0.1, 1e-3, 100.0, "width between the side walls"},
            {"end_wall", ParamType::boolean, "", false, {}, {}, "close the tail with a wall (static-bed perturbation)"},
            {"feed_height", ParamType::real, "m", 0.01, 0.0, 100.0, "feed box starts this far above the roller tops"},
            {"feed_velocity", ParamType::real, "m/s", 0.3, -100.0, 100.0, "horizontal speed of fed particles"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "seed of sizes and feed positions"},
            {"prep_time", ParamType::real, "s", 3.0, 0.0, 1e4, "common preparation (COLD, prep_iterations)"},
            {"prep_iterations", ParamType::integer, "-", std::int64_t(50), 1.0, 1e7, "N_it of the preparation"},
            {"transient_time", ParamType::real, "s", 1.0, 0.0, 1e4, "per rung: time before the measurement"},
            {"measure_time", ParamType::real, "s", 2.0, 1e-6, 1e4, "per rung: averaging window"},
            {"iteration_ladder", ParamType::text, "", std::string("1,2,3,4,5,6,8,10,13,16,20,25,32,40,50"), {}, {},
             "N_it rungs, increasing; the largest is the reference"},
            {"tolerance", ParamType::real, "-", 0.05, 0.0, 10.0,
             "relative accuracy for n_required_* (Paper IV's 5 % target, 000 l.1743)"},
        },
    .run = run_sieve}};

}  // namespace
}  // namespace grainlab
