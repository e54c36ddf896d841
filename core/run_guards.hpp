#pragma once
// The limits the run guards warn at (issue 27 item 6; docs/guards.md has the reasoning and the numbers).
// A guard only reads the state and reports to RunWarnings (core/run_warnings.hpp): it never changes a
// result. SDEM: core/sdem/sdem_guards.hpp; NDEM: core/ndem/ndem_guards.hpp.
#include <cstddef>

#include "core/particles.hpp"

namespace grainlab::guards {

/// First-touch overlap / d above which a contact was detected too late (d = r_a + r_b, 2 r on a wall).
/// At first touch the pair has closed by up to v Δt without any force. Paper III calls a contact that
/// closes by eps d in one step an impact (v_imp = eps d / Δt, eps = 0.02, 000 l.1140); 0.05 d is 2.5
/// times that and 5-50 times the resting overlap of the papers' stiff spheres (Hertz, 1e-3 to 1e-2 d):
/// beyond it the detection lag, not the contact law, sets the overlap and the normal of the impact.
inline constexpr double first_touch_overlap_limit = 0.05;

/// SDEM: fewest time steps per elastic contact time t_c (Hertz at the fastest relative speed, or the
/// linear law's period). Measured with sdem_impact (head-on pellets at 1 m/s, docs/guards.md): at 20 steps
/// per contact the restitution is off by 0.7 % (e = 0.5) and 0.03 % (e = 1), peak force and contact time
/// by 0.1 % (e = 1); at 10 steps 1.4 % and 0.5 %; at 5 steps 2.8 % and 1.9 %; at 3 steps 5 %. Below 20 the
/// errors pass 1 % (docs/sdem.md recommends t_c / 50).
inline constexpr double sdem_min_steps_per_contact = 20.0;

/// NDEM: largest distance a particle may move in one step, in units of its radius. The NDEM step sees a
/// contact only after the pair overlaps; a sphere moving more than its radius per step meets a resting
/// neighbour or a wall anywhere between 0 and r deep, its centre can pass the tangent plane of first touch,
/// and the normal the step sees is the one of the overlapped position, not of the impact: oblique impacts
/// come out wrong (the 1 mm sphere at 1 m/s with the default Δt = 5 ms moves 10 radii per step).
inline constexpr double ndem_max_travel_per_step = 1.0;

/// Steps between the O(N) SDEM guard scans (the NDEM guards run inside its per-step setup).
inline constexpr std::uint64_t scan_interval = 100;

/// Largest |v_i| Δt / r_i over the movable particles, and the particle that has it (-1 if none moves).
struct Travel {
  double ratio = 0;
  long particle = -1;
};
Travel max_travel_per_step(const ParticleStore& p, double dt);

}  // namespace grainlab::guards
