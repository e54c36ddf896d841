#include "core/ndem/pgs.hpp"

#include <algorithm>
#include <cmath>

#include <tbb/parallel_for.h>

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

// Clamps the pair (x, y) to the box |x|,|y| <= bound or to the disk |(x, y)| <= bound.
inline void project_pair(double& x, double& y, double bound, bool cone) {
  if (cone) {
    const double m = std::sqrt(x * x + y * y);
    if (m > bound) {
      const double f = m > 0 ? bound / m : 0.0;
      x *= f;
      y *= f;
    }
  } else {
    x = std::clamp(x, -bound, bound);
    y = std::clamp(y, -bound, bound);
  }
}

struct Accum {
  double n = 0, t = 0, r = 0;
};

constexpr std::size_t pgs_chunk = 256;  // contacts per parallel task (fixed: results independent of threads)

// ---- Packed sweep (issue 8, Performance) --------------------------------------------------------------
// The sweep does not read NdemRows directly: solve_* first copies, in SWEEP order (contact order for the
// serial sweep, colour order for the coloured one), exactly the fields a row update reads into one
// contiguous record per contact (PgsContact<NR>, NR = 3 or 6 rows), and the body velocities and inverse
// masses into one 64-byte record per body (PgsBody). One contact-iteration then streams one record
// linearly and touches two body cache lines, instead of ~25 separate arrays plus an index indirection.
// The arithmetic is the same expressions in the same order as the NdemRows path above (bitwise the same
// results); only the memory layout differs. Multipliers are copied back after the solve (and before
// each after_iteration callback, which may read rows.lambda), velocities likewise.
struct PgsBody {
  Vec3 v, w;
  double inv_mass, inv_inertia;
};
static_assert(sizeof(PgsBody) == 64);

template <int NR>
struct PgsContact {
  std::int32_t a, b;  // b = -1: kinematic (wall)
  double s;           // normal scale (continuous stage) or 1 (impact stage)
  double q;           // normal rhs: continuous q_n; impact: target separation rate
  double sigma;       // Sigma_n (impact stage: 0, making q - u - 0 * lambda == q - u bitwise)
  double mu;
  double bias[NR], inv_diag[NR], lambda[NR];
  double mu_roll[NR == 6 ? 2 : 1];  // [mu_roll, mu_twist] when NR = 6 (unused slot when NR = 3)
  Vec3 n, t1, t2, ca_n, ca_t1, ca_t2, cb_n, cb_t1, cb_t2;
};

// Two bodies held in registers during a contact's block update.
struct PLocal {
  Vec3 va, wa, vb, wb;
  double ima, iIa, imb, iIb;
  bool has_b;
  PLocal(const PgsBody* B, int a, int b)
      : va(B[a].v), wa(B[a].w), vb(b >= 0 ? B[b].v : Vec3::Zero()), wb(b >= 0 ? B[b].w : Vec3::Zero()),
        ima(B[a].inv_mass), iIa(B[a].inv_inertia), imb(b >= 0 ? B[b].inv_mass : 0.0),
        iIb(b >= 0 ? B[b].inv_inertia : 0.0), has_b(b >= 0) {}
  void store(PgsBody* B, int a, int b) const {
    B[a].v = va;
    B[a].w = wa;
    if (has_b) {
      B[b].v = vb;
      B[b].w = wb;
    }
  }
  // Linear row (direction d, lever arms ca, cb): u = bias + G v.
  double lin_u(double bias, const Vec3& d, const Vec3& ca, const Vec3& cb) const {
    double u = bias;
    u += d.dot(va) + ca.dot(wa);
    if (has_b) u -= d.dot(vb) + cb.dot(wb);
    return u;
  }
  void lin_apply(const Vec3& d, const Vec3& ca, const Vec3& cb, double sdl) {
    va += (ima * sdl) * d;
    wa += (iIa * sdl) * ca;
    if (has_b) {
      vb -= (imb * sdl) * d;
      wb -= (iIb * sdl) * cb;
    }
  }
  double ang_u(double bias, const Vec3& d) const {
    double u = bias;
    u += d.dot(wa);
    if (has_b) u -= d.dot(wb);
    return u;
  }
  void ang_apply(const Vec3& d, double sdl) {
    wa += (iIa * sdl) * d;
    if (has_b) wb -= (iIb * sdl) * d;
  }
};

// Tangential pair (rows r, r+1) of one packed contact; `u1`, `u2` evaluate the rows' velocities and
// `ap1`, `ap2` apply an impulse. Same update order as Algorithm 1 for a box (row by row) or a disk (joint projection).
template <bool Residual, class U1, class U2, class A1, class A2>
inline double packed_pair(double& l1, double& l2, double id1, double id2, double sigma, double omega, double bound,
                          bool cone, U1&& u1, U2&& u2, A1&& ap1, A2&& ap2) {
  const double o1 = l1, o2 = l2;
  double x = o1 + omega * id1 * (-u1() - sigma * o1);
  if (!cone) {
    x = std::clamp(x, -bound, bound);
    if (x != o1) ap1(x - o1);
  }
  double y = o2 + omega * id2 * (-u2() - sigma * o2);
  if (cone) {
    project_pair(x, y, bound, true);
    if (x != o1) ap1(x - o1);
  } else {
    y = std::clamp(y, -bound, bound);
  }
  if (y != o2) ap2(y - o2);
  l1 = x;
  l2 = y;
  if constexpr (!Residual) return 0.0;
  return std::abs(x - o1) / id1 + std::abs(y - o2) / id2;
}

// Residual = false skips the residual sums (three divisions per contact) in iterations whose residual
// nobody reads; the multipliers and velocities do not depend on it.
template <int NR, bool Residual>
Accum packed_sweep(PgsContact<NR>* P, std::size_t count, PgsBody* Bodies, double sigma_t, double sigma_r,
                   double omega, bool cone) {
  Accum acc;
  for (std::size_t k = 0; k < count; ++k) {
    PgsContact<NR>& C = P[k];
    const double s = C.s;
    PLocal B(Bodies, C.a, C.b);
    {
      const double u = s * B.lin_u(C.bias[0], C.n, C.ca_n, C.cb_n);
      const double old = C.lambda[0];
      const double res = C.q - u - C.sigma * old;
      const double nl = std::max(0.0, old + omega * C.inv_diag[0] * res);
      const double dl = nl - old;
      if (dl != 0) B.lin_apply(C.n, C.ca_n, C.cb_n, s * dl);
      C.lambda[0] = nl;
      if constexpr (Residual) acc.n += std::abs(dl) / C.inv_diag[0];
    }
    const double fn = s * C.lambda[0];  // physical normal impulse (000 l.799, 1572, 1616)
    const double rt = packed_pair<Residual>(
        C.lambda[1], C.lambda[2], C.inv_diag[1], C.inv_diag[2], sigma_t, omega, C.mu * fn, cone,
        [&] { return B.lin_u(C.bias[1], C.t1, C.ca_t1, C.cb_t1); }, [&] { return B.lin_u(C.bias[2], C.t2, C.ca_t2, C.cb_t2); },
        [&](double d) { B.lin_apply(C.t1, C.ca_t1, C.cb_t1, d); }, [&](double d) { B.lin_apply(C.t2, C.ca_t2, C.cb_t2, d); });
    if constexpr (Residual) acc.t += rt;
    if constexpr (NR == 6) {
      const double rr = packed_pair<Residual>(
          C.lambda[3], C.lambda[4], C.inv_diag[3], C.inv_diag[4], sigma_r, omega, C.mu_roll[0] * fn, cone,
          [&] { return B.ang_u(C.bias[3], C.t1); }, [&] { return B.ang_u(C.bias[4], C.t2); },
          [&](double d) { B.ang_apply(C.t1, d); }, [&](double d) { B.ang_apply(C.t2, d); });
      if constexpr (Residual) acc.r += rr;
      const double o = C.lambda[5];
      const double bound = C.mu_roll[1] * fn;
      const double z = std::clamp(o + omega * C.inv_diag[5] * (-B.ang_u(C.bias[5], C.n) - sigma_r * o), -bound, bound);
      if (z != o) B.ang_apply(C.n, z - o);
      C.lambda[5] = z;
      if constexpr (Residual) acc.r += std::abs(z - o) / C.inv_diag[5];
    }
    B.store(Bodies, C.a, C.b);
  }
  return acc;
}

// Packs rows (sweep order `order`) and bodies; `lambda`, `inv_diag`, `scale` select the stage's arrays,
// `q(c)` / `sigma(c)` its normal right-hand side and compliance.
template <int NR, class Q, class S>
void pack(const NdemRows& R, const std::array<std::vector<double>, 6>& L, const std::array<std::vector<double>, 6>& inv_diag,
          const std::vector<double>& scale, const Q& q, const S& sigma, const std::uint32_t* order,
          std::vector<PgsContact<NR>>& P) {
  const std::size_t m = R.size();
  P.resize(m);
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t c = order ? order[k] : k;
    PgsContact<NR>& C = P[k];
    C.a = R.a[c];
    C.b = R.b[c];
    C.s = scale[c];
    C.q = q(c);
    C.sigma = sigma(c);
    C.mu = R.mu[c];
    for (int r = 0; r < NR; ++r) {
      C.bias[r] = R.bias[r][c];
      C.inv_diag[r] = inv_diag[r][c];
      C.lambda[r] = L[r][c];
    }
    if constexpr (NR == 6) {
      C.mu_roll[0] = R.mu_roll[c];
      C.mu_roll[1] = R.mu_twist[c];
    } else {
      C.mu_roll[0] = 0;
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
  }
}

template <int NR>
void unpack_lambda(const std::vector<PgsContact<NR>>& P, const std::uint32_t* order, std::array<std::vector<double>, 6>& L) {
  for (std::size_t k = 0; k < P.size(); ++k) {
    const std::size_t c = order ? order[k] : k;
    for (int r = 0; r < NR; ++r) L[r][c] = P[k].lambda[r];
  }
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

template <int NR, class Q, class S>
PgsResult iterate_packed(const NdemRows& R, NdemBodies& B, std::array<std::vector<double>, 6>& L,
                         const std::array<std::vector<double>, 6>& inv_diag, const std::vector<double>& scale,
                         const Q& q, const S& sigma, const PgsOptions& opt, bool impact_stage) {
  PgsResult out;
  const std::size_t m = R.size();
  if (m == 0 && !opt.extra) return out;
  double rows_n = double(m), rows_t = 2.0 * double(m), rows_r = NR == 6 ? 3.0 * double(m) : 0.0;
  const std::uint32_t* order = opt.colouring ? opt.colouring->order.data() : nullptr;
  // Scratch kept per thread between solves: a fresh 100 MB vector per step (100k spheres) costs a page fault
  // per 4 KiB and a zeroing pass, which doubled the solve time at 100k. A nested solve on the same thread
  // (after_iteration starting one, or a TBB thread that steals another simulation's solve while waiting in
  // the coloured parallel_for) finds the scratch busy and uses fresh vectors instead.
  static thread_local std::vector<PgsContact<NR>> tl_contacts;
  static thread_local std::vector<PgsBody> tl_bodies;
  static thread_local bool tl_busy = false;
  std::vector<PgsContact<NR>> own_contacts;
  std::vector<PgsBody> own_bodies;
  const bool nested = tl_busy;
  std::vector<PgsContact<NR>>& P = nested ? own_contacts : tl_contacts;
  std::vector<PgsBody>& bodies = nested ? own_bodies : tl_bodies;
  struct BusyGuard {
    bool* flag;
    bool nested;
    ~BusyGuard() {
      if (!nested) *flag = false;
    }
  } guard{&tl_busy, nested};
  tl_busy = true;
  pack<NR>(R, L, inv_diag, scale, q, sigma, order, P);
  const std::size_t nb = B.v.size();
  bodies.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) bodies[i] = PgsBody{B.v[i], B.w[i], B.inv_mass[i], B.inv_inertia[i]};
  // Plain pointers for the lambdas: a thread_local named inside a lambda run by a TBB worker would be
  // the WORKER's (empty) instance.
  PgsContact<NR>* const Pd = P.data();
  PgsBody* const Bd = bodies.data();
  std::vector<Accum> partial;
  PackedVelocities packed_velocities(Bd);
  for (int k = 1; k <= opt.iterations; ++k) {
    Accum a;
    // The residual is read for the tolerance test, the recorded history and the last iteration's result.
    const bool residual = opt.tolerance > 0 || opt.record_residuals || k == opt.iterations;
    auto run = [&](PgsContact<NR>* p, std::size_t cnt) {
      return residual ? packed_sweep<NR, true>(p, cnt, Bd, R.sigma_t, R.sigma_r, opt.omega, opt.cone)
                      : packed_sweep<NR, false>(p, cnt, Bd, R.sigma_t, R.sigma_r, opt.omega, opt.cone);
    };
    if (!opt.colouring) {
      a = run(Pd, m);
    } else {
      // Colours in order; inside a colour no two contacts share a body, so the fixed-size chunks (contiguous
      // in P) run in parallel without races and in any order; partial sums are combined in chunk order.
      const NdemColouring& col = *opt.colouring;
      for (std::size_t g = 0; g + 1 < col.start.size(); ++g) {
        const std::size_t begin = col.start[g], end = col.start[g + 1];
        const bool serial = g + 2 == col.start.size();  // last group: the overflow set
        const std::size_t nchunks = serial ? 1 : (end - begin + pgs_chunk - 1) / pgs_chunk;
        partial.assign(nchunks, Accum{});
        auto run_chunk = [&](std::size_t ch) {
          const std::size_t b0 = serial ? begin : begin + ch * pgs_chunk;
          const std::size_t b1 = serial ? end : std::min(end, b0 + pgs_chunk);
          partial[ch] = run(Pd + b0, b1 - b0);
        };
        if (nchunks == 1) run_chunk(0);
        else tbb::parallel_for(std::size_t(0), nchunks, run_chunk);
        for (const Accum& p : partial) {
          a.n += p.n;
          a.t += p.t;
          a.r += p.r;
        }
      }
    }
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
      unpack_lambda<NR>(P, order, L);
      opt.after_iteration(k);
    }
    if (opt.tolerance > 0 && out.final_residual < opt.tolerance) break;
  }
  unpack_lambda<NR>(P, order, L);
  for (std::size_t i = 0; i < nb; ++i) {
    B.v[i] = bodies[i].v;
    B.w[i] = bodies[i].w;
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
  return rolling ? sizeof(PgsContact<6>) : sizeof(PgsContact<3>);
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
