#pragma once
// Run guards of the SDEM stepper (issue 27 item 6; limits in core/run_guards.hpp, docs/guards.md), scanned
// after the first step and every guards::scan_interval steps (O(N), read-only):
//  - sdem_contact_resolution: Δt resolves the elastic contact time worse than
//    guards::sdem_min_steps_per_contact (t_c of the stiffest, lightest pair at twice the largest particle
//    speed; the linear law's t_c does not depend on speed).
//  - sdem_first_touch_overlap: a pair approaching at twice the largest speed closes by more than
//    guards::first_touch_overlap_limit of the smallest d in one step, so it can be first seen that deep.
//    A bound, not a measurement: the fused SDEM force kernel is left untouched (docs/guards.md).
#include "core/run_guards.hpp"
#include "core/run_warnings.hpp"
#include "core/sdem/sdem_stepper.hpp"

namespace grainlab {

/// What one scan found (for tests and the warning text).
struct SdemGuardScan {
  double max_speed = 0;             ///< m/s, movable particles
  double contact_time = 0;          ///< s, shortest t_c over the material pairs present; 0: none (at rest, Hertz)
  double steps_per_contact = 0;     ///< contact_time / Δt; 0 when contact_time is
  double first_touch_bound = 0;     ///< 2 max_speed Δt / smallest d
};

/// Scans the state after a step (the guards above), warns into `out`, and returns what it found.
SdemGuardScan sdem_guard_scan(const World& world, const SdemSettings& settings, RunWarnings& out);

/// Whether the scan is due after step `step` (the first step, then every guards::scan_interval).
inline bool sdem_guard_scan_due(std::uint64_t step) { return step == 1 || step % guards::scan_interval == 0; }

}  // namespace grainlab
