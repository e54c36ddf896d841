// Per-run locks and attempt records (see run_lock.hpp).
#include "pipeline/run_lock.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {
int open_lock_file(const fs::path& file) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot open lock {}: {}", file.string(), std::strerror(errno)));
  return fd;
}

std::string read_fd(int fd) {
  std::string s;
  char buf[512];
  ssize_t n;
  off_t off = 0;
  while ((n = ::pread(fd, buf, sizeof buf, off)) > 0) s.append(buf, size_t(n)), off += n;
  return s;
}

Attempt parse_attempt(const std::string& text) {
  Attempt a;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string k = line.substr(0, eq), v = line.substr(eq + 1);
    if (k == "host") a.host = v;
    else if (k == "pid") a.pid = std::strtol(v.c_str(), nullptr, 10);
    else if (k == "started_utc") a.started_utc = v;
    else if (k == "log") a.log = v;
    else if (k == "error") a.error = v;
  }
  return a;
}
}  // namespace

std::string Attempt::describe() const {
  return fmt::format("{}:{} since {}{}", host, pid, started_utc, log.empty() ? "" : ", log " + log);
}

std::optional<RunLock> RunLock::try_acquire(const fs::path& lock_file) {
  const int fd = open_lock_file(lock_file);
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return RunLock(fd);
  const int err = errno;
  ::close(fd);
  if (err == EWOULDBLOCK) return std::nullopt;
  throw std::runtime_error(fmt::format("cannot lock {}: {}", lock_file.string(), std::strerror(err)));
}

RunLock RunLock::acquire(const fs::path& lock_file) {
  const int fd = open_lock_file(lock_file);
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd);
    throw std::runtime_error(fmt::format("cannot lock {}: {}", lock_file.string(), std::strerror(err)));
  }
  return RunLock(fd);
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

void RunLock::record_attempt(const Attempt& a) {
  std::string error = a.error;
  std::replace(error.begin(), error.end(), '\n', ' ');
  const std::string text =
      fmt::format("host={}\npid={}\nstarted_utc={}\nlog={}\nerror={}\n", a.host, a.pid, a.started_utc, a.log, error);
  // A lost record only makes a later report less informative; the lock itself is what protects.
  if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, text.data(), text.size(), 0) < 0) (void)::ftruncate(fd_, 0);
}

void RunLock::clear_attempt() { (void)::ftruncate(fd_, 0); }

LockStatus probe_lock(const fs::path& lock_file) {
  LockStatus s;
  const int fd = ::open(lock_file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return s;
  const std::string text = read_fd(fd);
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0) s.state = LockState::held;
  else if (!text.empty()) s.state = LockState::interrupted;
  ::close(fd);
  s.attempt = parse_attempt(text);
  return s;
}

Attempt current_attempt() {
  Attempt a;
  a.host = host_name();
  a.pid = long(::getpid());
  a.started_utc = utc_now();
  if (const char* log = std::getenv("GRAINLAB_LOG")) a.log = log;
  return a;
}

}  // namespace grainlab::pipeline
