#pragma once
// Warnings a run collects when a setting silently degrades its result (issue 27 item 6; docs/guards.md):
// the guards of core/run_guards.hpp report here instead of letting a default pass unnoticed. A warning
// never changes a number; the pipeline stores a run's warnings in its provenance, prints them in the run
// log and lists them in the study report.
//
// Which collector: a stepper takes the collector of the run executing on the constructing thread
// (ScopedRunWarnings, set by the pipeline around each run); outside any scope, the process-wide
// collector, which also prints each new warning code to stderr once (a library user is told too).
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace grainlab {

struct RunWarning {
  std::string code;     ///< stable identifier, e.g. "ndem_impact_never_fired"
  std::string message;  ///< the first occurrence's text, with the numbers behind it
  std::uint64_t count = 1;  ///< occurrences (the same code from several steppers or checks)
};

class RunWarnings {
 public:
  explicit RunWarnings(bool echo_to_stderr = false) : echo_(echo_to_stderr) {}
  /// Records warning `code`: the first message is kept, later ones only counted. Thread-safe.
  void warn(const std::string& code, const std::string& message);
  /// The warnings in order of first occurrence.
  std::vector<RunWarning> list() const;
  bool has(const std::string& code) const;
  void clear();

 private:
  mutable std::mutex mu_;
  std::vector<RunWarning> items_;
  bool echo_;
};

/// The collector of the run on this thread, or the process-wide one (see the file comment).
RunWarnings& current_run_warnings();

/// Makes `w` this thread's collector for the scope's lifetime (nests: the previous one comes back).
class ScopedRunWarnings {
 public:
  explicit ScopedRunWarnings(RunWarnings& w);
  ~ScopedRunWarnings();
  ScopedRunWarnings(const ScopedRunWarnings&) = delete;
  ScopedRunWarnings& operator=(const ScopedRunWarnings&) = delete;

 private:
  RunWarnings* previous_;
};

}  // namespace grainlab
