#pragma once
// Hierarchical graph of Gavrilov's MBD model (1999 Sec. 5.1, seed 002 l.1620-1802): nodes are atomic
// elements (bodies, some fixed) or graphs whose members are nodes; every node has one owner (null at the
// top level); a link joins two atoms (its nodes) and is attached to its owner, the lowest common owner of
// the two atoms, and to two members of that owner, the members containing each atom. The System, its
// Clusters and the QRBs are such graphs.
//
// Primitives as printed (FindMemberContaining, depth, FindLowestCommonOwner, InsertLink, Group, Ungroup),
// with the ledger's readings (../shared/claims/gavrilov.md P15): FindLowestCommonOwner(v, ancestor) is the
// ancestor, as the pseudo-code (l.1695-1701) returns, not v as the sentence at l.1692 says; Group's
// implicit H is the common owner of S; Ungroup's body, split by the PDF (l.1786-1793), reads "for each
// peer link replace the H1 side by FindMemberContaining(H1, node), then attach(l, m1, m2)".
// Ids are stable indices; a released graph or removed link keeps its id, marked dead. Not thread-safe.
#include <string>
#include <vector>

namespace grainlab::mbd {

constexpr int no_node = -1;

struct HLink {
  int node1 = no_node, node2 = no_node;      ///< the atoms joined
  int member1 = no_node, member2 = no_node;  ///< members of `owner` containing node1, node2
  int owner = no_node;
  bool alive = true;
};

/// The owner and members a link between two atoms gets (InsertLink, 002 l.1712-1722).
struct LinkData {
  int owner = no_node, member1 = no_node, member2 = no_node;
};

class HierarchicalGraph {
 public:
  /// A body inside `owner` (no_node: top level).
  int add_atom(bool fixed = false, int owner = no_node);
  /// An empty graph inside `owner`.
  int add_graph(int owner = no_node);

  int nodes() const { return int(nodes_.size()); }
  int links() const { return int(links_.size()); }
  bool alive(int v) const { return node(v).alive; }
  bool is_atom(int v) const { return node(v).atom; }
  /// An atom's flag; a graph is fixed when it contains a fixed atom (a fixed QRB).
  bool fixed(int v) const;
  int owner(int v) const { return node(v).owner; }
  const std::vector<int>& members(int h) const { return node(h).members; }
  const std::vector<int>& internal_links(int h) const { return node(h).internal; }
  const std::vector<int>& peer_links(int v) const { return node(v).peers; }
  const HLink& link(int l) const;

  /// The member of h that contains v (v itself if h owns v), or no_node when v is not inside h.
  int find_member_containing(int h, int v) const;
  /// 0 for a top-level node.
  int depth(int v) const;
  /// The lowest graph containing both (v1 itself when v1 == v2, the ancestor when one contains the
  /// other); no_node when they lie in different top-level graphs.
  int find_lowest_common_owner(int v1, int v2) const;
  /// The owner and members a link between atoms a1 and a2 would get; InputError when no common owner.
  LinkData insert_link(int a1, int a2) const;
  /// InsertLink, then attach the new link. Returns its id.
  int add_link(int a1, int a2);
  void remove_link(int l);

  /// Moves the members in s (all of one owner H) into a new graph H1 inside H, re-attaching their peer
  /// links: a link between two members of s becomes internal to H1, a link to the outside attaches H1.
  int group(const std::vector<int>& s);
  /// The inverse of group: the members of h1 move up into its owner, h1 is released. Returns them.
  /// `reattach_peer_links = false` is the reading that loses the PDF-split part (l.1786-1793): peer links
  /// of h1 keep h1 as a member. Deliberately wrong, for the perturbation of the G-C59 check.
  std::vector<int> ungroup(int h1, bool reattach_peer_links = true);

  /// The atoms inside v (v itself for an atom), in id order: the "flattened" graph.
  std::vector<int> atoms_of(int v) const;
  /// Every live link inside v at any depth (internal links of v and of its descendants).
  std::vector<int> links_within(int v) const;
  /// Consistency of the whole structure: owners and member lists agree, every live link's owner and
  /// members are what InsertLink would give, every list holds exactly the links it should. Empty when
  /// consistent, else the first fault found.
  std::string audit() const;

 private:
  struct Node {
    int owner = no_node;
    bool atom = true, fixed = false, alive = true;
    std::vector<int> members, internal, peers;
  };
  const Node& node(int v) const;
  Node& node(int v);
  void set_owner(int v, int h);
  void set_link_owner(int l, int h);
  void attach(int l, int m1, int m2);

  std::vector<Node> nodes_;
  std::vector<HLink> links_;
};

}  // namespace grainlab::mbd
