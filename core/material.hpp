#pragma once
// Material data shared by the smooth (SDEM) and nonsmooth (NDEM) engines, so that one material drives
// both methods. Sources: 000 lines 43-68 (Eq. 2), 364-383; pellet values 000 line 1160 (Table 1).
#include <string>
#include <vector>

namespace grainlab {

struct Material {
  std::string name = "default";
  double density = 2500.0;          ///< kg/m^3
  double youngs_modulus = 5e6;      ///< E, Pa
  double poisson_ratio = 0.25;      ///< nu, -1 < nu < 0.5
  double restitution = 0.5;         ///< normal coefficient of restitution e in [0, 1]
  double friction = 0.5;            ///< sliding (Coulomb) friction mu >= 0
  double rolling_friction = 0.0;    ///< rolling resistance mu_r >= 0 (dimensionless, torque limit mu_r r* |f_n|)
  double twisting_factor = 0.0;     ///< alpha_rn in [0, 1]: twisting limit alpha_rn mu r* |f_n| (000 l.1176)

  /// Throws InputError naming the offending parameter (and the material) when a value is invalid.
  void validate() const;
};

/// Pair properties that follow from two materials. All mixing rules live here.
struct MaterialPair {
  double effective_modulus;   ///< E*, 1/E* = (1-nu_a^2)/E_a + (1-nu_b^2)/E_b
  double restitution;         ///< e of the pair (minimum of the two)
  double friction;            ///< mu of the pair (minimum of the two)
  double rolling_friction;    ///< mu_r of the pair (minimum of the two)
  double twisting_factor;     ///< alpha_rn of the pair (minimum of the two)
};

MaterialPair mix(const Material& a, const Material& b);

/// The engine's material list; particles and walls refer to materials by index.
using MaterialTable = std::vector<Material>;

}  // namespace grainlab
