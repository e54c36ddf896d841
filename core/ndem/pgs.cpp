#include "core/ndem/pgs.hpp"
#include "core/ndem/block_update.hpp"
#include "core/ndem/row_levers.hpp"
#include "core/ndem/row_blocks.hpp"
#include "core/ndem/row_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/buffer_growth.hpp"
#include "core/scheduling_policy.hpp"

namespace grainlab {

std::size_t NdemRows::memory_bytes() const {
  std::size_t total = 0;
  auto add = [&](const auto& v) { total += capacity_bytes(v); };
  add(a), add(b), add(contact);
  for (const auto* v : {&n, &t1, &ra}) add(*v);
  for (const auto* v : {&arm_b, &scale, &overlap, &stiffness, &sigma_n, &q_n, &mu, &mu_roll, &mu_twist, &restitution, &impact_speed})
    add(*v);
  for (int r = 0; r < 6; ++r) add(bias[r]), add(inv_diag[r]), add(lambda[r]);
  return total;
}

void NdemRows::resize(std::size_t m, std::size_t walls, bool angular) {
  if (walls > m) throw std::logic_error("NdemRows::resize: more wall contacts than contacts");
  angular_columns = angular;
  first_wall = m - walls;
  for (auto* v : {&a, &b}) resize_with_headroom(*v, m);
  resize_with_headroom(contact, m);
  for (auto* v : {&n, &t1, &ra}) resize_with_headroom(*v, m);
  for (auto* v : {&arm_b, &scale, &overlap, &stiffness, &sigma_n, &q_n, &mu, &restitution, &impact_speed}) resize_with_headroom(*v, m);
  const std::size_t angular_m = angular ? m : 0;
  for (auto* v : {&mu_roll, &mu_twist}) resize_with_headroom(*v, angular_m);
  for (int r = 0; r < 6; ++r) {
    const std::size_t rows = r < 3 ? m : angular_m;
    const std::size_t wall_rows = r < 3 || angular ? walls : 0;
    reserve_with_headroom(bias[r], wall_rows);
    bias[r].assign(wall_rows, 0.0);
    reserve_with_headroom(inv_diag[r], rows);
    inv_diag[r].assign(rows, 0.0);
    resize_with_headroom(lambda[r], rows);
  }
  if (!angular)
    for (auto* v : {&mu_roll, &mu_twist, &bias[3], &bias[4], &bias[5], &inv_diag[3], &inv_diag[4], &inv_diag[5],
                    &lambda[3], &lambda[4], &lambda[5]})
      v->shrink_to_fit();
}

namespace {

// Geometry of one row of contact c: direction and lever-arm cross products (rows 0-2 linear, 3-5
// angular: no levers).
struct RowGeom {
  Vec3 d, ca, cb;
  bool angular;
};

inline RowGeom geom(const NdemRows& R, std::size_t c, int r) {
  switch (r) {
    case 0: return {R.n[c], ndem_rows::lever_a(R.ra[c], R.n[c]), ndem_rows::lever_b(R.rb_of(c), R.n[c]), false};
    case 1: return {R.t1[c], ndem_rows::lever_a(R.ra[c], R.t1[c]), ndem_rows::lever_b(R.rb_of(c), R.t1[c]), false};
    case 2: {
      const Vec3 t2 = R.t2_of(c);
      return {t2, ndem_rows::lever_a(R.ra[c], t2), ndem_rows::lever_b_t2(R.rb_of(c), R.n[c], R.t1[c], t2), false};
    }
    case 3: return {R.t1[c], {}, {}, true};
    case 4: return {R.t2_of(c), {}, {}, true};
    default: return {R.n[c], {}, {}, true};
  }
}

// Unscaled G v of row r (separation-rate sign), including the wall's known motion.
inline double row_velocity(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  double u = R.bias_of(r, c);
  if (g.angular) {
    u += g.d.dot(B.w[a]);
    if (b >= 0) u -= g.d.dot(B.w[b]);
  } else {
    u += g.d.dot(B.v[a]) + g.ca.dot(B.w[a]);
    if (b >= 0) u -= g.d.dot(B.v[b]) + g.cb.dot(B.w[b]);
  }
  return u;
}

// v += M^{-1} G_r^T (scale * dl), to body a and (a particle) body b, or to one of them only.
inline void apply_row(const NdemRows& R, NdemBodies& B, std::size_t c, int r, double scaled_dl, bool to_a, bool to_b) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  to_b = to_b && b >= 0;
  if (g.angular) {
    if (to_a) B.w[a] += (B.inv_inertia[a] * scaled_dl) * g.d;
    if (to_b) B.w[b] -= (B.inv_inertia[b] * scaled_dl) * g.d;
  } else {
    if (to_a) {
      B.v[a] += (B.inv_mass[a] * scaled_dl) * g.d;
      B.w[a] += (B.inv_inertia[a] * scaled_dl) * g.ca;
    }
    if (to_b) {
      B.v[b] -= (B.inv_mass[b] * scaled_dl) * g.d;
      B.w[b] -= (B.inv_inertia[b] * scaled_dl) * g.cb;
    }
  }
}

// G_r M^{-1} G_r^T for the unscaled row.
inline double row_mass(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  double k;
  if (g.angular) {
    k = B.inv_inertia[a] * g.d.squaredNorm();
    if (b >= 0) k += B.inv_inertia[b] * g.d.squaredNorm();
  } else {
    k = B.inv_mass[a] * g.d.squaredNorm() + B.inv_inertia[a] * g.ca.squaredNorm();
    if (b >= 0) k += B.inv_mass[b] * g.d.squaredNorm() + B.inv_inertia[b] * g.cb.squaredNorm();
  }
  return k;
}

using ndem_rows::Accum;
using ndem_rows::LaneSums;
using ndem_rows::block_update;
using ndem_rows::V4;
using ndem_rows::vsplat;


constexpr std::size_t pgs_chunk = policy::pgs_chunk;

// ---- Packed sweep (issue 8, Performance) --------------------------------------------------------------
// The sweep does not read NdemRows directly: solve_* first copies, in SWEEP order (contact order for the
// serial sweep, colour order for the coloured one), what a block update reads into compact records, and the
// body velocities and inverse masses into one 64-byte record per body (PgsBody). Two record kinds:
//
//  * SphereContact<NR> (NR = 3 or 6 rows): a contact of two particles whose contact point lies on the line
//    of centres, p - x_a = -l_a n and p - x_b = +l_b n (core/collision.cpp puts it there; NdemStepper::setup
//    builds the b lever arm that way). Then the normal row has no angular part and the lever-arm products
//    are (p - x_a) x t1 = -l_a t2, (p - x_a) x t2 = l_a t1, (p - x_b) x t1 = l_b t2, (p - x_b) x t2 = -l_b t1,
//    so the record holds the frame n, t1, t2 and two scalars instead of nine vectors. The block update works
//    in contact-local components: with dv = v_a - v_b, dw = w_a - w_b and W = l_a w_a + l_b w_b, the rows'
//    separation rates are u_n = n.dv, u_t1 = t1.dv - t2.W, u_t2 = t2.dv + t1.W, u_r1 = t1.dw, u_r2 = t2.dw,
//    u_tw = n.dw. An impulse P on a row changes these components by constants of the contact
//    (m = 1/m_a + 1/m_b, I = l_a^2/I_a + l_b^2/I_b, J = l_a/I_a - l_b/I_b, K = 1/I_a + 1/I_b; derivation in
//    docs/performance_ndem.md), so the rows are swept one after another exactly as Gauss-Seidel requires, and
//    the two bodies are written once per contact: v_a += F/m_a, v_b -= F/m_b, w_a += (l_a L + T)/I_a,
//    w_b += (l_b L - T)/I_b with F = P_n n + P_1 t1 + P_2 t2, L = P_2 t1 - P_1 t2, T = P_r1 t1 + P_r2 t2 + P_tw n.
//  * GeneralContact<NR>: everything else (wall contacts with their known wall velocity `bias` and a contact
//    point anywhere; particle pairs whose point is off the line of centres): the full nine direction and
//    lever-arm vectors, one row at a time on the bodies' velocities (the kernel of the first packed version).
//
// Both keep omega D^{-1} per row (omega is fixed during a solve) and the multipliers in the record. The
// sweep walks "chunks": runs of one record kind, in sweep order; a serial sweep keeps the contact order
// exactly (runs of sphere and general records alternate as they come); inside a colour, where the order
// does not matter, the sphere records come first. Multipliers and velocities are copied back after the
// solve (and the multipliers before each after_iteration callback, which may read rows.lambda).
struct alignas(32) PgsBody {  // aligned: the wide kernel loads and stores it as two four-double vectors
  Vec3 v, w;
  double inv_mass, inv_inertia;
};
static_assert(sizeof(PgsBody) == 64 && offsetof(PgsBody, w) == 24 && offsetof(PgsBody, inv_mass) == 48 &&
              offsetof(PgsBody, inv_inertia) == 56);  // sphere_sweep reads a body as double[8]

template <int NR>
struct SphereContact {
  std::int32_t a, b;
  double la, lb;                    // lever arms: p - x_a = -la n, p - x_b = lb n
  double s;                         // normal scale (continuous stage) or 1 (impact stage)
  double q;                         // normal rhs: continuous q_n; impact: target separation rate
  double sigma;                     // Sigma_n (impact stage: 0)
  double bound[NR == 6 ? 3 : 1];    // mu, mu_r r*, alpha mu r* (bounds per unit physical normal impulse)
  double oid[NR];                   // omega D^{-1} per row
  double lambda[NR];
  Vec3 n, t1, t2;
};

template <int NR>
struct GeneralContact {
  std::int32_t a, b;  // b = -1: kinematic (wall)
  double s, q, sigma;
  double bound[NR == 6 ? 3 : 1];
  double bias[NR], oid[NR], lambda[NR];
  Vec3 n, t1, t2, ca_n, ca_t1, ca_t2, cb_n, cb_t1, cb_t2;
};

// Contact-local state of a sphere record (see the comment above "PgsBody"), for one contact (T = double)
// or four of a colour (T = V4). The rolling components (t1.dw, t2.dw, n.dw with the friction impulses'
// effect J P) are formed only when the rolling rows start, which keeps them out of registers during the
// normal and friction rows.
template <int NR, class T>
struct SphereState {
  const T* A;                            // body records as [8]: v, w, 1/m, 1/I
  const T* B;
  const T *n, *t1, *t2;                  // contact frame (in the record)
  T la, lb;
  T un, v1, v2, W1, W2;                  // n.dv, t1.dv, t2.dv, t1.W, t2.W
  T r1{}, r2{}, r3{};                    // t1.dw, t2.dw, n.dw (rolling rows only)
  T m, I, K{};
  T P[6]{};                              // impulses applied per row (normal: scaled)
  void begin_rolling() {
    const T dw[3] = {A[3] - B[3], A[4] - B[4], A[5] - B[5]};
    const T J = la * A[7] - lb * B[7];
    K = A[7] + B[7];
    r1 = (t1[0] * dw[0] + t1[1] * dw[1] + t1[2] * dw[2]) + J * P[2];
    r2 = (t2[0] * dw[0] + t2[1] * dw[1] + t2[2] * dw[2]) - J * P[1];
    r3 = n[0] * dw[0] + n[1] * dw[1] + n[2] * dw[2];
  }
  template <int r>
  T u() const {
    if constexpr (r == 0) return un;
    else if constexpr (r == 1) return v1 - W2;
    else if constexpr (r == 2) return v2 + W1;
    else if constexpr (r == 3) return r1;
    else if constexpr (r == 4) return r2;
    else return r3;
  }
  template <int r>
  void ap(T p) {
    P[r] = p;
    if constexpr (r == 0) {
      un += m * p;
    } else if constexpr (r == 1) {
      v1 += m * p;
      W2 -= I * p;
    } else if constexpr (r == 2) {
      v2 += m * p;
      W1 += I * p;
    } else if constexpr (r == 3) {
      r1 += K * p;  // (W1 += J p: no later row reads W)
    } else if constexpr (r == 4) {
      r2 += K * p;
    } else {
      r3 += K * p;
    }
  }
};

// Plain scalar code (no Eigen expressions): GCC's inliner otherwise leaves some 3-vector updates as calls
// in this loop depending on unrelated code around it.
template <class T>
struct D3 {
  T x, y, z;
};
template <class T>
inline D3<T> load3(const T* v) {
  return {v[0], v[1], v[2]};
}
template <class T>
inline T dot3(const D3<T>& a, const D3<T>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline const double* components(const Vec3& v) { return v.data(); }
inline const V4* components(const V4 (&v)[3]) { return v; }

// One sphere record's block update (a SphereContact, or four of them as a WideSphere) on the bodies A and B
// (records as [8]: v, w, 1/m, 1/I; for four contacts, their lanes): the contact-local state, block_update,
// and the impulses written to both bodies once.
template <int NR, bool Residual, class T, class Record, class Sums>
[[gnu::always_inline]] inline void sphere_block(Record& C, T* const A, T* const B, T sigma_t, T sigma_r, bool cone,
                                                Sums& acc) {
  const T la = C.la, lb = C.lb;
  const D3<T> n = load3(components(C.n)), t1 = load3(components(C.t1)), t2 = load3(components(C.t2));
  const D3<T> dv{A[0] - B[0], A[1] - B[1], A[2] - B[2]};
  const D3<T> W{la * A[3] + lb * B[3], la * A[4] + lb * B[4], la * A[5] + lb * B[5]};
  SphereState<NR, T> st;
  st.A = A;
  st.B = B;
  st.n = components(C.n);
  st.t1 = components(C.t1);
  st.t2 = components(C.t2);
  st.la = la;
  st.lb = lb;
  st.m = A[6] + B[6];
  st.I = la * la * A[7] + lb * lb * B[7];
  st.un = dot3(n, dv);
  st.v1 = dot3(t1, dv);
  st.v2 = dot3(t2, dv);
  st.W1 = dot3(t1, W);
  st.W2 = dot3(t2, W);
  block_update<NR, Residual>(st, C.lambda, C.oid, C.bound, C.s, C.q, C.sigma, sigma_t, sigma_r, cone, acc);
  const T pn = st.P[0], p1 = st.P[1], p2 = st.P[2];
  const D3<T> F{pn * n.x + p1 * t1.x + p2 * t2.x, pn * n.y + p1 * t1.y + p2 * t2.y, pn * n.z + p1 * t1.z + p2 * t2.z};
  const D3<T> L{p2 * t1.x - p1 * t2.x, p2 * t1.y - p1 * t2.y, p2 * t1.z - p1 * t2.z};
  const T ma = A[6], mb = B[6];
  A[0] += ma * F.x;
  A[1] += ma * F.y;
  A[2] += ma * F.z;
  B[0] -= mb * F.x;
  B[1] -= mb * F.y;
  B[2] -= mb * F.z;
  if constexpr (NR == 6) {
    const T r1 = st.P[3], r2 = st.P[4], tw = st.P[5];
    const D3<T> T_{r1 * t1.x + r2 * t2.x + tw * n.x, r1 * t1.y + r2 * t2.y + tw * n.y, r1 * t1.z + r2 * t2.z + tw * n.z};
    const T ia = A[7], ib = B[7];
    A[3] += ia * (la * L.x + T_.x);
    A[4] += ia * (la * L.y + T_.y);
    A[5] += ia * (la * L.z + T_.z);
    B[3] += ib * (lb * L.x - T_.x);
    B[4] += ib * (lb * L.y - T_.y);
    B[5] += ib * (lb * L.z - T_.z);
  } else {
    const T ia = A[7] * la, ib = B[7] * lb;
    A[3] += ia * L.x;
    A[4] += ia * L.y;
    A[5] += ia * L.z;
    B[3] += ib * L.x;
    B[4] += ib * L.y;
    B[5] += ib * L.z;
  }
}

// Residual sums continue from `acc`.
template <int NR, bool Residual>
Accum sphere_sweep(SphereContact<NR>* Cs, std::size_t count, PgsBody* Bodies, double sigma_t, double sigma_r,
                   bool cone, Accum acc = {}) {
  for (std::size_t k = 0; k < count; ++k) {
    SphereContact<NR>& C = Cs[k];
    sphere_block<NR, Residual>(C, Bodies[C.a].v.data(), Bodies[C.b].v.data(), sigma_t, sigma_r, cone, acc);
  }
  return acc;
}

// Contacts of one colour four at a time (Box2D v3's wide layout): the same sphere_block as sphere_sweep on
// four lanes. A coloured solve packs the records of a colour chunk four at a time into a WideSphere (each
// field one four-lane vector, so it loads without shuffles) and only its last 1-3 records as sphere records,
// which take the scalar loop; the bodies are gathered and scattered by 4 x 4 transposes of their 64-byte
// records. Only for contacts that share no body (a colour chunk). Residual sums are added lane by lane, in
// record order, as the scalar loop adds them. Deterministic: which loop runs never depends on the thread
// count. The last bits may differ from the scalar loop's (GCC contracts to FMA differently in the two).

// 4 x 4 transpose: r[l][i] becomes r[i][l].
[[gnu::always_inline]] inline void transpose4(V4* r) {
  typedef long long M4 __attribute__((vector_size(32)));
  const V4 t0 = __builtin_shuffle(r[0], r[1], M4{0, 4, 2, 6}), t1 = __builtin_shuffle(r[0], r[1], M4{1, 5, 3, 7});
  const V4 t2 = __builtin_shuffle(r[2], r[3], M4{0, 4, 2, 6}), t3 = __builtin_shuffle(r[2], r[3], M4{1, 5, 3, 7});
  r[0] = __builtin_shuffle(t0, t2, M4{0, 1, 4, 5});
  r[1] = __builtin_shuffle(t1, t3, M4{0, 1, 4, 5});
  r[2] = __builtin_shuffle(t0, t2, M4{2, 3, 6, 7});
  r[3] = __builtin_shuffle(t1, t3, M4{2, 3, 6, 7});
}
// f[i][l] = body l's double i (v, w, 1/m, 1/I), and back.
[[gnu::always_inline]] inline void load_bodies(double* const* p, V4* f) {
  for (int half = 0; half < 2; ++half) {
    for (int l = 0; l < 4; ++l) f[4 * half + l] = *static_cast<const V4*>(__builtin_assume_aligned(p[l] + 4 * half, 32));
    transpose4(f + 4 * half);
  }
}
[[gnu::always_inline]] inline void store_bodies(double* const* p, V4* f) {
  for (int half = 0; half < 2; ++half) {
    transpose4(f + 4 * half);
    for (int l = 0; l < 4; ++l) *static_cast<V4*>(__builtin_assume_aligned(p[l] + 4 * half, 32)) = f[4 * half + l];
  }
}

template <int NR>
struct WideSphere {  // four sphere records, field by field: lane l is record l
  std::int32_t a[4], b[4];
  V4 la, lb, s, q, sigma;
  V4 bound[NR == 6 ? 3 : 1];
  V4 oid[NR], lambda[NR];
  V4 n[3], t1[3], t2[3];
};

template <int NR>
WideSphere<NR> widen(const SphereContact<NR>* C) {
  WideSphere<NR> W;
  for (int l = 0; l < 4; ++l) {
    W.a[l] = C[l].a, W.b[l] = C[l].b;
    W.la[l] = C[l].la, W.lb[l] = C[l].lb, W.s[l] = C[l].s, W.q[l] = C[l].q, W.sigma[l] = C[l].sigma;
    for (int i = 0; i < (NR == 6 ? 3 : 1); ++i) W.bound[i][l] = C[l].bound[i];
    for (int r = 0; r < NR; ++r) W.oid[r][l] = C[l].oid[r], W.lambda[r][l] = C[l].lambda[r];
    for (int i = 0; i < 3; ++i) W.n[i][l] = C[l].n[i], W.t1[i][l] = C[l].t1[i], W.t2[i][l] = C[l].t2[i];
  }
  return W;
}

template <int NR, bool cone, bool Residual>  // cone a constant: the box kernel carries no projection code (registers)
Accum sphere_sweep_wide(WideSphere<NR>* Ws, std::size_t count, PgsBody* Bodies, double sigma_t, double sigma_r) {
  const V4 sig_t = vsplat(sigma_t), sig_r = vsplat(sigma_r);
  Accum acc;
  for (std::size_t k = 0; k < count; ++k) {
    WideSphere<NR>& W = Ws[k];
    double* A[4];
    double* B[4];
    for (int l = 0; l < 4; ++l) {
      A[l] = Bodies[W.a[l]].v.data();
      B[l] = Bodies[W.b[l]].v.data();
    }
    V4 av[8], bv[8];  // all body values loaded first: the lambda stores may alias the records as far as the
    load_bodies(A, av);  // compiler knows
    load_bodies(B, bv);
    LaneSums lanes;
    sphere_block<NR, Residual>(W, av, bv, sig_t, sig_r, cone, lanes);
    store_bodies(A, av);
    store_bodies(B, bv);
    if constexpr (Residual) ndem_rows::add_lanes(acc, lanes);
  }
  return acc;
}

// Two bodies held in registers during a general contact's block update (b < 0: kinematic, no body).
template <int NR>
struct GeneralState {
  const GeneralContact<NR>& C;
  Vec3 va, wa, vb, wb;
  double ima, iIa, imb, iIb;
  bool has_b;
  void begin_rolling() {}
  GeneralState(const GeneralContact<NR>& c, const PgsBody* B)
      : C(c), va(B[c.a].v), wa(B[c.a].w), vb(c.b >= 0 ? B[c.b].v : Vec3::Zero()), wb(c.b >= 0 ? B[c.b].w : Vec3::Zero()),
        ima(B[c.a].inv_mass), iIa(B[c.a].inv_inertia), imb(c.b >= 0 ? B[c.b].inv_mass : 0.0),
        iIb(c.b >= 0 ? B[c.b].inv_inertia : 0.0), has_b(c.b >= 0) {}
  void store(PgsBody* B) const {
    B[C.a].v = va;
    B[C.a].w = wa;
    if (has_b) {
      B[C.b].v = vb;
      B[C.b].w = wb;
    }
  }
  template <int r>
  const Vec3& d() const {
    if constexpr (r == 0 || r == 5) return C.n;
    else if constexpr (r == 1 || r == 3) return C.t1;
    else return C.t2;
  }
  template <int r>
  const Vec3& ca() const {
    if constexpr (r == 0) return C.ca_n;
    else if constexpr (r == 1) return C.ca_t1;
    else return C.ca_t2;
  }
  template <int r>
  const Vec3& cb() const {
    if constexpr (r == 0) return C.cb_n;
    else if constexpr (r == 1) return C.cb_t1;
    else return C.cb_t2;
  }
  template <int r>
  double u() const {
    double u = C.bias[r];
    if constexpr (r < 3) {
      u += d<r>().dot(va) + ca<r>().dot(wa);
      if (has_b) u -= d<r>().dot(vb) + cb<r>().dot(wb);
    } else {
      u += d<r>().dot(wa);
      if (has_b) u -= d<r>().dot(wb);
    }
    return u;
  }
  template <int r>
  void ap(double p) {
    if constexpr (r < 3) {
      va += (ima * p) * d<r>();
      wa += (iIa * p) * ca<r>();
      if (has_b) {
        vb -= (imb * p) * d<r>();
        wb -= (iIb * p) * cb<r>();
      }
    } else {
      wa += (iIa * p) * d<r>();
      if (has_b) wb -= (iIb * p) * d<r>();
    }
  }
};

template <int NR, bool Residual>
Accum general_sweep(GeneralContact<NR>* Cs, std::size_t count, PgsBody* Bodies, double sigma_t, double sigma_r,
                    bool cone) {
  Accum acc;
  for (std::size_t k = 0; k < count; ++k) {
    GeneralContact<NR>& C = Cs[k];
    GeneralState<NR> st(C, Bodies);
    block_update<NR, Residual>(st, C.lambda, C.oid, C.bound, C.s, C.q, C.sigma, sigma_t, sigma_r, cone, acc);
    st.store(Bodies);
  }
  return acc;
}

// A run of records of one kind, in sweep order: `quads` x 4 records in PgsScratch::wide from [wide] (a colour
// chunk of sphere records in a coloured solve), then [begin, end) of the sphere or the general records.
struct SweepChunk {
  bool sphere;
  bool independent;  // no two records share a body (a colour chunk)
  std::size_t begin, end;
  std::size_t wide = 0, quads = 0;
};
// A group of chunks: a colour (chunks independent: run in parallel) or a serial sweep / the overflow set.
struct SweepGroup {
  std::size_t first, last;  // chunks [first, last)
  bool serial;
};

template <int NR>
struct PgsScratch {
  std::vector<SphereContact<NR>> sphere;
  std::vector<GeneralContact<NR>> general;
  std::vector<std::uint32_t> sphere_src, general_src, wide_src;  // contact index of each record (wide: lane by lane)
  std::vector<SweepChunk> chunks;
  std::vector<SweepGroup> groups;
  std::vector<PgsBody> bodies;
  std::vector<char> kind;                     // per contact: 1 = sphere record
  std::vector<WideSphere<NR>> wide;           // the colour chunks' sphere records in fours (SweepChunk::quads)
  bool busy = false;  // a solve on this thread uses it (a nested solve takes a fresh one)

  std::size_t memory_bytes() const {
    return capacity_bytes(sphere) + capacity_bytes(general) + capacity_bytes(sphere_src) + capacity_bytes(general_src) +
           capacity_bytes(wide_src) +
           capacity_bytes(chunks) + capacity_bytes(groups) + capacity_bytes(bodies) + capacity_bytes(kind) +
           capacity_bytes(wide);
  }
};

// The calling thread's scratch, kept between solves (see solve's comment on why).
template <int NR>
PgsScratch<NR>& thread_scratch() {
  static thread_local PgsScratch<NR> scratch;
  return scratch;
}

// The lever lengths l_a, l_b of a sphere record for contact c: l_a = -(p - x_a).n read back as
// ((p - x_a) x t2).t1, l_b = (p - x_b).n as -((p - x_b) x t2).t1.
inline std::array<double, 2> sphere_arms(const NdemRows& R, std::size_t c) {
  const Vec3 t2 = R.t2_of(c);
  return {ndem_rows::lever_a(R.ra[c], t2).dot(R.t1[c]), -ndem_rows::lever_b_t2(R.rb_of(c), R.n[c], R.t1[c], t2).dot(R.t1[c])};
}

// The sphere record is valid for contact c when it joins two particles (no wall velocity) and its
// contact point is on the line of centres: (p - x_a) x n = 0 up to rounding (relative 1e-8 of the lever
// arm; positions 1e6 lever arms away from the origin round at ~1e-10).
inline bool sphere_record(const NdemRows& R, std::size_t c) {
  if (R.b[c] < 0) return false;
  const auto [la, lb] = sphere_arms(R, c);
  return ndem_rows::lever_a(R.ra[c], R.n[c]).norm() <= 1e-8 * std::abs(la) &&
         ndem_rows::lever_b(R.rb_of(c), R.n[c]).norm() <= 1e-8 * std::abs(lb);
}

// The fields both record kinds share, for contact c: bodies, the stage's normal scale, right-hand side q
// and compliance sigma, bounds, omega D^{-1}, multipliers L, frame.
template <int NR, class Record>
void fill_shared(const NdemRows& R, std::size_t c, const std::array<std::vector<double>, 6>& L,
                 const std::array<std::vector<double>, 6>& inv_diag, double scale, double q, double sigma, double omega,
                 Record& C) {
  C.a = R.a[c];
  C.b = R.b[c];
  C.s = scale;
  C.q = q;
  C.sigma = sigma;
  const double bnd[3] = {R.mu[c], NR == 6 ? R.mu_roll[c] : 0.0, NR == 6 ? R.mu_twist[c] : 0.0};
  for (int r = 0; r < (NR == 6 ? 3 : 1); ++r) C.bound[r] = bnd[r];
  for (int r = 0; r < NR; ++r) {
    C.oid[r] = omega * inv_diag[r][c];
    C.lambda[r] = L[r][c];
  }
  C.n = R.n[c];
  C.t1 = R.t1[c];
  C.t2 = R.t2_of(c);
}

// A general record adds the wall bias and the nine lever-arm products.
template <int NR>
void fill_general_levers(const NdemRows& R, std::size_t c, GeneralContact<NR>& C) {
  for (int r = 0; r < NR; ++r) C.bias[r] = R.bias_of(r, c);
  const ndem_rows::Levers la = ndem_rows::levers_a(R.ra[c], R.n[c], R.t1[c], C.t2);
  C.ca_n = la.n;
  C.ca_t1 = la.t1;
  C.ca_t2 = la.t2;
  if (R.b[c] >= 0) {
    const ndem_rows::Levers lb = ndem_rows::levers_b(R.rb_of(c), R.n[c], R.t1[c], C.t2);
    C.cb_n = lb.n;
    C.cb_t1 = lb.t1;
    C.cb_t2 = lb.t2;
  } else {
    C.cb_n = C.cb_t1 = C.cb_t2 = Vec3::Zero();
  }
}

// Moves the records of each colour chunk of sphere records, four at a time, from sphere_src to wide_src
// (SweepChunk::quads); the chunks' last 1-3 records and all other chunks' stay, and the chunks' ranges follow.
// Serial, but over 4-byte indices only.
template <int NR>
void split_quads(PgsScratch<NR>& X) {
  reserve_with_headroom(X.wide_src, X.sphere_src.size());
  std::size_t kept = 0;  // sphere chunks are in increasing, contiguous ranges: compacted in place
  for (SweepChunk& ch : X.chunks) {
    if (!ch.sphere) continue;
    std::size_t i = ch.begin;
    if (ch.independent) {
      ch.wide = X.wide_src.size() / 4;
      ch.quads = (ch.end - ch.begin) / 4;
      X.wide_src.insert(X.wide_src.end(), X.sphere_src.begin() + std::ptrdiff_t(i),
                        X.sphere_src.begin() + std::ptrdiff_t(i + 4 * ch.quads));
      i += 4 * ch.quads;
    }
    ch.begin = kept;
    for (; i < ch.end; ++i) X.sphere_src[kept++] = X.sphere_src[i];
    ch.end = kept;
  }
  X.sphere_src.resize(kept);
}

// Packs rows (sweep order: `order`, or contact order when null) and bodies; `L`, `inv_diag`, `scale`
// select the stage's arrays, `q(c)` / `sigma(c)` its normal right-hand side and compliance.
template <int NR, class Q, class S>
void pack(const NdemRows& R, const std::array<std::vector<double>, 6>& L, const std::array<std::vector<double>, 6>& inv_diag,
          const std::vector<double>& scale, const Q& q, const S& sigma, double omega, const NdemColouring* colouring,
          bool general_only, PgsScratch<NR>& X) {
  const std::size_t m = R.size();
  X.sphere_src.clear();
  X.general_src.clear();
  X.wide_src.clear();
  X.chunks.clear();
  X.groups.clear();
  // Record kind per contact (sphere record or general record), decided once.
  resize_with_headroom(X.kind, m);
  ndem_rows::for_each_in_blocks(m, [&](std::size_t c) { X.kind[c] = !general_only && sphere_record(R, c); });
  std::size_t spheres = 0;
  for (std::size_t c = 0; c < m; ++c) spheres += std::size_t(X.kind[c]);
  // The scratch lives on between solves: reserved to the counts, not grown by doubling (the sphere and
  // four-lane records once split_quads has divided them).
  reserve_with_headroom(X.sphere_src, spheres);
  reserve_with_headroom(X.general, m - spheres);
  reserve_with_headroom(X.general_src, m - spheres);
  // The sweep order first: each record's contact (sphere_src, general_src) and the chunks; the records
  // are filled after it, in parallel.
  auto add = [&](std::size_t c) {  // appends contact c's record slot; returns whether it is a sphere record
    const bool sphere = X.kind[c];
    (sphere ? X.sphere_src : X.general_src).push_back(std::uint32_t(c));
    return sphere;
  };
  // Appends the current tail of one record kind as chunks of at most `size` records.
  auto close_run = [&](bool sphere, std::size_t begin, std::size_t size, bool independent) {
    const std::size_t end = sphere ? X.sphere_src.size() : X.general_src.size();
    for (std::size_t b = begin; b < end; b += std::min(size, end - b))
      X.chunks.push_back({sphere, independent, b, b + std::min(size, end - b)});
  };
  auto serial_group = [&](const std::uint32_t* ids, std::size_t count) {
    const std::size_t first = X.chunks.size();
    std::size_t k = 0;
    while (k < count) {  // maximal runs of one kind, in order
      const std::size_t s0 = X.sphere_src.size(), g0 = X.general_src.size();
      const bool kind = add(ids ? ids[k] : k);
      ++k;
      for (; k < count; ++k) {
        const std::size_t c = ids ? ids[k] : k;
        if (bool(X.kind[c]) != kind) break;
        add(c);
      }
      close_run(kind, kind ? s0 : g0, std::size_t(-1), false);
    }
    X.groups.push_back({first, X.chunks.size(), true});
  };
  if (!colouring) {
    serial_group(nullptr, m);
  } else {
    const NdemColouring& col = *colouring;
    for (std::size_t g = 0; g + 1 < col.start.size(); ++g) {
      const std::size_t begin = col.start[g], end = col.start[g + 1];
      if (begin == end) continue;
      if (g + 2 == col.start.size()) {  // last group: the overflow set, serial
        serial_group(col.order.data() + begin, end - begin);
        continue;
      }
      const std::size_t first = X.chunks.size();
      const std::size_t s0 = X.sphere_src.size(), g0 = X.general_src.size();
      for (std::size_t k = begin; k < end; ++k)
        if (X.kind[col.order[k]]) add(col.order[k]);
      for (std::size_t k = begin; k < end; ++k)
        if (!X.kind[col.order[k]]) add(col.order[k]);
      close_run(true, s0, pgs_chunk, true);
      close_run(false, g0, pgs_chunk, true);
      X.groups.push_back({first, X.chunks.size(), false});
    }
  }
  if (colouring) split_quads(X);
  // Not cleared first: the fills below write every field of every record (a zeroing pass would be serial;
  // tests/ndem/pgs_kernel_test.cpp checks a solve on reused records against one on fresh ones).
  resize_with_headroom(X.sphere, X.sphere_src.size());
  X.general.resize(X.general_src.size());
  resize_with_headroom(X.wide, X.wide_src.size() / 4);
  auto fill_sphere = [&](std::size_t c, SphereContact<NR>& C) {
    fill_shared<NR>(R, c, L, inv_diag, scale[c], q(c), sigma(c), omega, C);
    const auto [la, lb] = sphere_arms(R, c);  // a sphere record: the lever lengths instead of the products
    C.la = la;
    C.lb = lb;
  };
  ndem_rows::for_each_in_blocks(X.sphere.size(), [&](std::size_t k) { fill_sphere(X.sphere_src[k], X.sphere[k]); });
  ndem_rows::for_each_in_blocks(X.wide.size(), [&](std::size_t w) {
    SphereContact<NR> four[4];
    for (std::size_t l = 0; l < 4; ++l) fill_sphere(X.wide_src[4 * w + l], four[l]);
    X.wide[w] = widen(four);
  });
  ndem_rows::for_each_in_blocks(X.general.size(), [&](std::size_t k) {
    const std::size_t c = X.general_src[k];
    fill_shared<NR>(R, c, L, inv_diag, scale[c], q(c), sigma(c), omega, X.general[k]);
    fill_general_levers<NR>(R, c, X.general[k]);
  });
}

// One packed record: a sphere or a general record and its index in that array (random sweep order).
struct RecordRef {
  bool sphere;
  std::size_t index;
};

// Fisher-Yates with the generator's raw output (std::shuffle's use of the generator is left to the
// library), so a seed gives the same permutations with any standard library; the modulo bias is below
// 1e-15 for the sizes swept here.
inline void shuffle_records(std::vector<RecordRef>& slots, std::mt19937_64& rng) {
  for (std::size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[rng() % i]);
}

template <int NR>
void unpack_lambda(const PgsScratch<NR>& X, std::array<std::vector<double>, 6>& L) {
  ndem_rows::for_each_in_blocks(X.sphere.size(), [&](std::size_t k) {
    for (int r = 0; r < NR; ++r) L[r][X.sphere_src[k]] = X.sphere[k].lambda[r];
  });
  ndem_rows::for_each_in_blocks(X.general.size(), [&](std::size_t k) {
    for (int r = 0; r < NR; ++r) L[r][X.general_src[k]] = X.general[k].lambda[r];
  });
  ndem_rows::for_each_in_blocks(X.wide.size(), [&](std::size_t w) {
    for (std::size_t l = 0; l < 4; ++l)
      for (int r = 0; r < NR; ++r) L[r][X.wide_src[4 * w + l]] = X.wide[w].lambda[r][l];
  });
}

// PgsExtraRows' view of the packed body records.
class PackedVelocities final : public PgsVelocities {
 public:
  explicit PackedVelocities(PgsBody* bodies) : bodies_(bodies) {}
  Vec3& v(std::size_t i) override { return bodies_[i].v; }
  Vec3& w(std::size_t i) override { return bodies_[i].w; }

 private:
  PgsBody* bodies_;
};

// One sweep over the packed records (X.bodies updated in place): in a fresh random permutation when
// `slots` holds the records, otherwise the groups in order, the chunks of a colour in parallel (they
// share no body, so in any order without races); partial sums are combined in chunk order
// (deterministic for any thread count). Returns the sums |dlambda| / (omega D^{-1}) when `residual`.
template <int NR>
Accum sweep_packed(PgsScratch<NR>& X, const NdemRows& R, const PgsOptions& opt, bool residual, std::vector<RecordRef>& slots,
                   std::vector<Accum>& partial) {
  SphereContact<NR>* const Sd = X.sphere.data();
  GeneralContact<NR>* const Gd = X.general.data();
  PgsBody* const Bd = X.bodies.data();
  WideSphere<NR>* const Wd = X.wide.data();
  auto run = [&](const SweepChunk& ch) {
    const std::size_t cnt = ch.end - ch.begin;
    if (ch.sphere) {
      Accum a;
      if (ch.quads) {
        auto* wide = opt.cone ? (residual ? sphere_sweep_wide<NR, true, true> : sphere_sweep_wide<NR, true, false>)
                              : (residual ? sphere_sweep_wide<NR, false, true> : sphere_sweep_wide<NR, false, false>);
        a = wide(Wd + ch.wide, ch.quads, Bd, R.sigma_t, R.sigma_r);
      }
      return residual ? sphere_sweep<NR, true>(Sd + ch.begin, cnt, Bd, R.sigma_t, R.sigma_r, opt.cone, a)
                      : sphere_sweep<NR, false>(Sd + ch.begin, cnt, Bd, R.sigma_t, R.sigma_r, opt.cone);
    }
    return residual ? general_sweep<NR, true>(Gd + ch.begin, cnt, Bd, R.sigma_t, R.sigma_r, opt.cone)
                    : general_sweep<NR, false>(Gd + ch.begin, cnt, Bd, R.sigma_t, R.sigma_r, opt.cone);
  };
  Accum a;
  if (!slots.empty()) {
    shuffle_records(slots, *opt.shuffle);
    for (const RecordRef& ref : slots) a += run(SweepChunk{ref.sphere, false, ref.index, ref.index + 1});
    return a;
  }
  const SweepChunk* const chunks = X.chunks.data();
  for (const SweepGroup& grp : X.groups) {
    const std::size_t nch = grp.last - grp.first;
    partial.assign(nch, Accum{});
    if (grp.serial || nch == 1 || opt.reference_path) {
      for (std::size_t i = 0; i < nch; ++i) partial[i] = run(chunks[grp.first + i]);
    } else {
      tbb::parallel_for(std::size_t(0), nch, [&](std::size_t i) { partial[i] = run(chunks[grp.first + i]); });
    }
    for (const Accum& p : partial) a += p;
  }
  return a;
}

template <int NR, class Q, class S>
PgsResult iterate_packed(const NdemRows& R, NdemBodies& B, std::array<std::vector<double>, 6>& L,
                         const std::array<std::vector<double>, 6>& inv_diag, const std::vector<double>& scale,
                         const Q& q, const S& sigma, const PgsOptions& opt, bool impact_stage) {
  PgsResult out;
  const std::size_t m = R.size();
  if (m == 0 && !opt.extra) return out;
  double rows_n = double(m), rows_t = 2.0 * double(m), rows_r = NR == 6 ? 3.0 * double(m) : 0.0;
  // Scratch kept per thread between solves: a fresh 100 MB vector per step (100k spheres) costs a page fault
  // per 4 KiB and a zeroing pass, which doubled the solve time at 100k. A nested solve on the same thread
  // (after_iteration starting one, or a TBB thread that steals another simulation's solve while waiting in
  // the coloured parallel_for) finds the scratch busy and uses a fresh one instead.
  PgsScratch<NR>& mine = thread_scratch<NR>();
  PgsScratch<NR> own;
  const bool nested = mine.busy;
  PgsScratch<NR>& X = nested ? own : mine;
  struct BusyGuard {
    bool* flag;
    bool nested;
    ~BusyGuard() {
      if (!nested) *flag = false;
    }
  } guard{&mine.busy, nested};
  mine.busy = true;
  pack<NR>(R, L, inv_diag, scale, q, sigma, opt.omega, opt.colouring, opt.general_records_only, X);
  const std::size_t nb = B.v.size();
  X.bodies.resize(nb);
  ndem_rows::for_each_in_blocks(nb, [&](std::size_t i) { X.bodies[i] = PgsBody{B.v[i], B.w[i], B.inv_mass[i], B.inv_inertia[i]}; });
  PackedVelocities packed_velocities(X.bodies.data());
  // Random order (serial sweep only): the records one by one, in a fresh permutation per iteration.
  std::vector<RecordRef> slots;
  if (opt.shuffle && !opt.colouring)
    for (const SweepChunk& ch : X.chunks)
      for (std::size_t i = ch.begin; i < ch.end; ++i) slots.push_back({ch.sphere, i});
  std::vector<Accum> partial;
  for (int k = 1; k <= opt.iterations; ++k) {
    // The residual is read for the tolerance test, the recorded history and the last iteration's result.
    const bool residual = opt.tolerance > 0 || opt.record_residuals || k == opt.iterations;
    Accum a = sweep_packed<NR>(X, R, opt, residual, slots, partial);
    // The kernels sum |dlambda| / (omega D^{-1}); PgsExtraRows and the mean below use |dlambda| / D^{-1}.
    a.n *= opt.omega;
    a.t *= opt.omega;
    a.r *= opt.omega;
    if (opt.extra) {
      const PgsSweepSums e = opt.extra->sweep(packed_velocities, impact_stage, opt.omega, opt.cone);
      a.n += e.normal;
      a.t += e.friction;
      a.r += e.rolling;
      rows_n = double(m + e.rows_normal);
      rows_t = 2.0 * double(m) + double(e.rows_friction);
      rows_r = (NR == 6 ? 3.0 * double(m) : 0.0) + double(e.rows_rolling);
    }
    out.iterations = k;
    // |dlambda| * D / omega is the (projected) residual of the row before its update, m/s.
    auto mean = [&](double sum, double rows) { return rows > 0 ? sum / (opt.omega * rows) : 0.0; };
    out.final_residual = mean(a.n + a.t + a.r, rows_n + rows_t + rows_r);
    if (opt.record_residuals) {
      out.residual_normal.push_back(mean(a.n, rows_n));
      out.residual_friction.push_back(mean(a.t, rows_t));
      out.residual_rolling.push_back(mean(a.r, rows_r));
    }
    if (opt.after_iteration) {
      unpack_lambda<NR>(X, L);
      opt.after_iteration(k);
    }
    if (opt.tolerance > 0 && out.final_residual < opt.tolerance) break;
  }
  unpack_lambda<NR>(X, L);
  ndem_rows::for_each_in_blocks(nb, [&](std::size_t i) {
    B.v[i] = X.bodies[i].v;
    B.w[i] = X.bodies[i].w;
  });
  return out;
}

}  // namespace

std::size_t pgs_thread_scratch_bytes(bool rolling) {
  return rolling ? thread_scratch<6>().memory_bytes() : thread_scratch<3>().memory_bytes();
}

void NdemColouring::build(const NdemRows& R, std::size_t num_bodies, int max_colours) {
  // Greedy colouring in contact order (Box2D v3 constraint-graph style): each contact takes the first
  // colour used by neither of its particle bodies (fixed particles count: they are written to); walls
  // never conflict. Contacts that find no colour among max_colours go to the overflow set (solved
  // serially after the colours). Deterministic: depends on the contact order only.
  const std::size_t m = R.size();
  const int K = std::clamp(max_colours, 1, 63);
  std::vector<std::uint64_t> used(num_bodies, 0);
  std::vector<int> colour(m);
  std::vector<std::size_t> count(K + 1, 0);
  for (std::size_t c = 0; c < m; ++c) {
    const int a = R.a[c], b = R.b[c];
    const std::uint64_t busy = used[a] | (b >= 0 ? used[b] : 0);
    const int g = std::min(K, std::countr_one(busy));  // the first free colour, or K: overflow
    colour[c] = g;
    if (g < K) {
      used[a] |= std::uint64_t(1) << g;
      if (b >= 0) used[b] |= std::uint64_t(1) << g;
    }
    ++count[g];
  }
  start.assign(K + 2, 0);
  for (int g = 0; g <= K; ++g) start[g + 1] = start[g] + count[g];
  order.resize(m);
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  for (std::size_t c = 0; c < m; ++c) order[fill[colour[c]]++] = std::uint32_t(c);
  colours_used = 0;
  for (int g = 0; g < K; ++g)
    if (count[g]) colours_used = g + 1;
  overflow = count[K];
}

std::size_t pgs_packed_bytes_per_contact(bool rolling) {
  return rolling ? sizeof(SphereContact<6>) : sizeof(SphereContact<3>);
}
std::size_t pgs_packed_bytes_per_general_contact(bool rolling) {
  return rolling ? sizeof(GeneralContact<6>) : sizeof(GeneralContact<3>);
}
static_assert(sizeof(PgsBody) == pgs_packed_bytes_per_body);

double ndem_row_velocity(const NdemRows& rows, const NdemBodies& bodies, std::size_t c, int r) {
  return row_velocity(rows, bodies, c, r);
}

void apply_impulses(const NdemRows& R, NdemBodies& B) {
  const int nrows = R.rolling ? 6 : 3;
  ndem_rows::add_rows_by_body(B.v.size(), R.a, R.b, [&](std::size_t c, bool to_a, bool to_b) {
    if (!to_a && R.b[c] < 0) return;  // a wall row of another range's particle: the wall takes nothing
    for (int r = 0; r < nrows; ++r)
      if (R.lambda[r][c] != 0) apply_row(R, B, c, r, (r == 0 ? R.scale[c] : 1.0) * R.lambda[r][c], to_a, to_b);
  });
}

PgsResult solve_continuous(NdemRows& R, NdemBodies& B, const PgsOptions& opt) {
  auto q = [&R](std::size_t c) { return R.q_n[c]; };
  auto sigma = [&R](std::size_t c) { return R.sigma_n[c]; };
  if (R.rolling) return iterate_packed<6>(R, B, R.lambda, R.inv_diag, R.scale, q, sigma, opt, false);
  return iterate_packed<3>(R, B, R.lambda, R.inv_diag, R.scale, q, sigma, opt, false);
}

PgsResult solve_impact(const NdemRows& R, const std::vector<char>& impacting, const std::vector<double>& u_minus,
                       NdemBodies& B, const PgsOptions& opt, std::array<std::vector<double>, 6>& impulse) {
  const std::size_t m = R.size();
  const int rows = R.rolling ? 6 : 3;
  std::array<std::vector<double>, 6> inv_diag;
  const std::vector<double> unit(m, 1.0);
  for (int r = 0; r < 6; ++r) {  // a 3-row solve has no impulse or D^-1 of rows 3-5
    impulse[r].assign(r < rows ? m : 0, 0.0);
    inv_diag[r].assign(r < rows ? m : 0, 0.0);
  }
  // Serial: in parallel blocks (run_block too), row_mass rounds differently (GCC forms other FMAs; measured).
  for (std::size_t c = 0; c < m; ++c)
    for (int r = 0; r < rows; ++r) {
      const double sigma = r == 0 ? 0.0 : (r < 3 ? R.sigma_t : R.sigma_r);
      inv_diag[r][c] = 1.0 / (row_mass(R, B, c, r) + sigma);
    }
  // Newton: G_n v+ = -e G_n v- for impacting contacts; G_n v+ >= 0 for the others (unscaled normal).
  // q - u - 0 * lambda == q - u bitwise (lambda_n >= 0 finite).
  auto q = [&](std::size_t c) { return impacting[c] ? -R.restitution[c] * u_minus[c] : 0.0; };
  auto sigma = [](std::size_t) { return 0.0; };
  if (R.rolling) return iterate_packed<6>(R, B, impulse, inv_diag, unit, q, sigma, opt, true);
  return iterate_packed<3>(R, B, impulse, inv_diag, unit, q, sigma, opt, true);
}

// Exposed for the stepper's set-up of D^{-1}.
double ndem_row_mass(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) { return row_mass(R, B, c, r); }

}  // namespace grainlab
