#pragma once
// The contact law of one NDEM contact's rows, shared by the sphere rows (NdemStepper::setup) and the
// rigid-body rows (NdemBodyRows::set_contact_law). See docs/ndem_row_model.md.
#include <algorithm>
#include <cmath>

#include "core/hertz.hpp"
#include "core/ndem/ndem_settings.hpp"
#include "core/world.hpp"

namespace grainlab {

/// The contact law of a contact's rows.
struct NdemRowLaw {
  double s;             ///< normal scale e_H max(delta, floor)^(e_H - 1) (Paper IV Eq. 15, corrected: d/d delta)
  double overlap;       ///< delta
  double stiffness;     ///< k_n (Hertz N/m^1.5 from the pair's modulus, or the linear k)
  double sigma_n;       ///< Sigma_n = 4 eps_n Upsilon / Dt^2, eps_n = e_H / k_n (000 l.1520-1533)
  double mu, mu_roll, mu_twist;     ///< bounds per unit physical normal impulse: mu, mu_r R*, alpha mu R*
  double restitution, impact_speed;  ///< e and v_imp
  double diameter;      ///< r_a + r_b (2 r_a against a wall)
};
/// `upsilon` = 1 / (1 + 4 tau_n / Dt), the step's constant.
inline NdemRowLaw ndem_row_law(const World& world, const NdemSettings& S, const Contact& c, double upsilon) {
  const ParticleStore& P = world.particles;
  const double dt = S.time_step, eH = S.hertz_exponent();
  const std::size_t a = std::size_t(c.a);
  const bool wall = c.is_wall();
  const int ia = int(P.material[a]);
  const int ib = int(wall ? world.walls[std::size_t(c.wall_index())].material : P.material[std::size_t(c.b)]);
  const MaterialPair mp = mix(world.materials[ia], world.materials[ib], world.pair_overrides.find(ia, ib));
  const double rstar = c.effective_radius;
  NdemRowLaw law;
  law.stiffness = S.law == NdemContactLaw::hertz ? hertz_stiffness(mp.effective_modulus, rstar) : S.linear_stiffness;
  law.overlap = c.overlap;
  law.s = eH == 1.0 ? 1.0 : eH * std::pow(std::max(c.overlap, S.overlap_floor_ratio * rstar), eH - 1.0);
  law.sigma_n = 4.0 * (eH / law.stiffness) * upsilon / (dt * dt);
  law.mu = mp.friction;
  law.mu_roll = mp.rolling_friction * rstar;
  law.mu_twist = mp.twisting_factor * mp.friction * rstar;
  law.restitution = mp.restitution;
  law.diameter = wall ? 2.0 * P.radius[a] : P.radius[a] + P.radius[std::size_t(c.b)];
  law.impact_speed = S.impact_velocity >= 0 ? S.impact_velocity : S.impact_epsilon * law.diameter / dt;
  return law;
}

}  // namespace grainlab
