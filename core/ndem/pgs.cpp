#include "core/ndem/pgs.hpp"
#include "core/ndem/block_update.hpp"
#include "core/ndem/row_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

#include <tbb/parallel_for.h>

#include "core/scheduling_policy.hpp"

namespace grainlab {

void NdemRows::resize(std::size_t m) {
  for (auto* v : {&a, &b}) v->resize(m);
  contact.resize(m);
  for (auto* v : {&n, &t1, &t2, &ca_n, &ca_t1, &ca_t2, &cb_n, &cb_t1, &cb_t2}) v->resize(m);
  for (auto* v : {&scale, &overlap, &stiffness, &sigma_n, &q_n, &mu, &mu_roll, &mu_twist, &restitution, &impact_speed})
    v->resize(m);
  for (int r = 0; r < 6; ++r) {
    bias[r].assign(m, 0.0);
    inv_diag[r].assign(m, 0.0);
    lambda[r].resize(m);
  }
}

namespace {

// Geometry of one row of contact c: direction and lever arms (rows 0-2 linear, 3-5 angular).
struct RowGeom {
  const Vec3* d;
  const Vec3* ca;
  const Vec3* cb;
  bool angular;
};

inline RowGeom geom(const NdemRows& R, std::size_t c, int r) {
  switch (r) {
    case 0: return {&R.n[c], &R.ca_n[c], &R.cb_n[c], false};
    case 1: return {&R.t1[c], &R.ca_t1[c], &R.cb_t1[c], false};
    case 2: return {&R.t2[c], &R.ca_t2[c], &R.cb_t2[c], false};
    case 3: return {&R.t1[c], nullptr, nullptr, true};
    case 4: return {&R.t2[c], nullptr, nullptr, true};
    default: return {&R.n[c], nullptr, nullptr, true};
  }
}

// Unscaled G v of row r (separation-rate sign), including the wall's known motion.
inline double row_velocity(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  double u = R.bias[r][c];
  if (g.angular) {
    u += g.d->dot(B.w[a]);
    if (b >= 0) u -= g.d->dot(B.w[b]);
  } else {
    u += g.d->dot(B.v[a]) + g.ca->dot(B.w[a]);
    if (b >= 0) u -= g.d->dot(B.v[b]) + g.cb->dot(B.w[b]);
  }
  return u;
}

// v += M^{-1} G_r^T (scale * dl).
inline void apply_row(const NdemRows& R, NdemBodies& B, std::size_t c, int r, double scaled_dl) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  if (g.angular) {
    B.w[a] += (B.inv_inertia[a] * scaled_dl) * *g.d;
    if (b >= 0) B.w[b] -= (B.inv_inertia[b] * scaled_dl) * *g.d;
  } else {
    B.v[a] += (B.inv_mass[a] * scaled_dl) * *g.d;
    B.w[a] += (B.inv_inertia[a] * scaled_dl) * *g.ca;
    if (b >= 0) {
      B.v[b] -= (B.inv_mass[b] * scaled_dl) * *g.d;
      B.w[b] -= (B.inv_inertia[b] * scaled_dl) * *g.cb;
    }
  }
}

// G_r M^{-1} G_r^T for the unscaled row.
inline double row_mass(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  double k;
  if (g.angular) {
    k = B.inv_inertia[a] * g.d->squaredNorm();
    if (b >= 0) k += B.inv_inertia[b] * g.d->squaredNorm();
  } else {
    k = B.inv_mass[a] * g.d->squaredNorm() + B.inv_inertia[a] * g.ca->squaredNorm();
    if (b >= 0) k += B.inv_mass[b] * g.d->squaredNorm() + B.inv_inertia[b] * g.cb->squaredNorm();
  }
  return k;
}

using ndem_rows::Accum;
using ndem_rows::block_update;
using ndem_rows::lane;
using ndem_rows::lanes_of;
using ndem_rows::V2;


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
struct PgsBody {
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

// Contact-local state of sphere records (see the comment above "PgsBody"), one per lane of T, from the
// two bodies' values av, bv (v 0-2, w 3-5, 1/m 6, 1/I 7). The rolling components (t1.dw, t2.dw, n.dw
// with the friction impulses' effect J P) are formed only when the rolling rows start, which keeps them
// out of registers during the normal and friction rows.
template <int NR, class T>
struct SphereState {
  const T* av;
  const T* bv;
  T n[3], t1[3], t2[3];  // contact frame
  T la, lb;
  T un, v1, v2, W1, W2;        // n.dv, t1.dv, t2.dv, t1.W, t2.W
  T r1{}, r2{}, r3{};          // t1.dw, t2.dw, n.dw (rolling rows only)
  T m, I, K{};
  T P[6]{};                    // impulses applied per row (normal: scaled)
  static T dot(const T* x, const T* y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; }
  // The separation rates before any impulse, from the bodies, frame and lever arms.
  void start() {
    const T dv[3] = {av[0] - bv[0], av[1] - bv[1], av[2] - bv[2]};
    const T W[3] = {la * av[3] + lb * bv[3], la * av[4] + lb * bv[4], la * av[5] + lb * bv[5]};
    m = av[6] + bv[6];
    I = la * la * av[7] + lb * lb * bv[7];
    un = dot(n, dv);
    v1 = dot(t1, dv);
    v2 = dot(t2, dv);
    W1 = dot(t1, W);
    W2 = dot(t2, W);
  }
  void begin_rolling() {
    const T dw[3] = {av[3] - bv[3], av[4] - bv[4], av[5] - bv[5]};
    const T J = la * av[7] - lb * bv[7];
    K = av[7] + bv[7];
    r1 = dot(t1, dw) + J * P[2];
    r2 = dot(t2, dw) - J * P[1];
    r3 = dot(n, dw);
  }
  // The bodies' velocities after the impulses P: out[0-5] v_a, w_a; out[6-11] v_b, w_b.
  // v_a += F/m_a, v_b -= F/m_b, w_a += (l_a L + T)/I_a, w_b += (l_b L - T)/I_b.
  void velocities_after(T* out) const {
    T F[3], Lv[3];
    for (int i = 0; i < 3; ++i) {
      F[i] = P[0] * n[i] + P[1] * t1[i] + P[2] * t2[i];
      Lv[i] = P[2] * t1[i] - P[1] * t2[i];
    }
    for (int i = 0; i < 3; ++i) {
      out[i] = av[i] + av[6] * F[i];
      out[6 + i] = bv[i] - bv[6] * F[i];
    }
    if constexpr (NR == 6) {
      for (int i = 0; i < 3; ++i) {
        const T Ti = P[3] * t1[i] + P[4] * t2[i] + P[5] * n[i];
        out[3 + i] = av[3 + i] + av[7] * (la * Lv[i] + Ti);
        out[9 + i] = bv[3 + i] + bv[7] * (lb * Lv[i] - Ti);
      }
    } else {
      const T ia = av[7] * la, ib = bv[7] * lb;
      for (int i = 0; i < 3; ++i) {
        out[3 + i] = av[3 + i] + ia * Lv[i];
        out[9 + i] = bv[3 + i] + ib * Lv[i];
      }
    }
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

// Lane j of a value of T holds field f of record C[j].
template <class T, class Rec, class F>
[[gnu::always_inline]] inline T lanes(Rec* const* C, F f) {
  if constexpr (lanes_of<T> == 1) return f(*C[0]);
  else return T{f(*C[0]), f(*C[1])};
}

// The rows of lanes_of<T> sphere records C (sharing no body when more than one): bodies loaded, block
// update, velocities and multipliers written back.
template <int NR, bool Residual, class T>
[[gnu::always_inline]] inline void sphere_contacts(SphereContact<NR>* const* C, PgsBody* Bodies, T sig_t, T sig_r, bool cone,
                                                   Accum& acc) {
  constexpr int L = lanes_of<T>;
  double* A[L];
  double* B[L];
  for (int j = 0; j < L; ++j) {
    A[j] = Bodies[C[j]->a].v.data();
    B[j] = Bodies[C[j]->b].v.data();
  }
  // One contact reads its bodies where they are (nothing is stored before the write-back); two load all
  // values first, into the lanes.
  T lanes_a[L == 1 ? 1 : 8], lanes_b[L == 1 ? 1 : 8];
  const T* av = lanes_a;
  const T* bv = lanes_b;
  if constexpr (L == 1) {
    av = A[0];
    bv = B[0];
  } else {
    for (int i = 0; i < 8; ++i) {
      lanes_a[i] = lanes<T>(A, [i](double& x) { return (&x)[i]; });
      lanes_b[i] = lanes<T>(B, [i](double& x) { return (&x)[i]; });
    }
  }
  using Rec = SphereContact<NR>;
  SphereState<NR, T> st;
  st.av = av;
  st.bv = bv;
  st.la = lanes<T>(C, [](const Rec& c) { return c.la; });
  st.lb = lanes<T>(C, [](const Rec& c) { return c.lb; });
  for (int i = 0; i < 3; ++i) {
    st.n[i] = lanes<T>(C, [i](const Rec& c) { return c.n[i]; });
    st.t1[i] = lanes<T>(C, [i](const Rec& c) { return c.t1[i]; });
    st.t2[i] = lanes<T>(C, [i](const Rec& c) { return c.t2[i]; });
  }
  st.start();
  // The multipliers and their constants: in the record for one contact, in lanes for two.
  T lanes_lam[L == 1 ? 1 : NR], lanes_oid[L == 1 ? 1 : NR], lanes_bound[L == 1 ? 1 : 3];
  T* lam = lanes_lam;
  const T* oid = lanes_oid;
  const T* bound = lanes_bound;
  if constexpr (L == 1) {
    lam = C[0]->lambda;
    oid = C[0]->oid;
    bound = C[0]->bound;
  } else {
    for (int r = 0; r < NR; ++r) {
      lanes_lam[r] = lanes<T>(C, [r](const Rec& c) { return c.lambda[r]; });
      lanes_oid[r] = lanes<T>(C, [r](const Rec& c) { return c.oid[r]; });
    }
    for (int r = 0; r < (NR == 6 ? 3 : 1); ++r) lanes_bound[r] = lanes<T>(C, [r](const Rec& c) { return c.bound[r]; });
  }
  block_update<NR, Residual>(st, lam, oid, bound, lanes<T>(C, [](const Rec& c) { return c.s; }),
                             lanes<T>(C, [](const Rec& c) { return c.q; }), lanes<T>(C, [](const Rec& c) { return c.sigma; }),
                             sig_t, sig_r, cone, acc);
  T out[12];
  st.velocities_after(out);
  for (int j = 0; j < L; ++j) {
    for (int i = 0; i < 6; ++i) {
      A[j][i] = lane(out[i], j);
      B[j][i] = lane(out[6 + i], j);
    }
    if constexpr (L > 1)
      for (int r = 0; r < NR; ++r) C[j]->lambda[r] = lane(lam[r], j);
  }
}

template <int NR, bool Residual>
Accum sphere_sweep(SphereContact<NR>* Cs, std::size_t count, PgsBody* Bodies, double sigma_t, double sigma_r,
                   bool cone) {
  Accum acc;
  for (std::size_t k = 0; k < count; ++k) {
    SphereContact<NR>* const C[1] = {Cs + k};
    sphere_contacts<NR, Residual>(C, Bodies, sigma_t, sigma_r, cone, acc);
  }
  return acc;
}

// Two contacts of one colour at a time (they share no body), for sweeps without residual sums and with
// the box friction law. Either way deterministic: which loop runs never depends on the thread count.
template <int NR>
void sphere_sweep_pairs(SphereContact<NR>* Cs, std::size_t count, PgsBody* Bodies, double sigma_t, double sigma_r) {
  Accum unused;
  const V2 sig_t{sigma_t, sigma_t}, sig_r{sigma_r, sigma_r};
  for (std::size_t k = 0; k + 1 < count; k += 2) {
    SphereContact<NR>* const C[2] = {Cs + k, Cs + k + 1};
    sphere_contacts<NR, false>(C, Bodies, sig_t, sig_r, false, unused);
  }
  if (count % 2) sphere_sweep<NR, false>(Cs + count - 1, 1, Bodies, sigma_t, sigma_r, false);
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

// A run of records of one kind, in sweep order: [begin, end) of the sphere or the general records.
struct SweepChunk {
  bool sphere;
  bool independent;  // no two records share a body (a colour chunk): the two-lane kernel may run it
  std::size_t begin, end;
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
  std::vector<std::uint32_t> sphere_src, general_src;  // contact index of each record
  std::vector<SweepChunk> chunks;
  std::vector<SweepGroup> groups;
  std::vector<PgsBody> bodies;
  std::vector<char> kind;                     // per contact: 1 = sphere record
  std::vector<std::array<double, 2>> arms;    // per contact: l_a, l_b of a sphere record
};

// The sphere record is valid for contact c when it joins two particles, has no wall velocity and its
// contact point is on the line of centres: (p - x_a) x n = 0 up to rounding (relative 1e-8 of the lever
// arm; positions 1e6 lever arms away from the origin round at ~1e-10). l_a = -(p - x_a).n is read back
// as ((p - x_a) x t2).t1, l_b = (p - x_b).n as -((p - x_b) x t2).t1.
inline bool sphere_record(const NdemRows& R, std::size_t c, int nrows, double& la, double& lb) {
  if (R.b[c] < 0) return false;
  for (int r = 0; r < nrows; ++r)
    if (R.bias[r][c] != 0) return false;
  la = R.ca_t2[c].dot(R.t1[c]);
  lb = -R.cb_t2[c].dot(R.t1[c]);
  return R.ca_n[c].norm() <= 1e-8 * std::abs(la) && R.cb_n[c].norm() <= 1e-8 * std::abs(lb);
}

// Appends contact c's packed record (a sphere record when X.kind[c]) with the stage's multipliers L,
// omega D^{-1}, normal scale, right-hand side q and compliance sigma; returns whether it is a sphere record.
template <int NR>
bool append_record(const NdemRows& R, std::size_t c, const std::array<std::vector<double>, 6>& L,
                   const std::array<std::vector<double>, 6>& inv_diag, double scale, double q, double sigma, double omega,
                   PgsScratch<NR>& X) {
  const double bnd[3] = {R.mu[c], R.mu_roll[c], R.mu_twist[c]};
  if (X.kind[c]) {
    SphereContact<NR>& C = X.sphere.emplace_back();
    C.a = R.a[c];
    C.b = R.b[c];
    C.la = X.arms[c][0];
    C.lb = X.arms[c][1];
    C.s = scale;
    C.q = q;
    C.sigma = sigma;
    for (int r = 0; r < (NR == 6 ? 3 : 1); ++r) C.bound[r] = bnd[r];
    for (int r = 0; r < NR; ++r) {
      C.oid[r] = omega * inv_diag[r][c];
      C.lambda[r] = L[r][c];
    }
    C.n = R.n[c];
    C.t1 = R.t1[c];
    C.t2 = R.t2[c];
    X.sphere_src.push_back(std::uint32_t(c));
    return true;
  }
  GeneralContact<NR>& C = X.general.emplace_back();
  C.a = R.a[c];
  C.b = R.b[c];
  C.s = scale;
  C.q = q;
  C.sigma = sigma;
  for (int r = 0; r < (NR == 6 ? 3 : 1); ++r) C.bound[r] = bnd[r];
  for (int r = 0; r < NR; ++r) {
    C.bias[r] = R.bias[r][c];
    C.oid[r] = omega * inv_diag[r][c];
    C.lambda[r] = L[r][c];
  }
  C.n = R.n[c];
  C.t1 = R.t1[c];
  C.t2 = R.t2[c];
  C.ca_n = R.ca_n[c];
  C.ca_t1 = R.ca_t1[c];
  C.ca_t2 = R.ca_t2[c];
  C.cb_n = R.cb_n[c];
  C.cb_t1 = R.cb_t1[c];
  C.cb_t2 = R.cb_t2[c];
  X.general_src.push_back(std::uint32_t(c));
  return false;
}

// Packs rows (sweep order: `order`, or contact order when null) and bodies; `L`, `inv_diag`, `scale`
// select the stage's arrays, `q(c)` / `sigma(c)` its normal right-hand side and compliance.
template <int NR, class Q, class S>
void pack(const NdemRows& R, const std::array<std::vector<double>, 6>& L, const std::array<std::vector<double>, 6>& inv_diag,
          const std::vector<double>& scale, const Q& q, const S& sigma, double omega, const NdemColouring* colouring,
          bool general_only, PgsScratch<NR>& X) {
  const std::size_t m = R.size();
  X.sphere.clear();
  X.general.clear();
  X.sphere_src.clear();
  X.general_src.clear();
  X.chunks.clear();
  X.groups.clear();
  // Record kind per contact (sphere record + lever arms, or general record), decided once.
  X.kind.resize(m);
  X.arms.resize(m);
  for (std::size_t c = 0; c < m; ++c)
    X.kind[c] = !general_only && sphere_record(R, c, NR, X.arms[c][0], X.arms[c][1]);
  auto add = [&](std::size_t c) {  // appends contact c's record; returns whether it is a sphere record
    return append_record<NR>(R, c, L, inv_diag, scale[c], q(c), sigma(c), omega, X);
  };
  // Appends the current tail of one record kind as chunks of at most `size` records.
  auto close_run = [&](bool sphere, std::size_t begin, std::size_t size, bool independent) {
    const std::size_t end = sphere ? X.sphere.size() : X.general.size();
    for (std::size_t b = begin; b < end; b += std::min(size, end - b))
      X.chunks.push_back({sphere, independent, b, b + std::min(size, end - b)});
  };
  auto serial_group = [&](const std::uint32_t* ids, std::size_t count) {
    const std::size_t first = X.chunks.size();
    std::size_t k = 0;
    while (k < count) {  // maximal runs of one kind, in order
      const std::size_t s0 = X.sphere.size(), g0 = X.general.size();
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
      const std::size_t s0 = X.sphere.size(), g0 = X.general.size();
      for (std::size_t k = begin; k < end; ++k)
        if (X.kind[col.order[k]]) add(col.order[k]);
      for (std::size_t k = begin; k < end; ++k)
        if (!X.kind[col.order[k]]) add(col.order[k]);
      close_run(true, s0, pgs_chunk, true);
      close_run(false, g0, pgs_chunk, true);
      X.groups.push_back({first, X.chunks.size(), false});
    }
  }
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
  for (std::size_t k = 0; k < X.sphere.size(); ++k)
    for (int r = 0; r < NR; ++r) L[r][X.sphere_src[k]] = X.sphere[k].lambda[r];
  for (std::size_t k = 0; k < X.general.size(); ++k)
    for (int r = 0; r < NR; ++r) L[r][X.general_src[k]] = X.general[k].lambda[r];
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
  auto run = [&](const SweepChunk& ch) {
    const std::size_t cnt = ch.end - ch.begin;
    if (ch.sphere && ch.independent && !residual && !opt.cone && !opt.reference_path) {
      sphere_sweep_pairs<NR>(Sd + ch.begin, cnt, Bd, R.sigma_t, R.sigma_r);
      return Accum{};
    }
    if (ch.sphere)
      return residual ? sphere_sweep<NR, true>(Sd + ch.begin, cnt, Bd, R.sigma_t, R.sigma_r, opt.cone)
                      : sphere_sweep<NR, false>(Sd + ch.begin, cnt, Bd, R.sigma_t, R.sigma_r, opt.cone);
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
  static thread_local PgsScratch<NR> tl_scratch;
  static thread_local bool tl_busy = false;
  PgsScratch<NR> own;
  const bool nested = tl_busy;
  PgsScratch<NR>& X = nested ? own : tl_scratch;
  struct BusyGuard {
    bool* flag;
    bool nested;
    ~BusyGuard() {
      if (!nested) *flag = false;
    }
  } guard{&tl_busy, nested};
  tl_busy = true;
  pack<NR>(R, L, inv_diag, scale, q, sigma, opt.omega, opt.colouring, opt.general_records_only, X);
  const std::size_t nb = B.v.size();
  X.bodies.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) X.bodies[i] = PgsBody{B.v[i], B.w[i], B.inv_mass[i], B.inv_inertia[i]};
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
  for (std::size_t i = 0; i < nb; ++i) {
    B.v[i] = X.bodies[i].v;
    B.w[i] = X.bodies[i].w;
  }
  return out;
}

}  // namespace

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
    int g = K;  // overflow
    for (int k = 0; k < K; ++k)
      if (!(busy >> k & 1)) {
        g = k;
        break;
      }
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

double normal_velocity(const NdemRows& rows, const NdemBodies& bodies, std::size_t c) {
  return row_velocity(rows, bodies, c, 0);
}

void apply_impulses(const NdemRows& R, NdemBodies& B) {
  const int nrows = R.rolling ? 6 : 3;
  for (std::size_t c = 0; c < R.size(); ++c)
    for (int r = 0; r < nrows; ++r)
      if (R.lambda[r][c] != 0) apply_row(R, B, c, r, (r == 0 ? R.scale[c] : 1.0) * R.lambda[r][c]);
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
  std::array<std::vector<double>, 6> inv_diag;
  const std::vector<double> unit(m, 1.0);
  for (int r = 0; r < 6; ++r) {
    impulse[r].assign(m, 0.0);
    inv_diag[r].assign(m, 0.0);
  }
  for (std::size_t c = 0; c < m; ++c)
    for (int r = 0; r < (R.rolling ? 6 : 3); ++r) {
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
