#include "core/ndem/row_residuals.hpp"

#include <cmath>

namespace grainlab {

NdemRowResiduals probe_row_residuals(const NdemRows& rows, const NdemBodies& bodies, const PgsOptions& options) {
  NdemRows probe = rows;
  NdemBodies v = bodies;
  PgsOptions one;
  one.iterations = 1;
  one.omega = options.omega;
  one.cone = options.cone;
  one.colouring = options.colouring;
  solve_continuous(probe, v, one);
  NdemRowResiduals out;
  const std::size_t m = rows.size();
  // |dlambda| / (omega D^{-1}): the kernel's residual of the row before its update (pgs.cpp).
  auto residual = [&](int r, std::size_t c) {
    return std::abs(probe.lambda[r][c] - rows.lambda[r][c]) / (options.omega * rows.inv_diag[r][c]);
  };
  out.normal.resize(m);
  out.friction.resize(2 * m);
  if (rows.rolling) out.rolling.resize(3 * m);
  for (std::size_t c = 0; c < m; ++c) {
    out.normal[c] = residual(0, c);
    for (int r = 0; r < 2; ++r) out.friction[2 * c + r] = residual(1 + r, c);
    if (rows.rolling)
      for (int r = 0; r < 3; ++r) out.rolling[3 * c + r] = residual(3 + r, c);
  }
  return out;
}

}  // namespace grainlab
