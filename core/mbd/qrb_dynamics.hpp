#pragma once
// QRBs as an optional reduction inside the MBD dynamics (Gavrilov 1999 Sec. 5.7, seed 002 l.2415-2488,
// 2503-2606). Every `detect_interval` ticks FindQRBs (qrb_templates.hpp) runs on the stable, gripping
// links of the system (boundary segments are fixed atoms); each outermost QRB then moves as ONE rigid body
// through MbdSystem's rigid-group hook: its members' loads are replaced by the rigid-body accelerations
// of the group (mass M, centre X, I = sum(m r^2/2 + m |x - X|^2)). A fixed QRB (one holding a wall) is at
// rest. At grouping the members' velocities are projected onto one rigid motion conserving linear and
// angular momentum; the kinetic energy of the relative motion is booked as dissipated.
// Internal link forces (for the ungroup test) are the minimum-norm least-squares solution, by conjugate
// gradients (Eigen LSCG), of the members' equations of motion: sum of internal link forces on a member =
// m a_rigid - external load (D'Alembert), torques likewise; a fixed QRB's wall links take the reaction.
// This replaces the thesis's RIMA/CG stiffness solve (002 l.2503-2606) by a force-only solve. A QRB is
// dissolved (all its members become free; the next detection regroups what is still stable) when an
// internal link would be tensile or slip (|s_tau| > mu s_eta), when the solve cannot balance the loads
// (residual > `residual_tolerance` of the load: e.g. its wall link was removed), or when a member was
// deleted. Dissolving the outermost QRB is a simplification of Ungroup up the owner chain.
#include <vector>

#include "core/mbd/system.hpp"

namespace grainlab::mbd {

struct QrbDynamicsOptions {
  int detect_interval = 100;         ///< ticks between FindQRBs runs
  int check_interval = 10;           ///< ticks between internal-force solves (ungroup tests)
  bool ungroup = true;               ///< false: never ungroup (a deliberately wrong reading, perturbation)
  double residual_tolerance = 1e-3;  ///< relative residual of the force solve that dissolves a QRB
  double tension_tolerance = 1e-6;   ///< N: a normal force below -this is tensile
  bool book_projection = true;       ///< false: the projection's kinetic-energy loss is not booked (perturbation)
};

struct QrbInternalForces {
  std::vector<double> normal, tangential;  ///< per internal link: compression positive; along tau
  std::vector<int> links;                  ///< the system's link indices
  std::vector<Vec2> eta;                   ///< per internal link: the unit normal from end a to end b
  double residual = 0;                     ///< |A f - b| / |b|
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
  /// Runs the ungroup test on every QRB now.
  void check();
  /// The solved internal forces of QRB `q` (its internal links in the current state).
  QrbInternalForces internal_forces(int q) const;

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
  };
  struct RigidLoad {
    double mass = 0, inertia = 0, omega = 0, alpha = 0;
    Vec2 centre{0, 0}, acc{0, 0};
  };
  void hook(const Cluster& c, const StageState& stage, std::vector<Vec2>& force, std::vector<double>& torque);
  void project(const Group& g);
  void rebuild_index();

  MbdSystem& sys_;
  QrbDynamicsOptions o_;
  std::vector<Group> groups_;
  std::vector<int> group_of_;
  std::vector<RigidLoad> load_;  ///< per group, scratch of the hook
  std::vector<int> touched_;
  long long ticks_ = 0, groupings_ = 0, dissolutions_ = 0;
};

}  // namespace grainlab::mbd
