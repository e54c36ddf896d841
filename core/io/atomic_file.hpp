#pragma once
// Writing a file so that readers never see a half-written version: the bytes go to a temporary file
// in the same directory ("<name>.tmp.<pid>"), are flushed, and the temporary is renamed over the target
// (rename is atomic on POSIX file systems). Throws std::runtime_error naming the path on failure and
// removes the temporary.
#include <filesystem>
#include <string_view>

namespace grainlab::io {

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace grainlab::io
