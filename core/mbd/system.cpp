#include "core/mbd/system.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/mbd/union_find.hpp"

namespace grainlab::mbd {

Vec2 Segment::closest(const Vec2& p) const {
  const Vec2 ab = b - a;
  const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return a + t * ab;
}

MbdSystem::MbdSystem(const MbdSettings& s) : s_(s) {
  if (!(s.step > 0) || !std::isfinite(s.step)) throw InputError(fmt::format("MBD: step = {} must be > 0", s.step));
  if (s.stability_dwell < 1) throw InputError("MBD: stability_dwell must be >= 1");
  if (s.conservation_steps < 0) throw InputError("MBD: conservation_steps must be >= 0");
  if (s.free_step_factor < 1) throw InputError("MBD: free_step_factor must be >= 1");
  if (!(s.stability_speed > 0)) throw InputError("MBD: stability_speed (C_stability) must be > 0");
}

int MbdSystem::add_disk(const Vec2& x, double r, double mass, const Vec2& v) {
  if (!(r > 0) || !(mass > 0)) throw InputError(fmt::format("MBD: disk radius {} and mass {} must be > 0", r, mass));
  Disk d;
  d.x = x, d.v = v, d.r = r, d.m = mass, d.inertia = 0.5 * mass * r * r;
  disks_.push_back(d);
  disk_links_.emplace_back();
  cluster_of_.push_back(-1);
  ++active_;
  topology_changed_ = true;
  return int(disks_.size()) - 1;
}

int MbdSystem::add_segment(const Vec2& a, const Vec2& b) {
  if ((b - a).norm() <= 0) throw InputError("MBD: a boundary segment needs two distinct end points");
  segments_.push_back({a, b, true});
  return int(segments_.size()) - 1;
}

void MbdSystem::drop_link(int index, bool counted) {
  Link& l = links_[index];
  const LinkEnds e = ends(l, {}, {});
  const LinkForce f = evaluate_link(e, l.delta_tau, coefficients(l));
  spent_.dissipated += link_energy(f.gap, l.delta_tau, coefficients(l));  // springs released without work
  if (counted) events_.add(EventType::remove_link);
  l.a = -1;  // dead: compacted at the end of the tick
  topology_changed_ = true;
}

void MbdSystem::remove_segment(int s) {
  segments_.at(s).active = false;
  for (int i = 0; i < int(links_.size()); ++i)
    if (links_[i].a >= 0 && links_[i].is_wall() && links_[i].segment() == s) drop_link(i, false);
  find_clusters();
}

int MbdSystem::delete_below(double level) {
  int deleted = 0;
  for (int i = 0; i < int(disks_.size()); ++i) {
    Disk& d = disks_[i];
    if (!d.active || d.pending > 0 || d.x.y() + d.r >= level) continue;
    for (int li : disk_links_[i])
      if (links_[li].a >= 0) drop_link(li, false);
    spent_.deleted_kinetic += 0.5 * d.m * d.v.squaredNorm() + 0.5 * d.inertia * d.omega * d.omega;
    spent_.deleted_potential += -d.m * s_.gravity.dot(d.x);
    d.active = false;
    deleted_x_.push_back(d.x.x());
    --active_;
    ++deleted;
  }
  if (deleted) {
    events_.add(EventType::delete_bodies);
    find_clusters();
  }
  return deleted;
}

LinkEnds MbdSystem::ends(const Link& l, const std::vector<BodyState>& st, const std::vector<int>& local) const {
  LinkEnds e;
  auto body = [&](int i, Vec2& p, Vec2& v, double& w) {
    if (st.empty()) {
      p = disks_[i].x, v = disks_[i].v, w = disks_[i].omega;
    } else {
      const BodyState& b = st[local[i]];
      p = b.x, v = b.v, w = b.omega;
    }
  };
  body(l.a, e.p1, e.v1, e.omega1);
  e.r1 = disks_[l.a].r;
  if (l.is_wall()) {
    e.p2 = segments_[l.segment()].closest(e.p1);
    e.v2.setZero();
  } else {
    body(l.b, e.p2, e.v2, e.omega2);
    e.r2 = disks_[l.b].r;
  }
  return e;
}

double MbdSystem::trial_delta_tau(const Link& l, const LinkEnds& now, const std::vector<BodyState>& st,
                                  const std::vector<BodyState>& start, const std::vector<int>& local,
                                  double elapsed) const {
  if (elapsed == 0) return l.delta_tau;
  const Vec2 tau(-(now.p2 - now.p1).normalized().y(), (now.p2 - now.p1).normalized().x());
  const BodyState &a = st[local[l.a]], &a0 = start[local[l.a]];
  Vec2 rel = -(a.x - a0.x);  // a wall's material point does not move
  double rot = s_.rotation == RotationIncrement::angle ? (a.phi - a0.phi) * now.r1 : a0.omega * elapsed * now.r1;
  if (!l.is_wall()) {
    const BodyState &b = st[local[l.b]], &b0 = start[local[l.b]];
    rel += b.x - b0.x;
    rot += s_.rotation == RotationIncrement::angle ? (b.phi - b0.phi) * now.r2 : b0.omega * elapsed * now.r2;
  }
  return l.delta_tau + rel.dot(tau) - rot;  // (5.4)-(5.6)
}

void MbdSystem::advance_cluster(const Cluster& c) {
  const int n = int(c.disks.size());
  const double h = s_.step;
  if (int(local_.size()) < int(disks_.size())) local_.resize(disks_.size(), -1);
  std::vector<BodyState> s0(n), sp(n), s1(n);
  for (int k = 0; k < n; ++k) {
    const Disk& d = disks_[c.disks[k]];
    local_[c.disks[k]] = k;
    s0[k] = {d.x, d.v, d.phi, d.omega};
  }
  std::vector<Vec2> force(n), acc0(n), accp(n);
  std::vector<double> torque(n), alpha0(n), alphap(n);
  auto rates = [&](const std::vector<BodyState>& st, double elapsed, std::vector<Vec2>& acc, std::vector<double>& alpha) {
    double lost = 0;
    for (int k = 0; k < n; ++k) force[k] = disks_[c.disks[k]].m * s_.gravity, torque[k] = 0;
    for (int li : c.links) {
      const Link& l = links_[li];
      const LinkEnds e = ends(l, st, local_);
      const LinkForce f = evaluate_link(e, trial_delta_tau(l, e, st, s0, local_, elapsed), coefficients(l));
      force[local_[l.a]] += f.force1;
      torque[local_[l.a]] += f.torque1;
      if (!l.is_wall()) {
        force[local_[l.b]] -= f.force1;
        torque[local_[l.b]] += f.torque2;
      }
      lost += f.dissipation_rate;
    }
    if (hook_) {
      stage_.x.resize(n), stage_.v.resize(n), stage_.omega.resize(n);
      for (int k = 0; k < n; ++k) stage_.x[k] = st[k].x, stage_.v[k] = st[k].v, stage_.omega[k] = st[k].omega;
      hook_(c, stage_, force, torque);
    }
    for (int k = 0; k < n; ++k) {
      const Disk& d = disks_[c.disks[k]];
      acc[k] = force[k] / d.m, alpha[k] = torque[k] / d.inertia;
    }
    return lost;
  };
  const double lost0 = rates(s0, 0, acc0, alpha0);
  for (int k = 0; k < n; ++k)
    sp[k] = {s0[k].x + h * s0[k].v, s0[k].v + h * acc0[k], s0[k].phi + h * s0[k].omega, s0[k].omega + h * alpha0[k]};
  if (s_.integrator == Integrator::euler) {  // (5.15)
    s1 = sp;
    spent_.dissipated += h * lost0;
  } else {  // Heun predictor-corrector (5.17)-(5.18)
    const double lostp = rates(sp, h, accp, alphap);
    for (int k = 0; k < n; ++k)
      s1[k] = {s0[k].x + 0.5 * h * (s0[k].v + sp[k].v), s0[k].v + 0.5 * h * (acc0[k] + accp[k]),
               s0[k].phi + 0.5 * h * (s0[k].omega + sp[k].omega), s0[k].omega + 0.5 * h * (alpha0[k] + alphap[k])};
    spent_.dissipated += 0.5 * h * (lost0 + lostp);
  }
  // Commit the links at the new state: tangential displacement, Coulomb reset (5.9), indicators.
  for (int li : c.links) {
    Link& l = links_[li];
    const LinkCoefficients& k = coefficients(l);
    const LinkEnds e = ends(l, s1, local_);
    const double trial = trial_delta_tau(l, e, s1, s0, local_, h);
    const LinkForce f = evaluate_link(e, trial, k);
    if (!(f.gap > -s_.max_overlap_ratio * std::min(e.r1, l.is_wall() ? e.r1 : e.r2)))
      throw InstabilityError(fmt::format("MBD: t = {:.6f} s: link {}-{} overlap {:.3g} m beyond {} of the radius",
                                         time_, l.a, l.b, -f.gap, s_.max_overlap_ratio),
                             ticks_);
    // The spring alone never exceeds the Coulomb limit: (5.9) with the damping part left out, so that a
    // reset only releases energy.
    const double limit = k.k_tangential > 0 ? k.friction * f.normal / k.k_tangential : 0;
    l.delta_tau = std::clamp(trial, -limit, limit);
    spent_.dissipated += 0.5 * k.k_tangential * (trial * trial - l.delta_tau * l.delta_tau);
    const double slip = f.slip_indicator();
    const double tolerance = std::max(s_.slip_tolerance_relative * k.friction * f.normal, s_.slip_tolerance_absolute);
    if (!l.slipping && slip > tolerance) {
      l.slipping = true;
      events_.add(EventType::slip_link);
    } else if (l.slipping && slip < -tolerance) {
      l.slipping = false;
      events_.add(EventType::grip_link);
    }
    if (!l.slipping && stability_indicator(f, s_.stability_speed) > 0) {
      if (++l.calm_steps >= s_.stability_dwell && !l.stable) {
        l.stable = true;
        events_.add(EventType::stabilize_link);
      }
    } else {
      l.calm_steps = 0;
      l.stable = false;
    }
  }
  for (int k = 0; k < n; ++k) {
    Disk& d = disks_[c.disks[k]];
    if (!std::isfinite(s1[k].x.x() + s1[k].x.y() + s1[k].v.x() + s1[k].v.y() + s1[k].omega))
      throw InstabilityError(fmt::format("MBD: t = {:.6f} s: non-finite state of disk {}", time_, c.disks[k]), ticks_);
    d.x = s1[k].x, d.v = s1[k].v, d.phi = s1[k].phi, d.omega = s1[k].omega;
    local_[c.disks[k]] = -1;
  }
  events_.add(EventType::predict_trajectory);
  stepped_state_size_ += 6 * std::uint64_t(n);  // (x, y, phi, vx, vy, omega) per disk: 3 DOF (5.11-5.12)
  stepped_bodies_ += std::uint64_t(n);
}

void MbdSystem::advance_free(int i) {
  Disk& d = disks_[i];
  if (d.conserve > 0) {  // the step conserved after a split: one cluster step (exact for gravity alone)
    --d.conserve;
    events_.add(EventType::predict_trajectory);
    d.pending = 1;
  } else {
    if (!d.in_flight) {  // a new analytic trajectory (3.2)
      d.in_flight = true;
      events_.add(EventType::predict_trajectory);
    }
    ++d.pending;
    if (d.pending < s_.free_step_factor) return;
  }
  const double t = d.pending * s_.step;
  d.x += d.v * t + 0.5 * s_.gravity * t * t;
  d.v += s_.gravity * t;
  d.phi += d.omega * t;
  d.pending = 0;
}

void MbdSystem::remove_separated() {
  for (int i = 0; i < int(links_.size()); ++i) {
    const Link& l = links_[i];
    if (l.a < 0) continue;
    const LinkEnds e = ends(l, {}, {});
    if ((e.p2 - e.p1).norm() - e.r1 - e.r2 > 0) drop_link(i, true);  // separation (ledger P10)
  }
}

void MbdSystem::detect_contacts() {
  // Cell list over the disks that are current (a link-free disk only at its own step boundaries).
  double rmax = 0, xmin = 1e300, ymin = 1e300, xmax = -1e300, ymax = -1e300;
  std::vector<int> cand;
  for (int i = 0; i < int(disks_.size()); ++i) {
    const Disk& d = disks_[i];
    if (!d.active || d.pending > 0) continue;
    cand.push_back(i);
    rmax = std::max(rmax, d.r);
    xmin = std::min(xmin, d.x.x()), xmax = std::max(xmax, d.x.x());
    ymin = std::min(ymin, d.x.y()), ymax = std::max(ymax, d.x.y());
  }
  if (cand.empty()) return;
  auto linked = [&](int a, int b) {
    for (int li : disk_links_[a])
      if (links_[li].a >= 0 && (links_[li].a == b || links_[li].b == b)) return true;
    return false;
  };
  auto insert = [&](int a, int b, double gap) {
    Link l;
    l.a = a, l.b = b;
    const LinkCoefficients& k = coefficients(l);
    spent_.inserted += 0.5 * k.k_normal * gap * gap;  // born with the overlap of this tick
    links_.push_back(l);
    disk_links_[a].push_back(int(links_.size()) - 1);
    if (b >= 0) disk_links_[b].push_back(int(links_.size()) - 1);
    events_.add(EventType::insert_link);
    topology_changed_ = true;
  };
  const double cell = 2 * rmax;
  const int nx = std::max(1, int((xmax - xmin) / cell) + 1), ny = std::max(1, int((ymax - ymin) / cell) + 1);
  std::vector<int> head(std::size_t(nx) * ny, -1), next(disks_.size(), -1);
  auto cx = [&](const Vec2& p) { return std::min(nx - 1, int((p.x() - xmin) / cell)); };
  auto cy = [&](const Vec2& p) { return std::min(ny - 1, int((p.y() - ymin) / cell)); };
  for (int i : cand) {
    const int c = cy(disks_[i].x) * nx + cx(disks_[i].x);
    next[i] = head[c], head[c] = i;
  }
  for (int i : cand) {
    const Disk& d = disks_[i];
    const int ix = cx(d.x), iy = cy(d.x);
    for (int gy = std::max(0, iy - 1); gy <= std::min(ny - 1, iy + 1); ++gy)
      for (int gx = std::max(0, ix - 1); gx <= std::min(nx - 1, ix + 1); ++gx)
        for (int j = head[gy * nx + gx]; j >= 0; j = next[j]) {
          if (j <= i) continue;
          const double gap = (disks_[j].x - d.x).norm() - d.r - disks_[j].r;
          if (gap < 0 && !linked(i, j)) insert(i, j, gap);
        }
    for (int sg = 0; sg < int(segments_.size()); ++sg) {
      if (!segments_[sg].active) continue;
      const double gap = (segments_[sg].closest(d.x) - d.x).norm() - d.r;
      if (gap < 0 && !linked(i, -1 - sg)) insert(i, -1 - sg, gap);
    }
  }
}

void MbdSystem::find_clusters() {
  // Compact the dead links, rebuild the adjacency, then the connected components (FindClusters).
  std::erase_if(links_, [](const Link& l) { return l.a < 0; });
  for (auto& v : disk_links_) v.clear();
  for (int i = 0; i < int(links_.size()); ++i) {
    disk_links_[links_[i].a].push_back(i);
    if (!links_[i].is_wall()) disk_links_[links_[i].b].push_back(i);
  }
  const int n = int(disks_.size());
  UnionFind uf(n);
  for (const Link& l : links_)
    if (!l.is_wall()) uf.unite(l.a, l.b);
  clusters_.clear();
  std::vector<int> root_cluster(n, -1);
  for (int i = 0; i < n; ++i) {
    Disk& d = disks_[i];
    cluster_of_[i] = -1;
    if (!d.active) continue;
    const bool now_linked = !disk_links_[i].empty();
    if (d.linked && !now_linked) d.conserve = s_.conservation_steps, d.in_flight = false, d.pending = 0;  // split off
    if (now_linked) d.in_flight = false, d.conserve = 0, d.pending = 0;
    d.linked = now_linked;
    if (!now_linked) continue;
    const int r = uf.find(i);
    if (root_cluster[r] < 0) root_cluster[r] = int(clusters_.size()), clusters_.emplace_back();
    cluster_of_[i] = root_cluster[r];
    clusters_[root_cluster[r]].disks.push_back(i);
  }
  for (int i = 0; i < int(links_.size()); ++i) clusters_[cluster_of_[links_[i].a]].links.push_back(i);
  topology_changed_ = false;
}

void MbdSystem::step() {
  if (topology_changed_) find_clusters();
  for (const Cluster& c : clusters_) advance_cluster(c);
  for (int i = 0; i < int(disks_.size()); ++i)
    if (disks_[i].active && cluster_of_[i] < 0) advance_free(i);
  time_ += s_.step;
  ++ticks_;
  remove_separated();
  detect_contacts();
  if (topology_changed_) find_clusters();
}

std::vector<Vec2> MbdSystem::net_forces() const {
  std::vector<Vec2> f(disks_.size(), Vec2::Zero());
  for (int i = 0; i < int(disks_.size()); ++i)
    if (disks_[i].active) f[i] = disks_[i].m * s_.gravity;
  for (const Link& l : links_) {
    if (l.a < 0) continue;
    const LinkForce lf = evaluate_link(ends(l, {}, {}), l.delta_tau, coefficients(l));
    f[l.a] += lf.force1;
    if (!l.is_wall()) f[l.b] -= lf.force1;
  }
  return f;
}

EnergyLedger MbdSystem::energy() const {
  EnergyLedger e = spent_;
  for (const Disk& d : disks_) {
    if (!d.active) continue;
    e.kinetic += 0.5 * d.m * d.v.squaredNorm() + 0.5 * d.inertia * d.omega * d.omega;
    e.potential += -d.m * s_.gravity.dot(d.x);
  }
  for (const Link& l : links_) {
    if (l.a < 0) continue;
    const LinkEnds en = ends(l, {}, {});
    e.links += link_energy((en.p2 - en.p1).norm() - en.r1 - en.r2, l.delta_tau, coefficients(l));
  }
  return e;
}

}  // namespace grainlab::mbd
