#pragma once
// Particle size distributions for sources: monodisperse, bi-disperse (two radii with a number
// fraction), uniform polydisperse in [min, max], and normal polydisperse truncated to [min, max]
// (drawn by rejection). validate() throws InputError naming the parameter.
// Threading: sample() uses the caller's generator.
#include <string>

#include "core/sources/source_rng.hpp"

namespace grainlab::sources {

struct RadiusDistribution {
  enum class Kind { mono, bidisperse, uniform, normal };
  Kind kind = Kind::mono;
  double radius = 0.005;   ///< mono: the radius, m
  double radius_1 = 0, radius_2 = 0;  ///< bidisperse: the two radii, m
  double fraction_1 = 0.5;            ///< bidisperse: number fraction of radius_1, in [0, 1]
  double radius_min = 0, radius_max = 0;  ///< uniform and normal: the range, m
  double radius_mean = 0, radius_stddev = 0;  ///< normal: before truncation, m

  static RadiusDistribution mono(double r);
  static RadiusDistribution bidisperse(double r1, double r2, double fraction1);
  static RadiusDistribution uniform(double min, double max);
  static RadiusDistribution normal(double mean, double stddev, double min, double max);

  /// Throws InputError "<context>: <parameter> = <value> is invalid (...)" on a bad parameter.
  void validate(const std::string& context = "radius distribution") const;
  double sample(SourceRng& rng) const;
  double smallest() const;  ///< smallest radius it can return
  double largest() const;   ///< largest radius it can return
};

}  // namespace grainlab::sources
