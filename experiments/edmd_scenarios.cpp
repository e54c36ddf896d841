#include "experiments/edmd_scenarios.hpp"

#include <cmath>

#include "core/edmd/collision_law.hpp"
#include "core/edmd/contact_time.hpp"
#include "core/edmd/stall_guard.hpp"
#include "core/edmd/system.hpp"
#include "core/error.hpp"

namespace grainlab::edmd_runs {

using grainlab::S3;

bool fig36_a_meets_c(bool schedule_all, bool deflect) {
  edmd::Cylinder c;
  c.radius = 1.0, c.height = 2.0;
  edmd::Settings s;
  s.gravity = 0;
  s.schedule_all = schedule_all;
  s.cell_size = 3.0;  // one cell: every ball is every other's neighbour
  edmd::System sys(c, s);
  const double r = 0.01;
  const int A = sys.add_ball(S3(-0.3, 0, 1), S3(1, 0, 0), r, 1.0);  // meets B at 0.28, C at 0.58
  sys.add_ball(S3(0, 0, 1), S3(0, 0, 0), r, 1.0);                    // B
  const int C = sys.add_ball(S3(0.3, 0, 1), S3(0, 0, 0), r, 1.0);
  sys.add_ball(S3(0, -0.2, 1), S3(0, deflect ? 2 : 0, 0), r, 0.5);  // D (lighter: rebounds) hits B at 0.09
  sys.add_ball(S3(0.3, 0.3, 1), S3(0, -1, 0), r, 1.0);               // E would hit C at 0.28 ...
  sys.add_ball(S3(0.52, 0.2, 1), S3(deflect ? -2 : 0, 0, 0), r, 1.0);  // ... but F knocks it aside at 0.1
  bool met = false;
  sys.on_collision = [&](const edmd::CollisionRecord& rec) {
    if ((rec.a == A && rec.b == C) || (rec.a == C && rec.b == A)) met = met || std::abs(rec.time - 0.58) < 1e-9;
  };
  sys.start();
  sys.run_until(0.7);
  return met;
}

CollapseResult bouncing_collapse(double eps, double height, double gravity, double reference_gravity) {
  edmd::Cylinder c;
  c.radius = 0.05, c.height = 10 * height + 0.1;
  edmd::Settings s;
  s.restitution_wall = eps;
  s.gravity = gravity;
  edmd::System sys(c, s);
  const double r = 0.005;
  sys.add_ball(S3(0, 0, r + height), S3(0, 0, 0), r, 1e-3);
  sys.start();
  const double v0 = std::sqrt(2 * reference_gravity * height);
  CollapseResult out;
  out.t_infinity = std::sqrt(2 * height / reference_gravity) + 2 * v0 * eps / (reference_gravity * (1 - eps));
  try {
    sys.run_until(10 * out.t_infinity);
  } catch (const InstabilityError&) {
    out.stalled = true;
  }
  out.stall_time = sys.time();
  out.events = static_cast<double>(sys.events_processed());
  return out;
}

SplineLoopResult spline_wall_loop(double field, double step, double gap, double eps, double t_end) {
  // 1-D: height z above the wall, z'' = -field. The trajectory over [t_i, t_i + step] is the chord from z_i to
  // z_i + v_i step - field step^2 (the constant-force step, 5.16), flown at the chord's velocity.
  const edmd::Settings defaults;
  edmd::StallGuard guard(defaults.stall_events, defaults.stall_dt);
  double t = 0, z = gap, v = 0;
  SplineLoopResult out;
  while (t < t_end) {
    const double chord_v = (v * step - field * step * step) / step;
    const double tau = chord_v < 0 ? std::max(0.0, -z / chord_v) : edmd::never;  // Eq. (3.12), linear case
    double t_next;
    if (tau < step) {  // collision: reflect the state velocity (3.17), then predict again
      t_next = t + tau;
      z += chord_v * tau;
      v = edmd::wall_collision(1.0, chord_v, 0.0, eps).v1;  // the spline's normal velocity is what hits
      ++out.events;
    } else {           // end of the spline step: the next chord
      t_next = t + step;
      z += chord_v * step;
      v -= field * step;
    }
    if (guard.stalled(t, t_next)) {
      out.stalled = true;
      break;
    }
    t = t_next;
  }
  out.time = t;
  return out;
}

}  // namespace grainlab::edmd_runs
