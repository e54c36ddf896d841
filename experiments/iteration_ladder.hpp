#pragma once
// An N_it ladder parameter ("10,25,50"): the iteration counts one preparation is continued with.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

/// Positive integers, comma-separated, strictly increasing; empty text = no rungs. InputError naming
/// `experiment` and the offending item otherwise.
inline std::vector<int> parse_iteration_ladder(const std::string& experiment, const std::string& text) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || item.find_first_not_of(' ', used) != std::string::npos || v < 1 || (!out.empty() && v <= out.back()))
      throw InputError(fmt::format("{}: iteration_ladder = '{}': '{}' is not a positive integer above the previous one "
                                   "(comma-separated, increasing)", experiment, text, item));
    out.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

}  // namespace grainlab
