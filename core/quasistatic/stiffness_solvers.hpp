#pragma once
// The two modern alternatives to RIMA for D = K^{-1} F on the same truss: a sparse Cholesky (Eigen
// SimplicialLDLT; the cross-check of RIMA's stresses, ledger Sec. 1.1) and the Jacobi-preconditioned
// conjugate gradient of Gavrilov 1999 Eq. 5.25 (seed 002 l.2520-2528; standard index form, ledger Sec. 4).
#include <Eigen/Dense>
#include <Eigen/Sparse>

namespace grainlab::quasistatic {

/// Sparse LDL^T solve; throws InputError when K is singular (no path to a fixed node, G-C38).
Eigen::VectorXd solve_sparse_cholesky(const Eigen::SparseMatrix<double>& k, const Eigen::VectorXd& f);

/// Rank deficit of K (number of zero pivots of a dense rank-revealing QR, relative tolerance 1e-10).
int stiffness_rank_deficit(const Eigen::SparseMatrix<double>& k);

struct CgResult {
  Eigen::VectorXd x;
  int iterations = 0;
  double relative_residual = 0;  ///< |F - K x| / |F|
  bool converged = false;
};

/// Jacobi-PCG until |r| <= tolerance |F| or max_iterations; x0 is the initial guess (empty: zero).
CgResult solve_jacobi_cg(const Eigen::SparseMatrix<double>& k, const Eigen::VectorXd& f, double tolerance,
                         int max_iterations, const Eigen::VectorXd& x0 = Eigen::VectorXd());

}  // namespace grainlab::quasistatic
