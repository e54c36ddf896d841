#pragma once
// SDEM contact law as small stateless parts (normal, tangential, rolling), in the spirit of LAMMPS
// GRANULAR's composable sub-models but resolved at compile time: no virtual call per contact.
//
// Sources: 000 Eq. (2), lines 43-68, and Eqs. (11)-(12), lines 364-383; standard Hertz theory
// (core/hertz.hpp); exact restitution damping (core/sdem/restitution.hpp).
//
// Sign convention (core/contacts.hpp): n is the unit normal from b towards a, d >= 0 the overlap,
// d' = -(v_rel . n) its rate, v_rel the velocity of a's material point minus b's at the contact point.
// Every part returns what acts on body a; b receives the opposite (plus the lever-arm torque).
//
//   normal   f_n = max(0, elastic(d) + damping(d, d'))          (never attractive)
//     hertz:         k_n d^{3/2} + eta sqrt(m* k_n) d^{1/4} d'    eta = eta(e) exact, restitution.hpp
//     viscoelastic:  k_n (d^{3/2} + c d^{1/2} d')                 000 Eq. (2), c from the viscosity
//     linear:        k_n d + eta sqrt(m* k_n) d'                   eta(e) exact for the clamped law
//   tangential  s <- rotate(s into the tangent plane, keep |s|) + u_t dt
//               f_t = -k_t s - gamma_t u_t, projected on |f_t| <= mu f_n; on sliding s = -f_t / k_t
//   rolling     theta <- rotate(theta) + w_roll dt            (w_roll: tangential part of w_a - w_b)
//               tau_r = -k_r theta - gamma_r w_roll, |tau_r| <= mu_r R* f_n; when the spring alone
//               reaches the limit the torque is the limit and the damping is off (Ai et al., Powder
//               Technol. 206 (2011) 269, model C with f = 0); a rolling sphere then decelerates
//               at 5/7 mu_r g (000 line 1247).
//   twisting    phi <- phi + w_twist dt                          (w_twist: (w_a - w_b) . n)
//               tau_t = -k_tw phi - gamma_tw w_twist along n, |tau_t| <= alpha_rn mu R* f_n (the limit of
//               NDEM's twisting row, 000 l.1176), mobilised as the rolling part is; a sphere spinning on
//               a floor about the vertical then decelerates at alpha_rn mu R* m g / I.
//
// Threading: pure functions of their arguments; the spring state is passed by reference and belongs to
// one contact, so contacts can be processed in parallel.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/math.hpp"

namespace grainlab::sdem {

// The normal parts are evaluated from per-contact constants (k_n, eta sqrt(m* k_n), ...) computed when
// the candidate list changes: normal_terms() in core/sdem/sdem_stepper.cpp.

// The vector functions below are templates on the vector type V: Vec3, or S3 (core/scalar3.hpp) in the
// pair kernel. Only the history argument deduces V; the others convert to it.
template <class V>
using same_t = std::type_identity_t<V>;

/// Projects a history vector onto the plane normal to n and restores its length (the contact frame
/// turned since the last step; LAMMPS GRANULAR does the same).
template <class V>
inline void rotate_into_plane(V& s, const same_t<V>& n) {
  const double len2 = s.squaredNorm();
  if (len2 == 0) return;
  s -= s.dot(n) * n;
  const double new2 = s.squaredNorm();
  if (new2 > 0) s *= std::sqrt(len2 / new2);
}

/// Tangential spring-dashpot on the Coulomb cone. Updates `spring` (elongation, m) and returns the
/// tangential force on a. `ut`: tangential slip velocity of a relative to b; `limit` = mu f_n.
template <class V>
inline V tangential_force(V& spring, const same_t<V>& n, const same_t<V>& ut, double kt, double gamma_t, double limit,
                          double dt) {
  rotate_into_plane(spring, n);
  spring += dt * ut;
  V f = -kt * spring - gamma_t * ut;
  const double f2 = f.squaredNorm();
  if (f2 > limit * limit) {
    // Gross sliding: force on the cone along the trial direction; the spring keeps what the cone allows.
    f *= f2 > 0 ? limit / std::sqrt(f2) : 0.0;
    spring = kt > 0 ? V(-f / kt) : V::Zero();
  }
  return f;
}

/// Rolling-resistance spring with damping, limited by `limit` = mu_r R* f_n. Updates `spring` (relative
/// rolling rotation, rad) and returns the torque on a.
template <class V>
inline V rolling_torque(V& spring, const same_t<V>& n, const same_t<V>& w_roll, double kr, double gamma_r, double limit,
                        double dt) {
  rotate_into_plane(spring, n);
  spring += dt * w_roll;
  const double elastic = kr * spring.norm();
  if (elastic >= limit) {
    // Fully mobilised: the torque is the limit, opposing the accumulated rotation; no damping.
    if (elastic == 0) return V::Zero();
    spring *= limit / elastic;
    return -kr * spring;
  }
  V tau = -kr * spring - gamma_r * w_roll;
  const double t2 = tau.squaredNorm();
  if (t2 > limit * limit) tau *= limit / std::sqrt(t2);
  return tau;
}

/// Twisting-resistance spring with damping, limited by `limit` = alpha_rn mu R* f_n. Updates `spring`
/// (relative rotation about the normal, rad; a scalar, so it needs no turning into a new frame) and returns
/// the torque on a along the normal n.
inline double twisting_torque(double& spring, double w_twist, double k_tw, double gamma_tw, double limit, double dt) {
  spring += dt * w_twist;
  const double elastic = k_tw * std::abs(spring);
  if (elastic >= limit) {
    // Fully mobilised, as rolling_torque: the limit, opposing the accumulated rotation; no damping.
    if (elastic == 0) return 0;
    spring *= limit / elastic;
    return -k_tw * spring;
  }
  return std::clamp(-k_tw * spring - gamma_tw * w_twist, -limit, limit);
}

}  // namespace grainlab::sdem
