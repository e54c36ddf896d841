#pragma once
// How the engine splits and orders its work: every size threshold, chunk and prefetch distance of the
// SDEM and NDEM steps in one place, each with the measurement that chose it.
//
// None of these changes a result: chunk sizes are fixed (not derived from the thread count) so that the
// work split, and with it every sum, is the same on any number of threads; prefetches and rings change
// only where data sits in the caches. The figures cited are in docs/performance_history.md (SDEM) and
// docs/performance_ndem.md (NDEM), measured on this project's 2-vCPU guests.
#include <cstddef>

namespace grainlab::policy {

// --- Contact detection (core/collision.cpp) ---

/// Particles per parallel task in the candidate search and the wall search. About 0.1 ms of work at
/// ~100 ns per particle, so TBB's per-task cost stays under 1 %, and 10k particles still give 10 tasks
/// for two threads to balance.
inline constexpr std::size_t detector_chunk = 1024;

/// Static-plane entries and wall records per parallel task: a wall entry costs a few ns, but there are
/// few of them (a 10k bed has ~2k), so smaller chunks than the particles' keep both threads busy.
inline constexpr std::size_t wall_chunk = 256;

/// The cell grid holds at most this many cells per particle (plus `grid_cells_floor`). A stray particle
/// far away or a dilute periodic box would otherwise ask for a grid that is mostly empty cells; with
/// the cap the start array stays within a few words per particle.
inline constexpr double grid_cells_per_particle = 8.0;
inline constexpr double grid_cells_floor = 64.0;

/// Wall search: a particle's radius and position are asked for this many wall entries ahead. The
/// particles next to a wall are scattered over the store; without it the radius load took half of the
/// search's time (round 8, 495763b). 8 entries cover the memory latency at a few ns per entry.
inline constexpr std::size_t wall_prefetch_ahead = 8;

// --- World (core/world.cpp) ---

/// Records per parallel task when World writes SDEM's deferred pair state into the contact records, and
/// entries per task in the stability scan: a few ns per entry, so 4096 keep each task near 10 us. Chosen,
/// not tuned: no other size has been measured.
inline constexpr std::size_t world_scan_chunk = 4096;

// --- SDEM force stage (core/sdem/sdem_stepper.cpp) ---

/// Particles per parallel task in the SDEM integrate and gather stages (as detector_chunk).
inline constexpr std::size_t sdem_chunk = 1024;

/// The pair stage asks for the b side's position, velocity and angular velocity this many lane groups
/// ahead, and only above `sdem_prefetch_b_particles`: at 100k it took 6-7 % off the step, at 10k,
/// where more of the particle state stays in the caches, it cost 1-5 % (round 9, c34d387). 50k lies
/// between the two measured sizes; the crossover has not been measured more finely.
inline constexpr std::size_t sdem_prefetch_groups = 4;
inline constexpr std::size_t sdem_prefetch_b_particles = 50000;

/// Lane groups in a region's ring of pair wrenches (4 wrenches of 64 B each: 8192 groups = 2 MB, so the
/// ring's lines stay in L2). A group whose particles' blocks are gathered before the ring wraps round
/// takes a ring slot; the others keep their own (round 9, 10f727f).
inline constexpr std::size_t sdem_wrench_ring_groups = 8192;

// --- NDEM projected Gauss-Seidel (core/ndem/pgs.cpp) ---

/// Contacts per parallel task in a colour of the coloured PGS (and in the residual sums, which are
/// added in chunk order, so the sums do not depend on the thread count). 256 packed records are 45-61 kB
/// (176-240 B each), well inside L2; the size was chosen, not tuned: no other size has been measured.
inline constexpr std::size_t pgs_chunk = 256;

/// Rows per fixed block of the NDEM set-up (NdemStepper::setup: frame, contact law, D^{-1}; ~0.1 us a
/// row), records per block when a solve packs its records and unpacks the multipliers (pgs.cpp; 10-20 ns
/// a record), rows or particles per block in the step's other independent loops, and the smallest particle
/// range of the per-range sums (row_blocks.hpp): tens to hundreds of microseconds per block, so TBB's
/// per-task cost stays small, and a scene of fewer contacts (a column, a single pellet) runs on the
/// calling thread. The blocks are fixed so that no result depends on the thread count.
inline constexpr std::size_t ndem_row_block = 2048;

}  // namespace grainlab::policy
