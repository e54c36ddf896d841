#pragma once
// One writer per run, across threads, processes and the nodes of a cluster sharing the results folder.
//
// The lock is flock(2) on <store>/.locks/<key>.lock: the kernel drops it when its holder exits or is
// killed, so a killed run never blocks a later one, and there is no file that every writer rewrites.
// (flock is honoured across hosts on NFSv4 and on Lustre/GPFS mounted with flock support.)
// While it computes, the holder writes an attempt record into the lock file (host, pid, start, log),
// and empties it once the run is stored: a non-empty lock file that nobody holds is an attempt that
// died (a killed array task, a node failure), reported with its log path.
#include <filesystem>
#include <optional>
#include <string>

namespace grainlab::pipeline {

struct Attempt {
  std::string host, started_utc, log;
  std::string error;  ///< set when the run was computed but could not be stored
  long pid = 0;
  std::string describe() const;  ///< "host:pid since T, log PATH"
};

class RunLock {
 public:
  /// Takes the lock if free; std::nullopt when another thread or process holds it.
  static std::optional<RunLock> try_acquire(const std::filesystem::path& lock_file);
  /// Waits for the lock.
  static RunLock acquire(const std::filesystem::path& lock_file);
  RunLock(RunLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  RunLock& operator=(RunLock&&) = delete;
  RunLock(const RunLock&) = delete;
  ~RunLock();

  void record_attempt(const Attempt& a);  ///< written before computing
  void clear_attempt();                   ///< once the run (ok or failed) is stored

 private:
  explicit RunLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

enum class LockState { free, held, interrupted };  ///< interrupted: free, with an attempt record left behind

struct LockStatus {
  LockState state = LockState::free;
  Attempt attempt;  ///< the record in the file (held or interrupted)
};

/// Looks at a run's lock without waiting.
LockStatus probe_lock(const std::filesystem::path& lock_file);

/// The attempt record this process would write now (host, pid, time, log from $GRAINLAB_LOG if set).
Attempt current_attempt();

}  // namespace grainlab::pipeline
