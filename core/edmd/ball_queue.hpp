#pragma once
// A calendar (bucket) queue holding one key (time, tie) per ball: the ball whose next event comes first.
// Buckets of width w cover a ring of B buckets ahead of the current one; keys further ahead wait in an
// overflow list and move into the ring as it advances. With w near the mean gap between keys, a bucket
// holds about one key, so setting a key and finding the smallest cost O(1) instead of a heap's O(log N)
// (Brown 1988; DynamO's sorted bounded queue). The smallest key is found exactly — the smallest (time, tie)
// of the first non-empty bucket — so events leave in the same order as from a heap.
// w is set from the spread of the keys at the first top() and again whenever the ring runs empty.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace grainlab::edmd {

class BallQueue {
 public:
  /// `balls` balls, none with a key.
  void reset(int balls) {
    keys_.assign(balls, {never_, 0});
    where_.assign(balls, none_);
    next_.assign(balls, -1);
    prev_.assign(balls, -1);
    buckets_ = 64;
    while (buckets_ < balls) buckets_ *= 2;
    head_.assign(buckets_ + 1, -1);
    in_ring_ = 0;
    overflow_min_ = never_;
    tuned_ = false;
    top_ = -1;
  }

  /// Sets the ball's key; time = +infinity removes it.
  void set(int ball, double time, std::uint32_t tie) {
    if (where_[ball] != none_) unlink(ball);
    keys_[ball] = {time, tie};
    if (time != never_) place(ball);
    top_ = -1;
  }

  /// The ball with the smallest (time, tie); -1 when no ball has a key.
  int top() {
    if (top_ >= 0) return top_;
    if (!tuned_) tune();
    if (in_ring_ == 0) {
      if (head_[buckets_] < 0) return -1;
      tune();  // the ring ran empty: jump to the earliest overflow key
    }
    while (head_[slot(current_)] < 0) {
      ++current_;
      if (overflow_min_ * inverse_width_ < double(current_ + buckets_)) refill();
    }
    int best = head_[slot(current_)];
    for (int b = next_[best]; b >= 0; b = next_[b])
      if (before(keys_[b], keys_[best])) best = b;
    return top_ = best;
  }

 private:
  struct Key {
    double time;
    std::uint32_t tie;
  };
  static constexpr double never_ = std::numeric_limits<double>::infinity();
  static constexpr int none_ = -1;
  static bool before(const Key& x, const Key& y) { return x.time < y.time || (x.time == y.time && x.tie < y.tie); }

  int slot(std::int64_t bucket) const { return static_cast<int>(bucket & (buckets_ - 1)); }
  int overflow() const { return buckets_; }

  void link(int ball, int list) {
    where_[ball] = list;
    prev_[ball] = -1;
    next_[ball] = head_[list];
    if (next_[ball] >= 0) prev_[next_[ball]] = ball;
    head_[list] = ball;
    if (list != overflow()) ++in_ring_;
  }
  void unlink(int ball) {
    const int list = where_[ball];
    if (prev_[ball] >= 0) next_[prev_[ball]] = next_[ball];
    else head_[list] = next_[ball];
    if (next_[ball] >= 0) prev_[next_[ball]] = prev_[ball];
    if (list != overflow()) --in_ring_;
    where_[ball] = none_;
  }
  // Into its bucket (one before the current goes into the current one), or the overflow list.
  void place(int ball) {
    const double t = keys_[ball].time;
    if (!tuned_ || t * inverse_width_ >= double(current_ + buckets_)) {
      link(ball, overflow());
      if (t < overflow_min_) overflow_min_ = t;
      return;
    }
    const std::int64_t bucket = std::max(current_, static_cast<std::int64_t>(std::floor(t * inverse_width_)));
    link(ball, slot(bucket));
  }
  // Moves the overflow keys that the ring now reaches into it.
  void refill() {
    overflow_min_ = never_;
    for (int b = head_[overflow()]; b >= 0;) {
      const int next = next_[b];
      unlink(b);
      place(b);
      b = next;
    }
  }
  // Width from the spread of all keys (about one key per bucket), current bucket at the earliest key,
  // every key re-placed.
  void tune() {
    double lo = never_, hi = -never_;
    int n = 0;
    for (std::size_t b = 0; b < keys_.size(); ++b)
      if (where_[b] != none_) lo = std::min(lo, keys_[b].time), hi = std::max(hi, keys_[b].time), ++n;
    if (n == 0) return;
    const double width = hi > lo ? (hi - lo) / n : std::max(std::abs(lo), 1.0) * 1e-9;
    inverse_width_ = 1 / width;
    current_ = static_cast<std::int64_t>(std::floor(lo * inverse_width_));
    tuned_ = true;
    for (std::size_t b = 0; b < keys_.size(); ++b)
      if (where_[b] != none_) unlink(int(b));
    overflow_min_ = never_;
    for (std::size_t b = 0; b < keys_.size(); ++b)
      if (keys_[b].time != never_) place(int(b));
  }

  std::vector<Key> keys_;
  std::vector<int> where_;       // per ball: its bucket slot, overflow(), or none_
  std::vector<int> next_, prev_; // per ball: its list (bucket or overflow), doubly linked
  std::vector<int> head_;        // per bucket slot, then the overflow list
  int buckets_ = 64;             // a power of two
  int in_ring_ = 0;
  std::int64_t current_ = 0;     // absolute index of the current bucket: floor(time / width)
  double inverse_width_ = 1;
  double overflow_min_ = never_; // no overflow key is earlier (a lower bound: removals do not raise it)
  bool tuned_ = false;
  int top_ = -1;                 // cached answer of top(), -1: unknown
};

}  // namespace grainlab::edmd
