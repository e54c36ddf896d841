#include "experiments/belt_evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "experiments/sample_statistics.hpp"

namespace grainlab {

BeltEvaluation evaluate_belt(std::span<const BeltDeposit> deposits, double record_time, const BeltSurfaceSettings& s,
                             double y1, double y2) {
  if (deposits.empty()) throw InputError("belt evaluation: no particle reached the belt during the record");
  double x_lo = deposits.front().x, x_hi = x_lo;
  for (const BeltDeposit& d : deposits) {
    x_lo = std::min(x_lo, d.x);
    x_hi = std::max(x_hi, d.x);
  }
  const double from = x_hi - s.belt_speed * record_time, to = x_lo;
  BeltEvaluation e;
  e.landing_zone = x_hi - x_lo;
  if (!(from < to)) {  // no belt-frame window saw the whole record
    const double none = std::nan("");
    e.f = e.f_window = e.f_over_mean = e.argmax_y = e.interior_cov = e.end_heap_ratio = none;
    return e;
  }
  e.covered = true;
  const BeltSurface surface = cellular_automaton_surface(deposits, s);
  e.cell = surface.cell;
  e.dropped = surface.dropped;
  e.h = time_averaged_profile(surface, from, to);
  const FftObjective a = fft_objective(e.h);
  e.f = a.f;
  e.termination_criterion = a.termination_criterion;
  e.f_window = fft_objective(profile_window(e.h, surface.y0, surface.cell, y1, y2)).f;
  const double mean = std::accumulate(e.h.begin(), e.h.end(), 0.0) / double(e.h.size());
  e.f_over_mean = mean > 0 ? e.f / mean : std::nan("");
  const auto peak = std::max_element(e.h.begin(), e.h.end());
  e.argmax_y = surface.y0 + (double(peak - e.h.begin()) + 0.5) * surface.cell;
  std::vector<double> interior;
  double end_peak = 0, interior_max = 0;
  for (std::size_t j = 0; j < e.h.size(); ++j) {
    const double y = surface.y0 + (double(j) + 0.5) * surface.cell;
    if (y > y1 + 0.1 && y < y2 - 0.1) {
      interior.push_back(e.h[j]);
      interior_max = std::max(interior_max, e.h[j]);
    }
    if (std::abs(y - y2) <= 0.1) end_peak = std::max(end_peak, e.h[j]);
  }
  e.interior_cov = mean_of(interior) > 0 ? sd_of(interior) / mean_of(interior) : std::nan("");
  e.end_heap_ratio = interior_max > 0 ? end_peak / interior_max : std::nan("");
  return e;
}

}  // namespace grainlab
