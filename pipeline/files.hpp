#pragma once
// Checked file writes for everything under results/: a write that fails (disk full, quota, an
// unwritable folder) throws std::runtime_error naming the file and the system's reason, so a run or a
// report is never marked done on top of a 0-byte file.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace grainlab::pipeline {

/// Writes `content` to `path` (replacing it), flushes and closes, and checks each step.
void write_file(const std::filesystem::path& path, std::string_view content);

/// Writes to a temporary file beside `path`, then renames it into place: readers see the old file or
/// the new one, never a partial one.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// The whole file; throws when it cannot be read.
std::string read_file(const std::filesystem::path& path);

/// Throws, naming `dir`, unless a file can be created and removed in it (creating `dir` if needed).
void require_writable(const std::filesystem::path& dir);

/// FNV-1a, 64 bits: run keys and the store's completion checksums (not cryptographic).
std::uint64_t fnv1a64(std::string_view bytes);

}  // namespace grainlab::pipeline
