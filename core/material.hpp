#pragma once
// Material data shared by the smooth (SDEM) and nonsmooth (NDEM) engines, so that one material drives
// both methods. Sources: 000 lines 43-68 (Eq. 2), 364-383; pellet values 000 line 1160 (Table 1).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
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
  double restitution;         ///< e of the pair (minimum of the two, or the pair's override)
  double friction;            ///< mu of the pair (minimum of the two, or the pair's override)
  double rolling_friction;    ///< mu_r of the pair (minimum of the two, or the pair's override)
  double twisting_factor;     ///< alpha_rn of the pair (minimum of the two, or the pair's override)
};

/// Values of one material pair that replace the mixing rule (LIGGGHTS's per-type-pair properties), e.g. a
/// wall-particle restitution of its own; an unset value keeps the rule.
struct PairOverride {
  std::optional<double> restitution, friction, rolling_friction, twisting_factor;
};

/// The pair overrides of an engine, by unordered pair of material indices.
class PairOverrides {
 public:
  /// Sets (replaces) the override of materials a and b; throws InputError naming the key and the pair when a
  /// value is out of range (the same ranges as Material::validate).
  void set(int a, int b, const PairOverride& values);
  /// The override of the pair, or nullptr.
  const PairOverride* find(int a, int b) const;
  const std::map<std::pair<int, int>, PairOverride>& all() const { return table_; }
  /// Grows with every set(): engines that cache pair coefficients rebuild them when it changes.
  std::uint64_t revision() const { return revision_; }

 private:
  std::map<std::pair<int, int>, PairOverride> table_;  // key: (min, max) of the two indices
  std::uint64_t revision_ = 0;
};

MaterialPair mix(const Material& a, const Material& b);
/// mix(a, b), then the values the override sets (o may be nullptr).
MaterialPair mix(const Material& a, const Material& b, const PairOverride* o);

/// The engine's material list; particles and walls refer to materials by index.
using MaterialTable = std::vector<Material>;

/// Whether some pair of these materials may resist rolling or twisting: a material or an override with
/// rolling_friction > 0 or twisting_factor > 0 (false means no pair does; true, that one might).
bool may_resist_rolling_or_twisting(const MaterialTable& materials, const PairOverrides& overrides);

}  // namespace grainlab
