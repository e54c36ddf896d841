#include "core/mbd/qrb_templates.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

#include "core/error.hpp"

namespace grainlab::mbd {
namespace {

constexpr int ground = -2;  // all fixed members seen as one node

struct Candidate {
  int disks = 0, kind = 0;             // kind: 0 loop, 1 hamburger, 2 triangle
  std::array<int, 3> nodes{0, 0, 0};   // representatives, unused slots = ground - 1
  bool operator<(const Candidate& o) const { return std::tie(disks, kind, nodes) < std::tie(o.disks, o.kind, o.nodes); }
};

bool is_stable(const std::vector<char>& stable, int l, const QrbOptions& o) {
  if (!o.use_stability) return true;
  if (l >= int(stable.size())) throw InputError("find_qrbs: the stable-link flags are shorter than the link count");
  return stable[std::size_t(l)] != 0;
}

// Per pass: the stable fixed neighbours of each free member and the member pairs joined by a slipping link.
struct PassLinks {
  std::map<int, std::set<int>> fixed_neighbours;  // free member -> fixed members stably linked to it
  std::vector<std::pair<int, int>> slipping;       // members joined by an unstable link
};

// The members a template groups: its free nodes, and with the ground the fixed members stably linked to them.
std::vector<int> group_of(const Candidate& c, const PassLinks& p) {
  if (c.kind == 0) return {c.nodes[0], c.nodes[1]};
  std::vector<int> s;
  bool with_ground = false;
  for (int r : c.nodes) {
    if (r == ground) with_ground = true;
    else if (r != ground - 1) s.push_back(r);
  }
  if (!with_ground) return s;
  std::set<int> fixed_members;
  for (int m : s)
    if (const auto it = p.fixed_neighbours.find(m); it != p.fixed_neighbours.end()) fixed_members.insert(it->second.begin(), it->second.end());
  s.insert(s.end(), fixed_members.begin(), fixed_members.end());
  return s;
}

bool holds_only_stable(const std::vector<int>& s, const PassLinks& p) {
  auto in = [&](int m) { return std::find(s.begin(), s.end(), m) != s.end(); };
  return std::none_of(p.slipping.begin(), p.slipping.end(), [&](const auto& x) { return in(x.first) && in(x.second); });
}

}  // namespace

QrbDetection find_qrbs(HierarchicalGraph& g, int container, const std::vector<char>& stable,
                       std::vector<char>& is_qrb, const QrbOptions& options) {
  if (options.hamburger_links < 1) throw InputError("find_qrbs: hamburger_links must be >= 1");
  if (g.is_atom(container)) throw InputError("find_qrbs: the container must be a graph");
  QrbDetection out;
  for (;;) {
    std::map<int, int> rep, disks;  // member -> representative, free atoms inside
    for (int m : g.members(container)) {
      const std::vector<int> atoms = g.atoms_of(m);
      int free = 0;
      bool fixed = false;
      for (int a : atoms) {
        if (g.fixed(a)) fixed = true;
        else ++free;
      }
      rep[m] = fixed ? ground : m;
      disks[m] = free;
    }
    std::map<std::pair<int, int>, int> multiplicity;
    std::map<int, std::set<int>> neighbours;
    std::vector<Candidate> candidates;
    PassLinks pass;
    for (int l : g.internal_links(container)) {
      const HLink& k = g.link(l);
      if (!is_stable(stable, l, options)) {
        if (options.block_on_slipping) pass.slipping.emplace_back(k.member1, k.member2);
        continue;
      }
      const int a = rep[k.member1], b = rep[k.member2];
      if (a == ground && b != ground) pass.fixed_neighbours[k.member2].insert(k.member1);
      if (b == ground && a != ground) pass.fixed_neighbours[k.member1].insert(k.member2);
      if (a == b) {  // a loop: both ends already one node (two fixed members)
        candidates.push_back({0, 0, {std::min(k.member1, k.member2), std::max(k.member1, k.member2), ground - 1}});
        continue;
      }
      ++multiplicity[{std::min(a, b), std::max(a, b)}];
      neighbours[a].insert(b);
      neighbours[b].insert(a);
    }
    for (const auto& [pair, count] : multiplicity) {
      const auto [a, b] = pair;
      if (count >= options.hamburger_links) candidates.push_back({0, 1, {a, b, ground - 1}});
      if (!options.triangles) continue;
      for (int c : neighbours[a])
        if (c > b && neighbours[b].count(c)) candidates.push_back({0, 2, {a, b, c}});
    }
    // Cost = the disks the group would hold, the fixed QRBs it takes in included (balancing, 002 l.2497-2499).
    std::vector<std::pair<Candidate, std::vector<int>>> groups;
    for (Candidate c : candidates) {
      std::vector<int> members = group_of(c, pass);
      c.disks = 0;
      for (int m : members) c.disks += disks[m];
      groups.emplace_back(c, std::move(members));
    }
    std::sort(groups.begin(), groups.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    // The first template, in order, whose group would hold stable links only: a QRB is created only when
    // all its links are stable (002 l.1994); a slipping link between two of its nodes blocks it.
    const auto chosen = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return holds_only_stable(x.second, pass); });
    if (chosen == groups.end()) break;
    const Candidate best = chosen->first;
    const std::vector<int> s = chosen->second;
    const int h = g.group(s);
    is_qrb.resize(std::size_t(g.nodes()), 0);
    is_qrb[std::size_t(h)] = 1;
    out.created.push_back(h);
    (best.kind == 0 ? out.counts.loops : best.kind == 1 ? out.counts.hamburgers : out.counts.triangles)++;
  }
  is_qrb.resize(std::size_t(g.nodes()), 0);
  return out;
}

int outermost_qrb(const HierarchicalGraph& g, int container, int v, const std::vector<char>& is_qrb) {
  int found = no_node;
  for (int x = v; x != no_node && x != container; x = g.owner(x))
    if (x < int(is_qrb.size()) && is_qrb[std::size_t(x)]) found = x;
  return found;
}

bool insert_inside_qrb(const HierarchicalGraph& g, int a1, int a2, const std::vector<char>& is_qrb) {
  const int owner = g.insert_link(a1, a2).owner;
  return owner < int(is_qrb.size()) && is_qrb[std::size_t(owner)];
}

std::vector<int> unstable_links_in_qrbs(const HierarchicalGraph& g, const std::vector<char>& is_qrb,
                                        const std::vector<char>& stable) {
  std::vector<int> out;
  for (int h = 0; h < g.nodes() && h < int(is_qrb.size()); ++h) {
    if (!is_qrb[std::size_t(h)] || !g.alive(h)) continue;
    for (int l : g.internal_links(h))
      if (l >= int(stable.size()) || !stable[std::size_t(l)]) out.push_back(l);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void require_insert_outside_qrbs(const HierarchicalGraph& g, int a1, int a2, const std::vector<char>& is_qrb) {
  if (insert_inside_qrb(g, a1, a2, is_qrb))
    throw InputError("QRB rule (G-C82): a link between atoms " + std::to_string(a1) + " and " + std::to_string(a2) +
                     " would be born inside a QRB, whose members cannot move relative to one another");
}

void require_grip_outside_qrbs(const HierarchicalGraph& g, int link, const std::vector<char>& is_qrb) {
  const int owner = g.link(link).owner;
  if (owner != no_node && owner < int(is_qrb.size()) && is_qrb[std::size_t(owner)])
    throw InputError("QRB rule (G-C82): link " + std::to_string(link) + " grips inside a QRB, which holds only stable links");
}

}  // namespace grainlab::mbd
