// Hierarchical-graph primitives of Gavrilov's MBD model (1999 Sec. 5.1, seed 002 l.1620-1802; claim G-C59):
// the Fig. 5.2 example, the lowest common owner of a node and its ancestor (ledger P15), and property tests
// on random hierarchies: after every InsertLink / Group / Ungroup each link is attached where InsertLink
// says, and Ungroup(Group(S)) restores every owner and every link's attachment.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/mbd/hgraph.hpp"

using namespace grainlab;
using namespace grainlab::mbd;

BOOST_AUTO_TEST_SUITE(hgraph)

BOOST_AUTO_TEST_CASE(figure_5_2_example) {
  HierarchicalGraph g;
  const int h2 = g.add_graph();
  const int h1 = g.add_graph(h2);
  const int a1 = g.add_atom(false, h1), a2 = g.add_atom(false, h1), a3 = g.add_atom(false, h2);
  const int e1 = g.add_link(a1, a2), e2 = g.add_link(a2, a3);
  BOOST_TEST(g.link(e1).owner == h1);
  BOOST_TEST(g.link(e1).member1 == a1);
  BOOST_TEST(g.link(e1).member2 == a2);
  BOOST_TEST(g.link(e2).owner == h2);  // e2 = {(H1, a3), (a2, a3)}
  BOOST_TEST(g.link(e2).member1 == h1);
  BOOST_TEST(g.link(e2).member2 == a3);
  BOOST_TEST(g.depth(h2) == 0);
  BOOST_TEST(g.depth(h1) == 1);
  BOOST_TEST(g.depth(a1) == 2);
  BOOST_TEST(g.depth(a3) == 1);
  BOOST_TEST(g.find_member_containing(h2, a1) == h1);
  BOOST_TEST(g.find_member_containing(h1, a3) == no_node);
  BOOST_TEST(g.audit() == "");
}

BOOST_AUTO_TEST_CASE(lowest_common_owner_of_an_ancestor_is_the_ancestor) {
  // 002 l.1692 says LCO(v1, v2) = v1 when v1 is inside v2; the pseudo-code (l.1695-1701) returns v2 (P15).
  HierarchicalGraph g;
  const int root = g.add_graph(), h = g.add_graph(root), a = g.add_atom(false, h), b = g.add_atom(false, root);
  BOOST_TEST(g.find_lowest_common_owner(a, h) == h);
  BOOST_TEST(g.find_lowest_common_owner(h, a) == h);
  BOOST_TEST(g.find_lowest_common_owner(a, root) == root);
  BOOST_TEST(g.find_lowest_common_owner(a, a) == a);
  BOOST_TEST(g.find_lowest_common_owner(a, b) == root);
  const int other = g.add_atom();  // another top-level element: no common owner
  BOOST_TEST(g.find_lowest_common_owner(a, other) == no_node);
  BOOST_CHECK_THROW(g.add_link(a, other), InputError);
  BOOST_CHECK_THROW(g.add_link(a, a), InputError);
}

BOOST_AUTO_TEST_CASE(group_and_ungroup_reattach_links) {
  HierarchicalGraph g;
  const int s = g.add_graph();
  const int a = g.add_atom(false, s), b = g.add_atom(false, s), c = g.add_atom(false, s);
  const int ab = g.add_link(a, b), bc = g.add_link(b, c);
  const int h1 = g.group({a, b});
  BOOST_TEST(g.owner(h1) == s);
  BOOST_TEST(g.link(ab).owner == h1);  // both members inside: internal to H1
  BOOST_TEST(g.link(bc).owner == s);
  BOOST_TEST(g.link(bc).member1 == h1);  // peer link of H1 and c
  BOOST_TEST(g.link(bc).member2 == c);
  BOOST_TEST(g.audit() == "");
  const std::vector<int> back = g.ungroup(h1);
  BOOST_TEST(back.size() == 2u);
  BOOST_TEST(!g.alive(h1));
  BOOST_TEST(g.link(ab).owner == s);
  BOOST_TEST(g.link(bc).member1 == b);
  BOOST_TEST(g.audit() == "");
  BOOST_CHECK_THROW(g.group({a, g.add_atom()}), InputError);  // members of different owners
}

// Random hierarchies: random links, groups of random member subsets, ungroups; the structure stays what
// InsertLink defines, and an immediate Ungroup undoes a Group exactly.
BOOST_AUTO_TEST_CASE(random_hierarchies_property_test) {
  std::mt19937_64 rng(59);
  for (int trial = 0; trial < 30; ++trial) {
    HierarchicalGraph g;
    const int root = g.add_graph();
    std::vector<int> atoms;
    for (int i = 0; i < 25; ++i) atoms.push_back(g.add_atom(i % 7 == 0, root));
    std::uniform_int_distribution<int> pick(0, 24);
    for (int ops = 0; ops < 120; ++ops) {
      const int op = int(rng() % 4);
      if (op == 0) {
        const int x = atoms[std::size_t(pick(rng))], y = atoms[std::size_t(pick(rng))];
        if (x != y) g.add_link(x, y);
      } else {
        // a random live graph and a random subset of its members
        std::vector<int> graphs;
        for (int v = 0; v < g.nodes(); ++v)
          if (g.alive(v) && !g.is_atom(v) && !g.members(v).empty()) graphs.push_back(v);
        const int h = graphs[rng() % graphs.size()];
        if (op == 3 && h != root) {
          g.ungroup(h);
        } else {
          std::vector<int> m = g.members(h);
          std::shuffle(m.begin(), m.end(), rng);
          m.resize(1 + rng() % m.size());
          std::vector<int> owners(std::size_t(g.nodes()));
          for (int v = 0; v < g.nodes(); ++v) owners[std::size_t(v)] = g.owner(v);
          std::vector<HLink> before;
          for (int l = 0; l < g.links(); ++l) before.push_back(g.link(l));
          const int h1 = g.group(m);
          BOOST_REQUIRE(g.audit() == "");
          if (op == 1) {  // Ungroup(Group(S)) = identity
            g.ungroup(h1);
            for (int v = 0; v < int(owners.size()); ++v) BOOST_REQUIRE(g.owner(v) == owners[std::size_t(v)]);
            for (int l = 0; l < g.links(); ++l) {
              BOOST_REQUIRE(g.link(l).owner == before[std::size_t(l)].owner);
              BOOST_REQUIRE(g.link(l).member1 == before[std::size_t(l)].member1);
              BOOST_REQUIRE(g.link(l).member2 == before[std::size_t(l)].member2);
            }
          }
        }
      }
      BOOST_REQUIRE(g.audit() == "");
    }
    BOOST_TEST(g.atoms_of(root).size() == 25u);  // the flattened graph keeps every atom
  }
}

BOOST_AUTO_TEST_CASE(ungroup_without_reattaching_is_caught_by_the_audit) {
  HierarchicalGraph g;
  const int s = g.add_graph();
  const int a = g.add_atom(false, s), b = g.add_atom(false, s), c = g.add_atom(false, s);
  g.add_link(a, b);
  g.add_link(b, c);
  const int h1 = g.group({a, b});
  g.ungroup(h1, false);
  BOOST_TEST(g.audit() != "");
}

BOOST_AUTO_TEST_SUITE_END()
