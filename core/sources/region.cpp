#include "core/sources/region.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::sources {

namespace {

struct Frame {
  Vec3 e1, e2, axis;
};
Frame frame_of(const CylinderRegion& c) {
  const Vec3 e1 = any_orthogonal(c.axis);
  return {e1, c.axis.cross(e1), c.axis};
}

}  // namespace

void validate(const Region& region, const std::string& context) {
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, BoxRegion>) {
          if (!r.lo.allFinite() || !r.hi.allFinite()) throw InputError(fmt::format("{}: region.lo/hi is not finite", context));
          for (int k = 0; k < 3; ++k)
            if (!(r.hi[k] > r.lo[k]))
              throw InputError(fmt::format("{}: region.hi[{}] = {} must exceed region.lo[{}] = {}", context, k, r.hi[k], k, r.lo[k]));
        } else {
          if (!r.base.allFinite()) throw InputError(fmt::format("{}: region.base is not finite", context));
          if (!r.axis.allFinite() || std::abs(r.axis.norm() - 1) > 1e-9)
            throw InputError(fmt::format("{}: region.axis must be a unit vector (norm {})", context, r.axis.norm()));
          if (!std::isfinite(r.radius) || r.radius <= 0)
            throw InputError(fmt::format("{}: region.radius = {} is invalid (must be > 0)", context, r.radius));
          if (!std::isfinite(r.height) || r.height <= 0)
            throw InputError(fmt::format("{}: region.height = {} is invalid (must be > 0)", context, r.height));
        }
      },
      region);
}

double volume(const Region& region) {
  return std::visit(
      [](const auto& r) -> double {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, BoxRegion>) return (r.hi - r.lo).prod();
        else return pi * r.radius * r.radius * r.height;
      },
      region);
}

BoxRegion bounds(const Region& region) {
  return std::visit(
      [](const auto& r) -> BoxRegion {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, BoxRegion>) {
          return r;
        } else {
          // A disc of radius R with unit normal a extends R sqrt(1 - a_k^2) along axis k.
          const Vec3 top = r.base + r.height * r.axis;
          Vec3 ext;
          for (int k = 0; k < 3; ++k) ext[k] = r.radius * std::sqrt(std::max(0.0, 1 - r.axis[k] * r.axis[k]));
          return {r.base.cwiseMin(top) - ext, r.base.cwiseMax(top) + ext};
        }
      },
      region);
}

bool contains_sphere(const Region& region, const Vec3& c, double rad) {
  return std::visit(
      [&](const auto& r) -> bool {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, BoxRegion>) {
          return ((c.array() - rad) >= r.lo.array()).all() && ((c.array() + rad) <= r.hi.array()).all();
        } else {
          const Vec3 d = c - r.base;
          const double along = d.dot(r.axis);
          const double radial = (d - along * r.axis).norm();
          return along >= rad && along <= r.height - rad && radial <= r.radius - rad;
        }
      },
      region);
}

bool fits(const Region& region, double rad) {
  return std::visit(
      [&](const auto& r) -> bool {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, BoxRegion>) return ((r.hi - r.lo).array() >= 2 * rad).all();
        else return r.radius >= rad && r.height >= 2 * rad;
      },
      region);
}

Vec3 sample_center(const Region& region, double rad, SourceRng& rng) {
  return std::visit(
      [&](const auto& r) -> Vec3 {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, BoxRegion>) {
          Vec3 c;
          for (int k = 0; k < 3; ++k) c[k] = rng.uniform(r.lo[k] + rad, r.hi[k] - rad);
          return c;
        } else {
          const Frame f = frame_of(r);
          const double rho = (r.radius - rad) * std::sqrt(rng.uniform());  // uniform over the disc area
          const double phi = 2 * pi * rng.uniform();
          const double z = rng.uniform(rad, r.height - rad);
          return r.base + z * f.axis + rho * (std::cos(phi) * f.e1 + std::sin(phi) * f.e2);
        }
      },
      region);
}

}  // namespace grainlab::sources
