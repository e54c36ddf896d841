#pragma once
// Paper II's spiral-gap outlet (000 l.893-901; ledger ../shared/claims/paper2.md E1, P1): Fig. 3, which
// defined the design parameters, is lost. Our construction from the text, in the outlet shell unrolled in
// the drum's turning frame (core/geometry/shell_slots.hpp):
//  - `count` gaps (three), equally spaced around the circumference, starting at the drum/outlet interface;
//  - each gap's bisector is inclined `bisector_deg` (eta = 15 deg) from the drum axis, so a gap winds round
//    the outlet like a spiral and runs its full length (open at the far end);
//  - "inner base width of the gap at the interface to the drum is beta": the width at the interface;
//  - "gap width increases with angle alpha": straight edges opening at alpha each side of the bisector
//    (`half_angle`, width beta + 2 s tan alpha) or alpha between them (`full_angle`, beta + s tan alpha),
//    s the distance along the bisector.
#include <string>
#include <vector>

#include "core/geometry/shell_slots.hpp"

namespace grainlab {

struct OutletDesign {
  double gap_angle_deg = 0.2;       ///< alpha (000 l.901, Table 1)
  double gap_base_width = 0.048;    ///< beta, m
  double bisector_deg = 15;         ///< eta (000 l.901)
  int count = 3;                    ///< gaps (000 l.901)
  std::string alpha_convention = "half_angle";  ///< half_angle | full_angle (ledger P1)
};

/// The slots of `design` on an outlet shell of radius R and length `length`, the outlet's axial centre at
/// z = 0 (slots start at z = -length/2). Throws InputError naming the design parameter when invalid.
std::vector<ShellSlot> outlet_slots(const OutletDesign& design, double R, double length);

/// Gap width at distance s along the bisector (m).
double gap_width(const OutletDesign& design, double s);

}  // namespace grainlab
