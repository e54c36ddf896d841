// Event order fingerprint of the event-driven engine: a hash of the final positions and velocities of
// four scenes (the G-E3 gas, the dense gas, the G-E2 mill from rest and with random start velocities).
// An engine change that keeps every event in the same order prints the same lines; tools/edmd_order_hash.sh
// builds it against a base commit and the work tree and compares.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/edmd/placement.hpp"
#include "core/edmd/system.hpp"

namespace {

using namespace grainlab;

std::uint64_t mix(std::uint64_t h, double d) {  // FNV-1a step over the bits of d
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return (h ^ bits) * 1099511628211ull;
}

struct Scene {
  const char* name;
  double r, gravity, amplitude, frequency, eps_pair, eps_wall, duration;
  int balls;
  bool at_rest;
};

void run(const Scene& s) {
  edmd::Cylinder c;
  c.motion = {s.amplitude, s.frequency};
  edmd::Settings set;
  set.gravity = s.gravity, set.restitution_pair = s.eps_pair, set.restitution_wall = s.eps_wall;
  edmd::System sys(c, set);
  std::mt19937_64 rng(1);
  const double m = 7850 * 4.0 / 3 * M_PI * s.r * s.r * s.r;
  for (const S3& p : edmd::random_positions(c, s.balls, s.r, rng))
    sys.add_ball(p, s.at_rest ? S3() : edmd::random_direction(rng), s.r, m);
  sys.start();
  sys.run_until(s.duration);
  std::uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < sys.size(); ++i) {
    const S3 p = sys.position(i), v = sys.velocity(i);
    for (double d : {p.x, p.y, p.z, v.x, v.y, v.z}) h = mix(h, d);
  }
  std::printf("%-7s collisions=%llu events=%llu hash=%016llx\n", s.name,
              static_cast<unsigned long long>(sys.tally().collisions()),
              static_cast<unsigned long long>(sys.events_processed()), static_cast<unsigned long long>(h));
}

}  // namespace

int main() {
  run({"gas", 0.5e-3, 0, 0, 0, 1, 1, 2.0, 1000, false});
  run({"dense", 2e-3, 0, 0, 0, 1, 1, 2.0, 1000, false});
  run({"mill", 3.2e-3, 9.81, 0.0109, 52.6, 0.98, 0.95, 1.1, 125, true});
  run({"mill_v", 3.2e-3, 9.81, 0.0109, 52.6, 0.98, 0.95, 1.1, 125, false});
}
