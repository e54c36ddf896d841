#pragma once
// One MBD link (Gavrilov 1999 Sec. 5.4, seed 002 l.2112-2169): a normal spring-dashpot clamped so that it
// never pulls (5.1-5.3), an incremental tangential spring-dashpot whose displacement includes the rotation
// increments dphi r (5.4-5.7), the Coulomb cap (5.8-5.9), and the slip / grip / stability indicators
// (5.8, 5.10). Convention (grainlab, ledger P10): the normal force f_n is compression positive; eta points
// from body 1 to body 2 (a disk, or the closest point of a fixed segment with r2 = 0 and zero velocity),
// tau = eta rotated by +90 degrees. delta_eta = |p2 - p1| - r1 - r2 (negative = overlap).
#include <Eigen/Dense>

namespace grainlab::mbd {

using Vec2 = Eigen::Vector2d;

struct LinkCoefficients {
  double k_normal = 0, k_tangential = 0;    ///< K_eta, K_tau, N/m
  double c_normal = 0, c_tangential = 0;    ///< C_eta, C_tau, N s/m
  double friction = 0;                      ///< mu
};

/// Kinematics of the two ends of a link at one instant.
struct LinkEnds {
  Vec2 p1, v1;  ///< centre and velocity of disk 1
  double r1 = 0, omega1 = 0;
  Vec2 p2, v2;  ///< centre of disk 2, or the contact point on a fixed segment (v2 = 0, r2 = 0)
  double r2 = 0, omega2 = 0;
};

/// Forces of a link, evaluated for a trial tangential displacement.
struct LinkForce {
  Vec2 eta{1, 0}, tau{0, 1};
  double gap = 0;                 ///< delta_eta, m (negative = overlap)
  double v_normal = 0;            ///< d(delta_eta)/dt
  double v_tangential = 0;        ///< tangential slip speed of end 2 relative to end 1 (5.7)
  double normal = 0;              ///< f_n >= 0 after the clamp (5.3)
  double tangential_trial = 0;    ///< K_tau delta_tau + C_tau v_tau before the cap
  double tangential = 0;          ///< s_tau after the Coulomb cap (5.9)
  double dissipation_rate = 0;    ///< W: power of the non-elastic part of the forces, >= 0
  /// Force and torque on disk 1; disk 2 gets -force and torque2.
  Vec2 force1{0, 0};
  double torque1 = 0, torque2 = 0;
  double slip_indicator() const;  ///< |s_tau trial| - mu f_n (5.8), needs `friction`
  double friction = 0;
};

/// Evaluates the link for the tangential displacement `delta_tau` (5.4-5.6 already applied by the caller).
LinkForce evaluate_link(const LinkEnds& e, double delta_tau, const LinkCoefficients& c);

/// Elastic energy stored in the link springs, J.
inline double link_energy(double gap, double delta_tau, const LinkCoefficients& c) {
  const double n = gap < 0 ? gap : 0.0;
  return 0.5 * c.k_normal * n * n + 0.5 * c.k_tangential * delta_tau * delta_tau;
}

/// StabilityIndicator (5.10): 1 - (|v_eta| + |v_tau|) / C_stability.
inline double stability_indicator(const LinkForce& f, double c_stability) {
  return 1 - (std::abs(f.v_normal) + std::abs(f.v_tangential)) / c_stability;
}

}  // namespace grainlab::mbd
