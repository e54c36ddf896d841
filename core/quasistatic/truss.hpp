#pragma once
// The topology and state of a QS truss (Gavrilov 1999 Ch. 4, seed 002): links with their geometry frozen
// at creation (small deformations), their stress-free offsets and their slides; the assembled sparse K for
// the cross-checks; link stresses from displacements D (Eq. 4.30-4.32, 4.35); and the equivalent loads of
// the offsets (the prestress pair +-K_tau delta_slide of a slid link, 002 l.1322).
//
// Link strain: delta = d_a - d_b (d_b = 0 at a fixed node), delta_eta = n.delta - offset_eta,
// delta_tau = t.delta - offset_tau, s = (K_eta delta_eta, K_tau delta_tau); n points from node a towards
// b (or the wall), so compression is positive. A link is created stress-free except for the overlap it
// is created with (offset_eta = n.delta - overlap), so it joins the truss without a jump in force.
// A slide moves offset_tau by the amount that brings |s_tau| down to mu s_eta (Eq. 4.34; the offset carries
// the sign of delta_tau, ledger P7).
#include <vector>

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include "core/quasistatic/link_element.hpp"

namespace grainlab::quasistatic {

struct Link {
  int a = 0;                ///< free node
  int b = fixed_node;       ///< free node or fixed_node
  int wall = -1;            ///< for a fixed end: which wall (the caller's numbering)
  Vec2 normal{1, 0};        ///< unit, from a towards b (compression positive)
  LinkSpring spring;
  double offset_normal = 0, offset_tangential = 0;
  double slide_energy = 0;  ///< cumulative E_slide (4.36)
  int slides = 0;
  bool active = true;
};

struct LinkStress {
  double normal = 0;      ///< s_eta, N (compression > 0)
  double tangential = 0;  ///< s_tau, N
};

class Truss {
 public:
  int nodes() const { return nodes_; }
  int add_node() { return nodes_++; }
  /// Appends a link, stress-free but for `overlap` (m, compression) under the displacements d.
  int add_link(Link link, const Eigen::VectorXd& d, double overlap);
  std::vector<Link>& links() { return links_; }
  const std::vector<Link>& links() const { return links_; }

  Mat2 stiffness_block(const Link& l) const { return link_stiffness(l.normal, l.spring); }
  /// Assembled K (2n x 2n) of the active links.
  Eigen::SparseMatrix<double> stiffness() const;
  /// K d without assembling K (a loop over the active links).
  Eigen::VectorXd apply_stiffness(const Eigen::VectorXd& d) const;
  /// Loads of the offsets (prestress), to add to the external loads before D = Z F.
  Eigen::VectorXd offset_loads() const;
  LinkStress stress(const Link& l, const Eigen::VectorXd& d) const;
  /// Coulomb slide (4.34): moves the tangential offset so that |s_tau| = mu s_eta; adds E_slide (4.36,
  /// with the pre-slide delta_tau, as printed). Returns the slide length.
  double slide(Link& l, const Eigen::VectorXd& d);

 private:
  Vec2 relative(const Link& l, const Eigen::VectorXd& d) const;
  int nodes_ = 0;
  std::vector<Link> links_;
};

}  // namespace grainlab::quasistatic
