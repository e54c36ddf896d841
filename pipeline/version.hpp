#pragma once
// What a run records about the code that produced it.
#include <string>

namespace grainlab {

std::string version_string();  ///< git describe of the source tree at configure time, e.g. "a1b2c3d4e5f6-dirty"
std::string build_type();      ///< CMake build type (Release, Debug, ...)
std::string source_dir();      ///< the source tree (studies/ and validation/ are found relative to it)
std::string host_name();
std::string utc_now();         ///< e.g. "2026-11-26T01:33:45Z"

}  // namespace grainlab
