#pragma once
// Filling a planar silo with the quasi-static model (Gavrilov 1999 Sec. 4.4-4.6, seed 002 l.1241-1525):
// disks dropped one at a time near the centre of the top, placed by the cellular-automaton rule "roll
// down until supported left and right by placed disks or a wall" (002 l.1467; details: ledger G-E5
// defaults), linked to their supports through RIMA, then the topology loop (002 l.1347-1381) runs until
// equilibrium: (1) connect the single overlapping pair with the largest projected stress, else (2)
// disconnect the single most tensile link, else (3) slide all links past the Coulomb limit; D = Z F after
// every action, positions p = p0 + D for the contact tests (4.33). An action cap per disk stops the
// infinite slide loops the thesis warns of (Fig. 4.4, 002 l.1397); such a disk is logged as unresolved.
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "core/quasistatic/inverse_stiffness.hpp"
#include "core/quasistatic/truss.hpp"

namespace grainlab::quasistatic {

enum SiloWall : int { left_wall = 0, right_wall = 1, floor_wall = 2 };

struct SiloSettings {
  double width = 0.3;             ///< m
  double height = 1.0;            ///< m
  int disks = 500;
  double radius_mean = 0.01;      ///< m
  double radius_sd_fraction = 0.05;  ///< sd / mean, normal truncated at +-3 sd
  double areal_density = 1190;    ///< kg/m^2 (ledger P3: 1190 kg/m^2 x pi r^2)
  double gravity = 9.81;          ///< m/s^2
  LinkSpring disk_link{1.0e6, 1.0e5, 0.43};
  LinkSpring wall_link{1.5e6, 1.5e5, 0.33};
  double drop_half_width = 0.02;  ///< m: drop x uniform in centre +- this
  std::uint64_t seed = 1;
  int max_actions = 10000;        ///< topology-loop actions per disk
  double near_radius = 0.05;      ///< m: "near the new disk" for the slide-location statistics (5 radii)
  int threads = 1;                ///< RIMA update threads
  /// |Z K - I| above which Z is refreshed from K after a removal (0: pure RIMA, never refreshed).
  double refresh_tolerance = 1e-11;
  /// One step of iterative refinement after D = Z F: D += Z (F - K D) (K D from the links). Keeps the
  /// equilibrium residual at rounding level while Z carries the small errors of its updates.
  bool refine = true;
};

struct DiskLog {
  int actions = 0, connects = 0, disconnects = 0, slide_rounds = 0, slides = 0;
  double slide_energy = 0;
  bool unresolved = false;      ///< the action cap was hit
  int kept_tensile = 0;         ///< tensile links not removed because a node would lose its support
};

struct SlideEvent {
  int disk = 0;                 ///< the disk whose addition triggered it
  int link = 0;
  double energy = 0;            ///< E_slide of this slide (4.36)
  Vec2 where{0, 0};             ///< contact point
  double distance_to_new = 0;   ///< from the newly added disk's centre, m
  bool near_wall = false;       ///< a wall link or a contact within one mean diameter of a side wall
  /// Of the active links at this slide round: the fraction within `near_radius` of the new disk and the
  /// fraction near a side wall (the baselines of G-C30's enrichment).
  double links_near_new = 0, links_near_wall = 0;
};

struct SiloDisk {
  Vec2 reference{0, 0};  ///< position when placed
  double radius = 0, mass = 0;
};

class SiloFill {
 public:
  explicit SiloFill(const SiloSettings& settings);
  /// Drops, places and settles the next disk. False when the silo is full or all disks are placed.
  bool add_disk();

  const SiloSettings& settings() const { return s_; }
  const std::vector<SiloDisk>& disks() const { return disks_; }
  const std::vector<DiskLog>& log() const { return log_; }
  const std::vector<SlideEvent>& slide_events() const { return slides_; }
  const Truss& truss() const { return truss_; }
  const InverseStiffness& rima() const { return rima_; }
  const Eigen::VectorXd& displacements() const { return d_; }
  Vec2 position(int i) const { return disks_[i].reference + d_.segment<2>(2 * i); }
  /// External loads (gravity) and the total loads (gravity + prestress of the offsets).
  Eigen::VectorXd external_loads() const;
  Eigen::VectorXd total_loads() const { return external_loads() + truss_.offset_loads(); }
  /// Contact point of a link (on the surface of node a).
  Vec2 contact_point(const Link& l) const { return position(l.a) + disks_[l.a].radius * l.normal; }
  double mean_weight() const;
  /// The largest |Z K - I| measured after a removal (before any refresh), and the refreshes made.
  double worst_identity_error() const { return worst_identity_error_; }
  int refreshes() const { return refreshes_; }

 private:
  struct Support {
    int node = -1;  ///< a disk, or -1
    int wall = -1;  ///< a wall, or -1
  };
  bool place(double radius, Vec2& at, std::vector<Support>& supports);
  double gap_to_disk(const Vec2& c, double r, int j) const;
  double gap_to_wall(const Vec2& c, double r, int wall) const;
  void insert_link(int a, const Support& other, double overlap, bool first);
  void remove_link(int index);
  bool stays_grounded_without(int index) const;
  void settle(DiskLog& log);
  bool connect_one();
  bool disconnect_one(DiskLog& log);
  int slide_all();
  void resolve();

  SiloSettings s_;
  std::mt19937_64 rng_;
  std::vector<SiloDisk> disks_;
  std::vector<DiskLog> log_;
  std::vector<SlideEvent> slides_;
  Truss truss_;
  InverseStiffness rima_;
  Eigen::VectorXd d_;
  std::set<std::pair<int, int>> linked_;
  double worst_identity_error_ = 0;
  int refreshes_ = 0;  ///< (a, b) with b >= 0 a disk, b < 0 the wall -1 - b
};

}  // namespace grainlab::quasistatic
