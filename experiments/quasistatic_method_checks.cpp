// Experiment quasistatic_method_checks: Gavrilov 1999 G-E9 and the constructed QS configurations of G-E5/G-E7
// (seed 002; ledger ../shared/claims/gavrilov.md G-E9, CT7, P14). One `check` per run; each reports
//   value     the measured quantity,       expected  what the thesis (or exactness) says,
//   count     3n - 2e where it applies,     aux       a second quantity,   samples  cases tested.
// `perturb = true` runs the deliberately wrong variant named in docs/gavrilov_silo.md, to show the check fails.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/error.hpp"
#include "core/quasistatic/inverse_stiffness.hpp"
#include "core/quasistatic/rigidity.hpp"
#include "core/quasistatic/stiffness_solvers.hpp"
#include "core/quasistatic/truss.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

using namespace quasistatic;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
const LinkSpring disk_spring{1.0e6, 1.0e5, 0.43}, wall_spring{1.5e6, 1.5e5, 0.33};

struct Outcome {
  double value = nan, expected = nan, count = nan, aux = nan, samples = nan;
};

Link make_link(int a, int b, const Vec2& n, const LinkSpring& s) {
  Link l;
  l.a = a;
  l.b = b;
  l.normal = n.normalized();
  l.spring = s;
  return l;
}

// G-C28: cases 0/1 border Z (zero border / copied row alpha), cases 2/3 keep its size; Z symmetric and exact.
// Perturbation: case 1 adds the stiffness C instead of the compliance C^-1 (a units slip).
Outcome rima_structure(bool perturb) {
  InverseStiffness z;
  Truss t;
  Eigen::VectorXd d = Eigen::VectorXd::Zero(8);
  double deviation = 0;
  const Vec2 n0(0, -1), n1(0.6, 0.8), n2(-1, 0), n3(0.8, -0.6);
  t.add_node();
  z.add_node_to_fixed(link_stiffness(n0, wall_spring));
  t.add_link(make_link(0, fixed_node, n0, wall_spring), d, 0);
  Eigen::MatrixXd before = z.matrix();
  t.add_node();
  z.add_node_to_node(0, link_stiffness(n1, disk_spring));
  t.add_link(make_link(1, 0, n1, disk_spring), d, 0);
  if (perturb) {  // case 1 with the stiffness C in place of the compliance C^-1 on the new diagonal block
    Eigen::MatrixXd m = z.matrix();
    m.block<2, 2>(2, 2) = m.block<2, 2>(0, 0) + link_stiffness(n1, disk_spring);
    z.reset(m);
  }
  Eigen::MatrixXd after = z.matrix();
  deviation = std::max(deviation, (after.block(0, 2, 2, 2) - before).cwiseAbs().maxCoeff());  // row alpha copied
  deviation = std::max(deviation, (after.topLeftCorner(2, 2) - before).cwiseAbs().maxCoeff());
  t.add_node();
  before = z.matrix();
  z.add_node_to_fixed(link_stiffness(n2, wall_spring));
  t.add_link(make_link(2, fixed_node, n2, wall_spring), d, 0);
  after = z.matrix();
  deviation = std::max({deviation, after.block(0, 4, 4, 2).cwiseAbs().maxCoeff(), (after.topLeftCorner(4, 4) - before).cwiseAbs().maxCoeff()});
  const int size = z.dofs();
  const Mat2 c2 = link_stiffness(n3, wall_spring);
  z.add_fixed_link(1, c2);
  t.add_link(make_link(1, fixed_node, n3, wall_spring), d, 0);
  z.add_link(0, 2, link_stiffness(Vec2(1, 0.2).normalized(), disk_spring));
  t.add_link(make_link(0, 2, Vec2(1, 0.2), disk_spring), d, 0);
  deviation = std::max(deviation, double(std::abs(z.dofs() - size)));
  const Eigen::MatrixXd zz = z.matrix();
  const Eigen::MatrixXd k = t.stiffness();
  deviation = std::max(deviation, (zz - zz.transpose()).cwiseAbs().maxCoeff() / zz.cwiseAbs().maxCoeff());
  deviation = std::max(deviation, (zz * k - Eigen::MatrixXd::Identity(6, 6)).cwiseAbs().maxCoeff());
  return {deviation, 0.0, nan, nan, 1};
}

// G-C48: a free truss (a QRB of 12 disks in a triangular patch) under loads with zero resultant, grounded
// by one fictional link of stiffness 1e3, 1e6, 1e9 N/m: link stresses identical, fictional force zero.
// Perturbation: loads with a resultant (no D'Alembert balance).
Outcome grounding(bool perturb) {
  std::vector<Vec2> pos;
  for (int row = 0; row < 3; ++row)
    for (int k = 0; k < 4; ++k) pos.emplace_back(0.02 * k + 0.01 * (row % 2), 0.01 * std::sqrt(3.0) * row);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g(0, 1);
  Eigen::VectorXd f(2 * pos.size());
  for (int i = 0; i < f.size(); ++i) f(i) = g(rng);
  if (!perturb) {
    Vec2 mean(0, 0);
    for (std::size_t i = 0; i < pos.size(); ++i) mean += f.segment<2>(2 * i) / double(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i) f.segment<2>(2 * i) -= mean;
  }
  std::vector<std::vector<double>> stresses;
  double fictional = 0;
  for (double kf : {1e3, 1e6, 1e9}) {
    Truss t;
    Eigen::VectorXd d0 = Eigen::VectorXd::Zero(f.size());
    for (std::size_t i = 0; i < pos.size(); ++i) t.add_node();
    t.add_link(make_link(0, fixed_node, Vec2(0, -1), {kf, kf, 1}), d0, 0);  // the fictional grounding link
    for (std::size_t i = 0; i < pos.size(); ++i)
      for (std::size_t j = i + 1; j < pos.size(); ++j)
        if ((pos[j] - pos[i]).norm() < 0.0201) t.add_link(make_link(int(i), int(j), pos[j] - pos[i], disk_spring), d0, 0);
    const Eigen::VectorXd d = solve_sparse_cholesky(t.stiffness(), f);
    std::vector<double> s;
    for (std::size_t i = 1; i < t.links().size(); ++i) {
      const LinkStress ls = t.stress(t.links()[i], d);
      s.push_back(ls.normal);
      s.push_back(ls.tangential);
    }
    stresses.push_back(s);
    const LinkStress fs = t.stress(t.links()[0], d);
    fictional = std::max(fictional, std::hypot(fs.normal, fs.tangential) / f.norm());
  }
  double spread = 0, scale = 0;
  for (std::size_t i = 0; i < stresses[0].size(); ++i) {
    scale = std::max(scale, std::abs(stresses[0][i]));
    for (const auto& s : stresses) spread = std::max(spread, std::abs(s[i] - stresses[0][i]));
  }
  return {spread / scale, 0.0, nan, fictional, 3};
}

// Slides only (no topology change) for a truss held by fixed links: rounds until no link exceeds mu s_eta.
int slide_rounds(Truss& t, const Eigen::VectorXd& load, int cap) {
  const Eigen::SparseMatrix<double> k = t.stiffness();
  for (int round = 0; round < cap; ++round) {
    const Eigen::VectorXd d = solve_sparse_cholesky(k, load + t.offset_loads());
    bool slid = false;
    for (Link& l : t.links()) {
      const LinkStress s = t.stress(l, d);
      if (std::abs(s.tangential) > l.spring.friction * std::max(0.0, s.normal) * (1 + 1e-12) + 1e-12) {
        t.slide(l, d);
        slid = true;
      }
    }
    if (!slid) return round;
  }
  return cap;
}

// G-C36 (Fig. 4.4): a disk on one support inclined at 45 deg with mu = 0.43 < tan 45: every slide leaves the
// load where it was (a statically determinate link), so the slides never end: the cap is hit.
// Perturbation: mu = 1.5 > tan 45: it settles at once.
Outcome unstable_slope(bool perturb) {
  Truss t;
  t.add_node();
  LinkSpring s = disk_spring;
  s.friction = perturb ? 1.5 : 0.43;
  t.add_link(make_link(0, fixed_node, Vec2(1, -1), s), Eigen::VectorXd::Zero(2), 0);
  Eigen::VectorXd load(2);
  load << 0, -3.67;
  const int cap = 1000;
  const int rounds = slide_rounds(t, load, cap);
  return {rounds >= cap ? 1.0 : 0.0, 1.0, nan, double(rounds), 1};
}

// G-C37 (Fig. 4.9): a disk held by two almost parallel (nearly horizontal) links, 5 deg below horizontal, under
// a growing load: it slides on every increment. Perturbation: links 60 deg below horizontal (friction holds).
Outcome irregular_support(bool perturb) {
  const double angle = (perturb ? 60.0 : 5.0) * 3.141592653589793 / 180;
  Truss t;
  t.add_node();
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(2);
  t.add_link(make_link(0, fixed_node, Vec2(-std::cos(angle), -std::sin(angle)), disk_spring), zero, 0);
  t.add_link(make_link(0, fixed_node, Vec2(std::cos(angle), -std::sin(angle)), disk_spring), zero, 0);
  int with_slides = 0;
  const int increments = 10;
  for (int i = 1; i <= increments; ++i) {
    Eigen::VectorXd load(2);
    load << 0, -3.67 * i;
    with_slides += slide_rounds(t, load, 10000) > 0;
  }
  return {double(with_slides) / increments, 1.0, nan, nan, double(increments)};
}

// G-C38: a truss with no link to a fixed node has a singular K (the two translations); RIMA refuses to remove
// the last ground link. Perturbation: one ground link kept.
Outcome ungrounded(bool perturb) {
  Truss t;
  t.add_node();
  t.add_node();
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(4);
  t.add_link(make_link(0, 1, Vec2(1, 0), disk_spring), zero, 0);
  if (perturb) t.add_link(make_link(0, fixed_node, Vec2(0, -1), wall_spring), zero, 0);
  InverseStiffness z;
  const Mat2 c = link_stiffness(Vec2(0, -1), wall_spring);
  z.add_node_to_fixed(c);
  double refused = 0;
  try {
    z.add_fixed_link(0, -c);
  } catch (const InputError&) {
    refused = 1;
  }
  return {double(stiffness_rank_deficit(t.stiffness())), 2.0, nan, refused, 1};
}

// Triangular-lattice patch of rows x cols bodies (generic: positions jittered), links between neighbours.
void lattice_patch(int rows, int cols, std::mt19937_64& rng, std::vector<RigidBody>& bodies,
                   std::vector<ContactLink>& links, std::vector<std::pair<int, int>>& edges) {
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  bodies.clear();
  links.clear();
  edges.clear();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      bodies.push_back({Eigen::Vector2d(c + 0.5 * (r % 2) + jitter(rng), r * 0.866 + jitter(rng)), false});
  for (int i = 0; i < int(bodies.size()); ++i)
    for (int j = i + 1; j < int(bodies.size()); ++j)
      if ((bodies[i].centre - bodies[j].centre).norm() < 1.2) {
        edges.emplace_back(i, j);
        links.push_back({i, j, 0.5 * (bodies[i].centre + bodies[j].centre)});
      }
}

int count_3n_2e(const std::vector<RigidBody>& b, const std::vector<ContactLink>& l) { return 3 * int(b.size()) - 2 * int(l.size()); }

// G-C49 (Property 5.1): random sub-networks of lattice patches; every one that is a QRB (3 DOF) has
// 3n - 2e <= 3. Perturbation: 3 equations per link (welded links), which makes 3n - 2e > 3 QRBs.
Outcome property51(bool perturb) {
  std::mt19937_64 rng(51);
  int qrbs = 0, violations = 0, samples = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<RigidBody> b;
    std::vector<ContactLink> l;
    std::vector<std::pair<int, int>> e;
    lattice_patch(2 + trial % 3, 2 + trial % 4, rng, b, l, e);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<ContactLink> kept;
    const double keep = 0.4 + 0.6 * u(rng);
    for (const auto& x : l)
      if (u(rng) < keep) kept.push_back(x);
    ++samples;
    const int dof = degrees_of_freedom(b, kept, perturb ? 3 : 2);
    if (dof == 3) {
      ++qrbs;
      violations += count_3n_2e(b, kept) > 3;
    }
  }
  return {double(violations), 0.0, nan, double(qrbs), double(samples)};
}

// Two bodies joined by two links at distinct points (Fig. 5.20): 3n - 2e = 2 but 3 DOF (one redundant
// link). Perturbation: both links at one point (the second equation pair adds nothing): 4 DOF.
Outcome fig520(bool perturb) {
  std::vector<RigidBody> b{{Eigen::Vector2d(0, 0), false}, {Eigen::Vector2d(2, 0.1), false}};
  std::vector<ContactLink> l{{0, 1, Eigen::Vector2d(1, 0.5)}, {0, 1, perturb ? Eigen::Vector2d(1, 0.5) : Eigen::Vector2d(1.1, -0.4)}};
  return {double(degrees_of_freedom(b, l)), 3.0, double(count_3n_2e(b, l)), nan, 1};
}

// Fig. 5.21: a boomerang resting on a fixed body at two points and a ball on the boomerang: n = 3, e = 3,
// 3n - 2e = 3, yet the ball can roll: 1 internal DOF. Perturbation: a second ball contact (e = 4): rigid.
Outcome fig521(bool perturb) {
  std::vector<RigidBody> b{{Eigen::Vector2d(0, -1), true}, {Eigen::Vector2d(0, 0.3), false}, {Eigen::Vector2d(0.2, 1.5), false}};
  std::vector<ContactLink> l{{1, 0, Eigen::Vector2d(-1, 0)}, {1, 0, Eigen::Vector2d(1.1, 0)}, {2, 1, Eigen::Vector2d(0.1, 0.9)}};
  if (perturb) l.push_back({2, 1, Eigen::Vector2d(0.6, 1.0)});
  return {double(degrees_of_freedom(b, l)), 1.0, double(count_3n_2e(b, l)), nan, 1};
}

// Eq. 5.24 on random planar graphs (lattice patches with random edges removed, kept connected):
// 3n - 2e = 6 + sum (i/2 - 3) f_i over all faces (outer included). Property 5.2: honeycomb patches (all faces
// >= 6) have more than 3 DOF (aux = the smallest DOF found). Perturbation: the outer face left out.
Outcome eq524(bool perturb) {
  std::mt19937_64 rng(524);
  double worst = 0;
  int samples = 0;
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<RigidBody> b;
    std::vector<ContactLink> l;
    std::vector<std::pair<int, int>> e;
    lattice_patch(3 + trial % 3, 3 + trial % 4, rng, b, l, e);
    std::shuffle(e.begin(), e.end(), rng);
    // drop edges while the graph stays connected
    std::vector<std::pair<int, int>> kept = e;
    for (std::size_t k = 0; k < kept.size() && k < 4; ++k) {
      std::vector<std::pair<int, int>> trialset = kept;
      trialset.erase(trialset.begin() + long(k));
      std::vector<int> comp(b.size(), -1);
      std::vector<int> stack{0};
      comp[0] = 0;
      while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        for (auto [x, y] : trialset) {
          const int w = x == v ? y : (y == v ? x : -1);
          if (w >= 0 && comp[w] < 0) comp[w] = 0, stack.push_back(w);
        }
      }
      if (std::all_of(comp.begin(), comp.end(), [](int c) { return c == 0; })) kept = trialset;
    }
    std::vector<Eigen::Vector2d> pts;
    for (const auto& x : b) pts.push_back(x.centre);
    std::vector<int> faces = planar_face_sizes(pts, kept);
    if (perturb) {  // leave out the largest face (the outer one)
      faces.erase(std::max_element(faces.begin(), faces.end()));
    }
    double rhs = 6;
    for (int i : faces) rhs += i / 2.0 - 3;
    const double lhs = 3.0 * double(b.size()) - 2.0 * double(kept.size());
    worst = std::max(worst, std::abs(lhs - rhs));
    ++samples;
  }
  // Property 5.2: a honeycomb patch (hexagonal faces) of disks.
  int min_dof = 1 << 30;
  for (int rings = 1; rings <= 3; ++rings) {
    std::vector<RigidBody> b;
    std::vector<ContactLink> l;
    // a strip of `rings` hexagons sharing edges
    std::vector<Eigen::Vector2d> pts;
    for (int h = 0; h <= rings; ++h) {
      const double x = h * 1.732;
      pts.emplace_back(x, 0.5);
      pts.emplace_back(x, -0.5);
      if (h < rings) pts.emplace_back(x + 0.866, 1.0), pts.emplace_back(x + 0.866, -1.0);
    }
    for (const auto& p : pts) b.push_back({p, false});
    for (int i = 0; i < int(pts.size()); ++i)
      for (int j = i + 1; j < int(pts.size()); ++j)
        if ((pts[i] - pts[j]).norm() < 1.01) l.push_back({i, j, 0.5 * (pts[i] + pts[j])});
    min_dof = std::min(min_dof, degrees_of_freedom(b, l));
  }
  return {worst, 0.0, nan, double(min_dof), double(samples)};
}

// Property 5.3: in rigid lattice patches (QRBs), collapsing a triangle (a QRB) into one body leaves a QRB.
// Perturbation: the collapse also drops the links from the triangle to the rest but one.
Outcome property53(bool perturb) {
  std::mt19937_64 rng(53);
  int failures = 0, samples = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<RigidBody> b;
    std::vector<ContactLink> l;
    std::vector<std::pair<int, int>> e;
    lattice_patch(3, 3 + trial % 3, rng, b, l, e);
    if (degrees_of_freedom(b, l) != 3) continue;
    // triangle 0, 1, and the body above them (index cols)
    const int cols = 3 + trial % 3;
    const std::vector<int> tri{0, 1, cols};
    auto in_tri = [&](int i) { return std::find(tri.begin(), tri.end(), i) != tri.end(); };
    std::vector<RigidBody> nb;
    std::vector<int> map(b.size());
    nb.push_back({(b[0].centre + b[1].centre + b[cols].centre) / 3, false});
    for (int i = 0; i < int(b.size()); ++i) {
      if (in_tri(i)) map[i] = 0;
      else map[i] = int(nb.size()), nb.push_back(b[i]);
    }
    std::vector<ContactLink> nl;
    int boundary = 0;
    for (const auto& x : l) {
      if (in_tri(x.a) && in_tri(x.b)) continue;
      if ((in_tri(x.a) || in_tri(x.b)) && perturb && boundary++ > 0) continue;
      nl.push_back({map[x.a], map[x.b], x.point});
    }
    ++samples;
    failures += degrees_of_freedom(nb, nl) != 3;
  }
  return {double(failures), 0.0, nan, nan, double(samples)};
}

// A fan of faces around a centre: a k-face adds k - 2 nodes and k - 1 edges (its spoke and rim). Generic
// positions: the rim nodes on a circle with jitter, contact points at a random fraction 0.3-0.7 of the centre
// line (unequal radii). With equal radii (midpoints) the closed Q_f4 wheel is a special position: 4 DOF
// (measured for f4 = 2, 3, 4, 8), one of the "improbable" irregular cases of Fig. 5.22 (002 l.2378-2384).
void fan(const std::vector<int>& faces, std::vector<RigidBody>& b, std::vector<ContactLink>& l, bool drop_spoke,
         std::mt19937_64& rng) {
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  int rim = 0;
  for (int k : faces) rim += k - 2;
  b.assign(1, {Eigen::Vector2d(0, 0), false});
  for (int i = 0; i < rim; ++i) {
    const double a = 2 * 3.141592653589793 * i / rim;
    b.push_back({Eigen::Vector2d((1 + jitter(rng)) * std::cos(a), (1 + jitter(rng)) * std::sin(a)), false});
  }
  l.clear();
  std::uniform_real_distribution<double> fraction(0.3, 0.7);
  auto link = [&](int x, int y) {
    const double t = fraction(rng);
    l.push_back({x, y, (1 - t) * b[x].centre + t * b[y].centre});
  };
  int at = 1;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (!(drop_spoke && f == 0)) link(0, at);  // spoke
    for (int k = 0; k < faces[f] - 2; ++k) link(at + k, 1 + (at + k) % rim);  // rim edges
    at += faces[f] - 2;
  }
}

// Q_f4 (Fig. 5.24, f4 = 8): 2 f4 + 1 nodes, 3 f4 edges, 3n - 2e = 3, and a QRB (3 DOF).
// Perturbation: one spoke removed (4 DOF).
Outcome qf4(bool perturb) {
  std::mt19937_64 rng(4);
  std::vector<RigidBody> b;
  std::vector<ContactLink> l;
  fan(std::vector<int>(8, 4), b, l, perturb, rng);
  return {double(degrees_of_freedom(b, l)), 3.0, double(count_3n_2e(b, l)), double(b.size() * 100 + l.size()), 1};
}

// Face rules (002 l.2449-2466): the fan of f4 = 3 4-faces and f5 5-faces has f5 internal DOF (f5 = 1..3);
// aux = DOF change when an outer 4-face (1 node, 2 edges) is added (expected -1). Perturbation: welded links.
Outcome face_rules(bool perturb) {
  std::mt19937_64 rng(5);
  double worst = 0, outer = 0;
  for (int f5 = 1; f5 <= 3; ++f5) {
    std::vector<int> faces(3, 4);
    for (int i = 0; i < f5; ++i) faces.push_back(5);
    std::vector<RigidBody> b;
    std::vector<ContactLink> l;
    fan(faces, b, l, false, rng);
    const int eq = perturb ? 3 : 2;
    const int internal = degrees_of_freedom(b, l, eq) - 3;
    worst = std::max(worst, double(std::abs(internal - f5)));
    // outer 4-face on the rim nodes 1 and 3 (around rim node 2)
    const int before = degrees_of_freedom(b, l, eq);
    b.push_back({1.6 * b[2].centre, false});
    const int w = int(b.size()) - 1;
    l.push_back({w, 1, 0.5 * (b[w].centre + b[1].centre)});
    l.push_back({w, 3, 0.5 * (b[w].centre + b[3].centre)});
    outer = double(degrees_of_freedom(b, l, eq) - before);
  }
  return {worst, 0.0, nan, outer, 3};
}

Experiment make() {
  Experiment e;
  e.name = "quasistatic_method_checks";
  e.description = "Gavrilov 1999 G-E9: RIMA structure, grounding, QS limits, QRB counting rules (rank tests)";
  e.parameters = {
      {"check", ParamType::text, "", std::string("rima_structure"), std::nullopt, std::nullopt, "which check",
       {"rima_structure", "grounding", "unstable_slope", "irregular_support", "ungrounded", "property51", "fig520",
        "fig521", "eq524", "property53", "qf4", "face_rules", "arithmetic"}},
      {"row", ParamType::integer, "-", std::int64_t(0), 0.0, 1e6, "a label for the study's table and filters (unused)"},
      {"perturb", ParamType::boolean, "-", false, std::nullopt, std::nullopt, "run the deliberately wrong variant"},
      {"nodes", ParamType::integer, "-", std::int64_t(0), 0.0, 1e6, "arithmetic: n of the printed count"},
      {"edges", ParamType::integer, "-", std::int64_t(0), 0.0, 1e6, "arithmetic: e of the printed count"},
      {"printed", ParamType::real, "-", 0.0, -1e6, 1e6, "arithmetic: the value printed in the thesis"},
  };
  e.run = [](const Parameters& p, RunContext&) {
    const std::string& c = p.text("check");
    const bool perturb = p.boolean("perturb");
    Outcome o;
    if (c == "rima_structure") o = rima_structure(perturb);
    else if (c == "grounding") o = grounding(perturb);
    else if (c == "unstable_slope") o = unstable_slope(perturb);
    else if (c == "irregular_support") o = irregular_support(perturb);
    else if (c == "ungrounded") o = ungrounded(perturb);
    else if (c == "property51") o = property51(perturb);
    else if (c == "fig520") o = fig520(perturb);
    else if (c == "fig521") o = fig521(perturb);
    else if (c == "eq524") o = eq524(perturb);
    else if (c == "property53") o = property53(perturb);
    else if (c == "qf4") o = qf4(perturb);
    else if (c == "face_rules") o = face_rules(perturb);
    else {  // arithmetic: 3n - 2e (perturbed: the 3-D rule 6n - 3e) against the printed value
      const double n = double(p.integer("nodes")), m = double(p.integer("edges"));
      o = {perturb ? 6 * n - 3 * m : 3 * n - 2 * m, p.real("printed"), 3 * n - 2 * m, nan, 1};
    }
    RunResult out;
    out.metrics = {{"value", o.value}, {"expected", o.expected}, {"count", o.count}, {"aux", o.aux}, {"samples", o.samples}};
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
