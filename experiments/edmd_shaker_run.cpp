#include "experiments/edmd_shaker_run.hpp"

#include <cmath>
#include <random>

#include "core/edmd/placement.hpp"
#include "core/edmd/system.hpp"
#include "core/error.hpp"

namespace grainlab::edmd_runs {



ShakerResult run_shaker(const ShakerSetup& s) {
  if (!(s.discard >= 0 && s.discard < s.duration)) throw InputError("edmd_shaker: discard must be in [0, duration)");
  if (!(s.window > 0)) throw InputError("edmd_shaker: window must be > 0");
  edmd::Cylinder c;
  c.radius = s.cylinder_radius, c.height = s.cylinder_height, c.motion = {s.amplitude, s.frequency};
  edmd::Settings set;
  set.gravity = s.gravity, set.restitution_pair = s.restitution_pair, set.restitution_wall = s.restitution_wall;
  set.tc = s.tc, set.seed = s.seed;
  edmd::System sys(c, set);
  std::mt19937_64 rng(s.seed);
  const double m = 4.0 / 3.0 * M_PI * std::pow(s.ball_radius, 3) * s.density;
  for (const S3& p : edmd::random_positions(c, s.balls, s.ball_radius, rng)) sys.add_ball(p, S3(), s.ball_radius, m);
  sys.start(0);
  sys.run_until(s.discard);
  const edmd::Tally t0 = sys.tally();
  const double e0 = sys.kinetic_energy() + sys.potential_energy();
  ShakerResult r;
  edmd::Tally prev = t0;
  double ke_sum = 0, t = s.discard;
  int n = 0;
  while (t < s.duration - 1e-12) {
    const double t_next = std::min(s.duration, t + s.window), dt = t_next - t;
    sys.run_until(t_next);
    const edmd::Tally& now = sys.tally();
    r.windows.push_back({t_next, (now.pair - prev.pair) / dt, (now.wall_total() - prev.wall_total()) / dt,
                         (now.loss_pair + now.loss_wall - prev.loss_pair - prev.loss_wall) / dt});
    prev = now;
    ke_sum += sys.kinetic_energy(), ++n;
    t = t_next;
  }
  const edmd::Tally& t1 = sys.tally();
  const double T = s.duration - s.discard;
  r.H_pair = (t1.loss_pair - t0.loss_pair) / T;
  r.H_wall = (t1.loss_wall - t0.loss_wall) / T;
  r.H_total = r.H_pair + r.H_wall;
  r.rate_pair = (t1.pair - t0.pair) / T;
  r.rate_wall = (t1.wall_total() - t0.wall_total()) / T;
  r.rate_total = r.rate_pair + r.rate_wall;
  r.wall_power = (t1.wall_work - t0.wall_work) / T;
  r.wall_power_printed = (t1.wall_work_printed - t0.wall_work_printed) / T;
  const double de = sys.kinetic_energy() + sys.potential_energy() - e0;
  const double w = t1.wall_work - t0.wall_work, loss = r.H_total * T;
  r.balance_error = std::abs(de - (w - loss)) / std::abs(w);
  r.kinetic_energy_mean = ke_sum / n;
  r.events = static_cast<double>(sys.events_processed());
  // Window spread over full windows only.
  for (int col : {1, 2}) {
    double mean = 0;
    int k = 0;
    std::vector<double> v;
    for (const auto& row : r.windows)
      if (row[0] - s.discard > 0) v.push_back(col == 1 ? row[1] : row[1] + row[2]);
    for (double x : v) mean += x, ++k;
    mean /= k;
    double spread = 0;
    for (double x : v) spread = std::max(spread, std::abs(x / mean - 1));
    (col == 1 ? r.window_spread_pair : r.window_spread_total) = spread;
  }
  return r;
}

std::vector<ParameterSpec> shaker_parameters() {
  const ShakerSetup d;
  return {
      {"ball_count", ParamType::integer, "-", std::int64_t(d.balls), 1.0, 5000.0, "number of balls N"},
      {"ball_radius", ParamType::real, "m", d.ball_radius, 1e-6, 0.1, "ball radius R"},
      {"density", ParamType::real, "kg/m^3", d.density, 1.0, 1e5, "ball density (steel 7850, 002 l.1023)"},
      {"cylinder_radius", ParamType::real, "m", d.cylinder_radius, 1e-4, 10.0, "shaker radius R_s"},
      {"cylinder_height", ParamType::real, "m", d.cylinder_height, 1e-4, 10.0, "shaker height H_s"},
      {"amplitude", ParamType::real, "m", d.amplitude, 0.0, 1.0, "shake amplitude A of Eq. (3.19)"},
      {"frequency", ParamType::real, "Hz", d.frequency, 0.0, 1e4, "shake frequency f"},
      {"restitution_pair", ParamType::real, "-", d.restitution_pair, 0.0, 1.0, "ball-ball eps, Eq. (3.16)"},
      {"restitution_wall", ParamType::real, "-", d.restitution_wall, 0.0, 1.0, "ball-wall eps, Eq. (3.17)"},
      {"gravity", ParamType::real, "m/s^2", d.gravity, 0.0, 100.0, "g along -z"},
      {"duration", ParamType::real, "s", d.duration, 1e-3, 1e4, "simulated time"},
      {"discard", ParamType::real, "s", d.discard, 0.0, 1e4, "transient left out of the averages"},
      {"window", ParamType::real, "s", d.window, 1e-4, 1e4, "window of the rate time series (G-C05)"},
      {"tc", ParamType::real, "s", d.tc, 0.0, 1.0, "TC-model duration (0: off, as in the thesis)"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e9, "placement and tie-break seed"},
  };
}

ShakerSetup shaker_from(const Parameters& p) {
  ShakerSetup s;
  s.balls = static_cast<int>(p.integer("ball_count"));
  s.ball_radius = p.real("ball_radius"), s.density = p.real("density");
  s.cylinder_radius = p.real("cylinder_radius"), s.cylinder_height = p.real("cylinder_height");
  s.amplitude = p.real("amplitude"), s.frequency = p.real("frequency");
  s.restitution_pair = p.real("restitution_pair"), s.restitution_wall = p.real("restitution_wall");
  s.gravity = p.real("gravity"), s.duration = p.real("duration"), s.discard = p.real("discard");
  s.window = p.real("window"), s.tc = p.real("tc"), s.seed = static_cast<std::uint64_t>(p.integer("seed"));
  return s;
}

}  // namespace grainlab::edmd_runs
