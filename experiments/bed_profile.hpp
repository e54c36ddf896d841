#pragma once
// Bed profiles on a conveyor belt: from the particles that land on the belt to the numbers the papers
// judge an outlet by. Pure post-processing, no knowledge of the engine; docs/bed_profiles.md.
//
// Paper II (000 l.932-956; ledger ../shared/claims/paper2.md E2, E6, P2-P4):
//  1. frame change (x, y, t) -> (x - v t, y): the belt carries each deposit downstream;
//  2. cellular-automaton surface (000 l.936, Pöschel & Schwager Ch. 6 sandpile rule as the ledger's
//     default): a square grid of cell 2.5 d; each deposit adds its bulk volume (m / rho_s) / packing to its
//     cell; then, until stable, a cell higher than a 4-neighbour by more than cell * tan(repose) gives the
//     neighbour half the excess (no flux across the grid edges);
//  3. Eq. (2): h(y) = the surface averaged along the belt over a window of belt-frame x (one drum period
//     v t_d, or the whole fully covered record);
//  4. Eq. (3): f = (1/N) sum_{n=1..N} w_n (|a_-n| + |a_n|), a_n the unnormalised DFT of the M samples of
//     h(y), N = 20, w_n = 2^(1-n) (the printed 2^(n-1) grows with n: an erratum, ledger P2; kept as an
//     option to show it).
// Paper III (000 l.1343-1352, 1398-1400; ledger ../shared/claims/paper3.md E7):
//  Eq. (13) time average, Eq. (14) sigma_h, Eq. (15) sigma_{h - h_bar} of equally spaced samples (the
//  integrals are midpoint sums).
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace grainlab {

/// One particle that reached the belt.
struct BeltDeposit {
  double x = 0;     ///< m, along the belt's motion, lab frame, where the particle landed
  double y = 0;     ///< m, across the belt (= along the drum/outlet axis), measured from one belt edge
  double t = 0;     ///< s, when it landed (the belt has moved v t since t = 0)
  double mass = 0;  ///< kg
};

/// The belt and the cellular automaton on it (Paper II 000 l.936: cell 2.5 d, 35 deg, packing 0.7).
struct BeltSurfaceSettings {
  double belt_speed = 0.25;        ///< m/s, v of the frame change x - v t (000 l.899)
  double y_min = 0, y_max = 1.0;   ///< m, the belt's edges across y (width 1.0 m, 000 l.899)
  double cell_size = 0.025;        ///< m, square CA cell (2.5 d with d = 10 mm)
  double repose_angle_deg = 35;    ///< deg, friction angle of the toppling rule
  double packing_ratio = 0.7;      ///< bulk solid fraction of the bed
  double solid_density = 2500;     ///< kg/m^3, turns a deposit's mass into its volume
  double tolerance = 1e-7;         ///< m, relaxation stops when no slope exceeds the threshold by more
};

/// Bed height on the belt grid, belt frame. Cell (i, j) covers x in [x0 + i c, x0 + (i+1) c) and
/// y in [y0 + j c, ...); h is stored row by row along x: h[i * ny + j].
struct BeltSurface {
  double x0 = 0, y0 = 0, cell = 0;
  std::size_t nx = 0, ny = 0;
  std::vector<double> h;           ///< m
  std::size_t dropped = 0;         ///< deposits outside [y_min, y_max) (counted, not deposited)
  std::size_t relaxation_sweeps = 0;
  double at(std::size_t i, std::size_t j) const { return h[i * ny + j]; }
};

/// Steps 1-2: deposit every particle in the belt frame, then relax. The grid spans the deposits along x plus a
/// margin that grows until the settled bed stays clear of the grid's x ends.
/// Throws InputError for non-positive cell, density, packing, an angle outside (0, 90) deg, y_max <= y_min.
BeltSurface cellular_automaton_surface(std::span<const BeltDeposit> deposits, const BeltSurfaceSettings& s);

/// Step 3, Eq. (2): h(y) per y cell, the mean over the cells whose centre lies in [x_from, x_to] (belt
/// frame). Throws InputError when no cell centre lies in the window.
std::vector<double> time_averaged_profile(const BeltSurface& surface, double x_from, double x_to);

/// The samples of h(y) whose cell centre y0 + (j + 1/2) dy lies in [y_from, y_to] (ledger option B: the
/// outlet's projection [0.15, 0.9] m instead of the whole belt, option A).
std::vector<double> profile_window(std::span<const double> h, double y0, double dy, double y_from, double y_to);

enum class ModeWeights {
  decaying,    ///< w_n = 2^(1-n): what the text means ("decaying", 000 l.947)
  as_printed,  ///< w_n = 2^(n-1): the printed formula (erratum, ledger P2)
  uniform      ///< w_n = 1: a perturbation (no weighting)
};
ModeWeights mode_weights_from_text(const std::string& name);  ///< "decaying" | "as_printed" | "uniform"

struct FftObjectiveSettings {
  int modes = 20;                              ///< N of Eq. (3) (000 l.952)
  ModeWeights weights = ModeWeights::decaying;
};

struct FftObjective {
  double f = 0;                    ///< m, Eq. (3)
  std::vector<double> magnitude;   ///< |a_n| for n = 0..N (unnormalised DFT; |a_n|/(M/2) = cosine amplitude)
  double largest_mode_ratio = 0;   ///< max_{n=1..N} |a_n| / |a_0|
  bool termination_criterion = false;  ///< all |a_n| <= a_0 / 10 for n = 1..N (000 l.956)
};

/// Step 4 on M equally spaced samples (M >= 2; modes beyond M/2 alias, as an FFT's would).
FftObjective fft_objective(std::span<const double> h, const FftObjectiveSettings& s = {});

/// Eq. (13): the time average of profiles sampled at equal time steps (each the same length).
std::vector<double> time_average(const std::vector<std::vector<double>>& profiles);

struct BedProfileStatistics {
  double mean = 0;                ///< <h>
  double mean_reference = 0;      ///< <h_bar>
  double sigma_h = 0;             ///< Eq. (14) of h
  double sigma_reference = 0;     ///< Eq. (14) of h_bar
  double sigma_h_minus_reference = 0;  ///< Eq. (15)
};

double coefficient_of_variation(std::span<const double> h);  ///< Eq. (14); InputError if <h> <= 0
/// Eq. (15): sqrt((4/w) int [(h - h_bar)/(<h> + <h_bar>)]^2 dy); InputError on unequal lengths.
double relative_coefficient_of_variation(std::span<const double> h, std::span<const double> h_bar);
BedProfileStatistics bed_profile_statistics(std::span<const double> h, std::span<const double> h_bar);

/// What Eq. (15) can give for two profiles with coefficients of variation sigma_h and sigma_reference
/// (Eq. 14) and means <h> = mean_ratio <h_bar>: with u, v their deviations from their means,
/// sigma_{h-h_bar} = 2 sqrt(|u - v|^2 + (<h> - <h_bar>)^2) / (<h> + <h_bar>) (rms norms; the cross term
/// with the constant vanishes), and |u - v| ranges over [| |u| - |v| |, |u| + |v|] as the shapes turn from
/// aligned to opposed. With equal means: [|sigma_h - sigma_ref|, sigma_h + sigma_ref].
struct RelativeVariationRange {
  double lowest = 0, highest = 0;
};
RelativeVariationRange relative_variation_range(double sigma_h, double sigma_reference, double mean_ratio = 1);

}  // namespace grainlab
