#pragma once
// Small dense algebra used throughout the engine: Eigen fixed-size types, double precision, SI units.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace grainlab {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

inline constexpr double pi = 3.14159265358979323846;

// Any unit vector orthogonal to n (n must be unit length); deterministic, no branches on noise.
inline Vec3 any_orthogonal(const Vec3& n) {
  const Vec3 a = std::abs(n.x()) < 0.57735 ? Vec3::UnitX() : (std::abs(n.y()) < 0.57735 ? Vec3::UnitY() : Vec3::UnitZ());
  return n.cross(a).normalized();
}

}  // namespace grainlab
