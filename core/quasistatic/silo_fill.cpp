#include "core/quasistatic/silo_fill.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include <Eigen/SparseCholesky>

#include "core/error.hpp"

namespace grainlab::quasistatic {
namespace {

constexpr double touch_tolerance = 1e-10;  // m: a placed disk is linked to everything this close

std::pair<int, int> key(int a, int b) { return a < b || b < 0 ? std::pair{a, b} : std::pair{b, a}; }

Vec2 wall_normal(int wall) {
  if (wall == left_wall) return {-1, 0};
  if (wall == right_wall) return {1, 0};
  return {0, -1};
}

}  // namespace

SiloFill::SiloFill(const SiloSettings& s) : s_(s), rng_(s.seed) {
  auto positive = [](double v, const char* name) {
    if (!(v > 0) || !std::isfinite(v)) throw InputError(fmt::format("QS silo: {} = {} must be > 0", name, v));
  };
  positive(s.width, "width");
  positive(s.height, "height");
  positive(s.radius_mean, "radius_mean");
  positive(s.areal_density, "areal_density");
  positive(s.gravity, "gravity");
  if (s.radius_sd_fraction < 0 || s.radius_sd_fraction > 0.3)
    throw InputError("QS silo: radius_sd_fraction must be in [0, 0.3]");
  if (s.width < 4 * s.radius_mean * (1 + 3 * s.radius_sd_fraction))
    throw InputError("QS silo: width must hold at least two disks");
  if (s.max_actions < 1) throw InputError("QS silo: max_actions must be >= 1");
  rima_.set_threads(s.threads);
}

double SiloFill::mean_weight() const {
  return s_.areal_density * std::numbers::pi * s_.radius_mean * s_.radius_mean * s_.gravity;
}

Eigen::VectorXd SiloFill::external_loads() const {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(2 * int(disks_.size()));
  for (std::size_t i = 0; i < disks_.size(); ++i) f(2 * i + 1) = -disks_[i].mass * s_.gravity;
  return f;
}

double SiloFill::gap_to_disk(const Vec2& c, double r, int j) const {
  return (c - position(j)).norm() - r - disks_[j].radius;
}

double SiloFill::gap_to_wall(const Vec2& c, double r, int wall) const {
  if (wall == left_wall) return c.x() - r;
  if (wall == right_wall) return s_.width - c.x() - r;
  return c.y() - r;
}

// The CA rule (ledger G-E5 default): fall vertically to the first contact, then roll on the supporting disk
// downhill until a second contact on the other side of the centre, a side wall or the floor holds it; a disk
// that rolls off the side of its support falls again.
bool SiloFill::place(double r, Vec2& c, std::vector<Support>& supports) {
  const int n = int(disks_.size());
  auto first_overlap = [&](const Vec2& at, int skip, Support& hit) {
    for (int w = 0; w < 3; ++w)
      if (gap_to_wall(at, r, w) < 0) {
        hit = {-1, w};
        return true;
      }
    for (int k = 0; k < n; ++k)
      if (k != skip && gap_to_disk(at, r, k) < 0) {
        hit = {k, -1};
        return true;
      }
    return false;
  };
  for (int move = 0; move < 200; ++move) {
    // Fall from c to the highest landing point below it.
    double land = r;
    int on = -1;
    for (int j = 0; j < n; ++j) {
      const Vec2 pj = position(j);
      const double reach = r + disks_[j].radius, dx = c.x() - pj.x();
      if (std::abs(dx) >= reach) continue;
      const double y = pj.y() + std::sqrt(reach * reach - dx * dx);
      if (y > c.y() + 1e-12) {
        if (move == 0) return false;  // the pile reaches the drop point: the silo is full
        continue;
      }
      if (y > land) land = y, on = j;
    }
    c.y() = land;
    if (on < 0) break;  // on the floor
    // Roll on disk `on`.
    bool held = false;
    for (int roll = 0; roll < 200 && !held; ++roll) {
      const Vec2 pj = position(on);
      const double reach = r + disks_[on].radius;
      const double theta0 = std::atan2(c.x() - pj.x(), c.y() - pj.y());
      double dir = theta0 > 0 ? 1 : -1;
      if (std::abs(theta0) < 1e-12) dir = (rng_() & 1) ? 1 : -1;
      const double target = dir * std::numbers::pi / 2;
      auto at = [&](double th) { return Vec2(pj.x() + reach * std::sin(th), pj.y() + reach * std::cos(th)); };
      Support hit;
      double lo = theta0, hi = theta0;
      bool found = false, wedged = false;
      const int steps = std::max(1, int(std::ceil(std::abs(target - theta0) / 0.005)));
      for (int i = 1; i <= steps; ++i) {
        hi = theta0 + (target - theta0) * i / steps;
        if (first_overlap(at(hi), on, hit)) {
          found = true;
          wedged = i == 1;
          break;
        }
        lo = hi;
      }
      if (!found) {  // rolled off the side: fall again
        c = at(target);
        c.x() += dir * 1e-12;
        break;
      }
      for (int b = 0; b < 60; ++b) {
        const double mid = (lo + hi) / 2;
        Support h2;
        (first_overlap(at(mid), on, h2) ? hi : lo) = mid;
      }
      c = at(lo);
      first_overlap(at(hi), on, hit);
      if (hit.wall >= 0 || wedged) {
        held = true;  // a side wall across from the support, or the floor
      } else {
        const double side_support = pj.x() - c.x(), side_hit = position(hit.node).x() - c.x();
        if (side_support * side_hit < 0) held = true;
        else on = hit.node;  // both on one side: roll on over the new one
      }
    }
    if (held) break;
  }
  if (c.y() + r > s_.height) return false;
  supports.clear();
  for (int w = 0; w < 3; ++w)
    if (gap_to_wall(c, r, w) < touch_tolerance) supports.push_back({-1, w});
  for (int j = 0; j < n; ++j)
    if (gap_to_disk(c, r, j) < touch_tolerance) supports.push_back({j, -1});
  return !supports.empty();
}

void SiloFill::insert_link(int a, const Support& other, double overlap, bool first) {
  Link l;
  l.a = a;
  if (other.wall >= 0) {
    l.b = fixed_node;
    l.wall = other.wall;
    l.normal = wall_normal(other.wall);
    l.spring = s_.wall_link;
  } else {
    l.b = other.node;
    l.normal = (position(other.node) - position(a)).normalized();
    l.spring = s_.disk_link;
  }
  const Mat2 c = link_stiffness(l.normal, l.spring);
  if (first) {  // a new node's first link: case 0 or 1 (Eq. 4.19-4.22)
    const int node = other.wall >= 0 ? rima_.add_node_to_fixed(c) : rima_.add_node_to_node(other.node, c);
    if (node != a) throw InputError("QS silo: RIMA and truss node numbering diverged");
  } else if (other.wall >= 0) {
    rima_.add_fixed_link(a, c);  // case 2
  } else {
    rima_.add_link(a, other.node, c);  // case 3
  }
  truss_.add_link(l, d_, overlap);
  linked_.insert(key(a, other.wall >= 0 ? -1 - other.wall : other.node));
}

void SiloFill::remove_link(int index) {
  Link& l = truss_.links()[index];
  const Mat2 minus_c = -link_stiffness(l.normal, l.spring);  // a parallel link of stiffness -C (002 l.1299)
  if (l.b == fixed_node) rima_.add_fixed_link(l.a, minus_c);
  else rima_.add_link(l.a, l.b, minus_c);
  l.active = false;
  linked_.erase(key(l.a, l.b == fixed_node ? -1 - l.wall : l.b));
}

bool SiloFill::stays_grounded_without(int index) const {
  const int n = truss_.nodes();
  std::vector<std::vector<int>> adj(n);
  std::vector<char> reached(n, 0);
  std::vector<int> stack;
  const auto& links = truss_.links();
  for (int i = 0; i < int(links.size()); ++i) {
    const Link& l = links[i];
    if (!l.active || i == index) continue;
    if (l.b == fixed_node) {
      if (!reached[l.a]) reached[l.a] = 1, stack.push_back(l.a);
    } else {
      adj[l.a].push_back(l.b);
      adj[l.b].push_back(l.a);
    }
  }
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int u : adj[v])
      if (!reached[u]) reached[u] = 1, stack.push_back(u);
  }
  return std::all_of(reached.begin(), reached.end(), [](char c) { return c != 0; });
}

bool SiloFill::connect_one() {
  // Step 1: the single overlapping unlinked pair with the largest projected stress K_eta * overlap.
  const int n = int(disks_.size());
  double best = 0;
  int best_a = -1;
  Support best_other;
  double best_overlap = 0;
  const double cell = 2 * s_.radius_mean * (1 + 3 * s_.radius_sd_fraction);
  const int cols = std::max(1, int(std::ceil(s_.width / cell)));
  std::vector<std::vector<int>> grid;
  std::vector<int> cell_of(n);
  int rows = 1;
  for (int i = 0; i < n; ++i) rows = std::max(rows, int(std::floor(std::max(0.0, position(i).y()) / cell)) + 1);
  grid.resize(std::size_t(rows) * cols);
  auto cell_index = [&](const Vec2& p, int& cx, int& cy) {
    cx = std::clamp(int(std::floor(p.x() / cell)), 0, cols - 1);
    cy = std::clamp(int(std::floor(std::max(0.0, p.y()) / cell)), 0, rows - 1);
  };
  for (int i = 0; i < n; ++i) {
    int cx, cy;
    cell_index(position(i), cx, cy);
    grid[std::size_t(cy) * cols + cx].push_back(i);
  }
  for (int i = 0; i < n; ++i) {
    const Vec2 p = position(i);
    for (int w = 0; w < 3; ++w) {
      const double overlap = -gap_to_wall(p, disks_[i].radius, w);
      const double stress = s_.wall_link.k_normal * overlap;
      if (overlap > touch_tolerance && stress > best && !linked_.count(key(i, -1 - w)))
        best = stress, best_a = i, best_other = {-1, w}, best_overlap = overlap;
    }
    int cx, cy;
    cell_index(p, cx, cy);
    for (int gy = std::max(0, cy - 1); gy <= std::min(rows - 1, cy + 1); ++gy)
      for (int gx = std::max(0, cx - 1); gx <= std::min(cols - 1, cx + 1); ++gx)
        for (int j : grid[std::size_t(gy) * cols + gx]) {
          if (j <= i) continue;
          const double overlap = -gap_to_disk(p, disks_[i].radius, j);
          const double stress = s_.disk_link.k_normal * overlap;
          if (overlap > touch_tolerance && stress > best && !linked_.count(key(i, j)))
            best = stress, best_a = i, best_other = {j, -1}, best_overlap = overlap;
        }
  }
  if (best_a < 0) return false;
  insert_link(best_a, best_other, best_overlap, false);
  return true;
}

bool SiloFill::disconnect_one(DiskLog& log) {
  // Step 2: the single most tensile link (one whose removal would leave a disk unsupported is kept).
  const double tolerance = 1e-10 * mean_weight();
  int worst = -1;
  double worst_stress = -tolerance;
  auto& links = truss_.links();
  for (int i = 0; i < int(links.size()); ++i) {
    if (!links[i].active) continue;
    const double sn = truss_.stress(links[i], d_).normal;
    if (sn < worst_stress && stays_grounded_without(i)) worst_stress = sn, worst = i;
  }
  if (worst < 0) {
    for (const Link& l : links)
      if (l.active && truss_.stress(l, d_).normal < -tolerance) ++log.kept_tensile;
    return false;
  }
  remove_link(worst);
  // A removal downdates Z with X = (-C^{-1} + Z_eff)^{-1}, which amplifies the rounding errors already in Z
  // (by ~100 per removal in a silo): measured after every removal, and Z refreshed from K when it is off.
  if (s_.refresh_tolerance > 0) {
    const Eigen::SparseMatrix<double> k = truss_.stiffness();
    const Eigen::MatrixXd zk = Eigen::MatrixXd(rima_.matrix()) * k;
    const double error = (zk - Eigen::MatrixXd::Identity(zk.rows(), zk.cols())).cwiseAbs().maxCoeff();
    worst_identity_error_ = std::max(worst_identity_error_, error);
    if (error > s_.refresh_tolerance) {
      Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(k);
      const Eigen::MatrixXd fresh = ldlt.solve(Eigen::MatrixXd::Identity(k.rows(), k.cols()));
      rima_.reset((fresh + fresh.transpose()) / 2);
      ++refreshes_;
    }
  }
  return true;
}

int SiloFill::slide_all() {
  // Step 3: every link past the Coulomb limit slides at once (prestress only, Z unchanged).
  const double tolerance = 1e-10 * mean_weight();
  const int disk = int(disks_.size()) - 1;
  int count = 0;
  auto& links = truss_.links();
  const Vec2 fresh = position(disk);
  auto near_wall = [&](const Link& l, const Vec2& at) {
    return l.wall == left_wall || l.wall == right_wall || at.x() < 2 * s_.radius_mean ||
           at.x() > s_.width - 2 * s_.radius_mean;
  };
  int active = 0, near_new = 0, at_wall = 0;
  for (const Link& l : links) {
    if (!l.active) continue;
    const Vec2 at = contact_point(l);
    ++active;
    near_new += (at - fresh).norm() < s_.near_radius;
    at_wall += near_wall(l, at);
  }
  for (int i = 0; i < int(links.size()); ++i) {
    Link& l = links[i];
    if (!l.active) continue;
    const LinkStress s = truss_.stress(l, d_);
    if (std::abs(s.tangential) <= l.spring.friction * std::max(0.0, s.normal) + tolerance) continue;
    const double before = l.slide_energy;
    truss_.slide(l, d_);
    const Vec2 at = contact_point(l);
    slides_.push_back({disk, i, l.slide_energy - before, at, (at - fresh).norm(), near_wall(l, at),
                       double(near_new) / active, double(at_wall) / active});
    ++count;
  }
  return count;
}

void SiloFill::resolve() {
  const Eigen::VectorXd f = total_loads();
  d_ = rima_.solve(f);
  if (s_.refine) d_ += rima_.solve(f - truss_.apply_stiffness(d_));
}

void SiloFill::settle(DiskLog& log) {
  for (log.actions = 0; log.actions < s_.max_actions; ++log.actions) {
    resolve();
    if (!d_.allFinite() || d_.cwiseAbs().maxCoeff() > s_.radius_mean)
      throw InstabilityError(fmt::format("QS silo: disk {}: displacements beyond a mean radius ({:.3g} m) after {} "
                                         "actions ({} connections, {} disconnections, {} slide rounds)",
                                         disks_.size(), d_.cwiseAbs().maxCoeff(), log.actions, log.connects,
                                         log.disconnects, log.slide_rounds),
                             std::uint64_t(disks_.size()));
    if (connect_one()) {
      ++log.connects;
      continue;
    }
    if (disconnect_one(log)) {
      ++log.disconnects;
      continue;
    }
    log.kept_tensile = 0;
    const int slid = slide_all();
    if (slid == 0) return;
    ++log.slide_rounds;
    log.slides += slid;
  }
  resolve();
  log.unresolved = true;
}

bool SiloFill::add_disk() {
  if (int(disks_.size()) >= s_.disks) return false;
  std::normal_distribution<double> radius_dist(s_.radius_mean, s_.radius_sd_fraction * s_.radius_mean);
  double r = s_.radius_mean;
  if (s_.radius_sd_fraction > 0)
    do r = radius_dist(rng_);
    while (std::abs(r - s_.radius_mean) > 3 * s_.radius_sd_fraction * s_.radius_mean);
  std::uniform_real_distribution<double> x_dist(-s_.drop_half_width, s_.drop_half_width);
  Vec2 c(std::clamp(s_.width / 2 + x_dist(rng_), r, s_.width - r), s_.height - r);
  std::vector<Support> supports;
  if (!place(r, c, supports)) return false;
  const int a = truss_.add_node();
  disks_.push_back({c, r, s_.areal_density * std::numbers::pi * r * r});
  d_.conservativeResize(2 * (a + 1));
  d_.segment<2>(2 * a).setZero();
  // The first link to a wall if there is one (case 0), else to a disk (case 1); the rest by cases 2 and 3.
  std::stable_sort(supports.begin(), supports.end(), [](const Support& x, const Support& y) { return x.wall > y.wall; });
  for (std::size_t i = 0; i < supports.size(); ++i) insert_link(a, supports[i], 0.0, i == 0);
  DiskLog log;
  const std::size_t slides_before = slides_.size();
  settle(log);
  for (std::size_t i = slides_before; i < slides_.size(); ++i) log.slide_energy += slides_[i].energy;
  log_.push_back(log);
  return true;
}

}  // namespace grainlab::quasistatic
