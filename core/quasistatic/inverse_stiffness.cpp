#include "core/quasistatic/inverse_stiffness.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/error.hpp"

namespace grainlab::quasistatic {

void InverseStiffness::grow(int new_nodes) {
  const int need = 2 * new_nodes;
  if (need <= buffer_.rows()) return;
  const int cap = std::max<int>(need, std::max<Eigen::Index>(16, 2 * buffer_.rows()));
  Eigen::MatrixXd bigger = Eigen::MatrixXd::Zero(cap, cap);
  bigger.topLeftCorner(dofs(), dofs()) = matrix();
  buffer_.swap(bigger);
}

Mat2 InverseStiffness::checked_inverse(const Mat2& m, const char* what) {
  // A (near) singular 2x2 block means the update would make K singular: a node or group left without a
  // path to a fixed node (the QS model needs one, 002 l.1056, 1095; ledger G-C38).
  const double scale = m.cwiseAbs().maxCoeff();
  if (!(scale > 0) || !std::isfinite(scale) || std::abs(m.determinant()) <= 1e-12 * scale * scale)
    throw InputError(fmt::format("RIMA {}: the stiffness matrix would become singular (a node or group "
                                 "without a link path to a fixed node)", what));
  return m.inverse();
}

int InverseStiffness::add_node_to_fixed(const Mat2& c) {
  grow(nodes_ + 1);
  const int b = nodes_++;
  buffer_.block(2 * b, 0, 2, dofs()).setZero();
  buffer_.block(0, 2 * b, dofs(), 2).setZero();
  buffer_.block<2, 2>(2 * b, 2 * b) = checked_inverse(c, "case 0");
  return b;
}

int InverseStiffness::add_node_to_node(int alpha, const Mat2& c) {
  if (alpha < 0 || alpha >= nodes_) throw InputError(fmt::format("RIMA case 1: node {} does not exist", alpha));
  grow(nodes_ + 1);
  const int b = nodes_++;
  const int n = dofs() - 2;
  buffer_.block(0, 2 * b, n, 2) = buffer_.block(0, 2 * alpha, n, 2);
  buffer_.block(2 * b, 0, 2, n) = buffer_.block(2 * alpha, 0, 2, n);
  buffer_.block<2, 2>(2 * b, 2 * b) = buffer_.block<2, 2>(2 * alpha, 2 * alpha) + checked_inverse(c, "case 1");
  return b;
}

void InverseStiffness::rank2_update(const Eigen::Matrix<double, Eigen::Dynamic, 2>& w, const Mat2& x) {
  const int n = dofs();
  const Eigen::Matrix<double, Eigen::Dynamic, 2> wx = w * x;  // n x 2
  auto columns = [&](int begin, int end) {
    buffer_.block(0, begin, n, end - begin).noalias() -= wx * w.middleRows(begin, end - begin).transpose();
  };
  if (threads_ <= 1 || n < 256) {
    columns(0, n);
    return;
  }
  tbb::task_arena arena(threads_);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<int>(0, n, 64),
                      [&](const tbb::blocked_range<int>& r) { columns(r.begin(), r.end()); });
  });
}

void InverseStiffness::add_fixed_link(int alpha, const Mat2& c) {
  if (alpha < 0 || alpha >= nodes_) throw InputError(fmt::format("RIMA case 2: node {} does not exist", alpha));
  const Eigen::Matrix<double, Eigen::Dynamic, 2> w = buffer_.block(0, 2 * alpha, dofs(), 2);
  const Mat2 compliance = checked_inverse(c, "case 2 (link stiffness)");
  const Mat2 x = checked_inverse(compliance + w.middleRows(2 * alpha, 2), "case 2");
  last_amplification_ = x.cwiseAbs().rowwise().sum().maxCoeff() * compliance.cwiseAbs().rowwise().sum().maxCoeff();
  rank2_update(w, x);
}

void InverseStiffness::add_link(int alpha, int beta, const Mat2& c) {
  if (alpha < 0 || alpha >= nodes_ || beta < 0 || beta >= nodes_ || alpha == beta)
    throw InputError(fmt::format("RIMA case 3: invalid node pair ({}, {})", alpha, beta));
  const Eigen::Matrix<double, Eigen::Dynamic, 2> w =
      buffer_.block(0, 2 * alpha, dofs(), 2) - buffer_.block(0, 2 * beta, dofs(), 2);
  const Mat2 compliance = checked_inverse(c, "case 3 (link stiffness)");
  const Mat2 x = checked_inverse(compliance + w.middleRows(2 * alpha, 2) - w.middleRows(2 * beta, 2), "case 3");
  last_amplification_ = x.cwiseAbs().rowwise().sum().maxCoeff() * compliance.cwiseAbs().rowwise().sum().maxCoeff();
  rank2_update(w, x);
}

void InverseStiffness::reset(const Eigen::MatrixXd& z) {
  if (z.rows() != dofs() || z.cols() != dofs())
    throw InputError(fmt::format("RIMA reset: a {}x{} matrix for {} degrees of freedom", z.rows(), z.cols(), dofs()));
  buffer_.topLeftCorner(dofs(), dofs()) = z;
}

Eigen::VectorXd InverseStiffness::solve(const Eigen::VectorXd& loads) const {
  if (loads.size() != dofs())
    throw InputError(fmt::format("RIMA solve: {} loads for {} degrees of freedom", loads.size(), dofs()));
  return matrix() * loads;
}

}  // namespace grainlab::quasistatic
