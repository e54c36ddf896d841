#pragma once
// A thread-count limit owned by a stepper (issue 27 item 6): World::threads > 0 runs each step inside a
// tbb::task_arena of that many threads; 0 (the default) runs it in the caller's arena, as before. Results
// do not depend on the thread count (both steppers are deterministic across thread counts: see their
// headers), so the setting changes only the speed.
#include <memory>

#include <tbb/task_arena.h>

namespace grainlab {

class ThreadArena {
 public:
  ThreadArena() = default;
  // A copy gets its own arena (made at its first use): arenas are not shared between steppers.
  ThreadArena(const ThreadArena&) {}
  ThreadArena& operator=(const ThreadArena&) { return *this; }
  ThreadArena(ThreadArena&&) noexcept = default;
  ThreadArena& operator=(ThreadArena&&) noexcept = default;

  /// Runs f() with at most `threads` threads (<= 0: in the caller's arena).
  template <class F>
  void run(int threads, F&& f) {
    if (threads <= 0) {
      f();
      return;
    }
    if (!arena_ || threads_ != threads) {
      arena_ = std::make_unique<tbb::task_arena>(threads);
      threads_ = threads;
    }
    arena_->execute(f);
  }
  /// Threads of the arena in use (0: none made yet).
  int threads() const { return threads_; }

 private:
  std::unique_ptr<tbb::task_arena> arena_;
  int threads_ = 0;
};

}  // namespace grainlab
