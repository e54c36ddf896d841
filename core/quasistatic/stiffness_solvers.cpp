#include "core/quasistatic/stiffness_solvers.hpp"

#include <Eigen/SparseCholesky>

#include "core/error.hpp"

namespace grainlab::quasistatic {

Eigen::VectorXd solve_sparse_cholesky(const Eigen::SparseMatrix<double>& k, const Eigen::VectorXd& f) {
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(k);
  if (ldlt.info() != Eigen::Success) throw InputError("sparse Cholesky: K is singular");
  const double dmax = ldlt.vectorD().cwiseAbs().maxCoeff();
  if (!(ldlt.vectorD().minCoeff() > 1e-12 * dmax))
    throw InputError("sparse Cholesky: K is singular (a node or group without a link path to a fixed node)");
  return ldlt.solve(f);
}

int stiffness_rank_deficit(const Eigen::SparseMatrix<double>& k) {
  const Eigen::MatrixXd dense = k;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(dense);
  qr.setThreshold(1e-10);
  return int(k.cols() - qr.rank());
}

CgResult solve_jacobi_cg(const Eigen::SparseMatrix<double>& k, const Eigen::VectorXd& f, double tolerance,
                         int max_iterations, const Eigen::VectorXd& x0) {
  CgResult out;
  out.x = x0.size() == f.size() ? x0 : Eigen::VectorXd::Zero(f.size());
  const Eigen::VectorXd inv_diag = k.diagonal().cwiseInverse();
  Eigen::VectorXd r = f - k * out.x;
  const double fnorm = f.norm();
  if (fnorm == 0) {
    out.converged = true;
    return out;
  }
  Eigen::VectorXd z = inv_diag.cwiseProduct(r);
  Eigen::VectorXd p = z;
  double rz = r.dot(z);
  while (r.norm() > tolerance * fnorm && out.iterations < max_iterations) {
    const Eigen::VectorXd q = k * p;
    const double alpha = rz / p.dot(q);
    out.x += alpha * p;
    r -= alpha * q;
    z = inv_diag.cwiseProduct(r);
    const double rz_next = r.dot(z);
    p = z + (rz_next / rz) * p;
    rz = rz_next;
    ++out.iterations;
  }
  out.relative_residual = (f - k * out.x).norm() / fnorm;
  out.converged = out.relative_residual <= tolerance * 1.0001;
  return out;
}

}  // namespace grainlab::quasistatic
