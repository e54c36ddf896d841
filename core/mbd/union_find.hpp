#pragma once
// Disjoint sets with path halving and union by size: the connected components of FindClusters
// (Gavrilov 1999, 002 l.1871-1890) in near-linear time.
#include <numeric>
#include <utility>
#include <vector>

namespace grainlab::mbd {

class UnionFind {
 public:
  explicit UnionFind(int n) : parent_(n), size_(n, 1) { std::iota(parent_.begin(), parent_.end(), 0); }
  int find(int i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void unite(int a, int b) {
    a = find(a), b = find(b);
    if (a == b) return;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
  }

 private:
  std::vector<int> parent_, size_;
};

}  // namespace grainlab::mbd
