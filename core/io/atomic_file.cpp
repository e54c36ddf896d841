#include "core/io/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <unistd.h>

namespace grainlab::io {

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  namespace fs = std::filesystem;
  const fs::path tmp = fs::path(path.string() + fmt::format(".tmp.{}", ::getpid()));
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error(fmt::format("cannot open '{}' for writing: {}", tmp.string(), std::strerror(errno)));
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0 &&
                  ::fsync(::fileno(f)) == 0;
  const int err = errno;
  if (std::fclose(f) != 0 || !ok) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw std::runtime_error(fmt::format("cannot write '{}': {}", tmp.string(), std::strerror(ok ? errno : err)));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(fmt::format("cannot rename '{}' to '{}': {}", tmp.string(), path.string(), ec.message()));
  }
}

}  // namespace grainlab::io
