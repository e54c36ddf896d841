// QRB templates and exact rigidity (Gavrilov 1999 Sec. 5.3.3, 5.7.4-5.7.6, seed 002 l.1896-1906,
// 2403-2481; claims G-C58, G-C82): triangle, hamburger and ground templates on small networks, the exact
// rigid clusters of the Fig. 5.21 boomerang, template QRBs inside exact clusters on random lattice patches,
// and the G-C82 rules (no unstable link inside a QRB, no insert or grip inside a QRB).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/mbd/qrb_audit.hpp"
#include "core/mbd/qrb_templates.hpp"
#include "core/mbd/rigid_clusters.hpp"

using namespace grainlab;
using namespace grainlab::mbd;
using quasistatic::ContactLink;
using quasistatic::RigidBody;

namespace {

// Three unit disks touching pairwise (contacts at midpoints), optionally resting on a floor.
void triangle(std::vector<RigidBody>& b, std::vector<ContactLink>& l) {
  const double h = std::sqrt(3.0);
  b = {{Eigen::Vector2d(0, 0), false}, {Eigen::Vector2d(2, 0), false}, {Eigen::Vector2d(1, h), false}};
  l = {{0, 1, Eigen::Vector2d(1, 0)}, {1, 2, Eigen::Vector2d(1.5, h / 2)}, {2, 0, Eigen::Vector2d(0.5, h / 2)}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(qrb_templates)

BOOST_AUTO_TEST_CASE(triangle_of_stable_links_is_one_qrb) {
  std::vector<RigidBody> b;
  std::vector<ContactLink> l;
  triangle(b, l);
  const QrbAudit a = audit_templates(b, l, {1, 1, 1});
  BOOST_TEST(a.qrbs == 1);
  BOOST_TEST(a.counts.triangles == 1);
  BOOST_TEST(a.disks_in_qrbs == 3);
  BOOST_TEST(a.rigid_disks == 3);
  BOOST_TEST(a.missed_disks == 0);
  BOOST_TEST(a.not_rigid_qrbs == 0);
  BOOST_TEST(a.split_qrbs == 0);
  const QrbAudit slipping = audit_templates(b, l, {1, 0, 1});  // one slipping link: no QRB
  BOOST_TEST(slipping.qrbs == 0);
  BOOST_TEST(slipping.rigid_disks == 0);
  BOOST_TEST(slipping.unstable_inside == 0);
  QrbOptions wrong;
  wrong.use_stability = false;  // the slipping link counted: a QRB holding an unstable link
  BOOST_TEST(audit_templates(b, l, {1, 0, 1}, wrong).unstable_inside == 1);
}

BOOST_AUTO_TEST_CASE(disk_on_two_walls_is_a_fixed_qrb_and_grows) {
  // A disk in a corner (floor + left wall) is a hamburger with the ground: a fixed QRB that takes in both
  // walls; a disk on it and on the floor then has two links to that QRB: a second hamburger, one level up.
  std::vector<RigidBody> b{{Eigen::Vector2d(-5, 0), true}, {Eigen::Vector2d(0, -5), true},
                           {Eigen::Vector2d(1, 1), false}, {Eigen::Vector2d(3, 1), false}};
  std::vector<ContactLink> l{{2, 0, Eigen::Vector2d(0, 1)}, {2, 1, Eigen::Vector2d(1, 0)}, {3, 2, Eigen::Vector2d(2, 1)},
                             {3, 1, Eigen::Vector2d(3, 0)}};
  const QrbAudit a = audit_templates(b, l, {1, 1, 1, 1});
  BOOST_TEST(a.counts.hamburgers == 2);
  BOOST_TEST(a.counts.triangles == 0);
  BOOST_TEST(a.qrbs == 1);
  BOOST_TEST(a.fixed_qrbs == 1);
  BOOST_TEST(a.max_depth == 2);
  BOOST_TEST(a.missed_disks == 0);
  BOOST_TEST(a.split_qrbs == 0);
}

BOOST_AUTO_TEST_CASE(exact_clusters_of_the_boomerang) {
  // Fig. 5.21 (002 l.2370-2376): a boomerang held at two points by a fixed body is fixed; a ball on it
  // by one link still rolls: its own cluster.
  std::vector<RigidBody> b{{Eigen::Vector2d(0, -1), true}, {Eigen::Vector2d(0, 0.3), false}, {Eigen::Vector2d(0.2, 1.5), false}};
  std::vector<ContactLink> l{{1, 0, Eigen::Vector2d(-1, 0)}, {1, 0, Eigen::Vector2d(1.1, 0)}, {2, 1, Eigen::Vector2d(0.1, 0.9)}};
  const RigidClusters c = rigid_clusters(b, l);
  BOOST_TEST(c.label[0] == 0);
  BOOST_TEST(c.label[1] == 0);
  BOOST_TEST(c.label[2] != 0);
  // A chain of three disks (two links) has no rigid pair at all.
  std::vector<RigidBody> chain{{Eigen::Vector2d(0, 0), false}, {Eigen::Vector2d(2, 0), false}, {Eigen::Vector2d(4, 0.3), false}};
  const RigidClusters cc = rigid_clusters(chain, {{0, 1, Eigen::Vector2d(1, 0)}, {1, 2, Eigen::Vector2d(3, 0.15)}});
  BOOST_TEST(cc.labels == 4);
}

// Random sub-networks of jittered triangular lattices (generic positions, unequal contact fractions):
// every template QRB is rigid by itself and lies in one exact cluster (G-C58 correctness).
BOOST_AUTO_TEST_CASE(templates_find_only_true_qrbs_on_random_patches) {
  std::mt19937_64 rng(58);
  std::uniform_real_distribution<double> u(0, 1), jitter(-0.05, 0.05);
  int qrbs = 0;
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<RigidBody> b;
    const int rows = 3 + trial % 3, cols = 3 + trial % 4;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        b.push_back({Eigen::Vector2d(c + 0.5 * (r % 2) + jitter(rng), r * 0.866 + jitter(rng)), false});
    b.push_back({Eigen::Vector2d(0, -10), true});  // a floor under the first row
    std::vector<ContactLink> l;
    std::vector<char> stable;
    const double keep = 0.5 + 0.5 * u(rng);
    for (int i = 0; i + 1 < int(b.size()); ++i) {
      for (int j = i + 1; j + 1 < int(b.size()); ++j)
        if ((b[std::size_t(i)].centre - b[std::size_t(j)].centre).norm() < 1.2) {
          const double t = 0.3 + 0.4 * u(rng);
          l.push_back({i, j, (1 - t) * b[std::size_t(i)].centre + t * b[std::size_t(j)].centre});
          stable.push_back(u(rng) < keep);
        }
      if (i < cols) l.push_back({i, int(b.size()) - 1, b[std::size_t(i)].centre + Eigen::Vector2d(0, -0.5)}), stable.push_back(u(rng) < keep);
    }
    const QrbAudit a = audit_templates(b, l, stable);
    qrbs += a.qrbs;
    BOOST_TEST(a.not_rigid_qrbs == 0);
    BOOST_TEST(a.split_qrbs == 0);
    BOOST_TEST(a.unstable_inside == 0);
    BOOST_TEST(a.disks_in_qrbs <= a.rigid_disks);
  }
  BOOST_TEST(qrbs > 20);
}

BOOST_AUTO_TEST_CASE(single_link_pairs_are_not_a_template) {
  // The deliberately wrong template "one link makes a pair rigid" groups a floppy chain: caught.
  std::vector<RigidBody> chain{{Eigen::Vector2d(0, 0), false}, {Eigen::Vector2d(2, 0), false}, {Eigen::Vector2d(4, 0.3), false}};
  std::vector<ContactLink> l{{0, 1, Eigen::Vector2d(1, 0)}, {1, 2, Eigen::Vector2d(3, 0.15)}};
  QrbOptions wrong;
  wrong.hamburger_links = 1;
  const QrbAudit a = audit_templates(chain, l, {1, 1}, wrong);
  BOOST_TEST(a.not_rigid_qrbs > 0);
  BOOST_TEST(audit_templates(chain, l, {1, 1}).qrbs == 0);
}

BOOST_AUTO_TEST_CASE(no_insert_or_grip_inside_a_qrb) {
  // G-C82 (002 l.1950, 1992, 2481): event handlers refuse a link born inside a QRB and a grip inside one.
  std::vector<RigidBody> b;
  std::vector<ContactLink> l;
  triangle(b, l);
  b.push_back({Eigen::Vector2d(1, -1.7), false});
  NetworkGraph n = network_graph(b, l);
  std::vector<char> stable(std::size_t(n.graph.links()), 1), is_qrb;
  find_qrbs(n.graph, n.container, stable, is_qrb);
  BOOST_TEST(insert_inside_qrb(n.graph, n.atom[0], n.atom[1], is_qrb));
  BOOST_CHECK_THROW(require_insert_outside_qrbs(n.graph, n.atom[0], n.atom[1], is_qrb), InputError);
  BOOST_CHECK_NO_THROW(require_insert_outside_qrbs(n.graph, n.atom[0], n.atom[3], is_qrb));
  BOOST_CHECK_THROW(require_grip_outside_qrbs(n.graph, n.link[0], is_qrb), InputError);
  const int outside = n.graph.add_link(n.atom[1], n.atom[3]);
  BOOST_CHECK_NO_THROW(require_grip_outside_qrbs(n.graph, outside, is_qrb));
  BOOST_TEST(unstable_links_in_qrbs(n.graph, is_qrb, stable).empty());
}

BOOST_AUTO_TEST_SUITE_END()
