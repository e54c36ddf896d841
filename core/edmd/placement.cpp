#include "core/edmd/placement.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace grainlab::edmd {

std::vector<S3> random_positions(const Cylinder& cylinder, int count, double r, std::mt19937_64& rng, double gap) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double R = cylinder.radius - r * (1 + gap), zlo = r * (1 + gap), zhi = cylinder.height - r * (1 + gap);
  if (R <= 0 || zhi <= zlo) throw InputError("edmd: ball_radius too large for the cylinder");
  const double min2 = 4 * r * r * (1 + gap) * (1 + gap);
  std::vector<S3> out;
  out.reserve(count);
  long tries = 0;
  while (static_cast<int>(out.size()) < count) {
    if (++tries > 1000L * count + 100000)
      throw InputError("edmd: cannot place " + std::to_string(count) + " balls (ball_count too large)");
    const double rho = R * std::sqrt(u(rng)), phi = 2 * M_PI * u(rng);
    const S3 p(rho * std::cos(phi), rho * std::sin(phi), zlo + (zhi - zlo) * u(rng));
    bool free = true;
    for (const S3& q : out)
      if ((q - p).squaredNorm() < min2) {
        free = false;
        break;
      }
    if (free) out.push_back(p);
  }
  return out;
}

S3 random_direction(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    const S3 v(u(rng), u(rng), u(rng));
    const double n2 = v.squaredNorm();
    if (n2 > 1e-6 && n2 <= 1) return v / std::sqrt(n2);
  }
}

}  // namespace grainlab::edmd
