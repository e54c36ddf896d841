// Adaptive model reduction: split and merge stages of the NDEM step. See reduction.hpp and docs/reduction.md.
#include "core/ndem/reduction.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "core/bodies.hpp"
#include "core/collision.hpp"
#include "core/error.hpp"
#include "core/ndem/aggregates.hpp"

namespace grainlab {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Smallest denominator of the balance ratios (000 l.2070: "a small perturbation is added to the
// denominators"), N: far below the weight of any particle (a 1 mm iron-ore sphere weighs 2e-4 N).
constexpr double balance_epsilon = 1e-12;

// Union-find with the smaller index as representative (deterministic components).
struct DisjointSets {
  std::vector<std::size_t> parent;
  explicit DisjointSets(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), std::size_t(0)); }
  std::size_t find(std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (b < a) std::swap(a, b);
    parent[b] = a;
  }
};

std::vector<char> aggregate_flags(const World& world) {
  std::vector<char> agg(world.bodies.size(), 0);
  for (std::size_t k = 0; k < agg.size(); ++k) agg[k] = is_aggregate(world, k) ? 1 : 0;
  return agg;
}

bool touching(const ParticleStore& P, std::size_t a, std::size_t b) {
  const double r = P.radius[a] + P.radius[b];
  return (P.position[a] - P.position[b]).squaredNorm() < r * r;
}

// Contacts inside aggregates (members of one aggregate that touch): the internal contact network. Their
// records are masked (overlap <= 0) by World::detect_contacts, so touching is decided from the positions.
// CSR over particles: neighbours of i are nbr[start[i] .. start[i+1]).
struct InternalNetwork {
  std::vector<std::size_t> start, nbr;
};
InternalNetwork internal_network(const World& world, const std::vector<char>& agg) {
  const ParticleStore& P = world.particles;
  const std::vector<Contact>& contacts = world.contacts();
  const std::size_t pairs = std::min(world.pair_contact_count(), contacts.size());
  InternalNetwork net;
  net.start.assign(P.size() + 1, 0);
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (std::size_t k = 0; k < pairs; ++k) {
    const Contact& c = contacts[k];
    if (c.is_wall()) continue;
    const auto a = std::size_t(c.a), b = std::size_t(c.b);
    const std::int32_t ba = P.body[a];
    if (ba < 0 || ba != P.body[b] || !agg[std::size_t(ba)] || !touching(P, a, b)) continue;
    edges.emplace_back(a, b);
    ++net.start[a + 1];
    ++net.start[b + 1];
  }
  for (std::size_t i = 0; i < P.size(); ++i) net.start[i + 1] += net.start[i];
  net.nbr.resize(net.start.back());
  std::vector<std::size_t> fill(net.start.begin(), net.start.end() - 1);
  for (const auto& [a, b] : edges) {
    net.nbr[fill[a]++] = b;
    net.nbr[fill[b]++] = a;
  }
  return net;
}

bool sphere_in_sensor(const ReductionSensor& s, const Vec3& x, double r) {
  const Vec3 local = s.axes * (x - s.center);
  const Vec3 outside = (local.cwiseAbs() - s.half_extent).cwiseMax(0.0);
  return outside.squaredNorm() <= r * r;
}

// form_body invalidates the contact detector (a full candidate rebuild at the next detection). Aggregates
// form from particles that do not move (a merge moves them by rounding only), so the candidates stay valid:
// the reducer keeps the detector's state across its stage (restore() is what a checkpoint restart uses, and
// restarts are bit for bit; it costs a copy of the reference positions instead of a rebuild).
class KeepCandidates {
 public:
  explicit KeepCandidates(World& w) : world_(w), state_(w.detector.state()) {}
  ~KeepCandidates() { world_.detector.restore(std::move(state_)); }
  KeepCandidates(const KeepCandidates&) = delete;
  KeepCandidates& operator=(const KeepCandidates&) = delete;

 private:
  World& world_;
  DetectorState state_;
};

enum Reason : char { none = 0, by_contact, by_separation, by_sensor, by_trial };

void count_reason(ReductionStats& st, char reason) {
  switch (reason) {
    case by_contact: ++st.split_contact; break;
    case by_separation: ++st.split_separation; break;
    case by_sensor: ++st.split_sensor; break;
    case by_trial: ++st.split_trial; break;
    default: break;
  }
}

/// Frees the flagged members (release_members) and counts them by reason; returns how many.
std::size_t release_counted(World& world, const std::vector<char>& release, ReductionStats& st) {
  std::size_t freed = 0;
  for (char r : release)
    if (r) {
      ++freed;
      count_reason(st, r);
    }
  if (freed) release_members(world, release);
  return freed;
}

}  // namespace

NdemReducer::NdemReducer(ReductionSettings settings, double time_step) : settings_(std::move(settings)), dt_(time_step) {}

void NdemReducer::begin_step() { stats_ = ReductionStats{}; }

double NdemReducer::balance_ratio(double mass, const Vec3& dv, const Vec3& f_ext) const {
  const Vec3 total = (mass / dt_) * dv;  // f_e + G^T lambda / Dt
  const Vec3 contact = total - f_ext;    // G^T lambda / Dt (impact impulses included)
  return total.norm() / (f_ext.norm() + contact.norm() + balance_epsilon);
}

std::size_t NdemReducer::split(World& world) {
  const auto t0 = Clock::now();
  const ReductionSettings& S = settings_;
  const ParticleStore& P = world.particles;
  const std::vector<char> agg = aggregate_flags(world);
  if (std::find(agg.begin(), agg.end(), 1) == agg.end()) return 0;
  auto member = [&](std::int32_t i) { return i >= 0 && P.body[std::size_t(i)] >= 0 && agg[std::size_t(P.body[std::size_t(i)])]; };
  std::vector<char> release(P.size(), none);
  std::vector<std::size_t> seeds;
  if (S.contact_split) {
    for (const Contact& c : world.contacts()) {
      if (!(c.overlap > 0)) continue;  // internal contacts are masked (overlap <= 0)
      const bool ma = member(c.a), mb = !c.is_wall() && member(c.b);
      if (!ma && !mb) continue;
      const ContactMotion m = contact_motion(world, c, P.velocity, P.angular_velocity);
      if (within(m, S.contact)) continue;
      const char reason = m.normal > S.contact.separating_normal ? by_separation : by_contact;
      for (const auto& [is_member, i] : {std::pair{ma, c.a}, std::pair{mb, c.b}})
        if (is_member && !release[std::size_t(i)]) {
          release[std::size_t(i)] = reason;
          seeds.push_back(std::size_t(i));
        }
    }
    // N_c-spl - 1 more layers along the internal contact network (000 l.2048).
    if (!seeds.empty() && S.contact_split_depth > 1) {
      const InternalNetwork net = internal_network(world, agg);
      std::vector<std::size_t> layer = seeds, next;
      for (int depth = 1; depth < S.contact_split_depth && !layer.empty(); ++depth) {
        next.clear();
        for (std::size_t i : layer)
          for (std::size_t k = net.start[i]; k < net.start[i + 1]; ++k) {
            const std::size_t j = net.nbr[k];
            if (release[j]) continue;
            release[j] = release[i];
            next.push_back(j);
          }
        std::swap(layer, next);
      }
    }
  }
  if (!S.sensors.empty())
    for (std::size_t i = 0; i < P.size(); ++i) {
      if (release[i] || !member(std::int32_t(i))) continue;
      for (const ReductionSensor& s : S.sensors)
        if (sphere_in_sensor(s, P.position[i], P.radius[i])) {
          release[i] = by_sensor;
          break;
        }
    }
  const std::size_t freed = release_counted(world, release, stats_);
  stats_.seconds_split += seconds_since(t0);
  return freed;
}

void release_members(World& world, const std::vector<char>& release) {
  ParticleStore& P = world.particles;
  if (release.size() != P.size())
    throw InputError(fmt::format("release_members: {} flags for {} particles", release.size(), P.size()));
  const std::vector<char> agg = aggregate_flags(world);
  std::vector<char> touched(world.bodies.size(), 0);
  bool any = false;
  for (std::size_t i = 0; i < P.size(); ++i)
    if (release[i] && P.body[i] >= 0 && agg[std::size_t(P.body[i])]) {
      touched[std::size_t(P.body[i])] = 1;
      any = true;
    }
  if (!any) return;
  const InternalNetwork net = internal_network(world, agg);
  // What stays of each touched aggregate, split into connected components of the internal network.
  const std::vector<std::int32_t> old_body = P.body;
  DisjointSets sets(P.size());
  for (std::size_t i = 0; i < P.size(); ++i) {
    if (release[i] || old_body[i] < 0 || !touched[std::size_t(old_body[i])]) continue;
    for (std::size_t k = net.start[i]; k < net.start[i + 1]; ++k)
      if (!release[net.nbr[k]]) sets.unite(i, net.nbr[k]);
  }
  std::vector<std::vector<std::size_t>> parts;
  std::vector<std::int64_t> part_of(P.size(), -1);
  for (std::size_t i = 0; i < P.size(); ++i) {
    if (release[i] || old_body[i] < 0 || !touched[std::size_t(old_body[i])]) continue;
    const std::size_t r = sets.find(i);
    if (part_of[r] < 0) {
      part_of[r] = std::int64_t(parts.size());
      parts.emplace_back();
    }
    parts[std::size_t(part_of[r])].push_back(i);
  }
  const KeepCandidates keep(world);
  release_aggregates(world, touched);
  for (const auto& part : parts)
    if (part.size() >= 2) form_aggregate(world, part, /*drive_members=*/false);  // relabel only (C13)
  // Contacts between particles that were in one aggregate and no longer are: back into the solver.
  std::vector<Contact>& contacts = world.contacts();
  const std::size_t pairs = std::min(world.pair_contact_count(), contacts.size());
  for (std::size_t k = 0; k < pairs; ++k) {
    Contact& c = contacts[k];
    if (c.is_wall()) continue;
    const auto a = std::size_t(c.a), b = std::size_t(c.b);
    if (old_body[a] < 0 || old_body[a] != old_body[b] || !touched[std::size_t(old_body[a])]) continue;
    if (P.body[a] >= 0 && P.body[a] == P.body[b]) continue;
    sphere_sphere(P, world.collision, c);
  }
}

std::size_t NdemReducer::trial_split(World& world, const NdemBodies& trial, const std::vector<Vec3>& external_force) {
  const auto t0 = Clock::now();
  const ReductionSettings& S = settings_;
  const ParticleStore& P = world.particles;
  const std::vector<char> agg = aggregate_flags(world);
  auto member = [&](std::int32_t i) { return i >= 0 && P.body[std::size_t(i)] >= 0 && agg[std::size_t(P.body[std::size_t(i)])]; };
  std::vector<char> release(P.size(), none);
  const bool velocity = S.trial_conditions != TrialConditions::force;
  const bool force = S.trial_conditions != TrialConditions::velocity;
  if (velocity)
    for (const Contact& c : world.contacts()) {  // internal contacts are unmasked during the trial
      if (!(c.overlap > 0)) continue;
      const bool ma = member(c.a), mb = !c.is_wall() && member(c.b);
      if (!ma && !mb) continue;
      if (within(contact_motion(world, c, trial.v, trial.w), S.trial)) continue;
      if (ma) release[std::size_t(c.a)] = by_trial;
      if (mb) release[std::size_t(c.b)] = by_trial;
    }
  if (force) {
    const Vec3 g = world.gravity.at(world.time);
    for (std::size_t i = 0; i < P.size(); ++i) {
      if (release[i] || !member(std::int32_t(i))) continue;
      // Eq. 35-36 as balance conditions: split where they FAIL (ledger P13).
      Vec3 f_ext = P.mass[i] * g;
      if (!external_force.empty()) f_ext += external_force[i];
      if (balance_ratio(P.mass[i], trial.v[i] - P.velocity[i], f_ext) >= S.trial_force_balance) {
        release[i] = by_trial;
        continue;
      }
      if (std::isfinite(S.trial_torque_balance) &&
          balance_ratio(P.inertia[i], trial.w[i] - P.angular_velocity[i], Vec3::Zero()) >= S.trial_torque_balance)
        release[i] = by_trial;
    }
  }
  const std::size_t freed = release_counted(world, release, stats_);
  stats_.seconds_trial += seconds_since(t0);
  return freed;
}

void NdemReducer::capture(const World& world, const NdemBodies& free_plus, const std::vector<Vec3>& body_v,
                          const std::vector<Vec3>& body_w, const std::vector<Vec3>& external_force) {
  const auto t0 = Clock::now();
  const ParticleStore& P = world.particles;
  v0_ = P.velocity;
  w0_ = P.angular_velocity;
  v1_.resize(P.size());
  w1_.resize(P.size());
  for (std::size_t i = 0; i < P.size(); ++i) {
    const std::int32_t b = P.body[i];
    if (b < 0) {
      v1_[i] = free_plus.v[i];
      w1_[i] = free_plus.w[i];
    } else {
      const auto k = std::size_t(b);
      v1_[i] = body_v[k] + body_w[k].cross(P.position[i] - world.bodies[k].position);
      w1_[i] = body_w[k];
    }
  }
  body_v0_.resize(world.bodies.size());
  body_v1_.resize(world.bodies.size());
  for (std::size_t k = 0; k < world.bodies.size(); ++k) {
    body_v0_[k] = world.bodies[k].velocity;
    body_v1_[k] = body_v[k];
  }
  external_ = external_force;
  gravity_ = world.gravity.at(world.time);
  stats_.seconds_merge += seconds_since(t0);
}

namespace {

// Particles inside a sensor (one flag per particle; empty without sensors).
std::vector<char> sensed_particles(const ReductionSettings& S, const ParticleStore& P) {
  std::vector<char> sensed(S.sensors.empty() ? 0 : P.size(), 0);
  for (std::size_t i = 0; i < sensed.size(); ++i)
    for (const ReductionSensor& s : S.sensors)
      if (sphere_in_sensor(s, P.position[i], P.radius[i])) sensed[i] = 1;
  return sensed;
}

// Nodes of the merge graph: free dynamic particle i -> i, aggregate k -> n + k; others (fixed particles,
// members of other bodies, particles in a sensor) none (-1).
class MergeNodes {
 public:
  MergeNodes(const ParticleStore& P, const std::vector<char>& agg, std::vector<char> sensed)
      : P_(P), agg_(agg), sensed_(std::move(sensed)), n_(P.size()) {}
  std::int64_t operator()(std::size_t i) const {
    const std::int32_t b = P_.body[i];
    if (b < 0) return P_.inv_mass[i] > 0 && (sensed_.empty() || !sensed_[i]) ? std::int64_t(i) : -1;
    return agg_[std::size_t(b)] ? std::int64_t(n_ + std::size_t(b)) : -1;
  }

 private:
  const ParticleStore& P_;
  const std::vector<char>& agg_;
  std::vector<char> sensed_;
  std::size_t n_;
};

// Touching contacts between two different nodes that pass the merge test, and per particle how many of
// them it has.
struct MergeEdges {
  std::vector<std::pair<std::size_t, std::size_t>> eligible;
  std::vector<int> resting;
};

// The merge graph's edges, in contact order: a contact is eligible when `resting(c)` (its motion) and
// both nodes are `balanced(node)`, tested in that order (the balance is the costlier test).
template <class Resting, class Balanced>
MergeEdges eligible_edges(const World& world, const MergeNodes& node, Resting&& resting, Balanced&& balanced) {
  MergeEdges e;
  e.resting.assign(world.particles.size(), 0);
  for (const Contact& c : world.contacts()) {
    if (!(c.overlap > 0) || c.is_wall()) continue;  // walls never join (merge_with_walls: not implemented)
    const std::int64_t na = node(std::size_t(c.a)), nbn = node(std::size_t(c.b));
    if (na < 0 || nbn < 0 || na == nbn) continue;
    if (!resting(c)) continue;
    if (!balanced(std::size_t(na)) || !balanced(std::size_t(nbn))) continue;
    e.eligible.emplace_back(std::size_t(na), std::size_t(nbn));
    ++e.resting[std::size_t(c.a)];
    ++e.resting[std::size_t(c.b)];
  }
  return e;
}

// Connected components of the eligible edges (a free particle joins only with min_contacts resting
// contacts), listed by particle in order of their smallest particle, with the number of distinct nodes
// in each (an aggregate alone is one node however many members it has).
struct MergeComponents {
  std::vector<std::vector<std::size_t>> particles;
  std::vector<std::size_t> nodes;
};
MergeComponents merge_components(const MergeNodes& node, std::size_t n, std::size_t nb, const MergeEdges& e,
                                 int min_contacts) {
  DisjointSets sets(n + nb);
  for (const auto& [a, b] : e.eligible) {
    if ((a < n && e.resting[a] < min_contacts) || (b < n && e.resting[b] < min_contacts)) continue;
    sets.unite(a, b);
  }
  MergeComponents out;
  std::vector<std::int64_t> comp_of(n + nb, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t nd = node(i);
    if (nd < 0) continue;
    const std::size_t r = sets.find(std::size_t(nd));
    if (comp_of[r] < 0) {
      comp_of[r] = std::int64_t(out.particles.size());
      out.particles.emplace_back();
      out.nodes.push_back(0);
    }
    out.particles[std::size_t(comp_of[r])].push_back(i);
  }
  std::vector<char> seen(n + nb, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t nd = node(i);
    if (nd < 0 || seen[std::size_t(nd)]) continue;
    seen[std::size_t(nd)] = 1;
    ++out.nodes[std::size_t(comp_of[sets.find(std::size_t(nd))])];
  }
  return out;
}

// Components of two or more nodes merge: flags their aggregates in `release` (they are re-formed as part
// of the new one) and returns the free particles that join.
std::size_t flag_merging(const ParticleStore& P, const MergeComponents& comps, std::vector<char>& release) {
  std::size_t joined = 0;
  for (std::size_t k = 0; k < comps.particles.size(); ++k) {
    if (comps.nodes[k] < 2) continue;
    for (std::size_t i : comps.particles[k]) {
      if (P.body[i] >= 0) release[std::size_t(P.body[i])] = 1;
      else ++joined;
    }
  }
  return joined;
}

}  // namespace

// Merge test of one contact's motion on the captured velocities: within the merge bounds at v_{i+1}, and
// the reconstructed acceleration |G (v_{i+1} - v_i)| / Dt within a_n, a_t.
bool NdemReducer::resting_motion(const World& world, const Contact& c) const {
  const ReductionSettings& S = settings_;
  const ContactMotion m1 = contact_motion(world, c, v1_, w1_);
  if (!within(m1, S.merge)) return false;
  const ContactMotion m0 = contact_motion(world, c, v0_, w0_);
  if (std::abs(m1.normal - m0.normal) > S.merge_normal_acceleration * dt_) return false;
  if ((m1.tangential - m0.tangential).norm() > S.merge_tangential_acceleration * dt_) return false;
  return true;
}

// Force balance ratio (Eq. 25) of merge node nd (< n: a free particle; n + k: aggregate k) over the step.
double NdemReducer::node_balance_ratio(const World& world, std::size_t nd) const {
  const ParticleStore& P = world.particles;
  const std::size_t n = P.size();
  if (nd < n) {
    Vec3 f = P.mass[nd] * gravity_;
    if (!external_.empty()) f += external_[nd];
    return balance_ratio(P.mass[nd], v1_[nd] - v0_[nd], f);
  }
  const RigidBody& B = world.bodies[nd - n];
  const Vec3 f = (B.gravity ? Vec3(B.mass * gravity_) : Vec3(Vec3::Zero())) + B.external_force;
  return balance_ratio(B.mass, body_v1_[nd - n] - body_v0_[nd - n], f);
}

// Stages: merge-graph nodes, eligible resting contacts (motion, then force balance, memoised per node),
// connected components, then the aggregates re-formed.
void NdemReducer::merge(World& world) {
  const auto t0 = Clock::now();
  const ReductionSettings& S = settings_;
  if (world.time < S.start_time) return;
  ParticleStore& P = world.particles;
  const std::size_t n = P.size();
  const std::vector<char> agg = aggregate_flags(world);
  const std::size_t nb = world.bodies.size();
  // A particle inside a sensor stays free: the sensor split frees it at the start of the step and it moves
  // rigidly with its old neighbours through the solve, so without this it re-merges in the same step.
  const MergeNodes node(P, agg, sensed_particles(S, P));
  // Force balance per node (Eq. 25; 0 = unknown, 1 = balanced, 2 = not).
  std::vector<char> balance(n + nb, 0);
  const bool test_balance = std::isfinite(S.merge_force_balance);
  auto balanced = [&](std::size_t nd) {
    if (!test_balance) return true;
    if (!balance[nd]) balance[nd] = node_balance_ratio(world, nd) <= S.merge_force_balance ? 1 : 2;
    return balance[nd] == 1;
  };
  auto resting = [&](const Contact& c) { return resting_motion(world, c); };
  const MergeEdges edges = eligible_edges(world, node, resting, balanced);
  if (edges.eligible.empty()) {
    stats_.seconds_merge += seconds_since(t0);
    return;
  }
  const MergeComponents comps = merge_components(node, n, nb, edges, S.min_merge_contacts);
  std::vector<char> release(nb, 0);
  const std::size_t joined = flag_merging(P, comps, release);
  if (joined == 0 && std::find(release.begin(), release.end(), 1) == release.end()) {
    stats_.seconds_merge += seconds_since(t0);
    return;
  }
  const KeepCandidates keep(world);
  release_aggregates(world, release);
  for (std::size_t k = 0; k < comps.particles.size(); ++k)
    if (comps.nodes[k] >= 2) form_aggregate(world, comps.particles[k], /*drive_members=*/true);
  stats_.merged += joined;
  stats_.seconds_merge += seconds_since(t0);
}

const ReductionStats& NdemReducer::finish_step(const World& world, std::size_t solver_contacts) {
  const ParticleStore& P = world.particles;
  const std::vector<char> agg = aggregate_flags(world);
  ReductionStats& st = stats_;
  st.particles = st.free_particles = st.aggregates = st.aggregated_particles = 0;
  double dof_full = 0, dof_reduced = 0;
  for (std::size_t i = 0; i < P.size(); ++i) {
    if (!(P.inv_mass[i] > 0)) continue;
    const std::int32_t b = P.body[i];
    if (b >= 0 && !agg[std::size_t(b)]) continue;  // members of other bodies are not particles of h
    const double dof = P.inv_inertia[i] > 0 ? 6.0 : 3.0;
    ++st.particles;
    dof_full += dof;
    if (b < 0) {
      ++st.free_particles;
      dof_reduced += dof;
    } else {
      ++st.aggregated_particles;
    }
  }
  for (char a : agg)
    if (a) {
      ++st.aggregates;
      dof_reduced += 6.0;
    }
  const double np = double(st.particles);
  st.level = np > 0 ? 1.0 - double(st.free_particles + st.aggregates) / np : 0.0;
  st.level_free_only = np > 0 ? 1.0 - double(st.free_particles) / np : 0.0;
  st.level_dof = dof_full > 0 ? 1.0 - dof_reduced / dof_full : 0.0;
  st.solver_contacts = solver_contacts;
  return st;
}

}  // namespace grainlab
