// Coarse-grained vertical stress and wall strip pressure (see axial_stress.hpp).
#include "core/io/axial_stress.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::io {

namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double normal_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * pi); }
/// Antiderivative of the normal CDF: d/dx (x Phi(x) + phi(x)) = Phi(x).
double cdf_integral(double x) { return x * normal_cdf(x) + normal_pdf(x); }

/// Part [s0, s1] of the branch parameter s in [0, 1] where from + s b lies radially within R of the
/// axis; false when none.
bool radial_interval(const Branch& br, const AxialSlices& s, double& s0, double& s1) {
  const Eigen::Vector2d q0(br.from.x() - s.axis_point.x(), br.from.y() - s.axis_point.y());
  const Eigen::Vector2d qb(br.to.x() - br.from.x(), br.to.y() - br.from.y());
  const double a = qb.squaredNorm(), beta = q0.dot(qb), c = q0.squaredNorm() - s.radius * s.radius;
  if (a <= 1e-300) {
    s0 = 0, s1 = 1;
    return c <= 0;
  }
  const double disc = beta * beta - a * c;
  if (disc < 0) return false;
  const double root = std::sqrt(disc);
  s0 = std::max(0.0, (-beta - root) / a);
  s1 = std::min(1.0, (-beta + root) / a);
  return s1 > s0;
}

/// int_{s0}^{s1} Phi((Z - zeta0 - s bz) / w) ds for w > 0.
double integrated_cdf(double Z, double zeta0, double bz, double w, double s0, double s1) {
  const double u0 = (Z - zeta0 - s0 * bz) / w, u1 = (Z - zeta0 - s1 * bz) / w;
  if (std::abs(bz) * (s1 - s0) < 1e-7 * w) return normal_cdf(0.5 * (u0 + u1)) * (s1 - s0);
  return -(w / bz) * (cdf_integral(u1) - cdf_integral(u0));
}

/// Length of {s in [s0, s1] : za <= zeta0 + s bz <= zb}.
double length_in_slab(double za, double zb, double zeta0, double bz, double s0, double s1) {
  if (std::abs(bz) < 1e-300) return (zeta0 >= za && zeta0 <= zb) ? s1 - s0 : 0.0;
  double lo = (za - zeta0) / bz, hi = (zb - zeta0) / bz;
  if (lo > hi) std::swap(lo, hi);
  return std::max(0.0, std::min(hi, s1) - std::max(lo, s0));
}

}  // namespace

std::vector<double> axial_stress_zz(std::span<const Branch> branches, const AxialSlices& s) {
  if (!(s.radius > 0) || !std::isfinite(s.radius))
    throw InputError(fmt::format("axial stress: radius = {} is invalid (must be > 0)", s.radius));
  if (!(s.slice_height > 0) || !std::isfinite(s.slice_height))
    throw InputError(fmt::format("axial stress: slice_height = {} is invalid (must be > 0)", s.slice_height));
  if (s.slices < 1) throw InputError(fmt::format("axial stress: slices = {} is invalid (must be >= 1)", s.slices));
  if (!(s.kernel_width >= 0) || !std::isfinite(s.kernel_width))
    throw InputError(fmt::format("axial stress: kernel_width = {} is invalid (must be >= 0)", s.kernel_width));
  const double area = pi * s.radius * s.radius, dz = s.slice_height, w = s.kernel_width;
  std::vector<double> sigma(std::size_t(s.slices), 0.0);
  for (const Branch& br : branches) {
    const Vec3 b = br.to - br.from;
    const double weight = br.force.z() * b.z();
    if (weight == 0) continue;
    double s0, s1;
    if (!radial_interval(br, s, s0, s1)) continue;
    // Slices the branch (smoothed by 8 w) can reach.
    const double zlo = std::min(br.from.z(), br.to.z()) - 8 * w, zhi = std::max(br.from.z(), br.to.z()) + 8 * w;
    const int k0 = std::max(0, int(std::floor((zlo - s.z0) / dz)));
    const int k1 = std::min(s.slices - 1, int(std::floor((zhi - s.z0) / dz)));
    for (int k = k0; k <= k1; ++k) {
      const double za = s.z0 + k * dz, zb = za + dz;
      const double part = w > 0 ? integrated_cdf(zb, br.from.z(), b.z(), w, s0, s1) -
                                      integrated_cdf(za, br.from.z(), b.z(), w, s0, s1)
                                : length_in_slab(za, zb, br.from.z(), b.z(), s0, s1);
      sigma[std::size_t(k)] += weight * part / (dz * area);
    }
  }
  return sigma;
}

std::vector<Branch> contact_branches(const World& world) {
  const auto& contacts = world.contacts();
  const auto& x = world.particles.position;
  std::vector<Branch> out;
  out.reserve(contacts.size());
  for (const Contact& c : contacts) {
    if (!(c.overlap > 0)) continue;
    out.push_back({c.is_wall() ? c.point : x[std::size_t(c.b)], x[std::size_t(c.a)], c.force});
  }
  return out;
}

std::vector<double> wall_strip_pressure(const World& world, int wall, double z0, double slice_height, int slices,
                                        double strip_area) {
  if (!(slice_height > 0)) throw InputError(fmt::format("wall strips: slice_height = {} is invalid (must be > 0)", slice_height));
  if (slices < 1) throw InputError(fmt::format("wall strips: slices = {} is invalid (must be >= 1)", slices));
  if (!(strip_area > 0)) throw InputError(fmt::format("wall strips: strip_area = {} is invalid (must be > 0)", strip_area));
  std::vector<double> p(std::size_t(slices), 0.0);
  for (const Contact& c : world.contacts()) {
    if (!c.is_wall() || c.wall_index() != wall || !(c.overlap > 0)) continue;
    const int k = int(std::floor((c.point.z() - z0) / slice_height));
    if (k < 0 || k >= slices) continue;
    p[std::size_t(k)] += c.force.dot(c.normal) / strip_area;  // normal points from the wall to the particle
  }
  return p;
}

}  // namespace grainlab::io
