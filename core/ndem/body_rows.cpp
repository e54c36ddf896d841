// NDEM rows of rigid-body contacts and prismatic motors; see body_rows.hpp for the formulation.
#include "core/ndem/body_rows.hpp"
#include "core/ndem/block_update.hpp"
#include "core/ndem/row_setup.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/ndem/row_frame.hpp"
#include "core/ndem/row_load.hpp"
#include "core/ndem/row_model.hpp"

namespace grainlab {

namespace {

// PgsVelocities over the stepper's NdemBodies (outside the solve).
class BodiesView final : public PgsVelocities {
 public:
  explicit BodiesView(NdemBodies& b) : b_(b) {}
  Vec3& v(std::size_t i) override { return b_.v[i]; }
  Vec3& w(std::size_t i) override { return b_.w[i]; }

 private:
  NdemBodies& b_;
};

using ndem_rows::project_disk;

// ra x d rounded as the former single setup function computed it: GCC contracts each component
// a*b - c*e into one fused multiply-add (x86-64-v3), and which product it fuses depends on the code
// around it (there: x and y fused the second product, z the first). Spelled out so that splitting
// setup into stages keeps the rows bit for bit.
Vec3 lever_cross(const Vec3& r, const Vec3& d) {
  return Vec3(std::fma(-r.z(), d.y(), r.y() * d.z()), std::fma(-r.x(), d.z(), r.z() * d.x()),
              std::fma(r.x(), d.y(), -(r.y() * d.x())));
}

}  // namespace

bool NdemBodyRows::claims(const Contact& c) const {
  if (!particle_body_) return false;
  const auto& pb = *particle_body_;
  if (pb[std::size_t(c.a)] >= 0) return true;
  if (c.b >= 0) return pb[std::size_t(c.b)] >= 0;
  return wall_body_[std::size_t(c.wall_index())] >= 0;
}

NdemBodyRows::Refs NdemBodyRows::refs(const Row& r, PgsVelocities& pv) {
  Refs x{&zero_v_, &zero_w_, &zero_v_, &zero_w_};
  auto side = [&](const Side& s, Vec3*& v, Vec3*& w) {
    if (s.kind == particle) {
      v = &pv.v(std::size_t(s.index));
      w = &pv.w(std::size_t(s.index));
    } else if (s.kind == body) {
      v = &body_v_[std::size_t(s.index)];
      w = &body_w_[std::size_t(s.index)];
    }
  };
  side(r.a, x.va, x.wa);
  side(r.b, x.vb, x.wb);
  return x;
}

double NdemBodyRows::row_u(const Row& r, const Refs& x, int k) const {
  return r.bias[k] + r.ja_l[k].dot(*x.va) + r.ja_a[k].dot(*x.wa) + r.jb_l[k].dot(*x.vb) + r.jb_a[k].dot(*x.wb);
}

void NdemBodyRows::row_apply(const Row& r, Refs& x, int k, double dl) {
  // Kinematic sides have zero M^-1 G^T: the scratch zeros stay zero.
  *x.va += dl * r.ma_l[k];
  *x.wa += dl * r.ma_a[k];
  *x.vb += dl * r.mb_l[k];
  *x.wb += dl * r.mb_a[k];
}

double NdemBodyRows::row_mass(const Row& r, int k) const {
  return r.ja_l[k].dot(r.ma_l[k]) + r.ja_a[k].dot(r.ma_a[k]) + r.jb_l[k].dot(r.mb_l[k]) + r.jb_a[k].dot(r.mb_a[k]);
}

// ---------------------------------------------------------------------------------------------------
// setup: body inverse masses (with joint locks), rows of every touching routed contact, motor rows.
// Reads world (bodies, particles, walls, materials, contacts), settings; writes this object only
// (and projects a prismatic body's velocity on its axis). Stages: compliance constants, bodies and
// motors, then per claimed touching contact its sides, Jacobians, wall bias and contact law.
void NdemBodyRows::setup(World& world, const NdemSettings& S, const NdemBodies& pb) {
  rows_.clear();
  motors_.clear();
  const std::size_t nb = world.bodies.size();
  body_v_.resize(nb);
  body_w_.resize(nb);
  body_inv_mass_.resize(nb);
  body_inv_inertia_.resize(nb);
  particle_body_ = nullptr;
  if (nb == 0) return;
  if (world.collision.any_periodic()) throw InputError("ndem: rigid bodies in a periodic domain are not supported (collision.periodic)");
  resolve_members(world);
  set_compliance(S);
  setup_bodies(world, S.time_step);
  wall_body_ = wall_bodies(world);
  particle_body_ = &world.particles.body;
  rolling_ = false;

  const std::vector<Contact>& contacts = world.contacts();
  for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
    const Contact& c = contacts[ci];
    if (!(c.overlap > 0) || !claims(c)) continue;
    Row r;
    r.contact = std::uint32_t(ci);
    Vec3 ra = Vec3::Zero(), rb = Vec3::Zero();
    set_sides(world, pb, c, r, ra, rb);
    set_jacobians(pb, c, world.model_history().multipliers[ci].tangent, ra, rb, r);
    // Kinematic wall side: its known motion enters as bias (as NdemStepper::setup).
    if (c.is_wall() && r.b.kind == kinematic) set_wall_bias(world.walls[std::size_t(c.wall_index())], c.point, r);
    set_contact_law(world, S, c, r);
    rows_.push_back(r);
  }
}

// dt, e_H, Sigma_t, Sigma_r and Upsilon of this step (the constants every row shares).
void NdemBodyRows::set_compliance(const NdemSettings& S) {
  const double dt = S.time_step;
  dt_ = dt;
  e_h_ = S.hertz_exponent();
  sigma_t_ = S.gamma_t / dt;
  sigma_r_ = S.gamma_r / dt;
  upsilon_ = 1.0 / (1.0 + 4.0 * S.relaxation_time() / dt);
}

// Per body: validates it, projects a prismatic body's velocity on its axis (no spin), copies its
// velocities, inverse mass matrix and world inverse inertia, and adds the row of a velocity motor.
void NdemBodyRows::setup_bodies(World& world, double dt) {
  for (std::size_t k = 0; k < world.bodies.size(); ++k) {
    RigidBody& B = world.bodies[k];
    validate(B, k);
    if (B.joint == BodyJoint::prismatic) {
      B.velocity = B.axis.dot(B.velocity) * B.axis;
      B.angular_velocity.setZero();
    }
    body_v_[k] = B.velocity;
    body_w_[k] = B.angular_velocity;
    body_inv_mass_[k] = B.inv_mass_matrix();
    body_inv_inertia_[k] = B.inv_inertia_world();
    if (B.motor == BodyMotor::velocity) {
      Motor m;
      m.body = std::int32_t(k);
      m.axis = B.axis;
      m.target = B.target_speed;
      m.bound = B.max_force * dt;
      m.inv_diag = 1.0 / B.axis.dot(body_inv_mass_[k] * B.axis);
      motors_.push_back(m);
    }
  }
}

// Sides of the row and their lever arms ra, rb (from the body's centre of mass for members and
// attached walls, from the particle's centre for a free particle); a side that cannot move stays
// kinematic with a zero arm.
void NdemBodyRows::set_sides(const World& world, const NdemBodies& pb, const Contact& c, Row& r, Vec3& ra, Vec3& rb) const {
  const ParticleStore& P = world.particles;
  const std::int32_t ba = P.body[std::size_t(c.a)];
  if (ba >= 0) {
    r.a = {body, ba};
    ra = c.point - world.bodies[std::size_t(ba)].position;
  } else if (pb.inv_mass[std::size_t(c.a)] > 0) {
    r.a = {particle, c.a};
    ra = c.point - P.position[std::size_t(c.a)];
  }
  if (!c.is_wall()) {
    const std::size_t b = std::size_t(c.b);
    const Vec3 rb_centre = ndem_rows::sphere_arm_b(P.radius[b], c.overlap) * c.normal;  // p - x_b (as the sphere rows)
    if (P.body[b] >= 0) {
      r.b = {body, P.body[b]};
      rb = rb_centre + (P.position[b] - world.bodies[std::size_t(P.body[b])].position);
    } else if (pb.inv_mass[b] > 0) {
      r.b = {particle, c.b};
      rb = rb_centre;
    }
  } else if (wall_body_[std::size_t(c.wall_index())] >= 0) {
    const std::int32_t k = wall_body_[std::size_t(c.wall_index())];
    r.b = {body, k};
    rb = c.point - world.bodies[std::size_t(k)].position;
  }
}

// Frame (n, t1 from the carried tangent re-projected on the tangent plane, t2 = n x t1), the six
// Jacobians G (rows n, t1, t2 linear; t1, t2, n angular) and M^-1 G^T on each side.
void NdemBodyRows::set_jacobians(const NdemBodies& pb, const Contact& c, const Vec3& tangent, const Vec3& ra,
                                 const Vec3& rb, Row& r) const {
  const Vec3 n = c.normal;
  const Vec3 t1 = ndem_rows::frame_t1(n, tangent);
  const Vec3 t2 = ndem_rows::cross_fuse_first(n, t1);
  r.n = n;
  r.t1 = t1;
  r.t2 = t2;
  const Vec3 dirs[6] = {n, t1, t2, t1, t2, n};
  for (int k = 0; k < 6; ++k) {
    const Vec3& d = dirs[k];
    if (k < 3) {
      r.ja_l[k] = d;
      r.ja_a[k] = lever_cross(ra, d);
      r.jb_l[k] = -d;
      r.jb_a[k] = -rb.cross(d);
    } else {
      r.ja_l[k].setZero();
      r.ja_a[k] = d;
      r.jb_l[k].setZero();
      r.jb_a[k] = -d;
    }
    inv_mass_times(pb, r.a, r.ja_l[k], r.ja_a[k], r.ma_l[k], r.ma_a[k]);
    inv_mass_times(pb, r.b, r.jb_l[k], r.jb_a[k], r.mb_l[k], r.mb_a[k]);
  }
}

// (ml, ma) = M^-1 (jl, ja) of side s: zero on a kinematic side.
void NdemBodyRows::inv_mass_times(const NdemBodies& pb, const Side& s, const Vec3& jl, const Vec3& ja, Vec3& ml,
                                  Vec3& ma) const {
  if (s.kind == body) {
    ml = body_inv_mass_[std::size_t(s.index)] * jl;
    ma = body_inv_inertia_[std::size_t(s.index)] * ja;
  } else if (s.kind == particle) {
    ml = pb.inv_mass[std::size_t(s.index)] * jl;
    ma = pb.inv_inertia[std::size_t(s.index)] * ja;
  } else {
    ml.setZero();
    ma.setZero();
  }
}

// bias = -G_b (v_wall, w_wall) of a static or moving wall on side b (the frame must be set).
void NdemBodyRows::set_wall_bias(const Wall& W, const Vec3& point, Row& r) {
  ndem_rows::wall_bias(W, point, r.n, r.t1, r.t2, 6, r.bias.data());
}

// The contact law (row_setup.hpp, as the sphere rows), then the diagonals D^-1 (Jacobians must be set).
// Throws when Sigma_n is lost in rounding.
void NdemBodyRows::set_contact_law(const World& world, const NdemSettings& S, const Contact& c, Row& r) {
  const double dt = dt_;
  const NdemRowLaw law = ndem_row_law(world, S, c, upsilon_);
  const double kn = law.stiffness;
  r.s = law.s;
  r.overlap = law.overlap;
  r.stiffness = kn;
  r.sigma_n = law.sigma_n;
  r.mu = law.mu;
  r.mu_roll = law.mu_roll;
  r.mu_twist = law.mu_twist;
  if (r.mu_roll > 0 || r.mu_twist > 0) rolling_ = true;
  r.restitution = law.restitution;
  r.impact_speed = law.impact_speed;
  const double k0 = row_mass(r, 0);
  r.inv_diag[0] = 1.0 / (r.s * r.s * k0 + r.sigma_n);
  r.inv_diag_impact[0] = k0 > 0 ? 1.0 / k0 : 0.0;
  if (r.sigma_n < 1e-13 * r.s * r.s * k0)
    throw InputError(fmt::format("ndem: time_step = {} s is too large for the contact stiffness k_n = {:.3g} of a rigid-body "
                                 "contact (regularisation lost in rounding, 000 line 681); reduce the time step", dt, kn));
  for (int k = 1; k < 6; ++k) {
    const double sig = k < 3 ? sigma_t_ : sigma_r_;
    r.inv_diag[k] = r.inv_diag_impact[k] = 1.0 / (row_mass(r, k) + sig);
  }
}

std::size_t NdemBodyRows::begin_impact(const NdemBodies& particles, bool enabled) {
  for (Motor& m : motors_) m.impulse = 0;
  std::size_t count = 0;
  BodiesView view(const_cast<NdemBodies&>(particles));  // read only here
  for (Row& r : rows_) {
    r.impulse = {};
    Refs x = refs(r, view);
    r.u_minus = row_u(r, x, 0);
    r.impacting = enabled && -r.u_minus > r.impact_speed;
    if (r.impacting) ++count;
  }
  return count;
}

void NdemBodyRows::compute_q(const NdemBodies& particles) {
  BodiesView view(const_cast<NdemBodies&>(particles));  // read only here
  for (Row& r : rows_) {
    Refs x = refs(r, view);
    r.q_n = 4.0 / dt_ * upsilon_ * std::pow(r.overlap, e_h_) + upsilon_ * r.s * row_u(r, x, 0);
  }
}

void NdemBodyRows::prestep(const World& world, double dt) {
  const Vec3 g = world.gravity.at(world.time);
  for (std::size_t k = 0; k < world.bodies.size(); ++k) {
    const RigidBody& B = world.bodies[k];
    Vec3 f = B.external_force;
    if (B.gravity) f += B.mass * g;
    if (B.motor == BodyMotor::force) f += B.motor_force * B.axis;
    body_v_[k] += dt * (body_inv_mass_[k] * f);
    body_w_[k] += dt * (body_inv_inertia_[k] * B.external_torque);
  }
}

void NdemBodyRows::warm_start(const World& world, const NdemSettings& S, NdemBodies& particles) {
  for (Row& r : rows_) r.lambda = {};
  for (Motor& m : motors_) m.lambda = 0;
  const int nrows = rolling_ ? 6 : 3;
  switch (S.warm_start) {
    case NdemWarmStart::cold: return;
    case NdemWarmStart::history:
    case NdemWarmStart::history_no_velocity_update:
    case NdemWarmStart::history_normal_only: {
      const int last = S.warm_start == NdemWarmStart::history_normal_only ? 1 : nrows;
      const ModelHistory& model = world.model_history();
      for (Row& r : rows_) {
        for (int k = 0; k < std::min(last, 3); ++k) r.lambda[k] = S.warm_start_beta * model.multipliers[r.contact].lambda[k];
        for (int k = 3; k < last; ++k)  // 6 rows: angular multipliers kept (NdemStepper)
          r.lambda[k] = S.warm_start_beta * model.angular_multipliers[r.contact].lambda[k - 3];
      }
      if (S.warm_start != NdemWarmStart::history_normal_only)
        for (Motor& m : motors_) m.lambda = S.warm_start_beta * world.bodies[std::size_t(m.body)].motor_lambda;
      break;
    }
    case NdemWarmStart::model: {
      const double f = S.model_warm_start_factor >= 0 ? S.model_warm_start_factor : 1.0 / e_h_;
      for (Row& r : rows_) r.lambda[0] = f * dt_ * r.stiffness * std::pow(r.overlap, e_h_);
      break;
    }
  }
  if (S.warm_start == NdemWarmStart::history_no_velocity_update) return;
  BodiesView view(particles);
  for (Row& r : rows_) {
    Refs x = refs(r, view);
    for (int k = 0; k < nrows; ++k)
      if (r.lambda[k] != 0) row_apply(r, x, k, (k == 0 ? r.s : 1.0) * r.lambda[k]);
  }
  for (Motor& m : motors_) body_v_[std::size_t(m.body)] += m.lambda * (body_inv_mass_[std::size_t(m.body)] * m.axis);
}

// ---------------------------------------------------------------------------------------------------
namespace {
// A body row for ndem_rows::block_update: the separation rate of row k and an impulse on it through the
// sweep's row_u / row_apply (a zero impulse is not applied).
template <class U, class Apply>
struct BodyRowState {
  U& u_of;
  Apply& apply;
  template <int k>
  double u() const {
    return u_of(k);
  }
  template <int k>
  void ap(double p) {
    if (p != 0) apply(k, p);
  }
  void begin_rolling() {}
};
}  // namespace

// sweep: one projected Gauss-Seidel pass over the rows (normal, friction pair, rolling pair, twist: the
// block update of the sphere contacts, core/ndem/block_update.hpp), then the motors. Impact stage: unscaled normal, no compliance,
// target -e u- for impacting rows and 0 (G_n v+ >= 0) for the others.
PgsSweepSums NdemBodyRows::sweep(PgsVelocities& pv, bool impact, double omega, bool cone) {
  PgsSweepSums acc;
  const int nrows = rolling_ ? 6 : 3;
  for (Row& r : rows_) {
    Refs x = refs(r, pv);
    auto& L = impact ? r.impulse : r.lambda;
    const auto& D = impact ? r.inv_diag_impact : r.inv_diag;
    const double s = impact ? 1.0 : r.s;
    const double q = impact ? (r.impacting ? -r.restitution * r.u_minus : 0.0) : r.q_n;
    const double sigma = impact ? 0.0 : r.sigma_n;
    auto u = [&](int k) { return row_u(r, x, k); };
    auto apply = [&](int k, double p) { row_apply(r, x, k, p); };
    BodyRowState<decltype(u), decltype(apply)> st{u, apply};
    double oid[6];
    for (int k = 0; k < nrows; ++k) oid[k] = omega * D[k];
    const double bound[3] = {r.mu, r.mu_roll, r.mu_twist};
    ndem_rows::Accum sums;
    if (nrows == 6)
      ndem_rows::block_update<6, true>(st, L.data(), oid, bound, s, q, sigma, sigma_t_, sigma_r_, cone, sums);
    else
      ndem_rows::block_update<3, true>(st, L.data(), oid, bound, s, q, sigma, sigma_t_, sigma_r_, cone, sums);
    acc.normal += omega * sums.n;  // the kernel sums |dlambda| / (omega D^{-1})
    acc.friction += omega * sums.t;
    acc.rolling += omega * sums.r;
    ++acc.rows_normal;
    acc.rows_friction += 2;
    if (nrows == 6) acc.rows_rolling += 3;
  }
  for (Motor& m : motors_) {
    Vec3& v = body_v_[std::size_t(m.body)];
    double& l = impact ? m.impulse : m.lambda;
    const double lo = impact ? -m.bound : -m.bound - m.impulse;
    const double hi = impact ? m.bound : m.bound - m.impulse;
    const double u = m.axis.dot(v) - m.target;
    const double old = l;
    const double nl = std::clamp(old + omega * m.inv_diag * (-u), lo, hi);
    if (nl != old) v += (nl - old) * (body_inv_mass_[std::size_t(m.body)] * m.axis);
    l = nl;
    acc.normal += std::abs(nl - old) / m.inv_diag;
    ++acc.rows_normal;
  }
  return acc;
}

// ---------------------------------------------------------------------------------------------------
// write_back: body velocities -> world.bodies, contact forces (continuous + impact impulses) / Dt into
// the contacts, particles, walls and bodies, with the levers of the set-up (nothing has moved yet).
void NdemBodyRows::write_back(World& world, double dt) {
  const std::size_t nb = world.bodies.size();
  if (nb == 0) return;
  ParticleStore& P = world.particles;
  for (std::size_t k = 0; k < nb; ++k) {
    RigidBody& B = world.bodies[k];
    B.velocity = body_v_[k];
    B.angular_velocity = body_w_[k];
    B.force.setZero();
    B.torque.setZero();
  }
  std::vector<Contact>& contacts = world.contacts();
  ModelHistory& history = world.model_history();
  for (const Row& r : rows_) {
    Contact& c = contacts[r.contact];
    MultiplierHistory& m = history.multipliers[r.contact];
    double L[6];
    for (int k = 0; k < 6; ++k)
      L[k] = r.lambda[k] + r.impulse[k] / (k == 0 ? r.s : 1.0);  // impulses are 0 without an impact stage
    for (int k = 0; k < 3; ++k) m.lambda[k] = r.lambda[k];
    if (history.angular_multipliers_kept)
      for (int k = 3; k < 6; ++k) history.angular_multipliers[r.contact].lambda[k - 3] = r.lambda[k];
    m.tangent = r.t1;
    const Vec3 f = ndem_rows::contact_force(r.s * L[0], L[1], L[2], r.n, r.t1, r.t2, dt);
    const Vec3 tr = ndem_rows::contact_pure_torque(L + 3, r.n, r.t1, r.t2, dt);
    c.force = f;
    const std::size_t a = std::size_t(c.a);
    P.force[a] += f;
    P.torque[a] += ndem_rows::contact_torque(c.point - P.position[a], f, tr);
    if (r.a.kind == body) {
      RigidBody& B = world.bodies[std::size_t(r.a.index)];
      B.force += f;
      B.torque += ndem_rows::contact_torque(c.point - B.position, f, tr);
    }
    if (!c.is_wall()) {
      const std::size_t b = std::size_t(c.b);
      P.force[b] -= f;
      P.torque[b] -= ndem_rows::contact_torque(ndem_rows::sphere_arm_b(P.radius[b], c.overlap) * r.n, f, tr);
    } else {
      Wall& W = world.walls[std::size_t(c.wall_index())];
      W.force -= f;
      W.torque -= ndem_rows::contact_torque(c.point - W.rotation_center, f, tr);
    }
    if (r.b.kind == body) {
      RigidBody& B = world.bodies[std::size_t(r.b.index)];
      B.force -= f;
      B.torque -= ndem_rows::contact_torque(c.point - B.position, f, tr);
    }
  }
  for (const Motor& m : motors_) {
    RigidBody& B = world.bodies[std::size_t(m.body)];
    B.motor_lambda = m.lambda;
    B.motor_force = (m.lambda + m.impulse) / dt;
  }
}

// integrate: body pose (integrate_pose), members, attached walls.
void NdemBodyRows::integrate(World& world, double dt) {
  for (RigidBody& B : world.bodies) {
    const Vec3 x_old = B.position;
    const Quat dq = integrate_pose(B, dt);
    drive_members(B, world.particles);
    prepare_wall_advance(B, x_old, dq, dt, world.walls);
  }
}

}  // namespace grainlab
