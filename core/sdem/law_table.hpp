#pragma once
// The SDEM contact law's parts in one table (issue 27 item 4; LAMMPS GRANULAR's sub-models without the
// per-contact virtual call). Each normal-law variant is a traits struct that declares its coefficients,
// mixing rule and history size and computes its pair coefficients; with_normal_law() is the one switch
// that turns the run-time SdemNormalLaw into a compile-time tag. Adding a normal variant means one enum
// value, one traits struct and one case here; the kernels (pair_kernels.hpp) pick up the tag.
// The maths of each part stays in contact_law.hpp / pair_kernels.hpp; this file only names and routes it.
#include <array>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/material.hpp"
#include "core/sdem/hertz_theory.hpp"
#include "core/sdem/restitution.hpp"
#include "core/sdem/sdem_stepper.hpp"

namespace grainlab::sdem {

/// What a part of the law needs and keeps, for docs, tests and the history-block size.
struct LawPartDescriptor {
  std::string_view part, variant, coefficients, mixing;
  int history_doubles;  ///< per-contact state this part keeps between steps
};

template <SdemNormalLaw law>
struct NormalPart;

/// The elastic contact time of the Hertz-type variants: it depends on the approach speed.
struct HertzContactTime {
  static constexpr bool speed_free = false;
  static double contact_time(double m_eff, double e_star, double r_eff, double speed, const SdemSettings&) {
    return hertz_contact_time(m_eff, hertz_stiffness(e_star, r_eff), speed);
  }
};

template <>
struct NormalPart<SdemNormalLaw::hertz> : HertzContactTime {
  static constexpr LawPartDescriptor descriptor{"normal", "hertz", "k_n = 4/3 E* sqrt(R*), eta(e)",
                                                "E*: series of E/(1-nu^2); e: pair (min or override)", 0};
  static void set(SdemPairCoefficients& c, const MaterialPair& pair, const Material&, const Material&, double g_star,
                  const SdemSettings& s) {
    c.kn_factor = 4.0 / 3.0 * pair.effective_modulus;
    c.normal_damping = damping_for_restitution(DampedLaw::hertz, pair.restitution);
    c.kt_factor = s.tangential_stiffness_factor * 8 * g_star;
  }
};

template <>
struct NormalPart<SdemNormalLaw::viscoelastic> : HertzContactTime {
  static constexpr LawPartDescriptor descriptor{"normal", "viscoelastic", "k_n = 4/3 E* sqrt(R*), c(viscosity, nu)",
                                                "E*: series; nu: mean of the pair", 0};
  static void set(SdemPairCoefficients& c, const MaterialPair& pair, const Material& a, const Material& b,
                  double g_star, const SdemSettings& s) {
    const double nu = 0.5 * (a.poisson_ratio + b.poisson_ratio);
    if (nu <= 0)
      throw InputError(fmt::format("materials '{}'/'{}': the viscoelastic law needs poisson_ratio > 0 (000 line 68)",
                                   a.name, b.name));
    c.kn_factor = 4.0 / 3.0 * pair.effective_modulus;
    c.normal_damping = 2 * (1 - 2 * nu) * s.viscosity / (15 * nu * nu * pair.effective_modulus);
    c.kt_factor = s.tangential_stiffness_factor * 8 * g_star;
  }
};

template <>
struct NormalPart<SdemNormalLaw::linear> {
  static constexpr LawPartDescriptor descriptor{"normal", "linear", "k_n = linear_stiffness, eta(e)",
                                                "k_n: setting; e: pair (min or override)", 0};
  static void set(SdemPairCoefficients& c, const MaterialPair& pair, const Material&, const Material&, double,
                  const SdemSettings& s) {
    c.kn_factor = s.linear_stiffness;
    c.normal_damping = damping_for_restitution(DampedLaw::linear, pair.restitution);
    c.kt_factor = s.tangential_stiffness_factor * 2.0 / 7.0 * s.linear_stiffness;
  }
  static constexpr bool speed_free = true;  ///< t_c = pi sqrt(m*/k) for any approach speed
  static double contact_time(double m_eff, double, double, double, const SdemSettings& s) {
    return linear_contact_time(m_eff, s.linear_stiffness);
  }
};

/// Calls f(std::integral_constant<SdemNormalLaw, law>{}) for the run-time law: the one switch on it.
template <class F>
decltype(auto) with_normal_law(SdemNormalLaw law, F&& f) {
  switch (law) {
    case SdemNormalLaw::viscoelastic: return f(std::integral_constant<SdemNormalLaw, SdemNormalLaw::viscoelastic>{});
    case SdemNormalLaw::linear: return f(std::integral_constant<SdemNormalLaw, SdemNormalLaw::linear>{});
    case SdemNormalLaw::hertz: break;
  }
  return f(std::integral_constant<SdemNormalLaw, SdemNormalLaw::hertz>{});
}

/// Every part of the law, in the order the pair kernel applies them (contact_law.hpp has the maths).
inline constexpr std::array sdem_law_parts{
    NormalPart<SdemNormalLaw::hertz>::descriptor,
    NormalPart<SdemNormalLaw::viscoelastic>::descriptor,
    NormalPart<SdemNormalLaw::linear>::descriptor,
    LawPartDescriptor{"tangential", "mindlin-coulomb", "k_t = factor 8 G* sqrt(R* d), 2 zeta_t, mu",
                      "G*: series; mu, e: pair (min or override)", 3},
    LawPartDescriptor{"rolling", "spring-damper-limit", "k_r = factor k_t R*^2, 2 zeta_r, mu_r",
                      "mu_r: pair (min or override)", 3},
    LawPartDescriptor{"twisting", "spring-damper-limit", "k_tw = k_r, 2 zeta_r, alpha_rn mu R* f_n",
                      "alpha_rn: pair (min or override)", 1},
};

}  // namespace grainlab::sdem
