#pragma once
// RIMA: the inverse stiffness Z = K^{-1} of a 2-D truss, maintained link by link (Gavrilov 1999 Sec. 4.3,
// Eq. 4.19-4.28, seed 002 l.1177-1237) instead of solving K D = F after every topology change:
//   case 0  a new node linked to a fixed node            Z grows by the block C^{-1}           (4.19)
//   case 1  a new node linked to free node alpha          row alpha copied, Z_aa + C^{-1}       (4.20-4.22)
//   case 2  an existing node linked to a fixed node       Z -= Z_.a X Z_a.,  X = (C^{-1} + Z_aa)^{-1}  (4.23-4.25)
//   case 3  two existing nodes                            Z -= W X W^T, W = Z_.a - Z_.b          (4.26-4.28)
// A link is removed as a parallel link of stiffness -C (002 l.1299), through case 2 or 3.
// Z is stored in full (symmetric) in a buffer that grows by doubling, so bordering costs O(n) per new node.
// The rank-2 updates may run on several threads (TBB, row blocks), the shared-memory form of the thesis's
// row-cyclic MPI RIMA (G-E6, 002 l.1539-1575); the result is the same to rounding order of each entry
// (every entry is computed by one thread with the same operations), i.e. bit for bit.
#include <Eigen/Dense>

#include "core/quasistatic/link_element.hpp"

namespace grainlab::quasistatic {

class InverseStiffness {
 public:
  /// Number of free nodes (Z is 2n x 2n).
  int nodes() const { return nodes_; }
  int dofs() const { return 2 * nodes_; }
  /// Threads for the rank-2 updates (1: sequential).
  void set_threads(int threads) { threads_ = threads < 1 ? 1 : threads; }

  /// Case 0: a new node whose first link goes to a fixed node. Returns the new node's index.
  int add_node_to_fixed(const Mat2& stiffness);
  /// Case 1: a new node whose first link goes to free node alpha. Returns the new node's index.
  int add_node_to_node(int alpha, const Mat2& stiffness);
  /// Case 2: a link (stiffness C; -C removes one) between free node alpha and a fixed node.
  void add_fixed_link(int alpha, const Mat2& stiffness);
  /// Case 3: a link (stiffness C; -C removes one) between free nodes alpha and beta.
  void add_link(int alpha, int beta, const Mat2& stiffness);

  /// ||X|| ||C^{-1}|| of the last case 2/3 update (max-row-sum norms): the factor by which that update
  /// can amplify the rounding errors in Z. <= 1 for an insertion; large for the removal of a link that
  /// carries most of the stiffness between its ends (X^{-1} = -C^{-1} + Z_eff cancels).
  double last_amplification() const { return last_amplification_; }
  /// Replaces Z by a given inverse (a fresh K^{-1} when the updates have lost accuracy).
  void reset(const Eigen::MatrixXd& z);

  /// D = Z F (4.29).
  Eigen::VectorXd solve(const Eigen::VectorXd& loads) const;
  /// The current Z (a view of the top-left 2n x 2n block of the buffer).
  Eigen::Block<const Eigen::MatrixXd> matrix() const { return buffer_.topLeftCorner(dofs(), dofs()); }

 private:
  void grow(int new_nodes);
  /// Z -= W X W^T over the current 2n x 2n block (the shared step of cases 2 and 3).
  void rank2_update(const Eigen::Matrix<double, Eigen::Dynamic, 2>& w, const Mat2& x);
  static Mat2 checked_inverse(const Mat2& m, const char* what);

  Eigen::MatrixXd buffer_;
  int nodes_ = 0;
  int threads_ = 1;
  double last_amplification_ = 0;
};

}  // namespace grainlab::quasistatic
