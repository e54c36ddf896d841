#pragma once
// Regions that particle sources fill: an axis-aligned box or a finite solid cylinder with any axis.
// A sphere is "inside" a region when it lies entirely within it.
// Threading: pure functions.
#include <string>
#include <variant>

#include "core/math.hpp"
#include "core/sources/source_rng.hpp"

namespace grainlab::sources {

struct BoxRegion {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Ones();
};

struct CylinderRegion {
  Vec3 base = Vec3::Zero();     ///< centre of the bottom disc
  Vec3 axis = Vec3::UnitZ();    ///< unit axis, from the base towards the top
  double radius = 1.0;          ///< m
  double height = 1.0;          ///< m
};

using Region = std::variant<BoxRegion, CylinderRegion>;

/// Throws InputError naming `context` and the parameter (region.lo/hi, region.radius, ...) when invalid.
void validate(const Region& region, const std::string& context);
double volume(const Region& region);
/// The axis-aligned bounding box.
BoxRegion bounds(const Region& region);
/// True when the sphere (centre c, radius r) lies entirely inside the region.
bool contains_sphere(const Region& region, const Vec3& c, double r);
/// True when a sphere of radius r fits inside the region at all.
bool fits(const Region& region, double r);
/// A centre drawn uniformly from the points where a sphere of radius r lies inside (requires fits()).
Vec3 sample_center(const Region& region, double r, SourceRng& rng);

}  // namespace grainlab::sources
