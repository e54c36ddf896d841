#include "experiments/process_memory.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace grainlab {

std::optional<ProcessMemory> read_process_memory(double unit_bytes) {
  std::ifstream in("/proc/self/status");
  if (!in) return std::nullopt;
  ProcessMemory m;
  bool rss = false, hwm = false;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    double value = 0;
    fields >> key >> value;
    if (key == "VmRSS:") m.rss_bytes = value * unit_bytes, rss = true;
    if (key == "VmHWM:") m.peak_rss_bytes = value * unit_bytes, hwm = true;
  }
  if (!rss || !hwm) return std::nullopt;
  return m;
}

bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return bool(out);
}

}  // namespace grainlab
