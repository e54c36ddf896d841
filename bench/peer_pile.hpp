#pragma once
// The settled random pile that the Bullet peer runs (bench/peers/bullet_pgs.cpp, `settle NX NZ`), as a
// grainlab World, so that the NDEM benchmarks and Bullet time the same scene.
//
// Scene (bullet_pgs.cpp's header): spheres r = 5 mm, density 2500 kg/m^3, friction 0.7, restitution 0,
// g = 9.81 m/s^2, a square box of side L = NX * 12 mm (floor and four side walls). The pile starts as a
// jittered simple-cubic lattice (spacing 12 mm, jitter +-0.9 mm per axis, NX x NX x NZ) that falls and
// settles. Bullet is rigid; NDEM needs a stiffness for its compliance: E = 5 MPa, nu = 0.25 (the SDEM
// bed's glass, bench/sdem_bed.cpp), which leaves the bottom contacts of a 25-layer pile at ~1.5 % of d.
//
// Source of the pile, first found wins (both cached under bench_data/, GRAINLAB_BENCH_DATA overrides):
//   bench_data/bullet/pile<N>.bin   Bullet's own settled pile (bench/peers/run_pgs_side_by_side.sh makes it)
//   bench_data/ndem_pile<N>.bin     the same recipe settled by NDEM (made here when neither exists: the
//                                   lattice falls 500 steps of 1 ms at 10 iterations, then 100 steps of
//                                   5 ms at 50 iterations, as bullet_pgs settle does)
// Both use Bullet's file format: int32 N, then N records of 7 doubles (x, y, z, quaternion x, y, z, w)
// with y up; grainlab's z is Bullet's y (a mirror image, which a pile of spheres does not notice).
//
// `tiled_pile` repeats a pile side by side (tx x ty copies of its box, one outer box around them): the
// way to a 10^6-sphere settled bed without settling a million spheres. Spheres that touched the inner
// walls now touch their neighbours' spheres at the seams instead.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/ndem/ndem_stepper.hpp"
#include "core/world.hpp"

namespace grainlab::bench {

constexpr double pile_radius = 0.005;
constexpr double pile_spacing = 0.012;

inline std::filesystem::path data_dir() {
  if (const char* env = std::getenv("GRAINLAB_BENCH_DATA")) return env;
  return "bench_data";  // relative to the working directory: build/ under `make bench`
}

inline Material pile_material(double rolling_friction) {
  Material m;
  m.name = "glass";
  m.density = 2500;
  m.youngs_modulus = 5e6;
  m.poisson_ratio = 0.25;
  m.restitution = 0;
  m.friction = 0.7;
  m.rolling_friction = rolling_friction;
  return m;
}

/// Empty open box of side `side` (floor and four side walls, all of material `m`) under g = 9.81 m/s^2:
/// the scene of both peers (LIGGGHTS' in.settle and bullet_pgs).
inline World open_box(double side, const Material& m) {
  World w;
  const std::uint16_t mi = w.add_material(m);
  w.gravity.g = Vec3(0, 0, -9.81);
  auto plane = [&](const char* name, Vec3 point, Vec3 normal) {
    Wall wall;
    wall.name = name;
    wall.shape = PlaneShape{point, normal};
    wall.material = mi;
    w.add_wall(std::move(wall));
  };
  plane("floor", Vec3::Zero(), Vec3::UnitZ());
  plane("x0", Vec3::Zero(), Vec3::UnitX());
  plane("x1", Vec3(side, 0, 0), -Vec3::UnitX());
  plane("y0", Vec3::Zero(), Vec3::UnitY());
  plane("y1", Vec3(0, side, 0), -Vec3::UnitY());
  return w;
}

inline World pile_box(double side, double rolling_friction) { return open_box(side, pile_material(rolling_friction)); }

inline bool read_pile(const std::filesystem::path& file, std::vector<Vec3>& x) {
  std::ifstream in(file, std::ios::binary);
  std::int32_t n = 0;
  if (!in.read(reinterpret_cast<char*>(&n), sizeof n) || n <= 0 || n > 10'000'000) return false;
  x.resize(std::size_t(n));
  for (auto& p : x) {
    double v[7];
    if (!in.read(reinterpret_cast<char*>(v), sizeof v)) return false;
    p = Vec3(v[0], v[2], v[1]);
  }
  return true;
}

inline void write_pile(const std::filesystem::path& file, const std::vector<Vec3>& x) {
  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    const std::int32_t n = std::int32_t(x.size());
    out.write(reinterpret_cast<const char*>(&n), sizeof n);
    for (const Vec3& p : x) {
      const double v[7] = {p.x(), p.z(), p.y(), 0, 0, 0, 1};
      out.write(reinterpret_cast<const char*>(v), sizeof v);
    }
  }
  std::filesystem::rename(tmp, file);
}

inline std::vector<Vec3> settle_pile_with_ndem(int nx, int nz) {
  World w = pile_box(nx * pile_spacing, 0.0);
  std::mt19937 rng(15485863);
  std::uniform_real_distribution<double> jitter(-0.0009, 0.0009);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < nx; ++j)
      for (int i = 0; i < nx; ++i) {
        const Vec3 site((i + 0.5) * pile_spacing, (j + 0.5) * pile_spacing, (k + 0.5) * pile_spacing);
        w.add_sphere(site + Vec3(jitter(rng), jitter(rng), jitter(rng)), pile_radius, 0);
      }
  std::fprintf(stderr, "settling a %d x %d x %d pile with NDEM (once; cached)...\n", nx, nx, nz);
  NdemSettings fall;
  fall.time_step = 0.001;
  fall.iterations = 10;
  NdemStepper falling(fall);
  for (int step = 0; step < 500; ++step) falling.step(w);
  NdemSettings rest;
  rest.time_step = 0.005;
  rest.iterations = 50;
  NdemStepper resting(rest);
  for (int step = 0; step < 100; ++step) resting.step(w);
  std::fprintf(stderr, "  settled: KE %.3e J\n", w.particles.kinetic_energy());
  return w.particles.position;
}

/// Positions of the settled NX x NX x NZ pile (Bullet's if present, else NDEM's, settled once).
inline const std::vector<Vec3>& settled_pile(int nx, int nz) {
  static std::vector<Vec3> piles[2];
  std::vector<Vec3>& x = piles[nx * nx * nz >= 100000 ? 1 : 0];
  if (!x.empty()) return x;
  const std::string name = std::to_string(nx * nx * nz / 1000) + "k.bin";
  if (read_pile(data_dir() / "bullet" / ("pile" + name), x)) return x;
  if (read_pile(data_dir() / ("ndem_pile" + name), x)) return x;
  x = settle_pile_with_ndem(nx, nz);
  write_pile(data_dir() / ("ndem_pile" + name), x);
  return x;
}

/// `tx` x `ty` copies of the pile (box side `side`) in one box, at rest.
inline World tiled_pile(const std::vector<Vec3>& x, double side, int tx, int ty, double rolling_friction) {
  World w = pile_box(side * std::max(tx, ty), rolling_friction);
  w.particles.reserve(x.size() * std::size_t(tx * ty));
  for (int b = 0; b < ty; ++b)
    for (int a = 0; a < tx; ++a)
      for (const Vec3& p : x) w.add_sphere(p + Vec3(a * side, b * side, 0), pile_radius, 0);
  return w;
}

}  // namespace grainlab::bench
