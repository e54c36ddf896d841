#pragma once
// NDEM constraint rows of rigid bodies (core/bodies.hpp): every touching contact that involves a body
// member or a wall attached to a body, plus the prismatic velocity-motor rows. The sphere solver
// (pgs.cpp) stays sphere-only; NdemStepper routes these contacts here (claims()) and passes this object
// as PgsOptions::extra, so its rows are swept serially after the sphere contacts in every iteration of
// both stages (one Gauss-Seidel pass in a fixed order).
//
// Rows (same formulation as the sphere rows of pgs.hpp, with general 6-DOF Jacobians): per contact the
// normal row (scaled by s = e_H delta^{e_H-1}), two friction rows, two rolling rows and a twisting row.
// A side is a free particle (scalar inverse mass and inertia, velocities read through PgsVelocities), a
// rigid body (inverse mass matrix and world inverse inertia R I_body^-1 R^T with the joint's locks), or
// kinematic (a fixed particle or a static wall: known velocity in `bias`). Lever arms are taken from the
// body's centre of mass X: r = p - X. Jacobian of a linear row with direction d: (d, r_a x d) on a,
// (-d, -(r_b x d)) on b; angular rows: (0, d) and (0, -d). Updates: lambda <- proj(lambda + omega D^-1
// (q - G v - Sigma lambda)), v += M^-1 G^T dlambda; bounds from the physical normal impulse s lambda_n
// (mu, mu_r R*, alpha mu R*), q_n, Sigma_n, Sigma_t, Sigma_r exactly as NdemStepper::setup (000 l.1520-1533).
//
// Velocity motor (prismatic body, axis a): row G = (a^T, 0) on the body, u = a.v - v_target, target
// u = 0 with no compliance, |lambda| <= F_max Dt; the bound covers the step: in the continuous stage
// lambda is clamped to [-F_max Dt - lambda_imp, F_max Dt - lambda_imp] so impact + continuous impulse stay
// within F_max Dt. Counted with the normal rows in the residual sums.
//
// Threading: serial (sweep() is called serially by the solver); state is per stepper.
#include <array>
#include <cstdint>
#include <vector>

#include "core/buffer_growth.hpp"
#include "core/ndem/ndem_settings.hpp"
#include "core/ndem/pgs.hpp"
#include "core/world.hpp"

namespace grainlab {

class NdemBodyRows final : public PgsExtraRows {
 public:
  /// Builds the rows of this step (contacts must be current; particle velocities from `particles`).
  void setup(World& world, const NdemSettings& settings, const NdemBodies& particles);
  /// Bytes held (capacities).
  std::size_t memory_bytes() const {
    return capacity_bytes(rows_) + capacity_bytes(motors_) + capacity_bytes(body_v_) + capacity_bytes(body_w_) +
           capacity_bytes(body_inv_mass_) + capacity_bytes(body_inv_inertia_) + capacity_bytes(wall_body_);
  }
  /// True when contact c belongs to these rows (touches a body member or an attached wall); valid after setup.
  bool claims(const Contact& c) const;
  /// True when there are bodies (rows, motors or bodies to integrate).
  bool active() const { return !body_v_.empty(); }

  /// Impact stage: approach rates u- of the rows and their impact flags; returns the number of impacting
  /// rows. Resets the impact multipliers (call every step before the impact stage, which may or may not
  /// run; `enabled` false: no row impacts).
  std::size_t begin_impact(const NdemBodies& particles, bool enabled);
  /// q_n = (4/Dt) Upsilon delta^{e_H} + Upsilon s G_n v+ (after the impact stage).
  void compute_q(const NdemBodies& particles);
  /// v += Dt M^-1 (m g + F_ext + F_motor), w += Dt I^-1 tau_ext for the bodies.
  void prestep(const World& world, double dt);
  /// lambda_0 per settings.warm_start (history: beta lambda(t - Dt) from MultiplierHistory::lambda and the bodies'
  /// motor_lambda; model: normal rows from the Hertz law, others 0), then v += M^-1 G^T lambda_0 unless
  /// the variant omits it.
  void warm_start(const World& world, const NdemSettings& settings, NdemBodies& particles);
  /// Writes the body velocities and stores multipliers, contact forces, particle/wall loads, body
  /// force/torque and motor force (before anything moves: the torques use the set-up's levers).
  void write_back(World& world, double dt);
  /// Integrates the bodies (integrate_pose), drives their members and prepares attached walls for
  /// world.advance_walls(dt).
  void integrate(World& world, double dt);

  PgsSweepSums sweep(PgsVelocities& particles, bool impact, double omega, bool cone) override;

  std::size_t contact_rows() const { return rows_.size(); }
  /// Body velocities as the solve left them (index = world.bodies index; model reduction reads v_{i+1}).
  const std::vector<Vec3>& body_velocities() const { return body_v_; }
  const std::vector<Vec3>& body_angular_velocities() const { return body_w_; }

 private:
  enum Kind : std::uint8_t { kinematic = 0, particle = 1, body = 2 };
  struct Side {
    Kind kind = kinematic;
    std::int32_t index = 0;
  };
  struct Row {
    std::uint32_t contact = 0;
    Side a, b;
    Vec3 n, t1, t2;
    double s = 1, overlap = 0, stiffness = 0, sigma_n = 0, q_n = 0;
    double mu = 0, mu_roll = 0, mu_twist = 0, restitution = 0, impact_speed = 0, u_minus = 0;
    bool impacting = false;
    std::array<double, 6> bias{}, inv_diag{}, inv_diag_impact{}, lambda{}, impulse{};
    std::array<Vec3, 6> ja_l, ja_a, jb_l, jb_a;  ///< G on a and b (linear, angular parts), unscaled
    std::array<Vec3, 6> ma_l, ma_a, mb_l, mb_a;  ///< M^-1 G^T per side
  };
  struct Motor {
    std::int32_t body = 0;
    Vec3 axis = Vec3::UnitZ();
    double target = 0, bound = 0, inv_diag = 0, lambda = 0, impulse = 0;
  };
  // Velocity references of one side during a sweep (kinematic sides point at scratch zeros).
  struct Refs {
    Vec3 *va, *wa, *vb, *wb;
  };
  Refs refs(const Row& r, PgsVelocities& pv);
  double row_u(const Row& r, const Refs& x, int k) const;
  static void row_apply(const Row& r, Refs& x, int k, double dl);
  double row_mass(const Row& r, int k) const;

  // setup() stages (body_rows.cpp).
  void set_compliance(const NdemSettings& settings);
  void setup_bodies(World& world, double dt);
  void set_sides(const World& world, const NdemBodies& particles, const Contact& c, Row& r, Vec3& ra, Vec3& rb) const;
  void set_jacobians(const NdemBodies& particles, const Contact& c, const Vec3& tangent, const Vec3& ra, const Vec3& rb,
                     Row& r) const;
  void inv_mass_times(const NdemBodies& particles, const Side& s, const Vec3& jl, const Vec3& ja, Vec3& ml, Vec3& ma) const;
  static void set_wall_bias(const Wall& wall, const Vec3& point, Row& r);
  void set_contact_law(const World& world, const NdemSettings& settings, const Contact& c, Row& r);

  std::vector<Row> rows_;
  std::vector<Motor> motors_;
  std::vector<Vec3> body_v_, body_w_;
  std::vector<Mat3> body_inv_mass_, body_inv_inertia_;
  std::vector<std::int32_t> wall_body_;
  const std::vector<std::int32_t>* particle_body_ = nullptr;
  bool rolling_ = false;
  double sigma_t_ = 0, sigma_r_ = 0, upsilon_ = 1, dt_ = 1, e_h_ = 1.25;
  Vec3 zero_v_ = Vec3::Zero(), zero_w_ = Vec3::Zero();
};

}  // namespace grainlab
