#pragma once
// Initial states for the event-driven runs: balls at random non-overlapping positions inside the
// cylinder (rejection sampling; the runs are dilute, a few % volume fraction at most), and isotropic
// random directions.
#include <random>
#include <vector>

#include "core/edmd/system.hpp"

namespace grainlab::edmd {

/// `count` centres for balls of radius `r` in the cylinder frame (z from the bottom), no two closer than
/// 2r (1 + gap). Throws InputError when the cylinder cannot take them after many tries.
std::vector<S3> random_positions(const Cylinder& cylinder, int count, double r, std::mt19937_64& rng,
                                 double gap = 1e-3);

/// A unit vector uniform on the sphere.
S3 random_direction(std::mt19937_64& rng);

}  // namespace grainlab::edmd
