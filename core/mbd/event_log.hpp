#pragma once
// The MBD event types of Gavrilov 1999 (002 l.1910-2024) that our engine produces, and their counts.
// Mapping (docs/gavrilov_hopper.md): predict_trajectory = one step of a linked cluster, or the start of an
// analytic free flight; insert/remove_link = contact made / separation (delta_eta > 0); slip/grip_link =
// the slip indicator crossing +-C_tolerance; stabilize_link = a link stable for the dwell (5.10);
// log_state = one logged frame; delete_bodies = disks removed below the orifice.
#include <array>
#include <cstdint>
#include <string_view>

namespace grainlab::mbd {

enum class EventType : int {
  predict_trajectory,
  insert_link,
  remove_link,
  slip_link,
  grip_link,
  stabilize_link,
  log_state,
  delete_bodies,
  count_
};

inline constexpr int event_type_count = int(EventType::count_);

inline constexpr std::array<std::string_view, event_type_count> event_type_names = {
    "predict_trajectory", "insert_link", "remove_link", "slip_link",
    "grip_link",          "stabilize_link", "log_state", "delete_bodies"};

struct EventCounts {
  std::array<std::uint64_t, event_type_count> n{};
  void add(EventType t, std::uint64_t k = 1) { n[std::size_t(t)] += k; }
  std::uint64_t operator[](EventType t) const { return n[std::size_t(t)]; }
  std::uint64_t total() const {
    std::uint64_t s = 0;
    for (auto v : n) s += v;
    return s;
  }
};

}  // namespace grainlab::mbd
