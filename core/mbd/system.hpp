#pragma once
// The MBD model of Gavrilov 1999 Ch. 5 (seed 002 l.1597-2300) for 2-D disks and fixed boundary segments:
// spring-dashpot links (link_law.hpp) appear when two bodies touch (insert-link) and vanish when they
// separate (remove-link, delta_eta > 0, ledger P10); clusters are the connected components of the disks
// through disk-disk links (FindClusters, 002 l.1871-1890; fixed bodies excluded), re-found after every
// topology change. A cluster with links is advanced by its own step with Euler (5.15) or Heun (5.17-5.18);
// a link-free disk flies the exact parabola (3.2, 002 l.2291). After a split, a disk that became link-free
// keeps the cluster step for `conservation_steps` steps before its step grows (002 l.2289-2297).
//
// Time is a global tick of `step` seconds; contacts are detected on a cell list at each tick (a
// link-free disk at its own, possibly larger, step). Every cluster step, link change, log frame and
// deletion is counted as an event (event_log.hpp), and the energy ledger of 002 l.2842-2850 is kept:
// kinetic + potential (datum y = 0) + link springs + deleted bodies + dissipated = constant.
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "core/mbd/event_log.hpp"
#include "core/mbd/link_law.hpp"

namespace grainlab::mbd {

enum class Integrator { euler, heun };
/// How (5.4) measures a body's rotation during a step: the angle increment dphi (the thesis's choice) or
/// omega_start h (the variant it rejects, 002 l.2157).
enum class RotationIncrement { angle, omega };

struct MbdSettings {
  double step = 1e-5;                 ///< cluster time step h, s (002 l.2777)
  Vec2 gravity{0, -9.8};              ///< m/s^2 (002 l.2773)
  LinkCoefficients disk_link{1.0e6, 1.0e5, 1.0e3, 1.0e3, 0.43};  ///< 002 l.2773
  LinkCoefficients wall_link{1.5e6, 1.5e5, 1.5e3, 1.5e3, 0.33};  ///< 002 l.2775
  Integrator integrator = Integrator::heun;
  RotationIncrement rotation = RotationIncrement::angle;
  double slip_tolerance_relative = 1e-3;   ///< C_tolerance = max(rel mu f_n, abs) (ledger default)
  double slip_tolerance_absolute = 1e-6;   ///< N
  double stability_speed = 1e-3;           ///< C_stability, m/s (ledger default)
  int stability_dwell = 10;                ///< steps (002 l.2169)
  int conservation_steps = 10;             ///< steps a split-off disk keeps the cluster step (002 l.2297)
  int free_step_factor = 1;                ///< a link-free disk's step, in cluster steps (contact checks)
  double max_overlap_ratio = 0.5;          ///< overlap / radius that stops the run as unstable
};

struct Disk {
  Vec2 x{0, 0}, v{0, 0};
  double phi = 0, omega = 0;
  double r = 0, m = 0, inertia = 0;  ///< I = m r^2 / 2 (002 l.2066)
  bool active = true;
  int pending = 0;                   ///< ticks a link-free disk has not yet been advanced by
  int conserve = 0;                  ///< remaining steps at the cluster step after a split
  bool in_flight = false;            ///< flying the analytic parabola (a predict event was counted)
  bool linked = false;               ///< had a link after the last FindClusters
};

struct Segment {
  Vec2 a{0, 0}, b{1, 0};
  bool active = true;
  Vec2 closest(const Vec2& p) const;
};

struct Link {
  int a = 0;        ///< disk
  int b = 0;        ///< disk (>= 0) or segment -1 - b
  double delta_tau = 0;
  bool slipping = true;   ///< born slipping and unstable (002 l.1950, 1958)
  bool stable = false;
  int calm_steps = 0;
  bool is_wall() const { return b < 0; }
  int segment() const { return -1 - b; }
};

struct EnergyLedger {
  double kinetic = 0, potential = 0, links = 0;
  double deleted_kinetic = 0, deleted_potential = 0;
  double dissipated = 0;          ///< damping + Coulomb cap + slip resets + springs lost at removal
  double inserted = 0;            ///< spring energy of links born with an overlap (counted as input)
  double internal() const { return kinetic + potential + links; }
  /// Everything that must stay constant: internal + deleted + dissipated - inserted.
  double total(bool deleted_potential_counts = true) const {
    return internal() + deleted_kinetic + (deleted_potential_counts ? deleted_potential : 0.0) + dissipated - inserted;
  }
};

/// A cluster: disks connected through disk-disk links, with the links it owns (wall links included).
struct Cluster {
  std::vector<int> disks;
  std::vector<int> links;
};

/// The hook for rigid subgroups (QRBs, 002 l.2415-2488): called in every force evaluation of a cluster
/// step with the net force and torque on each member (indexed like cluster.disks), before they become
/// accelerations. A QRB implementation may replace its members' loads by the rigid-body motion of the
/// group. Empty: every disk is a free body (3 DOF each, 002 l.2199). `stage` holds the members' state at
/// which the forces were evaluated (the Heun predictor's state in the corrector), indexed like cluster.disks.
struct StageState {
  std::vector<Vec2> x, v;
  std::vector<double> omega;
};
using RigidGroupHook = std::function<void(const Cluster& cluster, const StageState& stage, std::vector<Vec2>& force,
                                          std::vector<double>& torque)>;

class MbdSystem {
 public:
  explicit MbdSystem(const MbdSettings& settings);

  int add_disk(const Vec2& x, double r, double mass, const Vec2& v = Vec2::Zero());
  int add_segment(const Vec2& a, const Vec2& b);
  /// Removes a boundary segment and its links (opening the orifice).
  void remove_segment(int s);
  /// Deletes every active disk whose top point is below `level` (the removal rule, 002 l.2769).
  int delete_below(double level);

  /// Links every touching pair now (insert-link events), e.g. for a state built with overlaps.
  void connect_touching() {
    detect_contacts();
    find_clusters();
  }
  /// Advances one tick. Throws InstabilityError on a non-finite state or an overlap past the limit.
  void step();
  /// Counts a log-state event.
  void log_state() { events_.add(EventType::log_state); }

  double time() const { return time_; }
  std::uint64_t ticks() const { return ticks_; }
  const MbdSettings& settings() const { return s_; }
  const std::vector<Disk>& disks() const { return disks_; }
  std::vector<Disk>& disks() { return disks_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const std::vector<Link>& links() const { return links_; }
  const std::vector<Cluster>& clusters() const { return clusters_; }
  const EventCounts& events() const { return events_; }
  void reset_events() { events_ = {}; }
  int active_disks() const { return active_; }
  /// Net force (gravity + links, committed tangential state) on every active disk, for equilibrium tests.
  std::vector<Vec2> net_forces() const;
  /// Current energies; potential with datum y = 0.
  EnergyLedger energy() const;
  /// Disks deleted by delete_below, with their x at deletion (for left/right fluxes).
  const std::vector<double>& deleted_x() const { return deleted_x_; }
  /// Scalars integrated per cluster step / bodies advanced (3 DOF x 2 first-order components = 6, G-C60).
  double state_size_per_body() const { return stepped_bodies_ ? double(stepped_state_size_) / stepped_bodies_ : 0; }
  void set_rigid_group_hook(RigidGroupHook hook) { hook_ = std::move(hook); }
  /// Energy removed outside the link law (a QRB's velocities projected onto one rigid motion), J.
  void add_dissipated(double energy) { spent_.dissipated += energy; }

 private:
  struct BodyState {
    Vec2 x, v;
    double phi, omega;
  };
  LinkEnds ends(const Link& l, const std::vector<BodyState>& st, const std::vector<int>& local) const;
  double trial_delta_tau(const Link& l, const LinkEnds& now, const std::vector<BodyState>& st,
                         const std::vector<BodyState>& start, const std::vector<int>& local, double elapsed) const;
  const LinkCoefficients& coefficients(const Link& l) const { return l.is_wall() ? s_.wall_link : s_.disk_link; }
  void advance_cluster(const Cluster& c);
  void advance_free(int i);
  void detect_contacts();
  void remove_separated();
  void drop_link(int index, bool counted);
  void find_clusters();
  void check_state() const;

  MbdSettings s_;
  std::vector<Disk> disks_;
  std::vector<Segment> segments_;
  std::vector<Link> links_;
  std::vector<std::vector<int>> disk_links_;
  std::vector<Cluster> clusters_;
  std::vector<int> cluster_of_;      ///< cluster index of each disk in a linked cluster, or -1
  std::vector<double> deleted_x_;
  EventCounts events_;
  EnergyLedger spent_;               ///< deleted, dissipated and inserted energy so far
  RigidGroupHook hook_;
  StageState stage_;
  double time_ = 0;
  std::uint64_t ticks_ = 0;
  int active_ = 0;
  bool topology_changed_ = true;
  std::uint64_t stepped_state_size_ = 0, stepped_bodies_ = 0;
  // scratch
  std::vector<int> local_;
};

}  // namespace grainlab::mbd
