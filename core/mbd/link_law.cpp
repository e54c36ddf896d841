#include "core/mbd/link_law.hpp"

#include <algorithm>
#include <cmath>

namespace grainlab::mbd {

double LinkForce::slip_indicator() const { return std::abs(tangential_trial) - friction * normal; }

LinkForce evaluate_link(const LinkEnds& e, double delta_tau, const LinkCoefficients& c) {
  LinkForce f;
  f.friction = c.friction;
  const Vec2 d = e.p2 - e.p1;
  const double dist = d.norm();
  if (dist > 0) f.eta = d / dist;
  f.tau = Vec2(-f.eta.y(), f.eta.x());
  f.gap = dist - e.r1 - e.r2;
  const Vec2 dv = e.v2 - e.v1;
  f.v_normal = dv.dot(f.eta);
  f.v_tangential = dv.dot(f.tau) - e.omega2 * e.r2 - e.omega1 * e.r1;
  // Normal (5.2-5.3): s_eta = K delta + C v may only push; the clamp removes a tensile total.
  const double spring_n = -c.k_normal * std::min(f.gap, 0.0);
  f.normal = std::max(0.0, -(c.k_normal * f.gap + c.c_normal * f.v_normal));
  if (f.gap >= 0) f.normal = 0;  // separated: nothing to transmit until the link is removed
  // Tangential (5.7) with the Coulomb cap (5.9); no tangential clamp (ledger P10 default).
  const double spring_t = c.k_tangential * delta_tau;
  f.tangential_trial = spring_t + c.c_tangential * f.v_tangential;
  const double cap = c.friction * f.normal;
  f.tangential = std::clamp(f.tangential_trial, -cap, cap);
  f.force1 = -f.normal * f.eta + f.tangential * f.tau;
  f.torque1 = e.r1 * f.tangential;
  f.torque2 = e.r2 * f.tangential;
  // Power into the bodies is f_n v_eta - s_tau v_tau; the springs' part is -d(E_link)/dt, the rest is lost.
  f.dissipation_rate = -(f.normal - spring_n) * f.v_normal + (f.tangential - spring_t) * f.v_tangential;
  return f;
}

}  // namespace grainlab::mbd
