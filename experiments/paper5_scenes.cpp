// Paper V scenes and settings; see paper5_scenes.hpp.
#include "experiments/paper5_scenes.hpp"

namespace grainlab {

Material paper5_material() {
  Material m;
  m.name = "pellet (Paper V Table 1)";
  m.density = 3700;
  m.youngs_modulus = 6.2e6;  // not used by the linear law
  m.poisson_ratio = 0.25;
  m.restitution = 0.18;
  m.friction = 0.91;
  m.rolling_friction = 0.32;
  return m;
}

NdemSettings paper5_ndem_settings(int iterations) {
  NdemSettings s;
  s.time_step = 0.005;
  s.iterations = iterations;
  s.law = NdemContactLaw::linear;
  s.linear_stiffness = 3000.0;
  s.gamma_t = s.gamma_r = 1e-6;
  s.n_s = 2;
  s.impact_epsilon = 0.01;
  return s;
}

World paper5_block_world(const Paper5Block& b) {
  World w;
  w.gravity.g = Vec3(0, 0, -9.81);
  w.add_material(paper5_material());
  Material side = paper5_material();
  side.name = "frictionless side wall";
  side.friction = 0;
  side.rolling_friction = 0;
  const std::uint16_t side_material = w.add_material(side);
  const double d = b.diameter, r = d / 2;
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()};
  w.add_wall(floor);
  if (b.side_walls) {
    const double lx = b.nx * d, ly = b.ny * d;
    const struct {
      const char* name;
      Vec3 point, normal;
    } sides[] = {{"x-", Vec3::Zero(), Vec3::UnitX()},
                 {"x+", Vec3(lx, 0, 0), -Vec3::UnitX()},
                 {"y-", Vec3::Zero(), Vec3::UnitY()},
                 {"y+", Vec3(0, ly, 0), -Vec3::UnitY()}};
    for (const auto& s : sides) {
      Wall wall;
      wall.name = s.name;
      wall.material = side_material;
      wall.shape = PlaneShape{s.point, s.normal};
      w.add_wall(wall);
    }
  }
  for (int k = 0; k < b.nz; ++k)
    for (int j = 0; j < b.ny; ++j)
      for (int i = 0; i < b.nx; ++i) w.add_sphere(Vec3(r + i * d, r + j * d, r + k * d), r, 0);
  return w;
}

}  // namespace grainlab
