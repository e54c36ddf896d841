#include "experiments/bed_profile.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "core/error.hpp"

namespace grainlab {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError(what);
}

double mean_of(std::span<const double> v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// One Gauss-Seidel pass of the sandpile rule over every 4-neighbour pair (each pair once, fixed order):
// returns the largest slope excess found before its correction.
double relax_sweep(std::vector<double>& h, std::size_t nx, std::size_t ny, double threshold) {
  double worst = 0;
  auto settle = [&](std::size_t a, std::size_t b) {
    const double d = h[a] - h[b];
    const double excess = std::abs(d) - threshold;
    if (excess <= 0) return;
    worst = std::max(worst, excess);
    const double move = std::copysign(excess / 2, d);  // the pair ends exactly at the threshold
    h[a] -= move;
    h[b] += move;
  };
  for (std::size_t i = 0; i < nx; ++i)
    for (std::size_t j = 0; j < ny; ++j) {
      const std::size_t c = i * ny + j;
      if (i + 1 < nx) settle(c, c + ny);
      if (j + 1 < ny) settle(c, c + 1);
    }
  return worst;
}

BeltSurface deposit_and_relax(std::span<const BeltDeposit> deposits, const BeltSurfaceSettings& s, double x_from,
                              double x_to) {
  BeltSurface out;
  out.cell = s.cell_size;
  out.y0 = s.y_min;
  out.ny = static_cast<std::size_t>(std::ceil((s.y_max - s.y_min) / s.cell_size - 1e-9));
  out.x0 = std::floor(x_from / s.cell_size) * s.cell_size;
  out.nx = static_cast<std::size_t>(std::floor((x_to - out.x0) / s.cell_size)) + 1;
  out.h.assign(out.nx * out.ny, 0.0);

  const double per_kg = 1 / (s.solid_density * s.packing_ratio * s.cell_size * s.cell_size);  // m per kg
  for (const BeltDeposit& p : deposits) {
    const double yj = std::floor((p.y - s.y_min) / s.cell_size);
    if (p.y < s.y_min || p.y >= s.y_max || yj >= static_cast<double>(out.ny)) {
      ++out.dropped;
      continue;
    }
    const auto i = static_cast<std::size_t>(std::floor((p.x - s.belt_speed * p.t - out.x0) / s.cell_size));
    out.h[std::min(i, out.nx - 1) * out.ny + static_cast<std::size_t>(yj)] += p.mass * per_kg;
  }

  const double threshold = s.cell_size * std::tan(s.repose_angle_deg * std::numbers::pi / 180);
  constexpr std::size_t max_sweeps = 2'000'000;
  while (relax_sweep(out.h, out.nx, out.ny, threshold) > s.tolerance) {
    if (++out.relaxation_sweeps >= max_sweeps)
      throw std::runtime_error("bed profile: the cellular automaton did not settle in " +
                               std::to_string(max_sweeps) + " sweeps (tolerance " + std::to_string(s.tolerance) +
                               " m); raise the tolerance");
  }
  return out;
}

}  // namespace

BeltSurface cellular_automaton_surface(std::span<const BeltDeposit> deposits, const BeltSurfaceSettings& s) {
  require(s.cell_size > 0, "bed profile: cell_size must be > 0 (got " + std::to_string(s.cell_size) + ")");
  require(s.y_max > s.y_min, "bed profile: y_max must exceed y_min");
  require(s.repose_angle_deg > 0 && s.repose_angle_deg < 90, "bed profile: repose_angle_deg must lie in (0, 90)");
  require(s.packing_ratio > 0 && s.packing_ratio <= 1, "bed profile: packing_ratio must lie in (0, 1]");
  require(s.solid_density > 0, "bed profile: solid_density must be > 0");
  require(s.tolerance > 0, "bed profile: tolerance must be > 0");
  require(std::isfinite(s.belt_speed), "bed profile: belt_speed must be finite");
  require(!deposits.empty(), "bed profile: no deposits on the belt");

  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin;
  for (const BeltDeposit& p : deposits) {
    require(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.t) && p.mass >= 0,
            "bed profile: a deposit has a non-finite position/time or a negative mass");
    const double xb = p.x - s.belt_speed * p.t;
    xmin = std::min(xmin, xb);
    xmax = std::max(xmax, xb);
  }
  // A margin along x lets the heaps at the ends of the deposit spread as on a longer belt; it doubles until
  // the settled bed does not reach the grid's ends (the no-flux ends would otherwise steepen it).
  for (double margin = 10 * s.cell_size;; margin *= 2) {
    BeltSurface out = deposit_and_relax(deposits, s, xmin - margin, xmax + margin);
    bool touches = false;
    for (std::size_t j = 0; j < out.ny; ++j) touches = touches || out.at(0, j) > 0 || out.at(out.nx - 1, j) > 0;
    if (!touches) return out;
  }
}

std::vector<double> time_averaged_profile(const BeltSurface& surface, double x_from, double x_to) {
  std::vector<double> h(surface.ny, 0.0);
  std::size_t rows = 0;
  for (std::size_t i = 0; i < surface.nx; ++i) {
    const double xc = surface.x0 + (static_cast<double>(i) + 0.5) * surface.cell;
    if (xc < x_from || xc > x_to) continue;
    ++rows;
    for (std::size_t j = 0; j < surface.ny; ++j) h[j] += surface.at(i, j);
  }
  require(rows > 0, "bed profile: no belt cell lies in the averaging window [" + std::to_string(x_from) + ", " +
                        std::to_string(x_to) + "] m");
  for (double& v : h) v /= static_cast<double>(rows);
  return h;
}

std::vector<double> profile_window(std::span<const double> h, double y0, double dy, double y_from, double y_to) {
  require(dy > 0, "bed profile: dy must be > 0");
  std::vector<double> out;
  for (std::size_t j = 0; j < h.size(); ++j) {
    const double yc = y0 + (static_cast<double>(j) + 0.5) * dy;
    if (yc >= y_from && yc <= y_to) out.push_back(h[j]);
  }
  require(out.size() >= 2, "bed profile: fewer than 2 samples in the window [" + std::to_string(y_from) + ", " +
                               std::to_string(y_to) + "] m");
  return out;
}

ModeWeights mode_weights_from_text(const std::string& name) {
  if (name == "decaying") return ModeWeights::decaying;
  if (name == "as_printed") return ModeWeights::as_printed;
  if (name == "uniform") return ModeWeights::uniform;
  throw InputError("mode_weights: '" + name + "' is not one of decaying, as_printed, uniform");
}

namespace {
double weight(ModeWeights w, int n) {
  switch (w) {
    case ModeWeights::decaying: return std::ldexp(1.0, 1 - n);
    case ModeWeights::as_printed: return std::ldexp(1.0, n - 1);
    case ModeWeights::uniform: return 1.0;
  }
  return 1.0;
}

// a_n = sum_k h_k exp(-2 pi i n k / M); the phase is reduced mod M so that large n stay exact.
std::complex<double> dft(std::span<const double> h, long n) {
  const long m = static_cast<long>(h.size());
  std::complex<double> a = 0;
  for (long k = 0; k < m; ++k) {
    const long r = ((n * k) % m + m) % m;
    const double phase = -2 * std::numbers::pi * static_cast<double>(r) / static_cast<double>(m);
    a += h[static_cast<std::size_t>(k)] * std::complex<double>(std::cos(phase), std::sin(phase));
  }
  return a;
}
}  // namespace

FftObjective fft_objective(std::span<const double> h, const FftObjectiveSettings& s) {
  require(h.size() >= 2, "fft_objective: need at least 2 samples of h(y)");
  require(s.modes >= 1, "fft_objective: modes must be >= 1");
  for (double v : h) require(std::isfinite(v), "fft_objective: h(y) has a non-finite sample");
  FftObjective out;
  out.magnitude.resize(static_cast<std::size_t>(s.modes) + 1);
  out.magnitude[0] = std::abs(dft(h, 0));
  double sum = 0, largest = 0;
  for (int n = 1; n <= s.modes; ++n) {
    const double plus = std::abs(dft(h, n)), minus = std::abs(dft(h, -n));
    out.magnitude[static_cast<std::size_t>(n)] = plus;
    sum += weight(s.weights, n) * (minus + plus);
    largest = std::max({largest, plus, minus});
  }
  out.f = sum / s.modes;
  out.largest_mode_ratio = out.magnitude[0] > 0 ? largest / out.magnitude[0]
                                                 : std::numeric_limits<double>::infinity();
  out.termination_criterion = largest <= out.magnitude[0] / 10;
  return out;
}

std::vector<double> time_average(const std::vector<std::vector<double>>& profiles) {
  require(!profiles.empty(), "time_average: no profiles");
  std::vector<double> out(profiles.front().size(), 0.0);
  for (const auto& p : profiles) {
    require(p.size() == out.size(), "time_average: profiles differ in length");
    for (std::size_t j = 0; j < p.size(); ++j) out[j] += p[j];
  }
  for (double& v : out) v /= static_cast<double>(profiles.size());
  return out;
}

double coefficient_of_variation(std::span<const double> h) {
  require(!h.empty(), "coefficient_of_variation: empty profile");
  const double m = mean_of(h);
  require(m > 0, "coefficient_of_variation: mean height <h> must be > 0");
  double s = 0;
  for (double v : h) s += (v - m) * (v - m);
  return std::sqrt(s / static_cast<double>(h.size())) / m;
}

double relative_coefficient_of_variation(std::span<const double> h, std::span<const double> h_bar) {
  require(!h.empty() && h.size() == h_bar.size(),
          "relative_coefficient_of_variation: h and h_bar need the same (non-zero) number of samples");
  const double scale = mean_of(h) + mean_of(h_bar);
  require(scale > 0, "relative_coefficient_of_variation: <h> + <h_bar> must be > 0");
  double s = 0;
  for (std::size_t j = 0; j < h.size(); ++j) s += (h[j] - h_bar[j]) * (h[j] - h_bar[j]);
  return std::sqrt(4 * s / static_cast<double>(h.size())) / scale;
}

BedProfileStatistics bed_profile_statistics(std::span<const double> h, std::span<const double> h_bar) {
  BedProfileStatistics out;
  out.mean = mean_of(h);
  out.mean_reference = mean_of(h_bar);
  out.sigma_h = coefficient_of_variation(h);
  out.sigma_reference = coefficient_of_variation(h_bar);
  out.sigma_h_minus_reference = relative_coefficient_of_variation(h, h_bar);
  return out;
}

RelativeVariationRange relative_variation_range(double sigma_h, double sigma_reference, double mean_ratio) {
  require(sigma_h >= 0 && sigma_reference >= 0, "relative_variation_range: sigmas must be >= 0");
  require(mean_ratio > 0, "relative_variation_range: mean_ratio must be > 0");
  const double r = mean_ratio, offset = (r - 1) * (r - 1);
  RelativeVariationRange out;
  out.lowest = 2 * std::sqrt((sigma_h * r - sigma_reference) * (sigma_h * r - sigma_reference) + offset) / (r + 1);
  out.highest = 2 * std::sqrt((sigma_h * r + sigma_reference) * (sigma_h * r + sigma_reference) + offset) / (r + 1);
  return out;
}

}  // namespace grainlab
