#include "pipeline/locate.hpp"

#include <system_error>

namespace grainlab::pipeline {
namespace fs = std::filesystem;

bool is_project_root(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_regular_file(dir / ".grainlab-root", ec)) return true;
  return fs::is_directory(dir / "studies", ec) && fs::is_regular_file(dir / "validation" / "claims.csv", ec);
}

std::optional<fs::path> find_project_root(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(start, ec), ec);
  if (ec) return std::nullopt;
  while (true) {
    if (is_project_root(dir)) return dir;
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

PathOverrides& path_overrides() {
  static PathOverrides o;
  return o;
}

}  // namespace grainlab::pipeline
