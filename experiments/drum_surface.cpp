// Drum surface measures: see drum_surface.hpp.
#include "experiments/drum_surface.hpp"

#include <cmath>
#include <limits>

namespace grainlab {

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double deg = 180.0 / pi;
}  // namespace

double paper_angle_deg(double a, double b) {
  const double t = std::atan2(a, b) * deg;
  return t < 0 ? t + 360.0 : t;
}

SurfaceFit fit_free_surface(const SectionGrid& g, const std::vector<double>& density, double threshold,
                            double radius, double wall_margin) {
  std::vector<double> as, bs;
  const double inner = radius - wall_margin;
  for (int i = 0; i < g.na; ++i) {
    for (int j = g.nb - 2; j >= 0; --j) {
      const double lo = density[g.index(i, j)], hi = density[g.index(i, j + 1)];
      if (lo < threshold) continue;
      // hi < threshold <= lo: the crossing lies between node j and j + 1.
      const double b = g.b(j) + (lo - threshold) / (lo - hi) * g.cell, a = g.a(i);
      if (a * a + b * b <= inner * inner) {
        as.push_back(a);
        bs.push_back(b);
      }
      break;
    }
  }
  SurfaceFit f;
  f.points = int(as.size());
  if (f.points < 3) return f;
  double ma = 0, mb = 0;
  for (std::size_t k = 0; k < as.size(); ++k) ma += as[k], mb += bs[k];
  ma /= double(as.size());
  mb /= double(as.size());
  double saa = 0, sab = 0;
  for (std::size_t k = 0; k < as.size(); ++k) saa += (as[k] - ma) * (as[k] - ma), sab += (as[k] - ma) * (bs[k] - mb);
  if (!(saa > 0)) return f;
  f.valid = true;
  f.slope = sab / saa;
  f.b0 = mb - f.slope * ma;
  f.angle_deg = std::atan(f.slope) * deg;
  double rss = 0;
  for (std::size_t k = 0; k < as.size(); ++k) {
    const double r = bs[k] - f.b0 - f.slope * as[k];
    rss += r * r / (1 + f.slope * f.slope);
  }
  f.rms_residual = std::sqrt(rss / double(as.size()));
  // Wall crossings: (1 + k^2) a^2 + 2 k b0 a + b0^2 - R^2 = 0.
  const double qa = 1 + f.slope * f.slope, qb = 2 * f.slope * f.b0, qc = f.b0 * f.b0 - radius * radius;
  const double disc = qb * qb - 4 * qa * qc;
  if (disc < 0) {
    f.theta1_deg = f.theta2_deg = f.chord_angle_deg = nan;
    return f;
  }
  const double a1 = (-qb + std::sqrt(disc)) / (2 * qa), a2 = (-qb - std::sqrt(disc)) / (2 * qa);
  f.theta1_deg = paper_angle_deg(a1, f.b0 + f.slope * a1);
  f.theta2_deg = paper_angle_deg(a2, f.b0 + f.slope * a2);
  f.chord_angle_deg = 180.0 - 0.5 * (f.theta1_deg + f.theta2_deg);
  return f;
}

SurfaceLayer surface_layer(const SectionFrame& frame, const SurfaceFit& fit, std::span<const Vec3> position,
                           std::span<const Vec3> velocity, double layer, double theta3_deg, double theta4_deg) {
  SurfaceLayer s;
  if (!fit.valid) {
    s.v_perp = s.v_axial = s.speed = nan;
    return s;
  }
  const Vec3 e3 = frame.e3();
  const double norm = std::sqrt(1 + fit.slope * fit.slope);
  double perp = 0, axial = 0, speed = 0;
  for (std::size_t k = 0; k < position.size(); ++k) {
    const Vec3 d = position[k] - frame.origin;
    const double a = d.dot(frame.e1), b = d.dot(frame.e2);
    if (std::abs(fit.b0 + fit.slope * a - b) / norm > layer) continue;
    const double theta = paper_angle_deg(a, b);
    if (theta < theta3_deg || theta > theta4_deg) continue;
    const Vec3& v = velocity[k];
    perp += std::hypot(v.dot(frame.e1), v.dot(frame.e2));
    axial += v.dot(e3);
    speed += v.norm();
    ++s.particles;
  }
  if (s.particles == 0) {
    s.v_perp = s.v_axial = s.speed = nan;
    return s;
  }
  s.v_perp = perp / s.particles;
  s.v_axial = axial / s.particles;
  s.speed = speed / s.particles;
  return s;
}

PlugZone plug_zone(const SectionGrid& g, const std::vector<double>& density, const std::vector<Vec3>& velocity,
                   double threshold, double omega, double plug_tolerance) {
  double bed = 0, plug = 0, axial = 0, shear_axial = 0;
  for (int j = 0; j < g.nb; ++j)
    for (int i = 0; i < g.na; ++i) {
      const std::size_t k = g.index(i, j);
      if (density[k] < threshold || !std::isfinite(velocity[k].x())) continue;
      // Rigid co-rotation at (a, b): omega e3 x (a e1 + b e2) = (-omega b, omega a).
      const double du = velocity[k].x() + omega * g.b(j), dv = velocity[k].y() - omega * g.a(i);
      const bool co_rotating = std::hypot(du, dv) <= plug_tolerance;
      bed += density[k];
      axial += density[k] * velocity[k].z();
      if (co_rotating) plug += density[k];
      else shear_axial += density[k] * velocity[k].z();
    }
  PlugZone z;
  z.plug_fraction = bed > 0 ? plug / bed : nan;
  z.shear_axial_share = axial != 0 ? shear_axial / axial : nan;
  return z;
}

}  // namespace grainlab
