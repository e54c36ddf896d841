#pragma once
// Event-driven hard-sphere molecular dynamics (Gavrilov Ch. 3, recipe in the ledger §1.1): balls in a
// vertical cylinder with a flat bottom and lid that shake along z on the law (3.19), gravity along -z.
// Between events every ball flies on its exact parabola (3.2); events are pair and wall collisions
// (contact_time.hpp, collision_law.hpp), cell-face crossings of the neighbour grid and the half-period
// switches of the wall law (002 l.858). Predicting a ball schedules ALL its future collisions with its
// neighbours, not only the first (002 l.845-854); stale events are dropped by counters (event_queue.hpp).
// Guards: random order for simultaneous events and a stall detector (InstabilityError) for a clock that
// stops advancing (inelastic collapse, 002 l.875). Optional TC model (Luding & McNamara 98, 002 l.554):
// a collision within t_c of a ball's previous one is elastic. Deterministic for a given seed.
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "core/edmd/cell_store.hpp"
#include "core/edmd/event_queue.hpp"
#include "core/edmd/shake_law.hpp"
#include "core/edmd/stall_guard.hpp"
#include "core/scalar3.hpp"

namespace grainlab::edmd {

struct Cylinder {
  double radius = 0.0315;  ///< m, inner radius
  double height = 0.103;   ///< m, bottom to lid
  ShakeLaw motion;         ///< offset of the whole cylinder along z
};

struct Settings {
  double gravity = 9.81;        ///< m/s^2 along -z
  double restitution_pair = 1;  ///< eps_bb, Eq. (3.16)
  double restitution_wall = 1;  ///< eps_bw, Eq. (3.17)
  double cell_size = 0;         ///< neighbour cells (m); 0: automatic (~1 ball per cell, >= largest diameter)
  bool schedule_all = true;     ///< false: only the earliest collision per prediction (Fig. 3.6, for tests)
  double tc = 0;                ///< TC model duration, s (0: off, the thesis's model)
  std::uint64_t stall_events = 10000;  ///< consecutive events that each advance the clock by < stall_dt: stall
  double stall_dt = 1e-13;             ///< s
  std::uint64_t seed = 1;       ///< tie keys for simultaneous events
};

enum Wall : std::uint8_t { bottom = 0, top = 1, side = 2 };

struct Tally {
  std::uint64_t pair = 0;
  std::uint64_t wall[3] = {0, 0, 0};
  std::uint64_t cell_crossings = 0, half_periods = 0, stale = 0;
  double loss_pair = 0, loss_wall = 0;  ///< J dissipated, Eq. (3.16)/(3.17)
  double wall_work = 0;                 ///< J, (1 + eps) m v20 (v20 - v10) summed
  double wall_work_printed = 0;         ///< J, the thesis's Eq. (3.18), 2 m v20 (v20 - v10) (exact for eps = 1 only)
  double impulse[3] = {0, 0, 0};        ///< N s transferred to each wall
  std::uint64_t wall_total() const { return wall[0] + wall[1] + wall[2]; }
  std::uint64_t collisions() const { return pair + wall_total(); }
};

/// One collision as the tests and diagnostics see it: ball `a` with ball `b`, or with wall `wall` (b = -1).
struct CollisionRecord {
  double time;
  int a, b, wall;
  double speed_after_normal;  ///< a's normal velocity after the collision (wall: along the inward normal)
};

class System {
 public:
  System(const Cylinder& cylinder, const Settings& settings);

  /// Adds a ball before start(); throws InputError if it does not fit inside the cylinder.
  int add_ball(const S3& position, const S3& velocity, double radius, double mass);
  /// Builds the neighbour grid and schedules every ball's events at time `t0`.
  void start(double t0 = 0);
  /// Processes every event with time <= t, then sets the clock to t. Throws InstabilityError on a stall.
  void run_until(double t);

  double time() const { return now_; }
  int size() const { return static_cast<int>(balls_.size()); }
  S3 position(int i) const;
  S3 velocity(int i) const;
  double radius(int i) const { return flight(i).r; }
  double mass(int i) const { return balls_[i].m; }
  double kinetic_energy() const;
  double potential_energy() const;  ///< sum m g z
  const Tally& tally() const { return tally_; }
  const Cylinder& cylinder() const { return cyl_; }
  std::uint64_t events_processed() const { return events_; }
  /// Every collision is passed here when set (tests, diagnostics).
  std::function<void(const CollisionRecord&)> on_collision;

 private:
  // What a pair prediction reads of a neighbour: one cache line, kept in its cell (cell_store.hpp).
  struct alignas(64) Flight {
    S3 x0, v0;  // state at t0
    double t0 = 0, r = 0;
  };
  struct Ball {
    double m = 0, last_collision = -1e300;
    std::uint32_t counter = 0;
    int cell[3] = {0, 0, 0};
  };

  const Flight& flight(int i) const { return started_ ? cells_[i] : initial_[i]; }
  Flight& flight(int i) { return started_ ? cells_[i] : initial_[i]; }
  S3 pos_at(const Flight& f, double t) const;
  S3 vel_at(const Flight& f, double t) const;
  void advance(int i);  // reference state to now_
  int cell_index(const int c[3]) const { return (c[2] * n_[1] + c[1]) * n_[0] + c[0]; }
  void move_to_cell(int i, int axis, int step);  // one cell along `axis`, step = +-1

  void predict(int i);                        // all events of ball i
  void predict_pairs_in(int i, const int lo[3], const int hi[3], Event& best, bool& have);
  void predict_walls(int i, Event& best, bool& have);
  void predict_lids(int i, Event& best, bool& have);
  void predict_cell(int i);
  void push(Event e);
  void consider(const Event& e, Event& best, bool& have);

  void do_pair(const Event& e);
  void do_wall(const Event& e);
  void do_cell(const Event& e);
  void do_half_period();
  bool stale(const Event& e) const;
  void bump(int i);  // the ball's trajectory changed: new counter, its events dropped
  void guard_stall(double t_event, const Event& e);

  Cylinder cyl_;
  Settings set_;
  std::vector<Ball> balls_;
  std::vector<Flight> initial_;  // the balls' flights until start() files them into cells_
  CellStore<Flight> cells_;
  std::vector<int> scan_;  // slots of the cells predict_pairs_in scans
  int n_[3] = {1, 1, 1};
  double lo_[3] = {0, 0, 0}, cell_[3] = {1, 1, 1};
  EventCalendar calendar_;
  std::mt19937 tie_rng_;
  double now_ = 0;
  long half_index_ = 0;
  std::uint32_t lid_epoch_ = 0;
  bool started_ = false;
  Tally tally_;
  std::uint64_t events_ = 0;
  StallGuard stall_;
};

}  // namespace grainlab::edmd
