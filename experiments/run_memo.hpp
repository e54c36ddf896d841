#pragma once
// A process-wide memo for an expensive, deterministic part of a run that several runs of one study share:
// the rotating drum of Paper IV E3 is prepared once (fill, settle, spin-up) and every (variant, N_it)
// branch continues from a copy of that state (ledger E3), and each branch also needs its variant's
// N_it = 500 reference. The value must be a pure function of the key (build the key from every parameter
// that enters the computation), so a run's result is the same whether it computed the part itself or found
// it here; a process that does not share (a Slurm shard, a single run) simply recomputes it.
//
// Threading: runs execute as TBB tasks (pipeline/runner.cpp). A plain mutex around the computation could
// deadlock when the computing thread, waiting inside a nested parallel loop, steals another run that waits
// for the same key; tbb::collaborative_call_once runs the computation in isolation and lets the waiting
// threads help with its parallel work. A computation that throws is retried by the next caller.
// Values are kept for the life of the process (a few prepared worlds: small).
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <tbb/collaborative_call_once.h>

namespace grainlab {

template <class T>
std::shared_ptr<const T> memoized(const std::string& key, const std::function<T()>& compute) {
  struct Slot {
    tbb::collaborative_once_flag once;
    std::shared_ptr<const T> value;
  };
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<Slot>> slots;
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard lock(mutex);
    auto& s = slots[key];
    if (!s) s = std::make_shared<Slot>();
    slot = s;
  }
  tbb::collaborative_call_once(slot->once, [&] { slot->value = std::make_shared<const T>(compute()); });
  return slot->value;
}

}  // namespace grainlab
