#include "core/edmd/system.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/edmd/collision_law.hpp"
#include "core/edmd/contact_time.hpp"
#include "core/error.hpp"

namespace grainlab::edmd {

System::System(const Cylinder& cylinder, const Settings& settings)
    : cyl_(cylinder), set_(settings), tie_rng_(static_cast<std::uint32_t>(settings.seed)),
      stall_(settings.stall_events, settings.stall_dt) {
  if (!(cyl_.radius > 0)) throw InputError("edmd: cylinder radius must be > 0");
  if (!(cyl_.height > 0)) throw InputError("edmd: cylinder height must be > 0");
  if (cyl_.motion.amplitude < 0 || cyl_.motion.frequency < 0)
    throw InputError("edmd: shake amplitude and frequency must be >= 0");
  if (!(set_.restitution_pair >= 0 && set_.restitution_pair <= 1))
    throw InputError("edmd: restitution_pair must be in [0, 1]");
  if (!(set_.restitution_wall >= 0 && set_.restitution_wall <= 1))
    throw InputError("edmd: restitution_wall must be in [0, 1]");
  if (!(set_.gravity >= 0)) throw InputError("edmd: gravity must be >= 0");
}

int System::add_ball(const S3& x, const S3& v, double r, double m) {
  if (started_) throw InputError("edmd: add_ball after start");
  if (!(r > 0) || !(m > 0)) throw InputError("edmd: ball radius and mass must be > 0");
  const double rho2 = x.x * x.x + x.y * x.y;
  if (rho2 > (cyl_.radius - r) * (cyl_.radius - r) || x.z < r || x.z > cyl_.height - r)
    throw InputError("edmd: ball position outside the cylinder");
  Flight f;
  f.x0 = x, f.v0 = v, f.r = r;
  initial_.push_back(f);
  Ball b;
  b.m = m;
  balls_.push_back(b);
  return size() - 1;
}

S3 System::pos_at(const Flight& b, double t) const {
  const double s = t - b.t0;
  S3 p = b.x0 + b.v0 * s;
  p.z -= 0.5 * set_.gravity * s * s;
  return p;
}

S3 System::vel_at(const Flight& b, double t) const {
  S3 v = b.v0;
  v.z -= set_.gravity * (t - b.t0);
  return v;
}

S3 System::position(int i) const { return pos_at(flight(i), now_); }
S3 System::velocity(int i) const { return vel_at(flight(i), now_); }

void System::advance(int i) {
  Flight& b = flight(i);
  b.x0 = pos_at(b, now_);
  b.v0 = vel_at(b, now_);
  b.t0 = now_;
}

double System::kinetic_energy() const {
  double e = 0;
  for (int i = 0; i < size(); ++i) e += 0.5 * balls_[i].m * vel_at(flight(i), now_).squaredNorm();
  return e;
}

double System::potential_energy() const {
  double e = 0;
  for (int i = 0; i < size(); ++i) e += balls_[i].m * set_.gravity * pos_at(flight(i), now_).z;
  return e;
}

void System::move_to_cell(int i, int axis, int step) {
  const Flight f = cells_.remove(i, cell_index(balls_[i].cell));
  balls_[i].cell[axis] += step;
  cells_.insert(i, cell_index(balls_[i].cell), f);
}

void System::start(double t0) {
  if (started_) throw InputError("edmd: start called twice");
  now_ = t0;
  double rmax = 0;
  for (const Flight& f : initial_) rmax = std::max(rmax, f.r);
  const double A = cyl_.motion.moving() ? cyl_.motion.amplitude : 0.0;
  const double span[3] = {2 * cyl_.radius, 2 * cyl_.radius, cyl_.height + 2 * A};
  double c = set_.cell_size;
  if (c <= 0) {
    const double volume = span[0] * span[1] * span[2];
    c = std::cbrt(volume / std::max<std::size_t>(balls_.size(), 1));
  }
  c = std::max(c, 2 * rmax * (1 + 1e-9));
  lo_[0] = lo_[1] = -cyl_.radius;
  lo_[2] = -A;
  for (int a = 0; a < 3; ++a) {
    n_[a] = std::max(1, static_cast<int>(std::floor(span[a] / c)));
    cell_[a] = span[a] / n_[a];
  }
  cells_.reset(n_[0] * n_[1] * n_[2], size());
  calendar_.reset(size());
  const double z_offset = cyl_.motion.position(t0);
  for (int i = 0; i < size(); ++i) {
    Flight& f = initial_[i];
    f.x0.z += z_offset;
    f.t0 = t0;
    const double p[3] = {f.x0.x, f.x0.y, f.x0.z};
    for (int a = 0; a < 3; ++a)
      balls_[i].cell[a] = std::clamp(static_cast<int>(std::floor((p[a] - lo_[a]) / cell_[a])), 0, n_[a] - 1);
    cells_.insert(i, cell_index(balls_[i].cell), f);
  }
  initial_.clear();
  started_ = true;
  half_index_ = cyl_.motion.half_period_index(t0);
  if (cyl_.motion.moving()) {
    Event e;
    e.time = cyl_.motion.half_period_start(half_index_ + 1);
    e.type = EventType::half_period;
    push(e);
  }
  for (int i = 0; i < size(); ++i) predict(i);
}

void System::push(Event e) {
  e.tie = static_cast<std::uint32_t>(tie_rng_());
  calendar_.add(e);
}

void System::consider(const Event& e, Event& best, bool& have) {
  if (set_.schedule_all) {
    push(e);
  } else if (!have || e.time < best.time) {
    best = e;
    have = true;
  }
}

void System::predict(int i) {
  const Ball& b = balls_[i];
  Event best;
  bool have = false;
  int lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::max(0, b.cell[a] - 1);
    hi[a] = std::min(n_[a] - 1, b.cell[a] + 1);
  }
  predict_pairs_in(i, lo, hi, best, have);
  predict_walls(i, best, have);
  if (have) push(best);
  predict_cell(i);
}

void System::predict_pairs_in(int i, const int lo[3], const int hi[3], Event& best, bool& have) {
  // The slots of every scanned cell first, into one list: a loop per cell would mispredict its exit at
  // almost every cell (a gas has 0-3 balls per cell), each time discarding the loads in flight.
  const int capacity = cells_.capacity();
  scan_.resize(std::size_t(27) * capacity);
  int n = 0;
  for (int z = lo[2]; z <= hi[2]; ++z)
    for (int y = lo[1]; y <= hi[1]; ++y)
      for (int x = lo[0]; x <= hi[0]; ++x) {
        const int c[3] = {x, y, z};
        const int cell = cell_index(c), first = cells_.first_slot(cell);
        for (int k = 0; k < capacity; ++k) scan_[n + k] = first + k;  // fixed trip count; only count are kept
        n += cells_.count(cell);
      }
  const Flight& fi = cells_[i];
  const int self = cells_.slot(i);
  const double now = now_;  // locals: the loop must not reload them after every store it cannot see through
  const S3 pi = pos_at(fi, now), vi = vel_at(fi, now);
  for (int k = 0; k < n; ++k) {
    const int s = scan_[k];
    const Flight& fj = cells_.record(s);
    const S3 dx = pos_at(fj, now) - pi, dv = vel_at(fj, now) - vi;
    const double sigma = fi.r + fj.r, h0 = dx.squaredNorm() - sigma * sigma, w = 2 * dx.dot(dv);
    const double alpha = 2 * dv.squaredNorm();
    // approach_root is `never` unless the gap closes (w <= 0) and is closed or has real roots: one
    // branch, rarely taken in a gas, instead of several unpredictable ones.
    const bool may_meet = (w <= 0) & ((h0 <= 0) | (w * w - 2 * alpha * h0 > 0)) & (s != self);
    if (!may_meet) continue;
    const double tau = approach_root(h0, w, alpha);
    if (tau == never) continue;
    const int j = cells_.id(s);
    Event e;
    e.time = now + tau;
    e.type = EventType::pair;
    e.a = i, e.b = j, e.count_a = balls_[i].counter, e.count_b = balls_[j].counter;
    consider(e, best, have);
  }
}

void System::predict_walls(int i, Event& best, bool& have) {
  const Flight& f = flight(i);
  const S3 p = pos_at(f, now_), v = vel_at(f, now_);
  const double R = cyl_.radius - f.r;
  const double tau = approach_root(R * R - (p.x * p.x + p.y * p.y), -2 * (p.x * v.x + p.y * v.y),
                                   -2 * (v.x * v.x + v.y * v.y));
  if (tau != never) {
    Event e;
    e.time = now_ + tau;
    e.type = EventType::wall;
    e.detail = side;
    e.a = i, e.count_a = balls_[i].counter;
    consider(e, best, have);
  }
  predict_lids(i, best, have);
}

void System::predict_lids(int i, Event& best, bool& have) {
  const Flight& f = flight(i);
  const S3 p = pos_at(f, now_), v = vel_at(f, now_);
  const ShakeLaw& law = cyl_.motion;
  const double zw = law.position(now_), vw = law.velocity(now_), aw = law.acceleration(half_index_);
  const double horizon = law.moving() ? law.half_period_start(half_index_ + 1) - now_ : never;
  const double a_wall = law.moving() ? aw : 0.0;
  const double taus[2] = {approach_root(p.z - f.r - zw, v.z - vw, -set_.gravity - a_wall),
                          approach_root(zw + cyl_.height - p.z - f.r, vw - v.z, set_.gravity + a_wall)};
  for (int w = 0; w < 2; ++w) {
    if (taus[w] == never || taus[w] > horizon) continue;
    Event e;
    e.time = now_ + taus[w];
    e.type = EventType::wall;
    e.detail = static_cast<std::uint8_t>(w);
    e.a = i, e.count_a = balls_[i].counter, e.count_b = lid_epoch_;
    consider(e, best, have);
  }
}

void System::predict_cell(int i) {
  const Ball& b = balls_[i];
  const S3 p = pos_at(flight(i), now_), v = vel_at(flight(i), now_);
  const double pp[3] = {p.x, p.y, p.z}, vv[3] = {v.x, v.y, v.z};
  const double acc[3] = {0, 0, -set_.gravity};
  Event e;
  e.time = never;
  for (int a = 0; a < 3; ++a) {
    const double upper = lo_[a] + (b.cell[a] + 1) * cell_[a], lower = lo_[a] + b.cell[a] * cell_[a];
    const bool has_upper = b.cell[a] + 1 < n_[a], has_lower = b.cell[a] > 0;
    if (acc[a] == 0) {  // straight flight: only the face ahead is reached (approach_root's linear case)
      double tau = never;
      std::uint8_t face = 0;
      if (vv[a] > 0 && has_upper) tau = upper - pp[a] <= 0 ? 0.0 : (upper - pp[a]) / vv[a], face = 1;
      else if (vv[a] < 0 && has_lower) tau = pp[a] - lower <= 0 ? 0.0 : -(pp[a] - lower) / vv[a];
      if (now_ + tau < e.time) e.time = now_ + tau, e.detail = static_cast<std::uint8_t>(2 * a + face);
      continue;
    }
    if (has_upper) {
      const double tau = approach_root(upper - pp[a], -vv[a], -acc[a]);
      if (now_ + tau < e.time) e.time = now_ + tau, e.detail = static_cast<std::uint8_t>(2 * a + 1);
    }
    if (has_lower) {
      const double tau = approach_root(pp[a] - lower, vv[a], acc[a]);
      if (now_ + tau < e.time) e.time = now_ + tau, e.detail = static_cast<std::uint8_t>(2 * a);
    }
  }
  if (e.time == never) return;
  e.type = EventType::cell;
  e.a = i, e.count_a = b.counter;
  push(e);
}

bool System::stale(const Event& e) const {
  switch (e.type) {
    case EventType::pair:
      return balls_[e.a].counter != e.count_a || balls_[e.b].counter != e.count_b;
    case EventType::wall:
      return balls_[e.a].counter != e.count_a || (e.detail != side && e.count_b != lid_epoch_);
    case EventType::cell:
      return balls_[e.a].counter != e.count_a;
    case EventType::half_period:
      return false;
  }
  return false;
}

void System::bump(int i) {
  ++balls_[i].counter;
  calendar_.clear(i);  // every event the ball predicted carries the old counter
}

void System::guard_stall(double t_event, const Event& e) {
  if (!stall_.stalled(now_, t_event)) return;
  std::ostringstream msg;
  msg << "edmd: the clock stalled at t = " << now_ << " s: " << stall_.count() << " consecutive events each advanced it by < "
      << set_.stall_dt << " s (last: ball " << e.a << (e.type == EventType::pair ? " with ball " : " at wall ")
      << (e.type == EventType::pair ? e.b : int(e.detail))
      << "). A lasting contact has become a dense series of ever slower collisions (inelastic collapse,"
         " Gavrilov 002 l.622, 875); use the TC model (tc > 0) or a higher restitution";
  throw InstabilityError(msg.str(), events_);
}

void System::run_until(double t) {
  if (!started_) start(now_);
  while (!calendar_.empty() && calendar_.top().time <= t) {
    const Event e = calendar_.top();
    calendar_.pop();
    if (stale(e)) {
      ++tally_.stale;
      continue;
    }
    guard_stall(e.time, e);
    now_ = std::max(now_, e.time);
    ++events_;
    switch (e.type) {
      case EventType::pair: do_pair(e); break;
      case EventType::wall: do_wall(e); break;
      case EventType::cell: do_cell(e); break;
      case EventType::half_period: do_half_period(); break;
    }
  }
  now_ = std::max(now_, t);
}

void System::do_pair(const Event& e) {
  Ball& a = balls_[e.a];
  Ball& b = balls_[e.b];
  Flight& fa = flight(e.a);
  Flight& fb = flight(e.b);
  advance(e.a);
  advance(e.b);
  S3 n = fb.x0 - fa.x0;
  n = n / n.norm();
  const double v10 = fa.v0.dot(n), v20 = fb.v0.dot(n);
  if (v20 - v10 >= 0) {  // rounding made a grazing pair separate: no impulse, just re-predict
    bump(e.a), bump(e.b);
    predict(e.a);
    predict(e.b);
    return;
  }
  const bool tc = set_.tc > 0 && (now_ - a.last_collision < set_.tc || now_ - b.last_collision < set_.tc);
  const PairOutcome o = pair_collision(a.m, b.m, v10, v20, tc ? 1.0 : set_.restitution_pair);
  fa.v0 += (o.v1 - v10) * n;
  fb.v0 += (o.v2 - v20) * n;
  a.last_collision = b.last_collision = now_;
  bump(e.a), bump(e.b);
  ++tally_.pair;
  tally_.loss_pair += o.loss;
  if (on_collision) on_collision({now_, e.a, e.b, -1, o.v1});
  predict(e.a);
  predict(e.b);
}

void System::do_wall(const Event& e) {
  Ball& a = balls_[e.a];
  Flight& fa = flight(e.a);
  advance(e.a);
  S3 n;
  double v20 = 0;
  if (e.detail == bottom) {
    n = S3(0, 0, 1);
    v20 = cyl_.motion.velocity(now_);
  } else if (e.detail == top) {
    n = S3(0, 0, -1);
    v20 = -cyl_.motion.velocity(now_);
  } else {
    n = S3(-fa.x0.x, -fa.x0.y, 0);
    n = n / n.norm();
  }
  const double v10 = fa.v0.dot(n);
  if (v20 - v10 <= 0) {  // already separating (rounding): an impulse would push the ball into the wall
    bump(e.a);
    predict(e.a);
    return;
  }
  const bool tc = set_.tc > 0 && now_ - a.last_collision < set_.tc;
  const WallOutcome o = wall_collision(a.m, v10, v20, tc ? 1.0 : set_.restitution_wall);
  fa.v0 += (o.v1 - v10) * n;
  a.last_collision = now_;
  bump(e.a);
  ++tally_.wall[e.detail];
  tally_.loss_wall += o.loss;
  tally_.wall_work += o.wall_work;
  tally_.wall_work_printed += wall_energy_printed(a.m, v10, v20);
  tally_.impulse[e.detail] += o.impulse;
  if (on_collision) on_collision({now_, e.a, -1, int(e.detail), o.v1});
  predict(e.a);
}

void System::do_cell(const Event& e) {
  ++tally_.cell_crossings;
  const int i = e.a;
  Ball& b = balls_[i];
  const int axis = e.detail / 2, step = (e.detail % 2) ? 1 : -1;
  move_to_cell(i, axis, step);
  // Newly adjacent cells: the far slab along the crossing axis.
  const int slab = b.cell[axis] + step;
  if (slab >= 0 && slab < n_[axis]) {
    int lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::max(0, b.cell[a] - 1);
      hi[a] = std::min(n_[a] - 1, b.cell[a] + 1);
    }
    lo[axis] = hi[axis] = slab;
    Event best;
    bool have = false;
    predict_pairs_in(i, lo, hi, best, have);
    if (have) push(best);
  }
  predict_cell(i);
}

void System::do_half_period() {
  ++tally_.half_periods;
  ++half_index_;
  ++lid_epoch_;
  for (int i = 0; i < size(); ++i) {
    Event best;
    bool have = false;
    predict_lids(i, best, have);
    if (have) push(best);
  }
  Event e;
  e.time = cyl_.motion.half_period_start(half_index_ + 1);
  e.type = EventType::half_period;
  push(e);
}

}  // namespace grainlab::edmd
