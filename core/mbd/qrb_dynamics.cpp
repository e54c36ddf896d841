#include "core/mbd/qrb_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/mbd/hgraph.hpp"
#include "core/mbd/qrb_stiffness.hpp"
#include "core/mbd/qrb_templates.hpp"

namespace grainlab::mbd {
namespace {

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }
Vec2 perp(const Vec2& a) { return {-a.y(), a.x()}; }

// The link's two ends in the committed state (as MbdSystem evaluates it between steps).
LinkEnds link_ends(const MbdSystem& s, const Link& l) {
  const Disk& a = s.disks()[l.a];
  LinkEnds e;
  e.p1 = a.x, e.v1 = a.v, e.omega1 = a.omega, e.r1 = a.r;
  if (l.is_wall()) {
    e.p2 = s.segments()[l.segment()].closest(a.x), e.v2.setZero();
  } else {
    const Disk& b = s.disks()[l.b];
    e.p2 = b.x, e.v2 = b.v, e.omega2 = b.omega, e.r2 = b.r;
  }
  return e;
}

const LinkCoefficients& coefficients(const MbdSystem& s, const Link& l) {
  return l.is_wall() ? s.settings().wall_link : s.settings().disk_link;
}

// The earlier force-only reading (option least_squares): the minimum-norm least-squares correction
// (Eigen LSCG on the normal equations) of the frozen springs' forces that balances b, the members' m a -
// external load (3 rows per member at row[disk]: force, torque / r).
void least_squares_forces(const MbdSystem& s, const std::vector<int>& row, const std::vector<LinkForce>& lf,
                          const Eigen::VectorXd& b, QrbInternalForces& out) {
  // Unknowns per internal link: the force on end a along eta (u) and tau (w); end b gets the opposite.
  const int cols = 2 * int(out.links.size());
  Eigen::SparseMatrix<double> A(b.size(), cols);
  std::vector<Eigen::Triplet<double>> trip;
  Eigen::VectorXd x0(cols);
  for (int k = 0; k < int(out.links.size()); ++k) {
    const Link& l = s.links()[out.links[k]];
    const Vec2 eta = lf[k].eta, tau = lf[k].tau;
    const int ra = row[l.a];
    trip.emplace_back(ra, 2 * k, eta.x()), trip.emplace_back(ra + 1, 2 * k, eta.y());
    trip.emplace_back(ra, 2 * k + 1, tau.x()), trip.emplace_back(ra + 1, 2 * k + 1, tau.y());
    trip.emplace_back(ra + 2, 2 * k + 1, 1.0);  // torque r_a w, row scaled by 1 / r_a
    if (!l.is_wall()) {
      const int rb = row[l.b];
      trip.emplace_back(rb, 2 * k, -eta.x()), trip.emplace_back(rb + 1, 2 * k, -eta.y());
      trip.emplace_back(rb, 2 * k + 1, -tau.x()), trip.emplace_back(rb + 1, 2 * k + 1, -tau.y());
      trip.emplace_back(rb + 2, 2 * k + 1, 1.0);
    }
    x0[2 * k] = lf[k].force1.dot(eta), x0[2 * k + 1] = lf[k].force1.dot(tau);
  }
  A.setFromTriplets(trip.begin(), trip.end());
  Eigen::VectorXd x = x0;
  const Eigen::VectorXd r0 = b - A * x0;
  if (cols > 0 && r0.norm() > 1e-14 * (b.norm() + 1e-300)) {
    Eigen::LeastSquaresConjugateGradient<Eigen::SparseMatrix<double>> cg;
    cg.setTolerance(1e-10);
    cg.setMaxIterations(std::max(100, 4 * cols));
    cg.compute(A);
    x += cg.solve(r0);
  }
  const double bn = b.norm();
  out.residual = bn > 0 ? (A * x - b).norm() / bn : 0.0;
  for (int k = 0; k < int(out.links.size()); ++k) out.normal.push_back(-x[2 * k]), out.tangential.push_back(x[2 * k + 1]);
}

}  // namespace

QrbDynamics::QrbDynamics(MbdSystem& system, const QrbDynamicsOptions& options) : sys_(system), o_(options) {
  if (o_.detect_interval < 1) throw InputError("QRB: detect_interval must be >= 1 tick");
  if (o_.check_interval < 1) throw InputError("QRB: check_interval must be >= 1 tick");
  if (!(o_.residual_tolerance > 0)) throw InputError("QRB: residual_tolerance must be > 0");
  if (!(o_.cg_tolerance > 0)) throw InputError("QRB: cg_tolerance must be > 0");
  if (o_.cg_max_iterations < 0) throw InputError("QRB: cg_max_iterations must be >= 0");
  sys_.set_rigid_group_hook([this](const Cluster& c, const StageState& st, std::vector<Vec2>& f, std::vector<double>& t) {
    hook(c, st, f, t);
  });
}

int QrbDynamics::disks_in_qrbs() const {
  int n = 0;
  for (const Group& g : groups_) n += int(g.disks.size());
  return n;
}

void QrbDynamics::rebuild_index() {
  group_of_.assign(sys_.disks().size(), -1);
  for (int q = 0; q < int(groups_.size()); ++q)
    for (int i : groups_[q].disks) group_of_[i] = q;
  load_.assign(groups_.size(), RigidLoad{});
}

void QrbDynamics::project(const Group& g) {
  auto& disks = sys_.disks();
  double ke = 0, mass = 0, inertia = 0, spin = 0;
  Vec2 centre = Vec2::Zero(), momentum = Vec2::Zero();
  for (int i : g.disks) {
    const Disk& d = disks[i];
    ke += 0.5 * d.m * d.v.squaredNorm() + 0.5 * d.inertia * d.omega * d.omega;
    mass += d.m, centre += d.m * d.x, momentum += d.m * d.v;
  }
  centre /= mass;
  for (int i : g.disks) {
    const Disk& d = disks[i];
    const Vec2 r = d.x - centre;
    inertia += d.inertia + d.m * r.squaredNorm();
    spin += d.inertia * d.omega + d.m * cross(r, d.v);
  }
  const Vec2 v = g.fixed ? Vec2::Zero() : Vec2(momentum / mass);
  const double omega = g.fixed ? 0.0 : spin / inertia;
  double ke_after = 0;
  for (int i : g.disks) {
    Disk& d = disks[i];
    d.v = v + omega * perp(d.x - centre), d.omega = omega;
    ke_after += 0.5 * d.m * d.v.squaredNorm() + 0.5 * d.inertia * d.omega * d.omega;
  }
  if (o_.book_projection) sys_.add_dissipated(ke - ke_after);  // the relative motion's energy (>= 0: a projection)
}

void QrbDynamics::detect() {
  if (!o_.ungroup && !groups_.empty()) return;  // never ungroup: the first QRBs stay for good
  groups_.clear();
  const auto& disks = sys_.disks();
  tree_ = HierarchicalGraph{};
  container_ = tree_.add_graph();
  disk_atom_.assign(disks.size(), no_node), segment_atom_.assign(sys_.segments().size(), no_node);
  for (int i = 0; i < int(disks.size()); ++i)
    if (disks[i].active) disk_atom_[i] = tree_.add_atom(false, container_);
  for (int s = 0; s < int(sys_.segments().size()); ++s)
    if (sys_.segments()[s].active) segment_atom_[s] = tree_.add_atom(true, container_);
  atom_disk_.assign(tree_.nodes(), -1);
  for (int i = 0; i < int(disks.size()); ++i)
    if (disk_atom_[i] != no_node) atom_disk_[disk_atom_[i]] = i;
  std::vector<char> stable;
  for (const Link& l : sys_.links()) {
    if (l.a < 0) continue;
    tree_.add_link(disk_atom_[l.a], l.is_wall() ? segment_atom_[l.segment()] : disk_atom_[l.b]);
    stable.push_back(l.stable && !l.slipping);  // only stable, gripping links make QRBs (002 l.1994)
  }
  find_qrbs(tree_, container_, stable, is_qrb_);
  std::vector<int> index(tree_.nodes(), -1);
  for (int i = 0; i < int(disks.size()); ++i) {
    if (disk_atom_[i] == no_node) continue;
    const int q = outermost_qrb(tree_, container_, disk_atom_[i], is_qrb_);
    if (q == no_node) continue;
    if (index[q] < 0) index[q] = int(groups_.size()), groups_.push_back({{}, tree_.fixed(q), {}, q});
    groups_[index[q]].disks.push_back(i);
  }
  std::erase_if(groups_, [](const Group& gr) { return !gr.fixed && gr.disks.size() < 2; });
  for (const Group& gr : groups_) project(gr);
  groupings_ += int(groups_.size());
  rebuild_index();
}

void QrbDynamics::regroup(const std::vector<int>& failed) {
  if (container_ == no_node) return;  // no detection yet: nothing to regroup in
  // The tree's links by their end atoms, stable as the MBD says now (links are renumbered as they come and
  // go; a link born since the detection is not in the tree: it was born slipping, 002 l.1950) and not failed.
  std::map<std::pair<int, int>, char> now;
  for (int li = 0; li < int(sys_.links().size()); ++li) {
    const Link& l = sys_.links()[li];
    if (l.a < 0 || l.a >= int(disk_atom_.size())) continue;
    const int a = disk_atom_[l.a];
    const int b = atom_of_far_end(l);
    if (a == no_node || b == no_node) continue;
    const bool failing = std::find(failed.begin(), failed.end(), li) != failed.end();
    now[{std::min(a, b), std::max(a, b)}] = l.stable && !l.slipping && !failing;
  }
  std::vector<char> stable(tree_.links(), 0);
  for (int t = 0; t < tree_.links(); ++t) {
    const HLink& k = tree_.link(t);
    const auto it = now.find({std::min(k.node1, k.node2), std::max(k.node1, k.node2)});
    stable[t] = k.alive && it != now.end() && it->second;
  }
  find_qrbs(tree_, container_, stable, is_qrb_);
  // The outermost QRBs now: a group whose root is still outermost stays as it is, a new root is a new group.
  std::map<int, std::vector<int>> roots;
  for (int i = 0; i < int(disk_atom_.size()); ++i) {
    if (disk_atom_[i] == no_node || !sys_.disks()[i].active) continue;
    if (group_of(i) >= 0 && groups_[group_of(i)].node == no_node) continue;  // grouped by hand
    const int q = outermost_qrb(tree_, container_, disk_atom_[i], is_qrb_);
    if (q != no_node) roots[q].push_back(i);
  }
  std::vector<Group> next;
  for (Group& g : groups_)
    if (g.node == no_node || roots.count(g.node)) {
      if (g.node != no_node) roots.erase(g.node);
      next.push_back(std::move(g));
    }
  for (auto& [root, disks] : roots) {
    if (!tree_.fixed(root) && disks.size() < 2) continue;
    next.push_back({std::move(disks), tree_.fixed(root), {}, root});
    project(next.back());
    ++groupings_;
  }
  groups_ = std::move(next);
  rebuild_index();
}

int QrbDynamics::atom_of_far_end(const Link& l) const {
  const int i = l.is_wall() ? l.segment() : l.b;
  const std::vector<int>& atoms = l.is_wall() ? segment_atom_ : disk_atom_;
  return i < int(atoms.size()) ? atoms[i] : no_node;  // a body added since the detection is in no QRB
}

int QrbDynamics::owner_of_link(int link) const {
  const Link& l = sys_.links()[link];
  const int a = disk_atom_[l.a], b = atom_of_far_end(l);
  const int h = a != no_node && b != no_node ? tree_.find_lowest_common_owner(a, b) : no_node;
  return h != no_node && h < int(is_qrb_.size()) && is_qrb_[h] ? h : tree_.owner(a);
}

void QrbDynamics::fail_link(int link) {
  const Link& l = sys_.links().at(link);
  const int q = group_of(l.a);
  if (q < 0 || (!l.is_wall() && group_of(l.b) != q) || (l.is_wall() && !groups_[q].fixed)) return;
  disintegrate(q, {groups_[q].node == no_node ? no_node : owner_of_link(link)});
  if (o_.regroup_at_once) regroup({link});
}

int QrbDynamics::depth_in_group(int disk) const {
  const int q = group_of(disk);
  if (q < 0) return -1;
  if (groups_[q].node == no_node) return 0;
  return tree_.depth(tree_.owner(disk_atom_[disk])) - tree_.depth(groups_[q].node);
}

void QrbDynamics::disintegrate(int q, const std::vector<int>& lowest) {
  const int root = groups_[q].node;
  if (root == no_node) {
    ungroup(q);
    return;
  }
  if (lowest.empty() || !o_.ungroup_owner_chain) {  // the whole QRB: every QRB of its tree goes
    std::vector<int> all;
    for (int a : tree_.atoms_of(root))
      for (int h = tree_.owner(a); h != no_node && h != container_; h = tree_.owner(h))
        if (std::find(all.begin(), all.end(), h) == all.end()) all.push_back(h);
    std::sort(all.begin(), all.end(), [&](int x, int y) { return tree_.depth(x) > tree_.depth(y); });
    for (int h : all) tree_.ungroup(h);
    ungroup(q);
    return;
  }
  // The failing QRBs and their owners up to the root (002 l.2483): Ungroup each, deepest first, so that
  // every member moves up to the container; the QRBs met on the way that are not on a chain stay intact.
  std::vector<int> doomed;
  for (int v : lowest)
    for (int h = v; h != no_node && h != container_; h = tree_.owner(h))
      if (std::find(doomed.begin(), doomed.end(), h) == doomed.end()) doomed.push_back(h);
  std::vector<int> intact;
  for (int h : doomed)
    for (int m : tree_.members(h))
      if (!tree_.is_atom(m) && is_qrb_[m] && std::find(doomed.begin(), doomed.end(), m) == doomed.end()) intact.push_back(m);
  std::sort(doomed.begin(), doomed.end(), [&](int x, int y) { return tree_.depth(x) > tree_.depth(y); });
  for (int h : doomed) tree_.ungroup(h);
  ungroup(q);
  for (int h : intact) {
    Group g{{}, tree_.fixed(h), {}, h};
    for (int a : tree_.atoms_of(h))
      if (atom_disk_[a] >= 0) g.disks.push_back(atom_disk_[a]);
    groups_.push_back(std::move(g));  // already moving as a rigid part of the dissolved body
  }
  rebuild_index();
}

int QrbDynamics::group(const std::vector<int>& disks, bool fixed) {
  if (disks.empty()) throw InputError("QRB: group needs at least one disk");
  for (int i : disks)
    if (i < 0 || i >= int(sys_.disks().size()) || !sys_.disks()[i].active || group_of(i) >= 0)
      throw InputError(fmt::format("QRB: disk {} is not an active disk outside every QRB", i));
  groups_.push_back({disks, fixed, {}, no_node});
  project(groups_.back());
  ++groupings_;
  rebuild_index();
  return int(groups_.size()) - 1;
}

void QrbDynamics::hook(const Cluster& c, const StageState& st, std::vector<Vec2>& force, std::vector<double>& torque) {
  if (groups_.empty()) return;
  const auto& disks = sys_.disks();
  touched_.clear();
  // Net load on each group (internal link forces cancel in pairs), mass and centre at this stage.
  for (int k = 0; k < int(c.disks.size()); ++k) {
    const int q = group_of(c.disks[k]);
    if (q < 0) continue;
    RigidLoad& r = load_[q];
    if (r.mass == 0) touched_.push_back(q);
    const double m = disks[c.disks[k]].m;
    r.mass += m, r.centre += m * st.x[k], r.acc += force[k], r.alpha += torque[k];
  }
  for (int q : touched_) {
    RigidLoad& r = load_[q];
    r.centre /= r.mass;
    double spin = 0;
    for (int k = 0; k < int(c.disks.size()); ++k) {
      if (group_of(c.disks[k]) != q) continue;
      const Disk& d = disks[c.disks[k]];
      const Vec2 rel = st.x[k] - r.centre;
      r.inertia += d.inertia + d.m * rel.squaredNorm();
      spin += d.inertia * st.omega[k] + d.m * cross(rel, st.v[k]);
      r.alpha += cross(rel, force[k]);  // torque about the centre: own torques + moments of the forces
    }
    r.omega = spin / r.inertia;
    r.acc /= r.mass;
    r.alpha /= r.inertia;
  }
  for (int k = 0; k < int(c.disks.size()); ++k) {
    const int q = group_of(c.disks[k]);
    if (q < 0) continue;
    const RigidLoad& r = load_[q];
    const Disk& d = disks[c.disks[k]];
    const Vec2 rel = st.x[k] - r.centre;
    const bool fixed = groups_[q].fixed;
    force[k] = fixed ? Vec2::Zero() : Vec2(d.m * (r.acc + r.alpha * perp(rel) - r.omega * r.omega * rel));
    torque[k] = fixed ? 0.0 : d.inertia * r.alpha;
  }
  for (int q : touched_) load_[q] = RigidLoad{};
}

QrbInternalForces QrbDynamics::solve_internal_forces(int q, QrbForceMethod method, Eigen::VectorXd* warm) const {
  const Group& g = groups_.at(q);
  const auto& disks = sys_.disks();
  const Vec2 gravity = sys_.settings().gravity;
  std::vector<int> row(disks.size(), -1);
  for (int k = 0; k < int(g.disks.size()); ++k) row[g.disks[k]] = 3 * k;
  const int rows = 3 * int(g.disks.size());
  Eigen::VectorXd load = Eigen::VectorXd::Zero(rows);  // external load on each member: force, torque / r
  QrbInternalForces out;
  std::vector<LinkForce> lf;
  // A wall link is internal (a support) when its wall lies inside the QRB: the H-graph's own rule, a link is
  // internal when its owner is (l.1712-1722, 2503); a wall the QRB touches only through unstable links is
  // outside it and its link's force an external load. Grouped by hand: every wall of a fixed QRB.
  std::vector<char> wall_inside(sys_.segments().size(), char(g.fixed));
  if (g.node != no_node && o_.supports_from_tree)
    for (int s = 0; s < int(wall_inside.size()); ++s)
      wall_inside[s] = s < int(segment_atom_.size()) && segment_atom_[s] != no_node &&
                       outermost_qrb(tree_, container_, segment_atom_[s], is_qrb_) == g.node;
  for (int li = 0; li < int(sys_.links().size()); ++li) {
    const Link& l = sys_.links()[li];
    if (l.a < 0) continue;
    const bool in_a = row[l.a] >= 0, in_b = l.is_wall() ? bool(wall_inside[l.segment()]) : row[l.b] >= 0;
    if (!in_a && (l.is_wall() || row[l.b] < 0)) continue;
    const LinkForce f = evaluate_link(link_ends(sys_, l), l.delta_tau, coefficients(sys_, l));
    if (in_a && in_b) {
      out.links.push_back(li), lf.push_back(f);
      continue;
    }
    if (in_a) {
      load.segment<2>(row[l.a]) += f.force1, load[row[l.a] + 2] += f.torque1 / disks[l.a].r;
    } else {
      load.segment<2>(row[l.b]) -= f.force1, load[row[l.b] + 2] += f.torque2 / disks[l.b].r;
    }
  }
  for (int i : g.disks) load.segment<2>(row[i]) += disks[i].m * gravity;
  // Rigid accelerations under the external load (zero for a fixed QRB); D'Alembert: b = m a - load.
  Eigen::VectorXd b = -load;
  if (!g.fixed) {
    double mass = 0, inertia = 0, spin = 0, t = 0;
    Vec2 centre = Vec2::Zero(), f = Vec2::Zero();
    for (int i : g.disks) mass += disks[i].m, centre += disks[i].m * disks[i].x;
    centre /= mass;
    for (int i : g.disks) {
      const Vec2 d = disks[i].x - centre;
      inertia += disks[i].inertia + disks[i].m * d.squaredNorm();
      spin += disks[i].inertia * disks[i].omega + disks[i].m * cross(d, disks[i].v);
      f += load.segment<2>(row[i]);
      t += load[row[i] + 2] * disks[i].r + cross(d, load.segment<2>(row[i]));
    }
    const double omega = spin / inertia, alpha = t / inertia;
    for (int i : g.disks) {
      const Vec2 d = disks[i].x - centre;
      b.segment<2>(row[i]) += disks[i].m * (f / mass + alpha * perp(d) - omega * omega * d);
      b[row[i] + 2] += disks[i].inertia * alpha / disks[i].r;
    }
  }
  for (const LinkForce& f : lf) out.eta.push_back(f.eta);
  if (method == QrbForceMethod::least_squares) {
    least_squares_forces(sys_, row, lf, b, out);
    return out;
  }
  // The thesis's stiffness solve: K d = load - m a_rigid = -b (002 l.2503-2606, qrb_stiffness.hpp).
  QrbStiffnessProblem p;
  p.members = int(g.disks.size());
  p.load = -b;
  p.grounded = g.fixed ? -1 : 0;  // a free QRB grounded at its first member (l.2600-2604)
  for (int k = 0; k < int(out.links.size()); ++k) {
    const Link& l = sys_.links()[out.links[k]];
    const LinkCoefficients& c = coefficients(sys_, l);
    const double n0 = o_.spring_prestress ? lf[k].normal : 0.0, t0 = o_.spring_prestress ? lf[k].tangential : 0.0;
    p.springs.push_back({row[l.a] / 3, l.is_wall() ? -1 : row[l.b] / 3, lf[k].eta, c.k_normal, c.k_tangential, n0, t0});
  }
  const bool by_cg = method == QrbForceMethod::conjugate_gradient;
  const bool warm_fits = warm && warm->size() == p.load.size();
  const QrbStiffnessSolution sol = solve_qrb_stiffness(p, by_cg ? QrbForceSolver::conjugate_gradient : QrbForceSolver::cholesky,
                                                       o_.cg_tolerance, o_.cg_max_iterations, warm_fits ? *warm : Eigen::VectorXd());
  if (warm) *warm = sol.displacement;
  out.normal = sol.normal, out.tangential = sol.tangential;
  out.residual = sol.residual, out.iterations = sol.iterations;
  return out;
}

void QrbDynamics::ungroup(int q) {
  for (int i : groups_[q].disks) group_of_[i] = -1;
  groups_.erase(groups_.begin() + q);
  ++dissolutions_;
  rebuild_index();
}

void QrbDynamics::check() {
  if (!o_.ungroup) return;
  std::vector<int> failed;
  bool changed = false;
  for (int q = int(groups_.size()) - 1; q >= 0; --q) {
    const QrbInternalForces f = solve_internal_forces(q, o_.internal_forces, &groups_[q].displacement);
    if (f.residual > o_.residual_tolerance) {  // no failing link to start from: the whole QRB goes
      failed.insert(failed.end(), f.links.begin(), f.links.end());  // and is not regrouped at once
      disintegrate(q, {});
      changed = true;
      continue;
    }
    std::vector<int> lowest;  // the owners of the tensile or slipping links
    for (std::size_t k = 0; k < f.links.size(); ++k) {
      const double mu = coefficients(sys_, sys_.links()[f.links[k]]).friction;
      if (f.normal[k] < -o_.tension_tolerance || std::abs(f.tangential[k]) > mu * f.normal[k] + o_.tension_tolerance) {
        lowest.push_back(groups_[q].node == no_node ? no_node : owner_of_link(f.links[k]));
        failed.push_back(f.links[k]);
      }
    }
    if (!lowest.empty()) disintegrate(q, lowest), changed = true;
  }
  if (changed && o_.regroup_at_once) regroup(failed);
}

void QrbDynamics::after_step() {
  ++ticks_;
  // A deleted member or a removed wall disconnects its links: its owner QRB and the owners above go.
  bool changed = false;
  for (int q = int(groups_.size()) - 1; q >= 0; --q) {
    std::vector<int> lowest;
    for (int i : groups_[q].disks)
      if (!sys_.disks()[i].active) lowest.push_back(groups_[q].node == no_node ? no_node : tree_.owner(disk_atom_[i]));
    if (groups_[q].node != no_node)
      for (int s = 0; s < int(segment_atom_.size()); ++s)
        if (segment_atom_[s] != no_node && !sys_.segments()[s].active &&
            outermost_qrb(tree_, container_, segment_atom_[s], is_qrb_) == groups_[q].node)
          lowest.push_back(tree_.owner(segment_atom_[s]));
    if (!lowest.empty()) disintegrate(q, lowest), changed = true;
  }
  if (changed && o_.regroup_at_once && ticks_ % o_.detect_interval != 0) regroup({});
  if (ticks_ % o_.detect_interval == 0) {
    detect();
  } else if (ticks_ % o_.check_interval == 0) {
    check();
  }
}

}  // namespace grainlab::mbd
