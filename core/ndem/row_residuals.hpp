#pragma once
// Per-row residuals of the continuous PGS stage, for residual histograms per constraint type (Paper IV
// Fig. 9, 000 l.1679, 1691: "the residual distribution ... after 1 s using N_it = 100").
//
// The residual of a row is the quantity the solver's mean residual averages (pgs.cpp, record_residuals):
// |dlambda| / (omega D^{-1}) of one Gauss-Seidel row update, i.e. |q - G v - Sigma lambda| for a row
// inside its bounds and the projected residual for a row at a bound (docs/ndem.md; the corrected Eq. 6 of
// Paper IV, ledger P4). Units: scaled normal rows s m/s (s = e_H delta^{e_H-1}), friction m/s, rolling and
// twisting rad/s.
//
// probe_row_residuals runs ONE more sweep of the same kernel on copies of the rows and bodies and reads
// each row's update, so the maths is the solver's own; the mean of its values per type equals the
// recorded mean residual of the next iteration (tests/ndem/row_residuals_test.cpp). Reads rows and bodies,
// writes neither. Serial unless options.colouring is set (then the coloured order, deterministic);
// a random contact order is probed in sequential order; rigid-body rows (options.extra) are left out.
#include <vector>

#include "core/ndem/pgs.hpp"

namespace grainlab {

struct NdemRowResiduals {
  std::vector<double> normal;    ///< one per contact
  std::vector<double> friction;  ///< two per contact (t1, t2), contact-major
  std::vector<double> rolling;   ///< three per contact (r1, r2, twist) when rows.rolling, else empty
};

/// Residual of every row for the multipliers and velocities as they are now (see above).
NdemRowResiduals probe_row_residuals(const NdemRows& rows, const NdemBodies& bodies, const PgsOptions& options);

}  // namespace grainlab
