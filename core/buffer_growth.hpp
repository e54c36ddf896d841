#pragma once
// Growth of the buffers that follow the candidate or contact list (the list itself, what is kept
// parallel to it, the steppers' per-candidate and per-row arrays). The candidate count drifts up and down from rebuild to rebuild:
// growing by an eighth, rather than by the doubling of a plain resize, keeps these buffers near their
// size (with doubling a settled 10k bed held 1.9x its candidates in capacity).
#include <cstddef>
#include <vector>

namespace grainlab {

template <class T>
void reserve_with_headroom(std::vector<T>& v, std::size_t n) {
  if (n > v.capacity()) v.reserve(n + n / 8);
}

/// Bytes a vector holds (its capacity), for memory reports.
template <class T>
std::size_t capacity_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

template <class T>
void resize_with_headroom(std::vector<T>& v, std::size_t n) {
  reserve_with_headroom(v, n);
  v.resize(n);
}

}  // namespace grainlab
