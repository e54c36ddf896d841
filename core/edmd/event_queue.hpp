#pragma once
// The event calendar: a binary heap with lazy invalidation. An event records the event counters of the
// balls it involves when it was scheduled; a ball's counter grows whenever its trajectory changes, so an
// event popped with an outdated counter is stale and skipped (no search-and-delete in the heap).
// Simultaneous events are ordered by a random tie key drawn when they are scheduled (002 l.648).
#include <cstdint>
#include <queue>
#include <vector>

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

struct EventLater {
  bool operator()(const Event& x, const Event& y) const {
    return x.time > y.time || (x.time == y.time && x.tie > y.tie);
  }
};

using EventQueue = std::priority_queue<Event, std::vector<Event>, EventLater>;

}  // namespace grainlab::edmd
