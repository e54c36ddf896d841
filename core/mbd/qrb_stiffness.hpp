#pragma once
// The internal forces of one QRB from its own stiffness system, as Gavrilov 1999 Sec. 5.7.7-5.7.8 computes
// them (seed 002 l.2503-2606): the QRB's links, "flattened" out of the H-graph (l.2503), are linear
// springs; the external loads on the members (for a free QRB with D'Alembert's inertia and centrifugal
// terms, l.2589-2591, built by the caller) are balanced by nodal displacements d, K d = F, and each link's
// stress is its stiffness times the relative displacement of its ends, K_ij (d_i - d_j) = R_ij (l.2583).
//
// Degrees of freedom per member: x, y and the lever-scaled rotation r phi (a length, so the matrix stays
// well scaled; its load is torque / r). A link joins member a to member b or to a fixed support (a wall of
// a fixed QRB, "the links to fixed nodes", l.2585 footnote). With eta from a to b and tau = eta rotated by
// +90 degrees, the link law's relative displacements (link_law.hpp, 5.4-5.7) linearised at the present
// geometry are
//   d_eta = (d_b - d_a).eta,   d_tau = (d_b - d_a).tau - r_b phi_b - r_a phi_a   (d_b = 0 at a support),
// the springs give compression f_eta = -K_eta d_eta and s_tau = K_tau d_tau, and the force on a is
// -f_eta eta + s_tau tau (on b the opposite), the torque on each end r s_tau, as in evaluate_link.
// K = sum B^T diag(K_eta, K_tau) B is symmetric positive semidefinite; its rigid-body modes are removed by
// grounding (l.2596-2604): a free QRB's member `grounded` is held absolutely (d = 0, the "absolutely stiff"
// fictional link, which the thesis recommends for CG); since the loads are balanced its reaction is zero
// and the link stresses do not depend on the member chosen. A fixed QRB is held by its supports alone.
// Stresses a link holds before the solve (the spring state the link law carries when the QRB forms: the
// overlap it was born with, delta_tau) enter as the Ch. 4 model enters a slid link's stress, as a prestress
// pair on the link's ends (Eq. 4.35, l.1322-1324): s = s0 + K (relative displacement), K d = F + (the
// prestress pairs). With s0 = 0 this is the thesis's literal K^{-1} F of l.2503.
// The grounded system is solved by the thesis's Jacobi-preconditioned CG (Eq. 5.25, l.2518-2528, the
// silo's solver in core/quasistatic/stiffness_solvers) or, as the cross-check, by a sparse Cholesky (the
// direct counterpart of multiplying by RIMA's inverse, l.2507). A mechanism (K singular on the free dofs)
// or an unbalanced load shows as a residual of the force balance of every member, reported, not thrown.
#include <vector>

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include "core/mbd/link_law.hpp"

namespace grainlab::mbd {

enum class QrbForceSolver { conjugate_gradient, cholesky };

/// One link of the QRB as a pair of springs.
struct QrbSpring {
  int a = 0;             ///< member index
  int b = -1;            ///< member index, or -1: a fixed support
  Vec2 eta{1, 0};        ///< unit normal from a towards b
  double k_normal = 0, k_tangential = 0;  ///< K_eta, K_tau, N/m
  double normal0 = 0, tangential0 = 0;    ///< prestress s0: compression positive, along tau, N
};

struct QrbStiffnessProblem {
  int members = 0;
  std::vector<QrbSpring> springs;
  Eigen::VectorXd load;  ///< 3 per member: force x, y (N) and torque / r (N); must be balanced when free
  int grounded = -1;     ///< member held absolutely (a free QRB); -1: held by its supports only
};

struct QrbStiffnessSolution {
  std::vector<double> normal, tangential;  ///< per spring: compression positive; s_tau along tau
  Eigen::VectorXd displacement;            ///< 3 per member (x, y, r phi), zero at the grounded member
  double residual = 0;                     ///< |internal + load| / |load| over every member, grounded too
  int iterations = 0;                      ///< CG iterations (0 for Cholesky)
};

/// K on the free dofs (the grounded member's three removed), ordered as the members.
Eigen::SparseMatrix<double> qrb_stiffness_matrix(const QrbStiffnessProblem& p);

/// Solves K d = F; `tolerance` is CG's relative residual target, `max_iterations` its cap (<= 0: 10 per dof),
/// `initial` CG's first guess (3 per member like `displacement`; empty: zero). A singular K (Cholesky), a
/// member without a spring or a non-finite CG iterate gives an infinite residual.
QrbStiffnessSolution solve_qrb_stiffness(const QrbStiffnessProblem& p, QrbForceSolver solver, double tolerance = 1e-10,
                                         int max_iterations = 0, const Eigen::VectorXd& initial = Eigen::VectorXd());

}  // namespace grainlab::mbd
