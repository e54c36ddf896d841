#pragma once
// The SDEM per-contact kernels (internal to core/sdem; exposed for tests and benchmarks).
//
// pair_wrench: geometry and wrench of one pair candidate in one pass (the detector leaves the pair
//   geometry to the force stage). Reads particle state and the candidate's constants; writes the
//   contact's geometry, springs (reset when separated), Contact::force and its wrench slot.
// pair_wrench_lanes: the same for four candidates at once, one per SIMD lane (GCC vector extensions:
//   AVX2 with -march=x86-64-v3, SSE2 otherwise), on the compact state: particle indices, PairHistory
//   (overlap, tangential spring) and the wrench; it writes no record (World::sync_contacts() computes the
//   geometry) except to reset the history of a pair that separates. Both kernels write a
//   PairWrench. Every lane runs the scalar kernel's operations in the same order, with branches turned
//   into selects, so the results agree with pair_wrench to rounding (fused multiply-adds may be formed
//   differently); tests/sdem/pair_kernels_test.cpp checks it. Groups with rolling resistance use the
//   scalar kernel.
//
// Law: core/sdem/contact_law.hpp (Hertz/viscoelastic/linear normal force, tangential spring on the
// Coulomb cone, rolling resistance); constants per candidate: SdemCandidateConstants.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#ifdef __AVX__
#include <immintrin.h>
#endif

#include "core/collision.hpp"
#include "core/scalar3.hpp"
#include "core/sdem/contact_law.hpp"
#include "core/sdem/sdem_stepper.hpp"

namespace grainlab::sdem {

/// Constants of one contact (see SdemPairConstants) from its material pair, R* and effective mass.
inline SdemPairConstants pair_constants(const SdemPairCoefficients& c, SdemNormalLaw law, double r_eff, double m_eff,
                                        bool movable, std::uint32_t table) {
  SdemPairConstants k;
  const bool linear = law == SdemNormalLaw::linear;
  k.kn = linear ? c.kn_factor : c.kn_factor * std::sqrt(r_eff);
  k.damp_n = law == SdemNormalLaw::viscoelastic ? c.normal_damping : c.normal_damping * std::sqrt(m_eff * k.kn);
  k.kt0 = linear ? c.kt_factor : c.kt_factor * std::sqrt(r_eff);
  k.damp_t = c.tangential_damping * std::sqrt(m_eff * k.kt0);
  k.mu = c.friction;
  k.table = table;
  k.movable = movable;
  k.rolling = c.rolling_friction > 0 || c.twisting_factor > 0;  // the scalar path with the resistance torques
  return k;
}

// Lanes: four doubles in one vector (GCC vector extensions: one AVX register with -march=x86-64-v3,
// two SSE2 registers otherwise). Comparisons give masks of -1/0 per lane.
using Lanes = double __attribute__((vector_size(32)));
using LaneMask = long long __attribute__((vector_size(32)));
using Half = double __attribute__((vector_size(16)));
constexpr int lane_count = 4;

// The same names for double, so that templates on the number type (normal_terms) take either.
[[gnu::always_inline]] inline double sqrt(double v) { return std::sqrt(v); }
[[gnu::always_inline]] inline double max(double a, double b) { return std::max(a, b); }

[[gnu::always_inline]] inline Lanes splat(double v) { return Lanes{v, v, v, v}; }
[[gnu::always_inline]] inline Lanes select(LaneMask m, Lanes yes, Lanes no) { return m ? yes : no; }
[[gnu::always_inline]] inline Lanes sqrt(Lanes v) {
#ifdef __AVX__
  return _mm256_sqrt_pd(v);
#else
  return Lanes{std::sqrt(v[0]), std::sqrt(v[1]), std::sqrt(v[2]), std::sqrt(v[3])};
#endif
}
[[gnu::always_inline]] inline Lanes max(Lanes a, Lanes b) { return a < b ? b : a; }  // as std::max
[[gnu::always_inline]] inline Lanes min(Lanes a, Lanes b) { return b < a ? b : a; }  // as std::min
[[gnu::always_inline]] inline bool any(LaneMask m) {
#ifdef __AVX__
  return !_mm256_testz_si256(__m256i(m), __m256i(m));  // one vptest instead of four extractions
#else
  return (m[0] | m[1] | m[2] | m[3]) != 0;
#endif
}

/// A 3-vector of lanes: component x holds the x of four contacts.
struct L3 {
  Lanes x, y, z;
  [[gnu::always_inline]] Lanes dot(const L3& o) const { return x * o.x + y * o.y + z * o.z; }
  [[gnu::always_inline]] Lanes squaredNorm() const { return dot(*this); }
  [[gnu::always_inline]] L3 cross(const L3& o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
};
[[gnu::always_inline]] inline L3 operator+(const L3& a, const L3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
[[gnu::always_inline]] inline L3 operator-(const L3& a, const L3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
[[gnu::always_inline]] inline L3 operator*(const Lanes& s, const L3& a) { return {s * a.x, s * a.y, s * a.z}; }
[[gnu::always_inline]] inline L3 select(LaneMask m, const L3& yes, const L3& no) {
  return {select(m, yes.x, no.x), select(m, yes.y, no.y), select(m, yes.z, no.z)};
}

/// Four Vec3 into lanes (x, y by 16-byte loads and two shuffles; z one by one).
[[gnu::always_inline]] inline L3 load_lanes(const Vec3& v0, const Vec3& v1, const Vec3& v2, const Vec3& v3) {
  Half h0, h1, h2, h3;
  std::memcpy(&h0, v0.data(), 16), std::memcpy(&h1, v1.data(), 16), std::memcpy(&h2, v2.data(), 16),
      std::memcpy(&h3, v3.data(), 16);
  const Lanes a = __builtin_shufflevector(h0, h2, 0, 1, 2, 3);  // x0 y0 x2 y2
  const Lanes b = __builtin_shufflevector(h1, h3, 0, 1, 2, 3);  // x1 y1 x3 y3
  return {__builtin_shufflevector(a, b, 0, 4, 2, 6), __builtin_shufflevector(a, b, 1, 5, 3, 7),
          Lanes{v0[2], v1[2], v2[2], v3[2]}};
}
/// Lanes back into four Vec3 (the inverse of load_lanes).
[[gnu::always_inline]] inline void store_lanes(const L3& v, Vec3& v0, Vec3& v1, Vec3& v2, Vec3& v3) {
  const Lanes a = __builtin_shufflevector(v.x, v.y, 0, 4, 2, 6);  // x0 y0 x2 y2
  const Lanes b = __builtin_shufflevector(v.x, v.y, 1, 5, 3, 7);  // x1 y1 x3 y3
  const Half h0 = __builtin_shufflevector(a, a, 0, 1), h2 = __builtin_shufflevector(a, a, 2, 3);
  const Half h1 = __builtin_shufflevector(b, b, 0, 1), h3 = __builtin_shufflevector(b, b, 2, 3);
  std::memcpy(v0.data(), &h0, 16), std::memcpy(v1.data(), &h1, 16), std::memcpy(v2.data(), &h2, 16),
      std::memcpy(v3.data(), &h3, 16);
  v0[2] = v.z[0], v1[2] = v.z[1], v2[2] = v.z[2], v3[2] = v.z[3];
}

// Normal force, tangential stiffness and tangential damping of a touching contact from its constants
// (contact_law.hpp; k_t and gamma_t grow with d^{1/2} and d^{1/4} for the Hertz laws). T is double or a
// lane vector; `d` must be >= 0.
template <class T>
struct NormalTerms {
  T fn, kt, gamma_t;
};
template <SdemNormalLaw law, class T>
[[gnu::always_inline]] inline NormalTerms<T> normal_terms(const T& kn, const T& damp_n, const T& kt0, const T& damp_t, const T& d, const T& rate) {
  NormalTerms<T> t;
  if constexpr (law == SdemNormalLaw::linear) {
    t.fn = kn * d + damp_n * rate;
    t.kt = kt0;
    t.gamma_t = damp_t;
  } else {
    const T sqrt_d = sqrt(d);
    const T quarter_d = sqrt(sqrt_d);
    if constexpr (law == SdemNormalLaw::hertz)
      t.fn = kn * d * sqrt_d + damp_n * quarter_d * rate;
    else
      t.fn = kn * sqrt_d * (d + damp_n * rate);
    t.kt = kt0 * sqrt_d;
    t.gamma_t = damp_t * quarter_d;
  }
  t.fn = max(t.fn, T{});
  return t;
}
template <SdemNormalLaw law>
inline NormalTerms<double> normal_terms(const SdemPairConstants& k, double d, double rate) {
  return normal_terms<law, double>(k.kn, k.damp_n, k.kt0, k.damp_t, d, rate);
}

// Rolling- and twisting-resistance torque on a (contact_law.hpp); out of line, the common case has neither.
// Both springs are k = kr_factor k_t R*^2 with damping 2 zeta_r sqrt(I k) (one setting for the two).
// Their springs are the contact's `m` (World::model_history().springs).
[[gnu::noinline]] inline Vec3 rolling_torque_of(const ParticleStore& p, const SdemPairCoefficients& k, const Contact& c,
                                                SpringHistory& m, const Vec3& w_rel, double kt, double fn, double dt) {
  const Vec3& n = c.normal;
  const double r_eff = c.effective_radius;
  const double kr = k.kr_factor * kt * r_eff * r_eff;
  const bool wall = c.is_wall();
  Vec3 tau = Vec3::Zero();
  if (k.rolling_friction > 0) {
    const Vec3 w_roll = w_rel - w_rel.dot(n) * n;
    // Rolling inertia: 1 / sum 1/(I + m r^2) over the free bodies (inertia about the contact point).
    auto inv_contact_inertia = [&](int i) {
      return p.inv_inertia[i] == 0 ? 0.0 : 1.0 / (p.inertia[i] + p.mass[i] * p.radius[i] * p.radius[i]);
    };
    const double inv_i_r = inv_contact_inertia(c.a) + (wall ? 0.0 : inv_contact_inertia(c.b));
    tau = rolling_torque(m.rolling_spring, n, w_roll, kr, k.rolling_damping * std::sqrt(kr / inv_i_r),
                         k.rolling_friction * r_eff * fn, dt);
  }
  if (k.twisting_factor > 0) {
    // Twisting inertia: 1 / sum 1/I (the axis, the normal, passes through the centres).
    const double inv_i_t = p.inv_inertia[c.a] + (wall ? 0.0 : p.inv_inertia[c.b]);
    const double gamma = inv_i_t > 0 ? k.rolling_damping * std::sqrt(kr / inv_i_t) : 0.0;
    tau += twisting_torque(m.twisting_spring, w_rel.dot(n), kr, gamma, k.twisting_factor * k.friction * r_eff * fn, dt) * n;
  }
  return tau;
}

inline void no_wrench(Contact& c, ContactWrench& out) {
  c.force.setZero();
  for (BodyWrench& side : out.on) side.force.setZero(), side.torque.setZero();
}
inline void no_wrench(Contact& c, PairWrench& out, double la, double lb) {
  c.force.setZero();
  out = {Vec3::Zero(), la, Vec3::Zero(), lb};
}

/// Scalar pair kernel (see the file comment). The lever arms lie on the normal (p - x_a = -l_a n,
/// p - x_b = l_b n, l = r - d/2), which is also correct across periodic wraps. Returns the
/// rolling-resistance torque on a (zero without rolling resistance); b receives its opposite.
template <SdemNormalLaw law>
Vec3 pair_wrench(const ParticleStore& p, const CollisionSettings& cs, const SdemPairConstants& k,
                 const SdemPairCoefficients* table, double dt, Contact& c, Vec3& tangential_spring, ModelHistory* model,
                 std::size_t index, PairWrench& out) {
  // Plain scalar vectors (S3), and every load before the first store to the contact: the compiler
  // cannot prove that the contact does not alias the particle arrays and would reload them after each
  // store. The geometry is pair_geometry's, spelled out on S3.
  const int a = c.a, b = c.b;
  const S3 xa(p.position[a]);
  S3 delta = xa - S3(p.position[b]);
  if (cs.any_periodic()) delta = S3(periodic_delta(delta.vec(), cs));
  const double dist = delta.norm();
  const double ra = p.radius[a], rb = p.radius[b];
  const S3 n = dist > 0 ? (1.0 / dist) * delta : S3(0, 0, 1);
  // Members of one rigid body never touch each other (as mask_self_contacts does for the detector).
  const double d = k.same_body ? std::min(ra + rb - dist, 0.0) : ra + rb - dist;
  const double la = ra - 0.5 * d, lb = rb - 0.5 * d;
  auto store_geometry = [&] {
    n.store(c.normal);
    c.overlap = d;
    (xa - la * n).store(c.point);  // R* is set when the candidate is created (constant per pair)
  };
  if (!(d > 0) || !k.movable) {  // separated, or two fixed bodies (nothing moves, no force needed)
    // History is forgotten on separation; a pair that did not touch last step has none (the detector
    // marks new candidates as touching, see rebuild_pairs), and rewriting it every step costs memory traffic.
    if (!(d > 0) && c.overlap > 0) reset_history(c, model, index), tangential_spring.setZero();
    store_geometry();
    no_wrench(c, out, la, lb);
    return Vec3::Zero();
  }
  const S3 wa(p.angular_velocity[a]), wb(p.angular_velocity[b]);
  const S3 v_rel = S3(p.velocity[a]) - S3(p.velocity[b]) - (la * wa + lb * wb).cross(n);
  S3 spring(tangential_spring);
  store_geometry();
  const double vn = v_rel.dot(n);
  const NormalTerms<double> t = normal_terms<law>(k, d, -vn);
  S3 force = t.fn * n + tangential_force(spring, n, v_rel - vn * n, t.kt, t.gamma_t, k.mu * t.fn, dt);
  spring.store(tangential_spring);
  force.store(c.force);
  force.store(out.force);
  n.cross(force).store(out.n_cross_f);
  out.la = la, out.lb = lb;
  return k.rolling ? rolling_torque_of(p, table[k.table], c, model->springs[index], (wa - wb).vec(), t.kt, t.fn, dt)
                   : Vec3::Zero();
}

/// Four records of four doubles from four lane vectors: record i = {r0[i], r1[i], r2[i], r3[i]}.
[[gnu::always_inline]] inline void store_transposed(Lanes r0, Lanes r1, Lanes r2, Lanes r3, double* o0, double* o1,
                                                    double* o2, double* o3) {
  const Lanes t0 = __builtin_shufflevector(r0, r1, 0, 4, 2, 6);  // r0[0] r1[0] r0[2] r1[2]
  const Lanes t1 = __builtin_shufflevector(r0, r1, 1, 5, 3, 7);  // r0[1] r1[1] r0[3] r1[3]
  const Lanes t2 = __builtin_shufflevector(r2, r3, 0, 4, 2, 6);
  const Lanes t3 = __builtin_shufflevector(r2, r3, 1, 5, 3, 7);
  const Lanes c0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5), c1 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  const Lanes c2 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7), c3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
  std::memcpy(o0, &c0, sizeof c0), std::memcpy(o1, &c1, sizeof c1), std::memcpy(o2, &c2, sizeof c2),
      std::memcpy(o3, &c3, sizeof c3);
}
/// Four pair wrenches from lanes (force, n x f, lever arms).
[[gnu::always_inline]] inline void store_wrenches(const L3& f, Lanes la, const L3& nf, Lanes lb, PairWrench* out) {
  auto at = [&](int i, std::size_t offset) { return reinterpret_cast<double*>(&out[i]) + offset; };
  store_transposed(f.x, f.y, f.z, la, at(0, 0), at(1, 0), at(2, 0), at(3, 0));
  store_transposed(nf.x, nf.y, nf.z, lb, at(0, 4), at(1, 4), at(2, 4), at(3, 4));
}

/// Lane kernel body; `plain`: every lane movable and none a same-body pair (the flag masks are constants);
/// `shared`: the constants are rows shared by species pairs (SdemCandidateConstants::row_of).
/// One function of about 100 lines on purpose: it is pair_wrench (contact_law.hpp) written once in lanes,
/// stage for stage in the same order (geometry, history reset, normal force, tangential spring and cone,
/// write-back), so that the two can be read side by side and agree to rounding; its helpers above
/// (transposed loads and stores, lane maths) are already separate.
template <SdemNormalLaw law, bool plain, bool shared>
[[gnu::always_inline]] inline void pair_wrench_lanes_impl(const ParticleStore& p, const CollisionSettings& cs,
                                                          const SdemCandidateConstants& kc, std::size_t k0, double dt,
                                                          const std::int32_t* ab, PairHistory* h, PairWrench* out,
                                                          Vec3* force_out, Contact* records, ModelHistory* model) {
  const int a0 = ab[0], a1 = ab[2], a2 = ab[4], a3 = ab[6];
  const int b0 = ab[1], b1 = ab[3], b2 = ab[5], b3 = ab[7];
  auto particle = [&](const std::vector<Vec3>& v, bool side_a) __attribute__((always_inline)) {
    return side_a ? load_lanes(v[a0], v[a1], v[a2], v[a3]) : load_lanes(v[b0], v[b1], v[b2], v[b3]);
  };
  const std::uint16_t* rows = shared ? kc.row_of.data() + k0 : nullptr;
  auto constant = [&](const std::vector<double>& v) __attribute__((always_inline)) {
    if constexpr (shared) return Lanes{v[rows[0]], v[rows[1]], v[rows[2]], v[rows[3]]};
    Lanes x;
    std::memcpy(&x, &v[k0], sizeof x);
    return x;
  };
  auto flag = [&](SdemCandidateConstants::Flag f) __attribute__((always_inline)) {
    if constexpr (plain) return f == SdemCandidateConstants::movable ? LaneMask{-1, -1, -1, -1} : LaneMask{};
    const std::uint8_t* fl = &kc.flags[k0];
    return LaneMask{-(long long)((fl[0] & f) != 0), -(long long)((fl[1] & f) != 0), -(long long)((fl[2] & f) != 0),
                    -(long long)((fl[3] & f) != 0)};
  };

  const L3 xa = particle(p.position, true);
  L3 delta = xa - particle(p.position, false);
  if (cs.any_periodic()) [[unlikely]] {
    auto wrap = [](Lanes x, double L) {  // as periodic_delta
      for (int i = 0; i < lane_count; ++i) x[i] -= L * std::round(x[i] / L);
      return x;
    };
    if (cs.periodic[0]) delta.x = wrap(delta.x, cs.period(0));
    if (cs.periodic[1]) delta.y = wrap(delta.y, cs.period(1));
    if (cs.periodic[2]) delta.z = wrap(delta.z, cs.period(2));
  }
  const Lanes dist = sqrt(delta.squaredNorm());
  const Lanes ra = constant(kc.radius_a), rb = constant(kc.radius_b);
  const L3 n = select(dist > 0.0, (1.0 / dist) * delta, L3{splat(0), splat(0), splat(1)});
  Lanes d = ra + rb - dist;
  d = select(flag(SdemCandidateConstants::same_body), min(d, splat(0)), d);
  const Lanes la = ra - 0.5 * d, lb = rb - 0.5 * d;
  const Lanes old_overlap{h[0].overlap, h[1].overlap, h[2].overlap, h[3].overlap};
  const LaneMask touching = (d > 0.0) & flag(SdemCandidateConstants::movable);

  // As pair_wrench: forget the history of a pair that touched last step and no longer does.
  const LaneMask separating = ~(d > 0.0) & (old_overlap > 0.0);
  auto forget_separating = [&]() __attribute__((always_inline)) {
    if (any(separating))
      for (int i = 0; i < lane_count; ++i)
        if (separating[i]) reset_history(records[i], model, k0 + std::size_t(i)), h[i].tangential_spring.setZero();
  };
  auto store_overlap = [&]() __attribute__((always_inline)) {
    for (int i = 0; i < lane_count; ++i) h[i].overlap = d[i];
  };
  const L3 zero{splat(0), splat(0), splat(0)};
  if (!any(touching)) {
    forget_separating();
    store_wrenches(zero, la, zero, lb, out);
    store_lanes(zero, force_out[0], force_out[1], force_out[2], force_out[3]);
    store_overlap();
    return;
  }

  const L3 wa = particle(p.angular_velocity, true), wb = particle(p.angular_velocity, false);
  const L3 v_rel = particle(p.velocity, true) - particle(p.velocity, false) - (la * wa + lb * wb).cross(n);
  L3 spring = load_lanes(h[0].tangential_spring, h[1].tangential_spring, h[2].tangential_spring, h[3].tangential_spring);
  const Lanes vn = v_rel.dot(n);
  const Lanes d_touch = max(d, splat(0));  // separated lanes compute a zero force, discarded below
  const NormalTerms<Lanes> t = normal_terms<law, Lanes>(constant(kc.kn), constant(kc.damp_n), constant(kc.kt0),
                                                         constant(kc.damp_t), d_touch, -vn);
  const L3 ut = v_rel - vn * n;
  // tangential_force (contact_law.hpp) with selects: rotate the spring into the tangent plane keeping its
  // length, add the slip, then project the trial force on the Coulomb cone.
  {
    const Lanes len2 = spring.squaredNorm();
    const L3 projected = spring - spring.dot(n) * n;
    const Lanes new2 = projected.squaredNorm();
    const LaneMask rescale = (len2 != 0.0) & (new2 > 0.0);
    const Lanes factor = sqrt(select(rescale, len2 / new2, splat(1)));
    spring = select(len2 != 0.0, select(rescale, factor * projected, projected), spring);
  }
  spring = spring + splat(dt) * ut;
  L3 ft = (-t.kt) * spring - t.gamma_t * ut;
  const Lanes limit = constant(kc.mu) * t.fn;
  const Lanes f2 = ft.squaredNorm();
  const LaneMask sliding = f2 > limit * limit;
  if (any(sliding)) {
    const Lanes scale = select(f2 > 0.0, limit / sqrt(select(f2 > 0.0, f2, splat(1))), splat(0));
    ft = select(sliding, scale * ft, ft);
    const LaneMask stiff = t.kt > 0.0;
    const Lanes kt = select(stiff, t.kt, splat(1));
    spring = select(sliding & stiff, L3{-ft.x / kt, -ft.y / kt, -ft.z / kt},
                    select(sliding, L3{splat(0), splat(0), splat(0)}, spring));
  }
  const L3 force = t.fn * n + ft;

  // Separating lanes first (reset_history clears the spring), then every lane's results, zero where not
  // touching.
  forget_separating();
  store_overlap();
  const L3 kept = select(touching, spring, load_lanes(h[0].tangential_spring, h[1].tangential_spring,
                                                      h[2].tangential_spring, h[3].tangential_spring));
  store_lanes(kept, h[0].tangential_spring, h[1].tangential_spring, h[2].tangential_spring, h[3].tangential_spring);
  const L3 f_out = select(touching, force, zero);
  store_wrenches(f_out, la, n.cross(f_out), lb, out);
  store_lanes(f_out, force_out[0], force_out[1], force_out[2], force_out[3]);
}

/// Lane kernel for candidates k0..k0+3 (see the file comment): particle indices ab[0..7] (a, b of each),
/// history h[0..3], wrench out[0..3], force on a force_out[0..3], records[0..3] (touched only to reset the
/// history on separation) and the list's model history `model` (null when the World keeps none).
/// The caller sends groups with rolling resistance to pair_wrench instead.
template <SdemNormalLaw law>
void pair_wrench_lanes(const ParticleStore& p, const CollisionSettings& cs, const SdemCandidateConstants& kc,
                       std::size_t k0, double dt, const std::int32_t* ab, PairHistory* h, PairWrench* out,
                       Vec3* force_out, Contact* records, ModelHistory* model) {
  std::uint32_t group_flags;
  std::memcpy(&group_flags, &kc.flags[k0], sizeof group_flags);
  const bool plain = group_flags == 0x01010101u * SdemCandidateConstants::movable;
  if (kc.shared_rows) {
    if (plain)
      pair_wrench_lanes_impl<law, true, true>(p, cs, kc, k0, dt, ab, h, out, force_out, records, model);
    else
      pair_wrench_lanes_impl<law, false, true>(p, cs, kc, k0, dt, ab, h, out, force_out, records, model);
  } else if (plain) {
    pair_wrench_lanes_impl<law, true, false>(p, cs, kc, k0, dt, ab, h, out, force_out, records, model);
  } else {
    pair_wrench_lanes_impl<law, false, false>(p, cs, kc, k0, dt, ab, h, out, force_out, records, model);
  }
}

}  // namespace grainlab::sdem
