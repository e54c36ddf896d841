#include "core/run_warnings.hpp"

#include <algorithm>
#include <iostream>

namespace grainlab {

namespace {
thread_local RunWarnings* current = nullptr;
}  // namespace

void RunWarnings::warn(const std::string& code, const std::string& message) {
  std::lock_guard lock(mu_);
  auto it = std::find_if(items_.begin(), items_.end(), [&](const RunWarning& w) { return w.code == code; });
  if (it != items_.end()) {
    ++it->count;
    return;
  }
  items_.push_back({code, message, 1});
  if (echo_) std::cerr << "grainlab warning [" << code << "]: " << message << "\n";
}

std::vector<RunWarning> RunWarnings::list() const {
  std::lock_guard lock(mu_);
  return items_;
}

bool RunWarnings::has(const std::string& code) const {
  std::lock_guard lock(mu_);
  return std::any_of(items_.begin(), items_.end(), [&](const RunWarning& w) { return w.code == code; });
}

void RunWarnings::clear() {
  std::lock_guard lock(mu_);
  items_.clear();
}

RunWarnings& current_run_warnings() {
  static RunWarnings process_wide(true);
  return current ? *current : process_wide;
}

ScopedRunWarnings::ScopedRunWarnings(RunWarnings& w) : previous_(current) { current = &w; }
ScopedRunWarnings::~ScopedRunWarnings() { current = previous_; }

}  // namespace grainlab
