#include "pipeline/version.hpp"

#include <unistd.h>

namespace grainlab {

std::string version_string() { return GRAINLAB_GIT_VERSION; }
std::string build_type() { return GRAINLAB_BUILD_TYPE; }
std::string source_dir() { return GRAINLAB_SOURCE_DIR; }
std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

}  // namespace grainlab
