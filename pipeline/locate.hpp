#pragma once
// Where the project's studies/ and results/ are: found from the working directory by walking up to the
// project root, as git finds its repository, so a binary run in another checkout reads and writes that
// checkout and not the one it was compiled from. The compiled-in source tree is the fallback.
#include <filesystem>
#include <optional>

namespace grainlab::pipeline {

/// A project root: a folder holding a `.grainlab-root` marker file, or both studies/ and
/// validation/claims.csv.
bool is_project_root(const std::filesystem::path& dir);

/// The nearest project root at or above `start` (an absolute or relative folder), if any.
std::optional<std::filesystem::path> find_project_root(const std::filesystem::path& start);

/// Global overrides from the command line (`grainlab --studies DIR --results DIR ...`), applied by
/// default_paths(); empty = not given.
struct PathOverrides {
  std::filesystem::path studies, results;
};
PathOverrides& path_overrides();

}  // namespace grainlab::pipeline
