#pragma once
// FNV-1a, 64 bits: a fast checksum for corruption and a stable key for parameter sets (not
// cryptographic). Used by checkpoints, the result store's run keys and its completion checksums.
#include <cstdint>
#include <string_view>

namespace grainlab {

inline std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace grainlab
