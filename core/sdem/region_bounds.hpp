#pragma once
// Region bounds of the SDEM stepper's fused force stage (SdemStepper::build_schedule): one region of
// particles per thread, balanced by the time the blocks of the last schedule took.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace grainlab::sdem {

/// First particle of each of `regions` regions over particles [0, np), and np. From the blocks of the last
/// schedule (block b: particles [block_particle[b], block_particle[b + 1]), time block_seconds[b]) and its
/// bounds `last`: the bounds that split the measured time evenly (the time taken as linear within a
/// block), moved half way from `last`. Equal particle counts when there is no usable measurement (other
/// np or region count, a block without time).
std::vector<std::size_t> balanced_region_bounds(std::size_t np, std::size_t regions,
                                                const std::vector<std::uint32_t>& block_particle,
                                                const std::vector<double>& block_seconds,
                                                const std::vector<std::size_t>& last);

}  // namespace grainlab::sdem
