#pragma once
// Binary checkpoint and restart of the full World state, so that a restarted run continues bit for bit.
//
// Saved: every ParticleStore array (ids, positions, velocities, orientations, angular velocities,
// forces, torques, radii, masses and inverses, inertias and inverses, materials, flags) and next_id;
// the material table; every wall (name, shape via the WallShape variant, material, motion, load);
// the contact list with its history (in order: pair candidates, then wall contacts); the
// ContactDetector state (validity, reference positions, pair count, skin, statistics); collision
// settings; gravity with ramp; time; step; stage timers. Not saved: anything a Stepper keeps of its own
// (steppers in this engine keep their state in the World; one that does not must save it itself).
//
// Format (version 2, docs/io.md): header [8-byte magic "GRLBCKPT", u32 version, u32 endian marker
// 0x01020304, u32 sizeof(double) = 8, u32 reserved, u64 payload size], payload [tagged sections of
// little-endian raw values], footer [u64 FNV-1a hash of the payload, 8-byte magic "CKPT_END"].
// Loading validates magic, version, sizes and the hash and throws InputError naming the file and the
// problem for a truncated or corrupt file.
//
// Threading: none; save reads the World, load builds a new one.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/world.hpp"

namespace grainlab::io {

inline constexpr std::uint32_t checkpoint_version = 4;  // 2: rigid bodies (BODY section, ParticleStore::body); 3: PAIR overrides, periodic per axis; 4: SDEM twisting spring

enum class Overwrite { forbid, allow };

/// The checkpoint file contents for `world`, whose contact records must be current (after an SDEM step,
/// call World::sync_contacts() first).
std::string checkpoint_bytes(const World& world);
/// Rebuilds a World from checkpoint contents; `source` names the data in error messages.
World world_from_checkpoint(std::string_view bytes, const std::string& source = "<memory>");

/// Writes `world` to `path` atomically (temporary file + rename). With Overwrite::forbid an existing
/// file is an error (InputError naming the path); a run that refreshes its own checkpoint passes
/// Overwrite::allow.
void save_checkpoint(const World& world, const std::filesystem::path& path, Overwrite overwrite = Overwrite::forbid);
/// Reads a checkpoint written by save_checkpoint.
World load_checkpoint(const std::filesystem::path& path);

}  // namespace grainlab::io
