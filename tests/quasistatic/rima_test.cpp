// RIMA (Gavrilov 1999 Eq. 4.19-4.28, seed 002 l.1177-1237): every insertion case and removal by a -C link
// against a fresh inverse of the assembled K; random insert/remove sequences; symmetry; the singular
// cases the QS model cannot handle (G-C38). Ledger G-E9, claims G-C27, G-C28, G-C38.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/quasistatic/inverse_stiffness.hpp"
#include "core/quasistatic/stiffness_solvers.hpp"
#include "core/quasistatic/truss.hpp"

using namespace grainlab;
using namespace grainlab::quasistatic;

namespace {

const LinkSpring disk_spring{1.0e6, 1.0e5, 0.43};
const LinkSpring wall_spring{1.5e6, 1.5e5, 0.33};

Vec2 random_unit(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> a(0, 6.283185307179586);
  const double t = a(rng);
  return {std::cos(t), std::sin(t)};
}

// The same topology kept twice: in a Truss (assembled K) and in RIMA.
struct Pair {
  Truss truss;
  InverseStiffness rima;
  Eigen::VectorXd d;

  int new_node(int to, const Vec2& n, const LinkSpring& s) {
    const int a = truss.add_node();
    d = Eigen::VectorXd::Zero(2 * truss.nodes());
    const int r = to == fixed_node ? rima.add_node_to_fixed(link_stiffness(n, s))
                                   : rima.add_node_to_node(to, link_stiffness(n, s));
    BOOST_REQUIRE_EQUAL(r, a);
    Link l;
    l.a = a;
    l.b = to;
    l.normal = n;
    l.spring = s;
    truss.add_link(l, d, 0);
    return a;
  }
  int link(int a, int b, const Vec2& n, const LinkSpring& s) {
    if (b == fixed_node) rima.add_fixed_link(a, link_stiffness(n, s));
    else rima.add_link(a, b, link_stiffness(n, s));
    Link l;
    l.a = a;
    l.b = b;
    l.normal = n;
    l.spring = s;
    return truss.add_link(l, d, 0);
  }
  void remove(int index) {
    Link& l = truss.links()[index];
    if (l.b == fixed_node) rima.add_fixed_link(l.a, -link_stiffness(l.normal, l.spring));
    else rima.add_link(l.a, l.b, -link_stiffness(l.normal, l.spring));
    l.active = false;
  }
  // max |Z K - I| (G-C27) and max |Z - Z^T| relative to max |Z|.
  double identity_error() const {
    const Eigen::MatrixXd k = truss.stiffness();
    return (Eigen::MatrixXd(rima.matrix()) * k - Eigen::MatrixXd::Identity(k.rows(), k.cols())).cwiseAbs().maxCoeff();
  }
  double asymmetry() const {
    const Eigen::MatrixXd z = rima.matrix();
    return (z - z.transpose()).cwiseAbs().maxCoeff() / z.cwiseAbs().maxCoeff();
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(rima)

BOOST_AUTO_TEST_CASE(case0_borders_z_with_the_link_compliance) {
  Pair p;
  p.new_node(fixed_node, Vec2(0, -1), wall_spring);
  const Eigen::MatrixXd before = p.rima.matrix();
  p.new_node(fixed_node, Vec2(-1, 0), wall_spring);
  const Eigen::MatrixXd z = p.rima.matrix();
  BOOST_TEST(z.rows() == 4);
  BOOST_TEST((z.topLeftCorner(2, 2) - before).cwiseAbs().maxCoeff() == 0.0);  // old block untouched
  BOOST_TEST(z.topRightCorner(2, 2).cwiseAbs().maxCoeff() == 0.0);           // zero border (4.19)
  BOOST_TEST((z.bottomRightCorner(2, 2) - link_compliance(Vec2(-1, 0), wall_spring)).cwiseAbs().maxCoeff() < 1e-20);
  BOOST_TEST(p.identity_error() < 1e-12);
}

BOOST_AUTO_TEST_CASE(case1_copies_row_alpha_and_adds_the_compliance) {
  Pair p;
  const int a = p.new_node(fixed_node, Vec2(0, -1), wall_spring);
  const Eigen::MatrixXd before = p.rima.matrix();
  const Vec2 n = Vec2(0.6, 0.8);
  p.new_node(a, n, disk_spring);
  const Eigen::MatrixXd z = p.rima.matrix();
  BOOST_TEST((z.topLeftCorner(2, 2) - before).cwiseAbs().maxCoeff() == 0.0);     // only bordering
  BOOST_TEST((z.block(0, 2, 2, 2) - before.block(0, 0, 2, 2)).cwiseAbs().maxCoeff() == 0.0);  // row alpha copied
  BOOST_TEST((z.block(2, 2, 2, 2) - before - link_compliance(n, disk_spring)).cwiseAbs().maxCoeff() < 1e-20);
  BOOST_TEST(p.identity_error() < 1e-12);
}

BOOST_AUTO_TEST_CASE(case2_and_case3_keep_the_size_and_give_the_exact_inverse) {
  Pair p;
  const int a = p.new_node(fixed_node, Vec2(0, -1), wall_spring);
  const int b = p.new_node(a, Vec2(0.6, 0.8), disk_spring);
  const int c = p.new_node(fixed_node, Vec2(1, 0), wall_spring);
  p.link(b, fixed_node, Vec2(-1, 0), wall_spring);  // case 2
  BOOST_TEST(p.rima.dofs() == 6);
  BOOST_TEST(p.identity_error() < 1e-12);
  p.link(b, c, Vec2(0.8, -0.6), disk_spring);  // case 3
  BOOST_TEST(p.rima.dofs() == 6);
  BOOST_TEST(p.identity_error() < 1e-12);
  BOOST_TEST(p.asymmetry() < 1e-14);
}

BOOST_AUTO_TEST_CASE(removal_as_a_negative_parallel_link_restores_z) {
  Pair p;
  const int a = p.new_node(fixed_node, Vec2(0, -1), wall_spring);
  const int b = p.new_node(a, Vec2(0.6, 0.8), disk_spring);
  const Eigen::MatrixXd before = p.rima.matrix();
  const int l2 = p.link(b, fixed_node, Vec2(-1, 0), wall_spring);
  const int c = p.new_node(fixed_node, Vec2(1, 0), wall_spring);
  const int l3 = p.link(a, c, Vec2(1, 0), disk_spring);
  p.remove(l3);
  BOOST_TEST(p.identity_error() < 1e-12);
  p.remove(l2);
  BOOST_TEST(p.identity_error() < 1e-12);
  BOOST_TEST((Eigen::MatrixXd(p.rima.matrix()).topLeftCorner(4, 4) - before).cwiseAbs().maxCoeff() /
                 before.cwiseAbs().maxCoeff() < 1e-12);
}

BOOST_AUTO_TEST_CASE(random_insert_remove_sequences_equal_a_fresh_inverse) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    Pair p;
    std::uniform_real_distribution<double> u(0, 1);
    for (int step = 0; step < 120; ++step) {
      const int n = p.truss.nodes();
      const double x = u(rng);
      if (n < 2 || x < 0.3) {  // new node (case 0 or 1)
        std::uniform_int_distribution<int> pick(-1, n - 1);
        const int to = n == 0 ? fixed_node : pick(rng);
        p.new_node(to, random_unit(rng), to == fixed_node ? wall_spring : disk_spring);
      } else if (x < 0.8) {  // case 2 or 3
        std::uniform_int_distribution<int> pick(0, n - 1);
        const int a = pick(rng);
        int b = u(rng) < 0.3 ? fixed_node : pick(rng);
        if (b == a) b = fixed_node;
        p.link(a, b, random_unit(rng), b == fixed_node ? wall_spring : disk_spring);
      } else {  // remove a random link whose loss keeps K regular (as the silo does)
        std::vector<int> active;
        for (int i = 0; i < int(p.truss.links().size()); ++i)
          if (p.truss.links()[i].active) active.push_back(i);
        std::uniform_int_distribution<int> pick(0, int(active.size()) - 1);
        const int i = active[pick(rng)];
        p.truss.links()[i].active = false;
        const bool regular = stiffness_rank_deficit(p.truss.stiffness()) == 0;
        p.truss.links()[i].active = true;
        if (regular) p.remove(i);
      }
      const double err = p.identity_error();
      BOOST_TEST_REQUIRE(err < 1e-8, "trial " << trial << " step " << step << ": |ZK - I| = " << err);
    }
    BOOST_TEST(p.asymmetry() < 1e-10);
    // The same D from RIMA and from a sparse Cholesky of the same K (the cross-check).
    Eigen::VectorXd f = Eigen::VectorXd::Random(p.rima.dofs());
    const Eigen::VectorXd d1 = p.rima.solve(f), d2 = solve_sparse_cholesky(p.truss.stiffness(), f);
    BOOST_TEST((d1 - d2).norm() / d2.norm() < 1e-9);
  }
}

BOOST_AUTO_TEST_CASE(parallel_updates_are_bit_for_bit_sequential) {
  // G-E6: the threaded rank-2 update computes every entry with the same operations as the sequential one.
  std::mt19937_64 rng(3);
  InverseStiffness seq, par;
  par.set_threads(2);
  for (int i = 0; i < 200; ++i) {
    const Mat2 c = link_stiffness(random_unit(rng), i == 0 ? wall_spring : disk_spring);
    if (i == 0) seq.add_node_to_fixed(c), par.add_node_to_fixed(c);
    else seq.add_node_to_node(i - 1, c), par.add_node_to_node(i - 1, c);
  }
  for (int i = 0; i < 40; ++i) {
    const Mat2 c2 = link_stiffness(random_unit(rng), wall_spring);
    const Mat2 c3 = link_stiffness(random_unit(rng), disk_spring);
    seq.add_fixed_link(i, c2);
    par.add_fixed_link(i, c2);
    seq.add_link(i, i + 100, c3);
    par.add_link(i, i + 100, c3);
  }
  BOOST_TEST(seq.dofs() == 400);
  BOOST_TEST((Eigen::MatrixXd(seq.matrix()) - Eigen::MatrixXd(par.matrix())).cwiseAbs().maxCoeff() == 0.0);
}

BOOST_AUTO_TEST_CASE(ungrounded_truss_is_singular) {
  // G-C38: without a link to a fixed node K has the two rigid translations as null space, and RIMA
  // refuses to remove the last ground link.
  Truss t;
  t.add_node();
  t.add_node();
  Link l;
  l.a = 0;
  l.b = 1;
  l.normal = Vec2(1, 0);
  l.spring = disk_spring;
  t.add_link(l, Eigen::VectorXd::Zero(4), 0);
  BOOST_TEST(stiffness_rank_deficit(t.stiffness()) == 2);
  BOOST_CHECK_THROW(solve_sparse_cholesky(t.stiffness(), Eigen::VectorXd::Ones(4)), InputError);
  InverseStiffness z;
  const Mat2 c = link_stiffness(Vec2(0, -1), wall_spring);
  const int a = z.add_node_to_fixed(c);
  BOOST_CHECK_THROW(z.add_fixed_link(a, -c), InputError);
}

BOOST_AUTO_TEST_CASE(jacobi_cg_matches_the_direct_solve) {
  Pair p;
  const int a = p.new_node(fixed_node, Vec2(0, -1), wall_spring);
  int prev = a;
  for (int i = 0; i < 30; ++i) prev = p.new_node(prev, Vec2(0.1 * i, 1).normalized(), disk_spring);
  p.link(prev, fixed_node, Vec2(0, 1), wall_spring);
  const Eigen::VectorXd f = Eigen::VectorXd::Random(p.rima.dofs());
  const CgResult cg = solve_jacobi_cg(p.truss.stiffness(), f, 1e-10, 10000);
  BOOST_TEST(cg.converged);
  BOOST_TEST((cg.x - p.rima.solve(f)).norm() / cg.x.norm() < 1e-7);
}

BOOST_AUTO_TEST_SUITE_END()
