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
  Ball b;
  b.x0 = x, b.v0 = v, b.r = r, b.m = m;
  balls_.push_back(b);
  return size() - 1;
}

S3 System::pos_at(const Ball& b, double t) const {
  const double s = t - b.t0;
  S3 p = b.x0 + b.v0 * s;
  p.z -= 0.5 * set_.gravity * s * s;
  return p;
}

S3 System::vel_at(const Ball& b, double t) const {
  S3 v = b.v0;
  v.z -= set_.gravity * (t - b.t0);
  return v;
}

S3 System::position(int i) const { return pos_at(balls_[i], now_); }
S3 System::velocity(int i) const { return vel_at(balls_[i], now_); }

void System::advance(Ball& b) {
  b.x0 = pos_at(b, now_);
  b.v0 = vel_at(b, now_);
  b.t0 = now_;
}

double System::kinetic_energy() const {
  double e = 0;
  for (const Ball& b : balls_) e += 0.5 * b.m * vel_at(b, now_).squaredNorm();
  return e;
}

double System::potential_energy() const {
  double e = 0;
  for (const Ball& b : balls_) e += b.m * set_.gravity * pos_at(b, now_).z;
  return e;
}

void System::link(int i) {
  const int c = cell_index(balls_[i].cell);
  prev_[i] = -1;
  next_[i] = head_[c];
  if (next_[i] >= 0) prev_[next_[i]] = i;
  head_[c] = i;
}

void System::unlink(int i) {
  if (prev_[i] >= 0) next_[prev_[i]] = next_[i];
  else head_[cell_index(balls_[i].cell)] = next_[i];
  if (next_[i] >= 0) prev_[next_[i]] = prev_[i];
  next_[i] = prev_[i] = -1;
}

void System::start(double t0) {
  if (started_) throw InputError("edmd: start called twice");
  started_ = true;
  now_ = t0;
  double rmax = 0;
  for (const Ball& b : balls_) rmax = std::max(rmax, b.r);
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
  head_.assign(static_cast<std::size_t>(n_[0]) * n_[1] * n_[2], -1);
  calendar_.reset(size());
  next_.assign(size(), -1);
  prev_.assign(size(), -1);
  const double z_offset = cyl_.motion.position(t0);
  for (int i = 0; i < size(); ++i) {
    Ball& b = balls_[i];
    b.x0.z += z_offset;
    b.t0 = t0;
    const double p[3] = {b.x0.x, b.x0.y, b.x0.z};
    for (int a = 0; a < 3; ++a)
      b.cell[a] = std::clamp(static_cast<int>(std::floor((p[a] - lo_[a]) / cell_[a])), 0, n_[a] - 1);
    link(i);
  }
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
  const Ball& bi = balls_[i];
  const S3 pi = pos_at(bi, now_), vi = vel_at(bi, now_);
  for (int z = lo[2]; z <= hi[2]; ++z)
    for (int y = lo[1]; y <= hi[1]; ++y)
      for (int x = lo[0]; x <= hi[0]; ++x) {
        const int c[3] = {x, y, z};
        for (int j = head_[cell_index(c)]; j >= 0; j = next_[j]) {
          if (j == i) continue;
          const Ball& bj = balls_[j];
          const S3 dx = pos_at(bj, now_) - pi, dv = vel_at(bj, now_) - vi;
          const double sigma = bi.r + bj.r, h0 = dx.squaredNorm() - sigma * sigma, w = 2 * dx.dot(dv);
          if (h0 > 0 && w >= 0) continue;  // apart and separating (approach_root's answer, without its sqrt)
          const double tau = approach_root(h0, w, 2 * dv.squaredNorm());
          if (tau == never) continue;
          Event e;
          e.time = now_ + tau;
          e.type = EventType::pair;
          e.a = i, e.b = j, e.count_a = bi.counter, e.count_b = bj.counter;
          consider(e, best, have);
        }
      }
}

void System::predict_walls(int i, Event& best, bool& have) {
  const Ball& b = balls_[i];
  const S3 p = pos_at(b, now_), v = vel_at(b, now_);
  const double R = cyl_.radius - b.r;
  const double tau = approach_root(R * R - (p.x * p.x + p.y * p.y), -2 * (p.x * v.x + p.y * v.y),
                                   -2 * (v.x * v.x + v.y * v.y));
  if (tau != never) {
    Event e;
    e.time = now_ + tau;
    e.type = EventType::wall;
    e.detail = side;
    e.a = i, e.count_a = b.counter;
    consider(e, best, have);
  }
  predict_lids(i, best, have);
}

void System::predict_lids(int i, Event& best, bool& have) {
  const Ball& b = balls_[i];
  const S3 p = pos_at(b, now_), v = vel_at(b, now_);
  const ShakeLaw& law = cyl_.motion;
  const double zw = law.position(now_), vw = law.velocity(now_), aw = law.acceleration(half_index_);
  const double horizon = law.moving() ? law.half_period_start(half_index_ + 1) - now_ : never;
  const double a_wall = law.moving() ? aw : 0.0;
  const double taus[2] = {approach_root(p.z - b.r - zw, v.z - vw, -set_.gravity - a_wall),
                          approach_root(zw + cyl_.height - p.z - b.r, vw - v.z, set_.gravity + a_wall)};
  for (int w = 0; w < 2; ++w) {
    if (taus[w] == never || taus[w] > horizon) continue;
    Event e;
    e.time = now_ + taus[w];
    e.type = EventType::wall;
    e.detail = static_cast<std::uint8_t>(w);
    e.a = i, e.count_a = b.counter, e.count_b = lid_epoch_;
    consider(e, best, have);
  }
}

void System::predict_cell(int i) {
  const Ball& b = balls_[i];
  const S3 p = pos_at(b, now_), v = vel_at(b, now_);
  const double pp[3] = {p.x, p.y, p.z}, vv[3] = {v.x, v.y, v.z};
  const double acc[3] = {0, 0, -set_.gravity};
  Event e;
  e.time = never;
  for (int a = 0; a < 3; ++a) {
    if (b.cell[a] + 1 < n_[a]) {
      const double face = lo_[a] + (b.cell[a] + 1) * cell_[a];
      const double tau = approach_root(face - pp[a], -vv[a], -acc[a]);
      if (now_ + tau < e.time) e.time = now_ + tau, e.detail = static_cast<std::uint8_t>(2 * a + 1);
    }
    if (b.cell[a] > 0) {
      const double face = lo_[a] + b.cell[a] * cell_[a];
      const double tau = approach_root(pp[a] - face, vv[a], acc[a]);
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
  advance(a);
  advance(b);
  S3 n = b.x0 - a.x0;
  n = n / n.norm();
  const double v10 = a.v0.dot(n), v20 = b.v0.dot(n);
  if (v20 - v10 >= 0) {  // rounding made a grazing pair separate: no impulse, just re-predict
    bump(e.a), bump(e.b);
    predict(e.a);
    predict(e.b);
    return;
  }
  const bool tc = set_.tc > 0 && (now_ - a.last_collision < set_.tc || now_ - b.last_collision < set_.tc);
  const PairOutcome o = pair_collision(a.m, b.m, v10, v20, tc ? 1.0 : set_.restitution_pair);
  a.v0 += (o.v1 - v10) * n;
  b.v0 += (o.v2 - v20) * n;
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
  advance(a);
  S3 n;
  double v20 = 0;
  if (e.detail == bottom) {
    n = S3(0, 0, 1);
    v20 = cyl_.motion.velocity(now_);
  } else if (e.detail == top) {
    n = S3(0, 0, -1);
    v20 = -cyl_.motion.velocity(now_);
  } else {
    n = S3(-a.x0.x, -a.x0.y, 0);
    n = n / n.norm();
  }
  const double v10 = a.v0.dot(n);
  if (v20 - v10 <= 0) {  // already separating (rounding): an impulse would push the ball into the wall
    bump(e.a);
    predict(e.a);
    return;
  }
  const bool tc = set_.tc > 0 && now_ - a.last_collision < set_.tc;
  const WallOutcome o = wall_collision(a.m, v10, v20, tc ? 1.0 : set_.restitution_wall);
  a.v0 += (o.v1 - v10) * n;
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
  unlink(i);
  b.cell[axis] += step;
  link(i);
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
