#include "experiments/capped_drum.hpp"

#include "core/geometry/drum.hpp"

namespace grainlab {

void add_capped_drum(World& w, double radius, double width, std::uint16_t shell_material,
                     std::uint16_t cap_material) {
  CylinderShape body;
  body.axis = Vec3::UnitY();
  body.radius = radius;
  body.length = width;
  body.side = CylinderShape::Side::inside;
  Wall shell;
  shell.name = "drum";
  shell.shape = make_smooth_drum(body, Vec3::UnitX(), "drum");
  shell.material = shell_material;
  w.add_wall(shell);
  for (const double side : {-1.0, 1.0}) {
    Wall c;
    c.name = side < 0 ? "cap_lo" : "cap_hi";
    c.shape = PlaneShape{side * 0.5 * width * Vec3::UnitY(), -side * Vec3::UnitY()};
    c.material = cap_material;
    w.add_wall(c);
  }
}

}  // namespace grainlab
