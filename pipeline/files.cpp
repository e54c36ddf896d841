// Checked file writes (see files.hpp). POSIX calls, so that close() and rename() errors are seen.
#include "pipeline/files.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include <fmt/format.h>

#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {
[[noreturn]] void fail(const std::string& what, const fs::path& path, int err) {
  throw std::runtime_error(fmt::format("cannot {} {}: {}", what, path.string(), std::strerror(err)));
}
}  // namespace

void write_file(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create", path, errno);
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      ::close(fd);
      fail("write", path, err);
    }
    p += n;
    left -= size_t(n);
  }
  // Some filesystems (NFS, quotas) report a full disk only at fsync or close.
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int err = errno;
    ::close(fd);
    fail("write", path, err);
  }
  if (::close(fd) != 0) fail("write", path, errno);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void require_writable(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("results folder {} cannot be created: {}", dir.string(), ec.message()));
  const fs::path probe = dir / fmt::format(".write-probe-{}-{}", host_name(), ::getpid());
  try {
    write_file(probe, "probe\n");
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("results folder {} is not writable ({})", dir.string(), e.what()));
  }
  fs::remove(probe, ec);
}

}  // namespace grainlab::pipeline
