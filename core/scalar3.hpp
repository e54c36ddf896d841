#pragma once
// A plain 3-vector of doubles for the innermost contact kernels. Eigen's Vector3d is three doubles too,
// but its expressions on the odd size mix 2-wide packets, scalars and temporaries; in the SDEM pair
// kernel this plain struct takes far fewer instructions (docs/performance.md). It has Eigen's names
// (dot, cross, squaredNorm, norm, Zero), so the contact law templates (core/sdem/contact_law.hpp) run on
// either type.
#include <cmath>

#include "core/math.hpp"

namespace grainlab {

struct S3 {
  double x = 0, y = 0, z = 0;

  S3() = default;
  S3(double x_, double y_, double z_) : x(x_), y(y_), z(z_) {}
  explicit S3(const Vec3& v) : x(v[0]), y(v[1]), z(v[2]) {}
  Vec3 vec() const { return Vec3(x, y, z); }
  void store(Vec3& v) const { v[0] = x, v[1] = y, v[2] = z; }
  static S3 Zero() { return {}; }
  void setZero() { x = y = z = 0; }

  double dot(const S3& o) const { return x * o.x + y * o.y + z * o.z; }
  double squaredNorm() const { return dot(*this); }
  double norm() const { return std::sqrt(squaredNorm()); }
  S3 cross(const S3& o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }

  S3& operator+=(const S3& o) { return x += o.x, y += o.y, z += o.z, *this; }
  S3& operator-=(const S3& o) { return x -= o.x, y -= o.y, z -= o.z, *this; }
  S3& operator*=(double s) { return x *= s, y *= s, z *= s, *this; }
};

inline S3 operator+(S3 a, const S3& b) { return a += b; }
inline S3 operator-(S3 a, const S3& b) { return a -= b; }
inline S3 operator-(const S3& a) { return {-a.x, -a.y, -a.z}; }
inline S3 operator*(double s, S3 a) { return a *= s; }
inline S3 operator*(S3 a, double s) { return a *= s; }
inline S3 operator/(const S3& a, double s) { return {a.x / s, a.y / s, a.z / s}; }

}  // namespace grainlab
