#pragma once
// Parameter checks shared by the shape validators: each throws InputError naming the wall and parameter.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/math.hpp"

namespace grainlab::geometry_detail {

[[noreturn]] inline void fail(const std::string& wall, const std::string& parameter, const std::string& why) {
  throw InputError(fmt::format("wall '{}': {} {}", wall, parameter, why));
}

inline void require_unit(const Vec3& v, const std::string& wall, const std::string& parameter) {
  if (!v.allFinite() || std::abs(v.norm() - 1.0) > 1e-9)
    fail(wall, parameter, fmt::format("must be a unit vector (|v| = {:.6g})", v.norm()));
}

inline void require_finite(const Vec3& v, const std::string& wall, const std::string& parameter) {
  if (!v.allFinite()) fail(wall, parameter, "must be finite");
}

inline void require_positive(double x, const std::string& wall, const std::string& parameter, const char* unit) {
  if (!(x > 0) || std::isnan(x)) fail(wall, parameter, fmt::format("must be > 0 {} (got {})", unit, x));
}

inline void require_positive_finite(double x, const std::string& wall, const std::string& parameter, const char* unit) {
  if (!(x > 0) || !std::isfinite(x)) fail(wall, parameter, fmt::format("must be finite and > 0 {} (got {})", unit, x));
}

}  // namespace grainlab::geometry_detail
