#pragma once
// QRBs as an optional reduction inside the MBD dynamics (Gavrilov 1999 Sec. 5.7, seed 002 l.2415-2488,
// 2503-2606). Every `detect_interval` ticks FindQRBs (qrb_templates.hpp) runs on the stable, gripping
// links of the system (boundary segments are fixed atoms); each outermost QRB then moves as ONE rigid body
// through MbdSystem's rigid-group hook: its members' loads are replaced by the rigid-body accelerations
// of the group (mass M, centre X, I = sum(m r^2/2 + m |x - X|^2)). A fixed QRB (one holding a wall) is at
// rest. At grouping the members' velocities are projected onto one rigid motion conserving linear and
// angular momentum; the kinetic energy of the relative motion is booked as dissipated.
// Internal link forces (for the ungroup test) by default as the thesis computes them (Sec. 5.7.7-5.7.8,
// 002 l.2503-2606; core/mbd/qrb_stiffness.hpp): the QRB's links, the H-graph flattened (l.2503), as normal
// and tangential springs (the link law's K_eta, K_tau; dofs x, y, r phi), loaded per member by the external
// load minus m (A + alpha x r - Omega^2 r) and, for the torque, minus I alpha (D'Alembert with the
// centrifugal term, l.2589-2591, and the Euler term the thesis omits, ledger Sec. 4); a free QRB grounded
// at one member (l.2596-2604), a fixed one held by its wall links. The links' present spring forces are the
// prestress the solve starts from (the Ch. 4 device for stress a link already holds, Eq. 4.35,
// l.1322-1324): a QRB's springs are compressed when it forms, and K^{-1} F alone (`spring_prestress =
// false`, the literal l.2503) reads a squeezed link as pulled. K d = F + prestress pairs is solved by the
// thesis's Jacobi-preconditioned CG (Eq. 5.25, l.2518-2528, warm-started from the QRB's previous solution,
// l.2516) or by a sparse Cholesky; stress = prestress + spring x relative displacement.
// `internal_forces = least_squares` keeps the earlier force-only reading: the least-squares correction
// (Eigen LSCG, whose diagonal preconditioner makes it the minimum of sum f_eta^2 + 2 sum s_tau^2) of the
// frozen spring forces that balances the same loads.
// Ungroup (002 l.1973, 2479-2488): a tensile or slipping internal link (|s_tau| > mu s_eta) dissolves the QRB
// that owns it in the QRB tree of the last detection and its owners up to the outermost QRB ("if the owner
// of the link is a QRB, which is a member of another QRB, then this parent QRB has to be disintegrated too,
// and so on", l.2483); the QRBs off that chain, "the intact subtrees", stay rigid groups. A deleted member
// or a removed wall disconnects its links: its owner QRB and those above go the same way. When the solve
// cannot balance the loads at all (residual > `residual_tolerance`, no failing link to start from) the
// whole QRB is dissolved. Then, as the thesis does (l.1973, 2488), FindQRBs runs at once on the container
// with the freed bodies and the intact QRBs as its members, the failing links counted as slipping (the link
// law still reads them stable), and new outermost QRBs become groups (`regroup_at_once`); every
// `detect_interval` ticks the detection starts from scratch. `ungroup_owner_chain = false` dissolves the
// whole outermost QRB (the earlier simplification). A fixed QRB's supports are its links to the walls
// inside it in the QRB tree (`supports_from_tree`; earlier: every wall link of a member).
#include <vector>

#include "core/mbd/hgraph.hpp"
#include "core/mbd/system.hpp"

namespace grainlab::mbd {

/// How a QRB's internal link forces are found: the thesis's stiffness solve by CG or by a sparse Cholesky,
/// or the least-squares force balance by LSCG (the earlier reading, kept for comparison).
enum class QrbForceMethod { conjugate_gradient, cholesky, least_squares };

struct QrbDynamicsOptions {
  int detect_interval = 100;         ///< ticks between FindQRBs runs
  int check_interval = 10;           ///< ticks between internal-force solves (ungroup tests)
  bool ungroup = true;               ///< false: never ungroup (a deliberately wrong reading, perturbation)
  double residual_tolerance = 1e-3;  ///< relative residual of the force solve that dissolves a QRB
  double tension_tolerance = 1e-6;   ///< N: a normal force below -this is tensile
  bool book_projection = true;       ///< false: the projection's kinetic-energy loss is not booked (perturbation)
  QrbForceMethod internal_forces = QrbForceMethod::conjugate_gradient;
  double cg_tolerance = 1e-10;       ///< relative residual at which the stiffness CG stops
  int cg_max_iterations = 0;         ///< the CG's cap (0: 10 per dof)
  /// The links' present spring forces are the stiffness solve's prestress (Eq. 4.35's device, 002 l.1322);
  /// false: every stress from K^{-1} F alone, the literal l.2503 (a QRB formed under prestress then reads
  /// tension where its links press: a perturbation).
  bool spring_prestress = true;
  /// A failing link dissolves its owner QRB and the owners up to the outermost one; the QRBs off that chain
  /// stay (002 l.2483). false: the whole outermost QRB is dissolved (the earlier simplification).
  bool ungroup_owner_chain = true;
  /// After an Ungroup, FindQRBs runs at once on the container, the freed bodies and the intact QRBs among its
  /// members, with the failing links counted as slipping (002 l.1973, 2488): the link law still reads them
  /// stable (the solve, not the link law, found them failing), and a slipping link keeps a template out
  /// (l.1994). false: the freed bodies wait for the next periodic detection.
  bool regroup_at_once = true;
  /// A fixed QRB's supports are its links to the walls inside it in the QRB tree (the H-graph's internal
  /// links); a link to a wall it touches only through unstable links loads it from outside. false: every
  /// wall link of a fixed QRB's member is a support (the earlier reading).
  bool supports_from_tree = true;
};

struct QrbInternalForces {
  std::vector<double> normal, tangential;  ///< per internal link: compression positive; along tau
  std::vector<int> links;                  ///< the system's link indices
  std::vector<Vec2> eta;                   ///< per internal link: the unit normal from end a to end b
  double residual = 0;                     ///< force balance of the members: |A f - b| / |b|
  int iterations = 0;                      ///< CG iterations of the stiffness solve (0: not CG)
};

class QrbDynamics {
 public:
  QrbDynamics(MbdSystem& system, const QrbDynamicsOptions& options);
  /// Call after every MbdSystem::step (and after a topology change made outside step, e.g. remove_segment).
  void after_step();
  /// Runs FindQRBs now and regroups from scratch.
  void detect();
  /// Makes `disks` one QRB by hand (fixed: held at rest), projecting their velocities; returns its index.
  /// For tests and scripted scenes; detect() forms QRBs from the templates.
  int group(const std::vector<int>& disks, bool fixed);
  /// Dissolves QRB q: its members become free bodies with their present (rigid) velocities.
  void ungroup(int q);
  /// What the ungroup test does when internal link `link` (a system link index) fails: its owner QRB and
  /// the owners up the chain are dissolved (002 l.2483), then (regroup_at_once) FindQRBs runs with the link
  /// counted as slipping. No effect when the link is not inside a QRB.
  void fail_link(int link);
  /// Depth of disk i's QRB tree below its group's root (0: a direct member of the root; -1: no group).
  int depth_in_group(int disk) const;
  /// Runs the ungroup test on every QRB now.
  void check();
  /// The solved internal forces of QRB `q` (its internal links in the current state), by the configured
  /// method (a cold CG start).
  QrbInternalForces internal_forces(int q) const { return solve_internal_forces(q, o_.internal_forces, nullptr); }
  /// The same by a given method (for comparisons and tests).
  QrbInternalForces internal_forces(int q, QrbForceMethod method) const { return solve_internal_forces(q, method, nullptr); }

  int groups() const { return int(groups_.size()); }
  int disks_in_qrbs() const;
  int group_of(int disk) const { return disk < int(group_of_.size()) ? group_of_[disk] : -1; }
  bool fixed_group(int q) const { return groups_[q].fixed; }
  const std::vector<int>& members(int q) const { return groups_[q].disks; }
  long long groupings() const { return groupings_; }
  long long dissolutions() const { return dissolutions_; }

 private:
  struct Group {
    std::vector<int> disks;
    bool fixed = false;
    Eigen::VectorXd displacement;  ///< the last stiffness solution (3 per member): CG's warm start (l.2516)
    int node = no_node;            ///< its root in tree_ (no_node: grouped by hand, no tree)
  };
  struct RigidLoad {
    double mass = 0, inertia = 0, omega = 0, alpha = 0;
    Vec2 centre{0, 0}, acc{0, 0};
  };
  void hook(const Cluster& c, const StageState& stage, std::vector<Vec2>& force, std::vector<double>& torque);
  void project(const Group& g);
  void rebuild_index();
  /// tree_'s atom of the link's end b (a disk or a wall), no_node when it has none.
  int atom_of_far_end(const Link& l) const;
  /// The lowest QRB in tree_ that holds system link `link` (its owner, 002 l.1712-1722).
  int owner_of_link(int link) const;
  /// FindQRBs on the tree's container after an Ungroup, the `failed` system links counted as slipping; new
  /// outermost QRBs become groups (velocities projected), groups whose root is absorbed are replaced.
  void regroup(const std::vector<int>& failed);
  /// Disintegrates group q from the QRBs `lowest` up its owner chain; the intact subtrees become groups.
  void disintegrate(int q, const std::vector<int>& lowest);
  /// `warm` (may be null): in, the previous displacements as CG's first guess; out, the new ones.
  QrbInternalForces solve_internal_forces(int q, QrbForceMethod method, Eigen::VectorXd* warm) const;

  MbdSystem& sys_;
  QrbDynamicsOptions o_;
  std::vector<Group> groups_;
  std::vector<int> group_of_;
  std::vector<RigidLoad> load_;  ///< per group, scratch of the hook
  std::vector<int> touched_;
  long long ticks_ = 0, groupings_ = 0, dissolutions_ = 0;
  // The QRB tree of the last detection: atoms for the disks and segments, the QRBs FindQRBs grouped.
  HierarchicalGraph tree_;
  int container_ = no_node;
  std::vector<char> is_qrb_;
  std::vector<int> disk_atom_, segment_atom_, atom_disk_;  ///< atom_disk_: -1 for a segment or a graph
};

}  // namespace grainlab::mbd
