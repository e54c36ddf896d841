// Experiment mbd_method_checks: unit-scale checks of the MBD model of Gavrilov 1999 Ch. 5 (seed 002,
// ledger G-E9), run through the same engine as the hopper (core/mbd):
//  - check = "order": one disk on a wall link, an underdamped linear oscillator about its rest overlap
//    (no clamp, no slip), integrated with h, 2h, 4h to t_end and compared with the closed-form solution;
//    observed order log2(e(2h)/e(h)) (G-C61: Heun (5.17-5.18) second, Euler (5.15) first order).
//  - check = "rolling": a disk rolling without slip down an incline; the tangential link force should be
//    the rigid-body friction m g sin(theta) / 3 (I = m r^2 / 2). Its relative error with the rotation in
//    (5.4) taken as the angle increment (thesis) or as omega r h (G-C62, 002 l.2157).
#include <cmath>
#include <limits>
#include <numbers>

#include "core/mbd/system.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

using namespace mbd;

MbdSettings base(const Parameters& p) {
  MbdSettings s;
  s.integrator = p.text("integrator") == "euler" ? Integrator::euler : Integrator::heun;
  s.rotation = p.text("rotation_increment") == "omega" ? RotationIncrement::omega : RotationIncrement::angle;
  s.gravity = Vec2(0, -p.real("gravity"));
  return s;
}

// Gap error at t_end of the oscillator for step h.
double oscillator_error(const Parameters& p, double h) {
  MbdSettings s = base(p);
  s.step = h;
  s.wall_link.c_normal = p.real("damping");
  const double r = 0.01, m = 1190 * std::numbers::pi * r * r, k = s.wall_link.k_normal, c = s.wall_link.c_normal;
  const double rest = -m * p.real("gravity") / k, a = p.real("amplitude");
  MbdSystem sys(s);
  sys.add_segment({-1, 0}, {1, 0});
  sys.add_disk({0, r + rest - a}, r, m);
  sys.connect_touching();
  const int steps = int(std::lround(p.real("t_end") / h));
  for (int i = 0; i < steps; ++i) sys.step();
  const double t = steps * h, g = sys.disks()[0].x.y() - r - rest;
  // y'' + 2 z w y' + w^2 y = 0, y(0) = -a, y'(0) = 0 (underdamped).
  const double w = std::sqrt(k / m), z = c / (2 * std::sqrt(k * m)), wd = w * std::sqrt(1 - z * z);
  const double exact = -a * std::exp(-z * w * t) * (std::cos(wd * t) + z * w / wd * std::sin(wd * t));
  return std::abs(g - exact);
}

Experiment make() {
  Experiment e;
  e.name = "mbd_method_checks";
  e.description = "Gavrilov 1999 G-E9 for the MBD model: integrator order (G-C61), rotation increments in the tangential law (G-C62)";
  e.parameters = {
      {"check", ParamType::text, "", std::string("order"), std::nullopt, std::nullopt, "which check", {"order", "rolling"}},
      {"integrator", ParamType::text, "", std::string("heun"), std::nullopt, std::nullopt, "Heun (5.17-5.18) or Euler (5.15)", {"heun", "euler"}},
      {"rotation_increment", ParamType::text, "", std::string("angle"), std::nullopt, std::nullopt, "rotation in (5.4): dphi r or omega r h", {"angle", "omega"}},
      {"gravity", ParamType::real, "m/s^2", 9.8, 0.0, 1e3, "gravity (002 l.2773)"},
      {"step", ParamType::real, "s", 1e-5, 1e-8, 1e-2, "h (the order check also runs 2h and 4h)"},
      {"damping", ParamType::real, "N s/m", 50.0, 0.0, 1e4, "order: wall C_eta (underdamped)"},
      {"amplitude", ParamType::real, "m", 1e-6, 0.0, 1e-3, "order: extra compression at t = 0 (below the rest overlap, so the link never opens)"},
      {"t_end", ParamType::real, "s", 0.002, 1e-5, 10.0, "order: time of the comparison"},
      {"incline_deg", ParamType::real, "deg", 20.0, 0.0, 80.0, "rolling: incline angle"},
      {"roll_time", ParamType::real, "s", 0.3, 0.01, 10.0, "rolling: duration; the force is averaged over its second half"},
  };
  e.run = [](const Parameters& p, RunContext&) {
    RunResult r;
    for (const char* k : {"error_h", "error_2h", "error_4h", "observed_order", "observed_order_coarse", "friction_force",
                          "friction_exact", "friction_error", "slipped"})
      r.metrics[k] = std::numeric_limits<double>::quiet_NaN();
    if (p.text("check") == "order") {
      const double h = p.real("step");
      const double e1 = oscillator_error(p, h), e2 = oscillator_error(p, 2 * h), e4 = oscillator_error(p, 4 * h);
      r.metrics["error_h"] = e1, r.metrics["error_2h"] = e2, r.metrics["error_4h"] = e4;
      r.metrics["observed_order"] = std::log2(e2 / e1);
      r.metrics["observed_order_coarse"] = std::log2(e4 / e2);
      return r;
    }
    MbdSettings s = base(p);
    s.step = p.real("step");
    const double th = p.real("incline_deg") * std::numbers::pi / 180, rad = 0.01;
    const double m = 1190 * std::numbers::pi * rad * rad, g = p.real("gravity");
    MbdSystem sys(s);
    const Vec2 down(std::cos(th), -std::sin(th)), up_normal(std::sin(th), std::cos(th));
    sys.add_segment(-10 * down, 10 * down);
    const double rest = m * g * std::cos(th) / s.wall_link.k_normal;
    sys.add_disk((rad - rest) * up_normal, rad, m);
    sys.connect_touching();
    const int steps = int(std::lround(p.real("roll_time") / s.step));
    double sum = 0;
    int n = 0;
    for (int i = 0; i < steps; ++i) {
      sys.step();
      if (i >= steps / 2 && !sys.links().empty()) {
        const Link& l = sys.links()[0];
        sum += s.wall_link.k_tangential * l.delta_tau;  // the spring part of the friction force
        ++n;
      }
    }
    const double exact = m * g * std::sin(th) / 3;
    r.metrics["friction_force"] = n ? std::abs(sum / n) : 0;
    r.metrics["friction_exact"] = exact;
    r.metrics["friction_error"] = n ? std::abs(std::abs(sum / n) - exact) / exact : 1;
    r.metrics["slipped"] = sys.events()[EventType::slip_link] > 0 ? 1 : 0;
    return r;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
