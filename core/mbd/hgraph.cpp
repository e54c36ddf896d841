#include "core/mbd/hgraph.hpp"

#include <algorithm>
#include <set>

#include "core/error.hpp"

namespace grainlab::mbd {
namespace {

void erase_value(std::vector<int>& v, int x) {
  const auto it = std::find(v.begin(), v.end(), x);
  if (it != v.end()) v.erase(it);
}

}  // namespace

const HierarchicalGraph::Node& HierarchicalGraph::node(int v) const {
  if (v < 0 || v >= int(nodes_.size())) throw InputError("hgraph: no node " + std::to_string(v));
  return nodes_[std::size_t(v)];
}

HierarchicalGraph::Node& HierarchicalGraph::node(int v) {
  if (v < 0 || v >= int(nodes_.size())) throw InputError("hgraph: no node " + std::to_string(v));
  return nodes_[std::size_t(v)];
}

const HLink& HierarchicalGraph::link(int l) const {
  if (l < 0 || l >= int(links_.size())) throw InputError("hgraph: no link " + std::to_string(l));
  return links_[std::size_t(l)];
}

int HierarchicalGraph::add_atom(bool fixed, int owner) {
  if (owner != no_node && (is_atom(owner) || !alive(owner))) throw InputError("hgraph: an atom's owner must be a live graph");
  nodes_.push_back({owner, true, fixed, true, {}, {}, {}});
  const int v = int(nodes_.size()) - 1;
  if (owner != no_node) node(owner).members.push_back(v);
  return v;
}

int HierarchicalGraph::add_graph(int owner) {
  if (owner != no_node && (is_atom(owner) || !alive(owner))) throw InputError("hgraph: a graph's owner must be a live graph");
  nodes_.push_back({owner, false, false, true, {}, {}, {}});
  const int v = int(nodes_.size()) - 1;
  if (owner != no_node) node(owner).members.push_back(v);
  return v;
}

bool HierarchicalGraph::fixed(int v) const {
  const Node& n = node(v);
  if (n.atom) return n.fixed;
  return std::any_of(n.members.begin(), n.members.end(), [&](int m) { return fixed(m); });
}

void HierarchicalGraph::set_owner(int v, int h) {
  Node& n = node(v);
  if (n.owner != no_node) erase_value(node(n.owner).members, v);
  n.owner = h;
  if (h != no_node) node(h).members.push_back(v);
}

void HierarchicalGraph::set_link_owner(int l, int h) {
  HLink& k = links_[std::size_t(l)];
  if (k.owner != no_node) erase_value(node(k.owner).internal, l);
  k.owner = h;
  if (h != no_node) node(h).internal.push_back(l);
}

void HierarchicalGraph::attach(int l, int m1, int m2) {
  HLink& k = links_[std::size_t(l)];
  if (k.member1 != no_node) erase_value(node(k.member1).peers, l);
  if (k.member2 != no_node) erase_value(node(k.member2).peers, l);
  k.member1 = m1;
  k.member2 = m2;
  node(m1).peers.push_back(l);
  node(m2).peers.push_back(l);
}

// 002 l.1672-1678, iterative: climb from v until the owner is h.
int HierarchicalGraph::find_member_containing(int h, int v) const {
  while (v != no_node) {
    if (owner(v) == h) return v;
    v = owner(v);
  }
  return no_node;
}

int HierarchicalGraph::depth(int v) const {
  int d = 0;
  for (int o = owner(v); o != no_node; o = owner(o)) ++d;
  return d;
}

// 002 l.1695-1701: climb the deeper of the two until they meet.
int HierarchicalGraph::find_lowest_common_owner(int v1, int v2) const {
  int d1 = depth(v1), d2 = depth(v2);
  while (v1 != v2) {
    if (v1 == no_node || v2 == no_node) return no_node;
    if (d1 < d2) v2 = owner(v2), --d2;
    else v1 = owner(v1), --d1;
  }
  return v1;
}

// 002 l.1712-1722. The owner of a link is the lowest common owner of the two atoms' owners (the LCO of
// the atoms themselves when they differ; an atom cannot own a link).
LinkData HierarchicalGraph::insert_link(int a1, int a2) const {
  if (!is_atom(a1) || !is_atom(a2) || a1 == a2 || !alive(a1) || !alive(a2))
    throw InputError("hgraph: a link joins two distinct live atoms");
  const int h = find_lowest_common_owner(a1, a2);
  if (h == no_node) throw InputError("hgraph: the two atoms have no common owner (different top-level graphs)");
  return {h, find_member_containing(h, a1), find_member_containing(h, a2)};
}

int HierarchicalGraph::add_link(int a1, int a2) {
  const LinkData d = insert_link(a1, a2);
  links_.push_back({a1, a2, no_node, no_node, no_node, true});
  const int l = int(links_.size()) - 1;
  set_link_owner(l, d.owner);
  attach(l, d.member1, d.member2);
  return l;
}

void HierarchicalGraph::remove_link(int l) {
  if (!link(l).alive) throw InputError("hgraph: link " + std::to_string(l) + " already removed");
  HLink& k = links_[std::size_t(l)];
  erase_value(node(k.member1).peers, l);
  erase_value(node(k.member2).peers, l);
  set_link_owner(l, no_node);
  k.member1 = k.member2 = no_node;
  k.alive = false;
}

// 002 l.1734-1760 with H = the common owner of S.
int HierarchicalGraph::group(const std::vector<int>& s) {
  if (s.empty()) throw InputError("hgraph: group of an empty set");
  const int h = owner(s.front());
  std::set<int> seen;
  for (int v : s) {
    if (!alive(v) || owner(v) != h) throw InputError("hgraph: group members must be live members of one owner");
    if (!seen.insert(v).second) throw InputError("hgraph: a node appears twice in a group");
  }
  const int h1 = add_graph(h);
  for (int v : s) set_owner(v, h1);
  std::vector<int> e;  // peer links of S, each once, in a fixed order
  for (int v : s)
    for (int l : node(v).peers)
      if (std::find(e.begin(), e.end(), l) == e.end()) e.push_back(l);
  for (int l : e) {
    const HLink k = links_[std::size_t(l)];
    const bool in1 = owner(k.member1) == h1, in2 = owner(k.member2) == h1;
    if (in1 && in2) set_link_owner(l, h1);
    else if (!in1) attach(l, k.member1, h1);
    else attach(l, h1, k.member2);
  }
  return h1;
}

// 002 l.1766-1800, the body reassembled as in ledger P15.
std::vector<int> HierarchicalGraph::ungroup(int h1, bool reattach_peer_links) {
  if (is_atom(h1) || !alive(h1)) throw InputError("hgraph: ungroup needs a live graph");
  const int h = owner(h1);
  const std::vector<int> internal = node(h1).internal;
  for (int l : internal) set_link_owner(l, h);
  const std::vector<int> peers = reattach_peer_links ? node(h1).peers : std::vector<int>{};
  for (int l : peers) {
    const HLink k = links_[std::size_t(l)];
    int m1 = k.member1, m2 = k.member2;
    if (m1 == h1) m1 = find_member_containing(h1, k.node1);
    else m2 = find_member_containing(h1, k.node2);
    attach(l, m1, m2);
  }
  const std::vector<int> updated = node(h1).members;
  for (int v : updated) set_owner(v, h);
  set_owner(h1, no_node);
  if (!reattach_peer_links) return updated;  // h1 stays alive, dangling: what the audit must catch
  node(h1).alive = false;
  return updated;
}

std::vector<int> HierarchicalGraph::atoms_of(int v) const {
  std::vector<int> out, stack{v};
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    if (is_atom(x)) out.push_back(x);
    else stack.insert(stack.end(), node(x).members.begin(), node(x).members.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> HierarchicalGraph::links_within(int v) const {
  std::vector<int> out, stack{v};
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    if (is_atom(x)) continue;
    out.insert(out.end(), node(x).internal.begin(), node(x).internal.end());
    stack.insert(stack.end(), node(x).members.begin(), node(x).members.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string HierarchicalGraph::audit() const {
  auto count = [](const std::vector<int>& v, int x) { return std::count(v.begin(), v.end(), x); };
  for (int v = 0; v < nodes(); ++v) {
    const Node& n = nodes_[std::size_t(v)];
    if (!n.alive) {
      if (n.owner != no_node || !n.members.empty() || !n.internal.empty() || !n.peers.empty())
        return "released node " + std::to_string(v) + " still connected";
      continue;
    }
    if (n.owner != no_node && (!alive(n.owner) || count(node(n.owner).members, v) != 1))
      return "node " + std::to_string(v) + " not listed once by its owner";
    for (int m : n.members)
      if (owner(m) != v) return "member " + std::to_string(m) + " of " + std::to_string(v) + " has another owner";
    if (n.atom && (!n.members.empty() || !n.internal.empty())) return "atom " + std::to_string(v) + " owns something";
    for (int o = n.owner, steps = 0; o != no_node; o = owner(o))
      if (++steps > nodes()) return "owner chain of " + std::to_string(v) + " has a loop";
  }
  for (int l = 0; l < links(); ++l) {
    const HLink& k = links_[std::size_t(l)];
    if (!k.alive) continue;
    const LinkData d = insert_link(k.node1, k.node2);
    if (d.owner != k.owner || d.member1 != k.member1 || d.member2 != k.member2)
      return "link " + std::to_string(l) + " attached to other owner/members than InsertLink gives";
    if (count(node(k.owner).internal, l) != 1 || count(node(k.member1).peers, l) != 1 || count(node(k.member2).peers, l) != 1)
      return "link " + std::to_string(l) + " not listed once by its owner and members";
  }
  for (int v = 0; v < nodes(); ++v) {
    for (int l : nodes_[std::size_t(v)].internal)
      if (!link(l).alive || link(l).owner != v) return "node " + std::to_string(v) + " lists a link it does not own";
    for (int l : nodes_[std::size_t(v)].peers)
      if (!link(l).alive || (link(l).member1 != v && link(l).member2 != v))
        return "node " + std::to_string(v) + " lists a peer link it is no member of";
  }
  return {};
}

}  // namespace grainlab::mbd
