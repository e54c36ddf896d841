#pragma once
// What the thesis reads off a QS silo filling (Gavrilov 1999 Sec. 4.6, seed 002 l.1474-1525) and the
// invariants that make it trustworthy (ledger G-C26, G-C27): equilibrium residual, tension and friction
// excess; |Z K - I|; RIMA against a sparse Cholesky of the same K; wall pressure per window of 10 radii
// (002 l.1521) with the 2-D Janssen fit of ledger G-C33; slide energy by wall/interior and by height
// (G-C32); slide locations (G-C30); force-chain orientation against the heap slope (G-C29).
#include <vector>

#include "core/quasistatic/silo_fill.hpp"

namespace grainlab::quasistatic {

struct Equilibrium {
  double relative_residual = 0;    ///< |K D - F_tot| / |F_ext|, K assembled directly
  double max_tension = 0;          ///< max(0, -min s_eta), N
  double max_friction_excess = 0;  ///< max(0, max |s_tau| - mu s_eta), N
};
Equilibrium equilibrium(const SiloFill& fill);
/// max |Z K - I| (K assembled from the links).
double identity_error(const SiloFill& fill);
/// max over links of |s(RIMA) - s(Cholesky)| / max |s| (both components): "identical stresses".
double cholesky_difference(const SiloFill& fill);

/// Fill height: the top of the highest disk, m.
double fill_height(const SiloFill& fill);

struct WallPressure {
  std::vector<double> depth;     ///< window centre below the fill top, m (ascending)
  std::vector<double> pressure;  ///< mean of both walls: sum of wall-link s_eta / window height, N/m
  std::vector<double> left, right;
};
/// Windows of `window` height from the floor; only windows wholly below the fill top.
WallPressure wall_pressure(const SiloFill& fill, double window);

struct JanssenK {
  double k = 0, r2 = 0;  ///< fitted K and R^2 of p = rho_b g W/(2 mu_w) (1 - exp(-2 mu_w K z / W))
  double saturation = 0; ///< rho_b g W / (2 mu_w), N/m
};
/// The 2-D Janssen law with two walls (ledger G-C33), K the only free parameter (golden section in log K).
JanssenK fit_janssen_k(const WallPressure& p, double bulk_areal_density, double gravity, double width,
                       double wall_friction);

struct SlideEnergy {
  double total = 0, wall_share = 0, wall_link_share = 0;
  double interior_slope = 0, interior_slope_se = 0;  ///< interior E_slide per area vs height (J/m^2 per m)
};
SlideEnergy slide_energy(const SiloFill& fill, double window);

struct SlideLocations {
  int events = 0;
  double near_new_enrichment = 0;   ///< fraction of slides near the new disk / the links' fraction there
  double near_wall_enrichment = 0;  ///< fraction of slides near a side wall / the links' fraction there
};
SlideLocations slide_locations(const SiloFill& fill);

struct ChainAngles {
  double chain_mode_deg = 0, chain_median_deg = 0;  ///< top 10 % normal-force disk links, from horizontal
  double repose_deg = 0;                            ///< heap surface slope, both flanks
};
ChainAngles chain_angles(const SiloFill& fill);

}  // namespace grainlab::quasistatic
