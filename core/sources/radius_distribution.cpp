#include "core/sources/radius_distribution.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::sources {

RadiusDistribution RadiusDistribution::mono(double r) {
  RadiusDistribution d;
  d.kind = Kind::mono;
  d.radius = r;
  return d;
}
RadiusDistribution RadiusDistribution::bidisperse(double r1, double r2, double fraction1) {
  RadiusDistribution d;
  d.kind = Kind::bidisperse;
  d.radius_1 = r1;
  d.radius_2 = r2;
  d.fraction_1 = fraction1;
  return d;
}
RadiusDistribution RadiusDistribution::uniform(double min, double max) {
  RadiusDistribution d;
  d.kind = Kind::uniform;
  d.radius_min = min;
  d.radius_max = max;
  return d;
}
RadiusDistribution RadiusDistribution::normal(double mean, double stddev, double min, double max) {
  RadiusDistribution d;
  d.kind = Kind::normal;
  d.radius_mean = mean;
  d.radius_stddev = stddev;
  d.radius_min = min;
  d.radius_max = max;
  return d;
}

void RadiusDistribution::validate(const std::string& context) const {
  auto fail = [&](const char* key, double value, const char* rule) {
    throw InputError(fmt::format("{}: {} = {} is invalid ({})", context, key, value, rule));
  };
  auto positive = [&](const char* key, double v) {
    if (!std::isfinite(v) || v <= 0) fail(key, v, "must be > 0");
  };
  switch (kind) {
    case Kind::mono: positive("radius", radius); break;
    case Kind::bidisperse:
      positive("radius_1", radius_1);
      positive("radius_2", radius_2);
      if (!std::isfinite(fraction_1) || fraction_1 < 0 || fraction_1 > 1) fail("fraction_1", fraction_1, "must be in [0, 1]");
      break;
    case Kind::uniform:
      positive("radius_min", radius_min);
      positive("radius_max", radius_max);
      if (radius_max < radius_min) fail("radius_max", radius_max, "must be >= radius_min");
      break;
    case Kind::normal:
      positive("radius_min", radius_min);
      positive("radius_max", radius_max);
      if (radius_max < radius_min) fail("radius_max", radius_max, "must be >= radius_min");
      if (!std::isfinite(radius_stddev) || radius_stddev < 0) fail("radius_stddev", radius_stddev, "must be >= 0");
      // Keeps the rejection sampler's acceptance probability above ~1/2 when stddev is large and
      // exactly 1 when it is zero.
      if (!std::isfinite(radius_mean) || radius_mean < radius_min || radius_mean > radius_max)
        fail("radius_mean", radius_mean, "must lie in [radius_min, radius_max]");
      break;
  }
}

double RadiusDistribution::sample(SourceRng& rng) const {
  switch (kind) {
    case Kind::mono: return radius;
    case Kind::bidisperse: return rng.uniform() < fraction_1 ? radius_1 : radius_2;
    case Kind::uniform: return rng.uniform(radius_min, radius_max);
    case Kind::normal: {
      if (radius_stddev == 0 || radius_max == radius_min) return std::clamp(radius_mean, radius_min, radius_max);
      for (int attempt = 0; attempt < 100000; ++attempt) {
        const double r = radius_mean + radius_stddev * rng.normal();
        if (r >= radius_min && r <= radius_max) return r;
      }
      throw InputError(fmt::format("radius distribution: [radius_min, radius_max] = [{}, {}] is too narrow for "
                                   "radius_stddev = {}: no radius accepted in 100000 draws",
                                   radius_min, radius_max, radius_stddev));
    }
  }
  return radius;
}

double RadiusDistribution::smallest() const {
  switch (kind) {
    case Kind::mono: return radius;
    case Kind::bidisperse:
      return fraction_1 >= 1 ? radius_1 : fraction_1 <= 0 ? radius_2 : std::min(radius_1, radius_2);
    default: return radius_min;
  }
}

double RadiusDistribution::largest() const {
  switch (kind) {
    case Kind::mono: return radius;
    case Kind::bidisperse:
      return fraction_1 >= 1 ? radius_1 : fraction_1 <= 0 ? radius_2 : std::max(radius_1, radius_2);
    default: return radius_max;
  }
}

}  // namespace grainlab::sources
