// Experiment `paper2_objective_cases`: Paper II's objective f (Eq. 3, 000 l.947-952) on the synthetic belt
// profiles of the ledger's E6 table (../shared/claims/paper2.md E6), so that the post-processing chain is
// judged without a drum: constant, cosine of mode n, all mass in one cell, a ridge built by the cellular
// automaton from deposited particles, a uniform bed under the outlet, the same with an end heap, noise, and
// the edge of the termination criterion (a uniform bed with a fraction q of the mass in one cell, so that
// every |a_n| = q a_0). The bed's cross-section is the feed's, A = feed / (rho chi v) (mass balance, ledger
// E2: 0.01006 m^2 at 4.4 kg/s, 0.25 m/s). Analysis window: `belt` (option A, M = 40 cells) or `outlet`
// (option B, the projection [0.15, 0.9] m, M = 30). Reads only its parameters; writes nothing.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "core/error.hpp"
#include "experiments/bed_profile.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

struct Belt {
  double width, cell, from, to;  // m: belt width, cell, outlet projection
  std::size_t cells;
  double centre(std::size_t j) const { return (static_cast<double>(j) + 0.5) * cell; }
  bool under_outlet(std::size_t j) const { return centre(j) >= from && centre(j) <= to; }
  std::size_t cell_of(double y) const {
    return std::min(cells - 1, static_cast<std::size_t>(std::max(0.0, std::floor(y / cell))));
  }
};

// Adds `volume` (m^3 per m of belt) spread uniformly over the cells that `inside` selects.
template <class Pred>
void spread(std::vector<double>& h, const Belt& b, double volume, Pred inside) {
  std::size_t n = 0;
  for (std::size_t j = 0; j < h.size(); ++j) n += inside(j) ? 1 : 0;
  if (n == 0) throw InputError("paper2_objective_cases: the window holds no cell");
  for (std::size_t j = 0; j < h.size(); ++j)
    if (inside(j)) h[j] += volume / (static_cast<double>(n) * b.cell);
}

// The ridge: particles laid on a regular lattice along 1.3 m of belt (5.2 s at 0.25 m/s) in the one cell
// column at y, relaxed by the cellular automaton, averaged over the middle 0.65 m (one drum period).
std::vector<double> ridge(const Parameters& p, const Belt& b, double cross_section) {
  const double d = p.real("particle_diameter"), rho = p.real("solid_density"), chi = p.real("packing_ratio");
  const double length = 1.3, mass = rho * std::numbers::pi * d * d * d / 6;
  const auto count = static_cast<std::size_t>(std::lround(cross_section * length * chi * rho / mass));
  std::vector<BeltDeposit> deposits;
  deposits.reserve(count);
  const double y = b.centre(b.cell_of(p.real("heap_position")));
  for (std::size_t k = 0; k < count; ++k)
    deposits.push_back({(static_cast<double>(k) + 0.5) * length / static_cast<double>(count), y, 0.0, mass});
  BeltSurfaceSettings s;
  s.belt_speed = 0;  // the lattice is laid in the belt frame already
  s.y_max = b.width;
  s.cell_size = b.cell;
  s.repose_angle_deg = p.real("repose_angle_deg");
  s.packing_ratio = chi;
  s.solid_density = rho;
  return time_averaged_profile(cellular_automaton_surface(deposits, s), 0.325, 0.975);
}

std::vector<double> build_profile(const Parameters& p, const Belt& b, double cross_section) {
  const std::string& kind = p.text("profile");
  const bool outlet = p.text("window") == "outlet";
  auto in_window = [&](std::size_t j) { return !outlet || b.under_outlet(j); };
  std::vector<double> h(b.cells, 0.0);
  const double q = p.real("heap_fraction");
  if (kind == "constant") {
    spread(h, b, cross_section, [](std::size_t) { return true; });
  } else if (kind == "cosine") {
    spread(h, b, cross_section, [](std::size_t) { return true; });
    const auto n = static_cast<double>(p.integer("mode"));
    for (std::size_t j = 0; j < h.size(); ++j)
      h[j] += p.real("amplitude") * std::cos(2 * std::numbers::pi * n * static_cast<double>(j) / static_cast<double>(b.cells));
  } else if (kind == "one_cell") {
    h[b.cell_of(p.real("heap_position"))] = cross_section / b.cell;
  } else if (kind == "ridge") {
    h = ridge(p, b, cross_section);
  } else if (kind == "uniform_under_outlet") {
    spread(h, b, cross_section, [&](std::size_t j) { return b.under_outlet(j); });
  } else if (kind == "outlet_end_heap") {
    // Uniform over the outlet projection plus a triangle of half-width w centred at heap_position holding q.
    spread(h, b, (1 - q) * cross_section, [&](std::size_t j) { return b.under_outlet(j); });
    const double yc = p.real("heap_position"), w = p.real("heap_half_width");
    std::vector<double> tri(h.size(), 0.0);
    double sum = 0;
    for (std::size_t j = 0; j < h.size(); ++j) sum += tri[j] = std::max(0.0, 1 - std::abs(b.centre(j) - yc) / w);
    if (sum <= 0) throw InputError("paper2_objective_cases: heap_half_width is narrower than a cell's reach");
    for (std::size_t j = 0; j < h.size(); ++j) h[j] += q * cross_section / b.cell * tri[j] / sum;
  } else if (kind == "noise") {
    spread(h, b, cross_section, in_window);
    std::mt19937_64 rng(static_cast<std::uint64_t>(p.integer("seed")));
    std::normal_distribution<double> unit(0.0, 1.0);
    for (std::size_t j = 0; j < h.size(); ++j)
      if (in_window(j)) h[j] *= 1 + p.real("noise_fraction") * unit(rng);
  } else {  // criterion_edge
    spread(h, b, (1 - q) * cross_section, in_window);
    h[b.cell_of(p.real("heap_position"))] += q * cross_section / b.cell;
  }
  return h;
}

RunResult run_cases(const Parameters& p, RunContext&) {
  Belt b{p.real("belt_width"), p.real("cell_size"), p.real("outlet_from"), p.real("outlet_to"), 0};
  b.cells = static_cast<std::size_t>(std::lround(b.width / b.cell));
  if (b.cells < 2 || std::abs(static_cast<double>(b.cells) * b.cell - b.width) > 1e-9 * b.width)
    throw InputError("paper2_objective_cases: belt_width must be a whole number (>= 2) of cell_size");
  const double cross_section = p.real("feed_rate") / (p.real("solid_density") * p.real("packing_ratio") * p.real("belt_speed"));
  const std::vector<double> belt = build_profile(p, b, cross_section);
  const bool outlet = p.text("window") == "outlet";
  const std::vector<double> h = outlet ? profile_window(belt, 0.0, b.cell, b.from, b.to) : belt;
  const FftObjectiveSettings fs{static_cast<int>(p.integer("modes")), mode_weights_from_text(p.text("weights"))};
  const FftObjective o = fft_objective(h, fs);
  const double f_printed = fft_objective(h, {fs.modes, ModeWeights::as_printed}).f;  // the erratum, side by side

  const auto m = static_cast<double>(h.size());
  const auto mode = static_cast<std::size_t>(p.integer("mode"));
  const std::size_t peak = static_cast<std::size_t>(std::max_element(belt.begin(), belt.end()) - belt.begin());
  RunResult out;
  out.metrics = {{"f", o.f},
                 {"f_printed_weights", f_printed},
                 {"a0", o.magnitude[0]},
                 {"samples", m},
                 {"mean_height", o.magnitude[0] / m},
                 {"cross_section", cross_section},
                 {"largest_mode_ratio", o.largest_mode_ratio},
                 {"criterion_met", o.termination_criterion ? 1.0 : 0.0},
                 {"mode_amplitude", mode < o.magnitude.size() ? o.magnitude[mode] / (m / 2) : NAN},
                 {"peak_height", belt[peak]},
                 {"peak_y", b.centre(peak)}};

  // The figure: h(y) on the belt and its reconstruction from the modes n <= 3 of the analysed window.
  TimeSeries prof{{"y", "h", "h_modes_0_3"}, {}};
  const std::size_t first = outlet ? static_cast<std::size_t>(std::lround(b.from / b.cell)) : 0;
  for (std::size_t j = 0; j < belt.size(); ++j) {
    double rec = NAN;
    if (j >= first && j - first < h.size()) {
      const double k = static_cast<double>(j - first);
      rec = 0;
      for (std::size_t n = 0; n <= 3 && n < h.size(); ++n) {
        double re = 0, im = 0;
        for (std::size_t i = 0; i < h.size(); ++i) {
          const double ph = 2 * std::numbers::pi * static_cast<double>(n * i) / m;
          re += h[i] * std::cos(ph);
          im -= h[i] * std::sin(ph);
        }
        const double ph = 2 * std::numbers::pi * static_cast<double>(n) * k / m;
        rec += (n == 0 ? 1.0 : 2.0) * (re * std::cos(ph) - im * std::sin(ph)) / m;
      }
    }
    prof.rows.push_back({b.centre(j), belt[j], rec});
  }
  TimeSeries spec{{"n", "amplitude"}, {}};  // |a_n| / (M/2): the physical cosine amplitude of mode n
  for (std::size_t n = 1; n < o.magnitude.size(); ++n) spec.rows.push_back({static_cast<double>(n), o.magnitude[n] / (m / 2)});
  out.series = {{"profile", prof}, {"spectrum", spec}};
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper2_objective_cases",
    .description = "Paper II objective f (Eq. 3) and termination criterion on the ledger's synthetic belt profiles "
                   "(E6): constant, cosine, one cell, CA ridge, uniform under the outlet, end heap, noise, criterion edge",
    .parameters =
        {
            {"profile", ParamType::text, "", std::string("constant"), {}, {}, "synthetic bed profile h(y)",
             {"constant", "cosine", "one_cell", "ridge", "uniform_under_outlet", "outlet_end_heap", "noise",
              "criterion_edge"}},
            {"window", ParamType::text, "", std::string("belt"), {}, {},
             "samples of the FFT: belt (option A, whole width) | outlet (option B, [outlet_from, outlet_to])",
             {"belt", "outlet"}},
            {"weights", ParamType::text, "", std::string("decaying"), {}, {},
             "w_n: decaying 2^(1-n) | as_printed 2^(n-1) (erratum) | uniform 1 (perturbation)",
             {"decaying", "as_printed", "uniform"}},
            {"modes", ParamType::integer, "-", std::int64_t{20}, 1.0, 1000.0, "N of Eq. (3) (000 l.952)"},
            {"cell_size", ParamType::real, "m", 0.025, 1e-4, 1.0, "CA cell = sample spacing (2.5 d, 000 l.936)"},
            {"belt_width", ParamType::real, "m", 1.0, 0.01, 100.0, "belt width w (000 l.899)"},
            {"outlet_from", ParamType::real, "m", 0.15, 0.0, 100.0, "y1 of the outlet projection (000 l.987)"},
            {"outlet_to", ParamType::real, "m", 0.9, 0.0, 100.0, "y2 of the outlet projection (000 l.987)"},
            {"feed_rate", ParamType::real, "kg/s", 4.4, 1e-6, 1e4, "outflow onto the belt (feed, 000 l.903)"},
            {"belt_speed", ParamType::real, "m/s", 0.25, 1e-6, 100.0, "belt speed v (000 l.899)"},
            {"solid_density", ParamType::real, "kg/m^3", 2500.0, 1.0, 1e5, "particle density (000 l.903)"},
            {"packing_ratio", ParamType::real, "-", 0.7, 0.01, 1.0, "bed packing ratio chi (000 l.936)"},
            {"repose_angle_deg", ParamType::real, "deg", 35.0, 0.1, 89.9, "CA friction angle (000 l.936)"},
            {"particle_diameter", ParamType::real, "m", 0.01, 1e-4, 1.0, "deposited spheres (ridge, 000 l.903)"},
            {"mode", ParamType::integer, "-", std::int64_t{1}, 0.0, 1000.0, "cosine mode n"},
            {"amplitude", ParamType::real, "m", 0.002, 0.0, 10.0, "cosine amplitude (ledger E6: 2 mm)"},
            {"heap_fraction", ParamType::real, "-", 0.1, 0.0, 1.0, "share of the mass in the heap / the one cell"},
            {"heap_position", ParamType::real, "m", 0.9, 0.0, 100.0, "y of the heap (one cell, ridge, end heap)"},
            {"heap_half_width", ParamType::real, "m", 0.06, 1e-4, 10.0, "half-width of the triangular end heap"},
            {"noise_fraction", ParamType::real, "-", 0.05, 0.0, 10.0, "relative Gaussian noise on h (ledger E6: 5 %)"},
            {"seed", ParamType::integer, "-", std::int64_t{1}, 0.0, 1e15, "noise seed"},
        },
    .run = run_cases}};

}  // namespace
}  // namespace grainlab
