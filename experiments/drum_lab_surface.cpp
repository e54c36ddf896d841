// Lab-frame drum surface and plug creep: see drum_lab_surface.hpp.
#include "experiments/drum_lab_surface.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {
namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

bool away_from_wall(const LabSurface& s, std::size_t k, double wall_margin) {
  return std::isfinite(s.height[k]) && std::abs(s.a[k]) <= s.radius - wall_margin;
}
}  // namespace

Vec3 lab_horizontal(const DrumProbe& probe) { return probe.axis.cross(probe.down).normalized(); }

LabSurface lab_surface(const DrumProbe& probe, std::span<const Vec3> position, std::span<const double> radius,
                       double bin_width) {
  if (!(bin_width > 0)) throw InputError(fmt::format("lab_surface: bin_width = {} m must be > 0", bin_width));
  const Vec3 h = lab_horizontal(probe), up = -probe.down;
  LabSurface s;
  s.radius = probe.radius;
  const std::size_t bins = std::size_t(std::ceil(2 * probe.radius / bin_width));
  s.height.assign(bins, nan);
  s.a.resize(bins);
  for (std::size_t k = 0; k < bins; ++k) s.a[k] = (double(k) + 0.5) * bin_width - probe.radius;
  for (std::size_t i = 0; i < position.size(); ++i) {
    const Vec3 d = position[i] - probe.centre;
    const double a = d.dot(h) + probe.radius;
    if (!(a >= 0) || a >= double(bins) * bin_width) continue;
    double& top = s.height[std::size_t(a / bin_width)];
    const double z = d.dot(up) + radius[i];
    if (!(top >= z)) top = z;  // NaN (empty) or lower
  }
  return s;
}

double max_surface_slope_deg(const LabSurface& s, int base, double wall_margin) {
  if (base < 1) throw InputError(fmt::format("max_surface_slope_deg: base = {} bins must be >= 1", base));
  double steepest = nan;
  for (std::size_t i = 0; i + std::size_t(base) < s.a.size(); ++i) {
    const std::size_t j = i + std::size_t(base);
    if (!away_from_wall(s, i, wall_margin) || !away_from_wall(s, j, wall_margin)) continue;
    const double angle = std::atan(std::abs(s.height[j] - s.height[i]) / (s.a[j] - s.a[i])) * 180 / pi;
    if (!(steepest >= angle)) steepest = angle;
  }
  return steepest;
}

double lift_height(const LabSurface& s) {
  double top = nan;
  for (double z : s.height)
    if (std::isfinite(z) && !(top >= z)) top = z;
  return top;
}

SurfaceLine fit_lab_surface(const LabSurface& s, double wall_margin) {
  double n = 0, sa = 0, sz = 0, saa = 0, saz = 0;
  for (std::size_t k = 0; k < s.a.size(); ++k) {
    if (!away_from_wall(s, k, wall_margin)) continue;
    n += 1;
    sa += s.a[k];
    sz += s.height[k];
    saa += s.a[k] * s.a[k];
    saz += s.a[k] * s.height[k];
  }
  SurfaceLine line;
  const double det = n * saa - sa * sa;
  if (n < 3 || !(det > 0)) return line;
  line.valid = true;
  line.slope = (n * saz - sa * sz) / det;
  line.z0 = (sz - line.slope * sa) / n;
  double sq = 0;
  for (std::size_t k = 0; k < s.a.size(); ++k) {
    if (!away_from_wall(s, k, wall_margin)) continue;
    const double r = s.height[k] - (line.z0 + line.slope * s.a[k]);
    sq += r * r;
  }
  line.rms = std::sqrt(sq / n);
  return line;
}

PlugCreep plug_creep(const DrumProbe& probe, std::span<const Vec3> position, std::span<const Vec3> velocity,
                     double threshold) {
  PlugCreep c{nan, nan};
  if (position.empty() || probe.omega == 0) return c;
  const Vec3 omega = probe.omega * probe.axis;
  const double scale = probe.radius * std::abs(probe.omega);
  std::size_t plug = 0;
  double sum = 0;
  for (std::size_t i = 0; i < position.size(); ++i) {
    const double vr = (velocity[i] - omega.cross(position[i] - probe.centre)).norm() / scale;
    if (vr > threshold) continue;
    ++plug;
    sum += vr;
  }
  c.fraction = double(plug) / double(position.size());
  if (plug > 0) c.creep = sum / double(plug);
  return c;
}

}  // namespace grainlab
