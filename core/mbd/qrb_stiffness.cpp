#include "core/mbd/qrb_stiffness.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "core/error.hpp"
#include "core/quasistatic/stiffness_solvers.hpp"

namespace grainlab::mbd {
namespace {

// The spring's two rows of B (d_eta, d_tau) over its up to six free dofs; dof -1 = held (support/ground).
struct SpringRows {
  std::array<int, 6> dof{-1, -1, -1, -1, -1, -1};
  std::array<double, 6> normal{}, tangential{};
};

SpringRows rows_of(const QrbSpring& s, const std::vector<int>& first_dof) {
  const Vec2 tau(-s.eta.y(), s.eta.x());
  SpringRows r;
  auto end = [&](int member, int slot, double sign) {
    if (member < 0 || first_dof[member] < 0) return;
    const int d = first_dof[member];
    r.dof[slot] = d, r.dof[slot + 1] = d + 1, r.dof[slot + 2] = d + 2;
    r.normal[slot] = sign * s.eta.x(), r.normal[slot + 1] = sign * s.eta.y();
    r.tangential[slot] = sign * tau.x(), r.tangential[slot + 1] = sign * tau.y();
    r.tangential[slot + 2] = -1.0;  // both ends' r phi enter d_tau with a minus (5.7)
  };
  end(s.a, 0, -1.0);
  end(s.b, 3, +1.0);
  return r;
}

std::vector<int> free_dofs(const QrbStiffnessProblem& p, int& count) {
  std::vector<int> first(p.members, -1);
  count = 0;
  for (int m = 0; m < p.members; ++m)
    if (m != p.grounded) first[m] = count, count += 3;
  return first;
}

void validate(const QrbStiffnessProblem& p) {
  if (p.load.size() != 3 * p.members) throw InputError("QRB stiffness: load needs 3 entries per member");
  if (p.grounded >= p.members) throw InputError("QRB stiffness: grounded member out of range");
  for (const QrbSpring& s : p.springs) {
    if (s.a < 0 || s.a >= p.members || s.b >= p.members || s.a == s.b)
      throw InputError("QRB stiffness: a spring's ends must be two members (or a member and a support)");
    if (!(s.k_normal > 0) || !(s.k_tangential > 0)) throw InputError("QRB stiffness: k_normal and k_tangential must be > 0");
  }
}

// Adds each spring's forces (compression, tangential) = stress(spring) to the members' generalized loads:
// on a -f eta + s tau and torque / r = s; on b the opposite force and again s (link_law.hpp).
template <class Stress>
void add_spring_forces(const QrbStiffnessProblem& p, Stress stress, Eigen::VectorXd& loads) {
  for (const QrbSpring& s : p.springs) {
    const auto [normal, tangential] = stress(s);
    const Vec2 on_a = -normal * s.eta + tangential * Vec2(-s.eta.y(), s.eta.x());
    loads.segment<2>(3 * s.a) += on_a, loads[3 * s.a + 2] += tangential;
    if (s.b >= 0) loads.segment<2>(3 * s.b) -= on_a, loads[3 * s.b + 2] += tangential;
  }
}

}  // namespace

Eigen::SparseMatrix<double> qrb_stiffness_matrix(const QrbStiffnessProblem& p) {
  validate(p);
  int n = 0;
  const std::vector<int> first = free_dofs(p, n);
  std::vector<Eigen::Triplet<double>> trip;
  trip.reserve(72 * p.springs.size());
  for (const QrbSpring& s : p.springs) {
    const SpringRows r = rows_of(s, first);
    for (int i = 0; i < 6; ++i) {
      if (r.dof[i] < 0) continue;
      for (int j = 0; j < 6; ++j) {
        if (r.dof[j] < 0) continue;
        const double k = s.k_normal * r.normal[i] * r.normal[j] + s.k_tangential * r.tangential[i] * r.tangential[j];
        if (k != 0) trip.emplace_back(r.dof[i], r.dof[j], k);
      }
    }
  }
  Eigen::SparseMatrix<double> k(n, n);
  k.setFromTriplets(trip.begin(), trip.end());
  return k;
}

QrbStiffnessSolution solve_qrb_stiffness(const QrbStiffnessProblem& p, QrbForceSolver solver, double tolerance,
                                         int max_iterations, const Eigen::VectorXd& initial) {
  const Eigen::SparseMatrix<double> k = qrb_stiffness_matrix(p);
  int n = 0;
  const std::vector<int> first = free_dofs(p, n);
  // Free-dof loads: the external ones plus the prestress pairs (the springs' present forces on the members).
  Eigen::VectorXd load = p.load;
  add_spring_forces(p, [](const QrbSpring& s) { return std::pair{s.normal0, s.tangential0}; }, load);
  Eigen::VectorXd f(n);
  for (int m = 0; m < p.members; ++m)
    if (first[m] >= 0) f.segment<3>(first[m]) = load.segment<3>(3 * m);
  QrbStiffnessSolution out;
  Eigen::VectorXd u = Eigen::VectorXd::Zero(n);
  constexpr double inf = std::numeric_limits<double>::infinity();
  bool ok = true;
  if (n > 0 && f.norm() > 0) {
    if (solver == QrbForceSolver::cholesky) {
      try {
        u = quasistatic::solve_sparse_cholesky(k, f);
      } catch (const InputError&) {
        ok = false;  // singular: the QRB is a mechanism or a fixed one lost its supports
      }
    } else if (k.diagonal().minCoeff() > 0) {
      Eigen::VectorXd guess;
      if (initial.size() == 3 * p.members && initial.allFinite()) {
        guess.resize(n);
        for (int m = 0; m < p.members; ++m)
          if (first[m] >= 0) guess.segment<3>(first[m]) = initial.segment<3>(3 * m);
      }
      const quasistatic::CgResult cg =
          quasistatic::solve_jacobi_cg(k, f, tolerance, max_iterations > 0 ? max_iterations : 10 * n, guess);
      u = cg.x, out.iterations = cg.iterations;
    } else {
      ok = false;  // a member without a spring: nothing holds it
    }
  }
  ok = ok && u.allFinite();
  out.displacement = Eigen::VectorXd::Zero(3 * p.members);
  if (ok)
    for (int m = 0; m < p.members; ++m)
      if (first[m] >= 0) out.displacement.segment<3>(3 * m) = u.segment<3>(first[m]);
  // Link stresses: prestress + spring x relative displacement; then the force balance of every member.
  for (const QrbSpring& s : p.springs) {
    const SpringRows r = rows_of(s, first);
    double d_eta = 0, d_tau = 0;
    for (int i = 0; i < 6; ++i)
      if (r.dof[i] >= 0 && ok) d_eta += r.normal[i] * u[r.dof[i]], d_tau += r.tangential[i] * u[r.dof[i]];
    out.normal.push_back(s.normal0 - s.k_normal * d_eta), out.tangential.push_back(s.tangential0 + s.k_tangential * d_tau);
  }
  Eigen::VectorXd balance = p.load;
  std::size_t next = 0;
  add_spring_forces(p, [&](const QrbSpring&) {
    const std::size_t i = next++;
    return std::pair{out.normal[i], out.tangential[i]};
  }, balance);
  const double load_norm = p.load.norm();
  out.residual = !ok ? inf : load_norm > 0 ? balance.norm() / load_norm : balance.norm();
  return out;
}

}  // namespace grainlab::mbd
