// Experiment edmd_ideal_gas: Gavrilov's validation of the MD code (G-E3, 002 l.1014-1021): elastic small
// balls with equal speeds in random directions in a motionless cylinder of given volume and shape. Measures
// the wall pressure (impulse / (area x time)) against (2/3) E_kin / V, per wall, and the relaxation of the
// speed distribution to Maxwell-Boltzmann (Kolmogorov-Smirnov distance, snapshots pooled once every ball
// has had `relax_collisions` pair collisions on average). Ledger defaults: g = 0 (P8), N = 1000, r = 0.5 mm,
// the G-E2 volume; V and the wall areas are those the ball centres can reach (V_eff, P8) unless
// volume_convention = "nominal".
#include <algorithm>
#include <cmath>
#include <random>

#include "core/edmd/placement.hpp"
#include "core/edmd/system.hpp"
#include "core/error.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {



/// Maxwell-Boltzmann speed CDF with <v^2> = 3 s2.
double maxwell_cdf(double v, double s2) {
  const double x = v / std::sqrt(2 * s2);
  return std::erf(x) - std::sqrt(2 / M_PI) * (v / std::sqrt(s2)) * std::exp(-x * x);
}

double ks_distance(std::vector<double> speeds, double mean_v2) {
  std::sort(speeds.begin(), speeds.end());
  const double n = static_cast<double>(speeds.size()), s2 = mean_v2 / 3;
  double d = 0;
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const double f = maxwell_cdf(speeds[i], s2);
    d = std::max({d, std::abs(f - i / n), std::abs((i + 1) / n - f)});
  }
  return d;
}

Experiment make() {
  Experiment e;
  e.name = "edmd_ideal_gas";
  e.description = "Event-driven ideal gas (Gavrilov G-E3): PV vs (2/3) E_kin per wall and Maxwell relaxation (KS distance)";
  e.parameters = {
      {"ball_count", ParamType::integer, "-", std::int64_t(1000), 2.0, 1e6, "number of balls"},
      {"ball_radius", ParamType::real, "m", 0.5e-3, 1e-6, 0.01, "ball radius"},
      {"density", ParamType::real, "kg/m^3", 7850.0, 1.0, 1e5, "ball density"},
      {"volume", ParamType::real, "m^3", M_PI * 0.0315 * 0.0315 * 0.103, 1e-9, 10.0, "cylinder volume (default: G-E2 shaker)"},
      {"aspect", ParamType::real, "-", 0.103 / 0.0315, 0.01, 100.0, "cylinder height / radius"},
      {"speed", ParamType::real, "m/s", 1.0, 1e-6, 1e3, "initial speed of every ball (random directions)"},
      {"gravity", ParamType::real, "m/s^2", 0.0, 0.0, 100.0, "g along -z (0: the ledger default, P8)"},
      {"duration", ParamType::real, "s", 2.0, 1e-3, 1e4, "simulated time"},
      {"relax_collisions", ParamType::real, "-", 10.0, 0.1, 1e4, "pair collisions per ball after which speeds are pooled"},
      {"snapshot_interval", ParamType::real, "s", 0.02, 1e-5, 10.0, "interval of the speed snapshots"},
      {"volume_convention", ParamType::text, "", std::string("accessible"), {}, {},
       "\"accessible\" (V and areas reachable by the centres) or \"nominal\" (the cylinder's own)", {"accessible", "nominal"}},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e9, "placement seed"},
  };
  e.run = [](const Parameters& p, RunContext&) {
    const int n = static_cast<int>(p.integer("ball_count"));
    const double r = p.real("ball_radius"), V = p.real("volume"), aspect = p.real("aspect");
    edmd::Cylinder c;
    c.radius = std::cbrt(V / (M_PI * aspect));
    c.height = aspect * c.radius;
    edmd::Settings set;
    set.gravity = p.real("gravity");
    set.seed = static_cast<std::uint64_t>(p.integer("seed"));
    edmd::System sys(c, set);
    std::mt19937_64 rng(set.seed);
    const double m = 4.0 / 3.0 * M_PI * r * r * r * p.real("density"), v0 = p.real("speed");
    for (const S3& x : edmd::random_positions(c, n, r, rng)) sys.add_ball(x, edmd::random_direction(rng) * v0, r, m);
    sys.start(0);
    const double e_start = sys.kinetic_energy() + sys.potential_energy();
    const double e0 = sys.kinetic_energy(), duration = p.real("duration"), dt = p.real("snapshot_interval");
    const double relax = p.real("relax_collisions");
    std::vector<double> pooled, first;
    double ke_sum = 0, t_relaxed = NAN;
    int snapshots = 0;
    for (double t = dt; t <= duration + 1e-12; t += dt) {
      sys.run_until(t);
      ke_sum += sys.kinetic_energy(), ++snapshots;
      const double per_ball = 2.0 * sys.tally().pair / n;
      if (first.empty() && per_ball >= 1)
        for (int i = 0; i < n; ++i) first.push_back(sys.velocity(i).norm());
      if (per_ball >= relax) {
        if (std::isnan(t_relaxed)) t_relaxed = t;
        for (int i = 0; i < n; ++i) pooled.push_back(sys.velocity(i).norm());
      }
    }
    const double ke = ke_sum / snapshots, mean_v2 = 2 * ke / (n * m);
    const bool nominal = p.text("volume_convention") == "nominal";
    const double R = nominal ? c.radius : c.radius - r, H = nominal ? c.height : c.height - 2 * r;
    const double vol = M_PI * R * R * H, T = sys.time();
    const double area[3] = {M_PI * R * R, M_PI * R * R, 2 * M_PI * R * H};
    const double ideal = 2.0 / 3.0 * ke / vol;
    const edmd::Tally& tally = sys.tally();
    RunResult out;
    double impulse = 0;
    for (int w = 0; w < 3; ++w) impulse += tally.impulse[w];
    out.metrics = {
        {"pv_ratio", impulse / ((area[0] + area[1] + area[2]) * T) / ideal},
        {"pv_ratio_bottom", tally.impulse[edmd::bottom] / (area[0] * T) / ideal},
        {"pv_ratio_top", tally.impulse[edmd::top] / (area[1] * T) / ideal},
        {"pv_ratio_side", tally.impulse[edmd::side] / (area[2] * T) / ideal},
        {"ks_relaxed", pooled.empty() ? NAN : ks_distance(pooled, mean_v2)},
        {"ks_one_collision", first.empty() ? NAN : ks_distance(first, mean_v2)},
        {"time_relaxed", t_relaxed},
        {"pair_collisions_per_ball", 2.0 * tally.pair / n},
        {"energy_drift", std::abs(sys.kinetic_energy() + sys.potential_energy() - e_start) / e0},
        {"collisions", static_cast<double>(tally.collisions())},
        {"volume_fraction", n * 4.0 / 3.0 * M_PI * r * r * r / V},
    };
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
