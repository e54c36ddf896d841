#pragma once
// The balls' flight records grouped by neighbour cell: each cell's records lie contiguously in `capacity`
// slots of one array, so a neighbour scan reads a cell's balls without an index to follow (in a gas, 100
// pair checks per collision are the main cost). Capacity doubles when a cell fills. A ball moving to
// another cell takes its record along; the hole is filled by the cell's last record.
#include <algorithm>
#include <vector>

namespace grainlab::edmd {

template <class Record>
class CellStore {
 public:
  void reset(int cells, int balls) {
    cells_ = cells;
    capacity_ = 4;
    slots_.assign(std::size_t(cells) * capacity_, Record{});
    ids_.assign(slots_.size(), -1);
    count_.assign(cells, 0);
    loc_.assign(balls, -1);
  }

  void insert(int ball, int cell, const Record& r) {
    if (count_[cell] == capacity_) grow();
    const int at = cell * capacity_ + count_[cell]++;
    slots_[at] = r;
    ids_[at] = ball;
    loc_[ball] = at;
  }
  /// Takes the ball out of `cell` (the one it is in) and returns its record.
  Record remove(int ball, int cell) {
    const int at = loc_[ball], last = cell * capacity_ + --count_[cell];
    const Record r = slots_[at];
    slots_[at] = slots_[last];
    ids_[at] = ids_[last];
    loc_[ids_[at]] = at;
    loc_[ball] = -1;
    return r;
  }

  Record& operator[](int ball) { return slots_[loc_[ball]]; }
  const Record& operator[](int ball) const { return slots_[loc_[ball]]; }
  /// The slot of the ball (to recognise it in a scan).
  int slot(int ball) const { return loc_[ball]; }

  // A cell's records are first(cell)[0 .. count(cell)); the ball in slot s is id(s).
  int first_slot(int cell) const { return cell * capacity_; }
  int count(int cell) const { return count_[cell]; }
  int capacity() const { return capacity_; }
  const Record& record(int slot) const { return slots_[slot]; }
  int id(int slot) const { return ids_[slot]; }

 private:
  void grow() {
    const int old = capacity_;
    capacity_ *= 2;
    std::vector<Record> slots(std::size_t(cells_) * capacity_);
    std::vector<int> ids(slots.size(), -1);
    for (int c = 0; c < cells_; ++c)
      for (int k = 0; k < count_[c]; ++k) {
        const int from = c * old + k, to = c * capacity_ + k;
        slots[to] = slots_[from];
        ids[to] = ids_[from];
        loc_[ids[to]] = to;
      }
    slots_.swap(slots);
    ids_.swap(ids);
  }

  int cells_ = 0, capacity_ = 4;
  std::vector<Record> slots_;
  std::vector<int> ids_;    // per slot: the ball
  std::vector<int> count_;  // per cell
  std::vector<int> loc_;    // per ball: its slot
};

}  // namespace grainlab::edmd
