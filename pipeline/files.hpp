#pragma once
// Checked file writes for everything under results/: a write that fails (disk full, quota, an
// unwritable folder) throws std::runtime_error naming the file and the system's reason, so a run or a
// report is never marked done on top of a 0-byte file. Files that readers may see while they are
// rewritten (reports, the index) go through io::write_file_atomically (core/io/atomic_file.hpp).
#include <filesystem>
#include <string>
#include <string_view>

namespace grainlab::pipeline {

/// Writes `content` to `path` (replacing it), flushes and closes, and checks each step.
void write_file(const std::filesystem::path& path, std::string_view content);

/// The whole file; throws when it cannot be read.
std::string read_file(const std::filesystem::path& path);

/// Throws, naming `dir`, unless a file can be created and removed in it (creating `dir` if needed).
void require_writable(const std::filesystem::path& dir);

}  // namespace grainlab::pipeline
