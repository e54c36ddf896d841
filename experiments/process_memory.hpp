#pragma once
// Resident memory of this process from /proc/self/status (Linux): VmRSS now and VmHWM, the peak since the
// start or since the last reset_peak_rss(). Used to measure memory per particle (Paper II E5, P2-C26).
#include <optional>

namespace grainlab {

struct ProcessMemory {
  double rss_bytes = 0;       ///< VmRSS
  double peak_rss_bytes = 0;  ///< VmHWM
};

/// Reads /proc/self/status; nullopt where it is missing or lacks the fields (not Linux). `unit_bytes`: the
/// size of the unit the file's "kB" stands for (the kernel's is 1024).
std::optional<ProcessMemory> read_process_memory(double unit_bytes = 1024.0);

/// Resets VmHWM to the current VmRSS (writes "5" to /proc/self/clear_refs, Linux >= 4.0); false if it could not.
bool reset_peak_rss();

}  // namespace grainlab
