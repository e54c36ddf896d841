#include "pipeline/version.hpp"

#include <chrono>
#include <ctime>
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
std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace grainlab
