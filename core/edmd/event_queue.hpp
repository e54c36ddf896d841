#pragma once
// The event calendar, with lazy invalidation. An event records the event counters of the balls it
// involves when it was scheduled; a ball's counter grows whenever its trajectory changes, so an event
// popped with an outdated counter is stale and skipped (no search-and-delete).
// Simultaneous events are ordered by a random tie key drawn when they are scheduled (002 l.648).
//
// Layout (Rapaport's / DynamO's two-level calendar): every event belongs to the ball that predicted it
// (Event::a) and sits in that ball's short unsorted list; a queue over the balls (ball_queue.hpp), keyed by
// each ball's earliest listed event, gives the next event. The queue has one entry per ball instead of one
// per scheduled event, and a collision drops all events of the ball at once (clear) instead of leaving
// them queued. Events leave in the same (time, tie) order as from a single heap of all events. The one
// event without a ball (the wall law's half-period switch) is held apart.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/edmd/ball_queue.hpp"

namespace grainlab::edmd {

enum class EventType : std::uint8_t { pair, wall, cell, half_period };

struct Event {
  double time = 0;
  std::uint32_t tie = 0;     ///< random order for equal times
  EventType type = EventType::pair;
  std::uint8_t detail = 0;   ///< wall id, or cell face (axis * 2 + (upward ? 1 : 0))
  std::int32_t a = -1, b = -1;
  std::uint32_t count_a = 0, count_b = 0;  ///< counters at scheduling (count_b: the lid epoch for lid events)
};

/// x happens before y: earlier time, or the same time and a smaller tie key.
inline bool earlier(const Event& x, const Event& y) { return x.time < y.time || (x.time == y.time && x.tie < y.tie); }

class EventCalendar {
 public:
  /// One (empty) list per ball.
  void reset(int balls) {
    lists_.assign(balls, {});
    best_.assign(balls, -1);
    dirty_flag_.assign(balls, 0);
    dirty_.clear();
    queue_.reset(balls);
    has_global_ = false;
  }

  /// Schedules e: into the list of ball e.a, or (e.a < 0) as the single ball-free event.
  void add(const Event& e) {
    if (e.a < 0) {
      global_ = e;
      has_global_ = true;
      return;
    }
    lists_[e.a].push_back(e);
    touch(e.a);
  }
  /// Drops every event of `ball` (its counter changed: they are all stale).
  void clear(int ball) {
    lists_[ball].clear();
    touch(ball);
  }

  bool empty() {
    settle();
    return !has_global_ && queue_.top() < 0;
  }
  /// The earliest event (possibly stale); the calendar must not be empty.
  const Event& top() {
    settle();
    const int ball = queue_.top();
    if (ball < 0) return global_;
    const Event& e = lists_[ball][best_[ball]];
    return has_global_ && earlier(global_, e) ? global_ : e;
  }
  /// Removes the event top() returned.
  void pop() {
    const Event& t = top();
    if (has_global_ && &t == &global_) {
      has_global_ = false;
      return;
    }
    const int ball = queue_.top();
    std::vector<Event>& list = lists_[ball];
    list[best_[ball]] = list.back();
    list.pop_back();
    touch(ball);
  }

 private:
  void touch(int ball) {
    if (!dirty_flag_[ball]) dirty_flag_[ball] = 1, dirty_.push_back(ball);
  }
  // Recomputes the earliest event of every touched ball and re-keys it in the queue.
  void settle() {
    for (const int ball : dirty_) {
      dirty_flag_[ball] = 0;
      const std::vector<Event>& list = lists_[ball];
      int b = list.empty() ? -1 : 0;
      for (int k = 1; k < static_cast<int>(list.size()); ++k)
        if (earlier(list[k], list[b])) b = k;
      best_[ball] = b;
      if (b < 0) queue_.set(ball, std::numeric_limits<double>::infinity(), 0);
      else queue_.set(ball, list[b].time, list[b].tie);
    }
    dirty_.clear();
  }

  std::vector<std::vector<Event>> lists_;  // per ball, unsorted
  std::vector<int> best_;                  // index of the earliest event in the ball's list, -1: none
  BallQueue queue_;                        // balls by their earliest event
  std::vector<char> dirty_flag_;
  std::vector<int> dirty_;                 // balls whose list changed since the last settle
  Event global_;
  bool has_global_ = false;
};

}  // namespace grainlab::edmd
