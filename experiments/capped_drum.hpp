#pragma once
// A drum turning about the y axis: a smooth cylindrical shell of the given radius and width with open ends
// (wall "drum"), closed by two plane caps at y = -width/2 and +width/2 (walls "cap_lo", "cap_hi"), added to
// the world in that order. The caller sets the walls spinning.
#include <cstdint>

#include "core/world.hpp"

namespace grainlab {

void add_capped_drum(World& w, double radius, double width, std::uint16_t shell_material,
                     std::uint16_t cap_material);

}  // namespace grainlab
