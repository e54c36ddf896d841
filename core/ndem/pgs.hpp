#pragma once
// Constraint rows and the projected Gauss-Seidel kernel of the NDEM stepper.
//
// Sign convention (one for the engine, see docs/ndem.md): per contact, n points from body b to body a
// (core/contacts.hpp), delta >= 0 is the overlap, u = G v is the SEPARATION rate (positive when a
// moves away from b), lambda_n >= 0 is repulsive, and the impulse G^T lambda is applied to a and
// with the opposite sign to b. The semi-smooth normal row uses the gap-type constraint
// phi = -delta^{e_H}, whose Jacobian is the scaled normal s G_n with s = e_H delta^{e_H-1}. Every row
// is updated as  lambda <- proj(lambda + omega D^{-1} (q - G v - Sigma lambda)),  v += M^{-1} G^T dlambda
// (000 Algorithm 1, line 1494, with the sign slip and the missing Sigma lambda of Eq. 6 corrected).
//
// Layout: NdemRows is a structure of arrays, one entry per contact, rows of a contact solved in the order
// normal, friction t1, t2, rolling t1, t2, twisting n. Kinematic walls enter as a known velocity (`bias`).
// The solve itself copies what the sweep reads into compact records in sweep order (particle pairs:
// frame and two lever arms; walls and other contacts: the full Jacobian) and one 64-byte record per body
// (pgs.cpp, "Packed sweep"), and copies multipliers and velocities back.
// Threading: serial over the contact order, or (PgsOptions::colouring) TBB parallel inside each colour of
// a greedy graph colouring; both bitwise deterministic, the coloured one for any thread count.
#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "core/math.hpp"
#include "core/ndem/ndem_settings.hpp"
#include "core/ndem/row_levers.hpp"

namespace grainlab {

/// Body velocities and inverse inertia the solver works on (spheres: scalar inertia).
struct NdemBodies {
  std::vector<Vec3> v, w;
  std::vector<double> inv_mass, inv_inertia;
};

struct NdemRows {
  std::size_t size() const { return a.size(); }
  /// Sizes the columns for n contacts, the last `walls` of them wall contacts. The angular rows' inputs (rows
  /// 3-5 of bias and inv_diag, mu_roll, mu_twist) only with `angular_columns`: a 3-row solve never reads them,
  /// and they are released.
  void resize(std::size_t n, std::size_t walls, bool angular_columns);
  std::size_t memory_bytes() const;  ///< bytes held (capacities)
  /// The frame's third direction n x t1 of contact c, as the set-up rounds it (row_levers.hpp).
  Vec3 t2_of(std::size_t c) const { return ndem_rows::frame_t2(n[c], t1[c]); }
  /// The lever arm p - x_b of contact c: on the line of centres for a particle, zero for a wall.
  Vec3 rb_of(std::size_t c) const { return b[c] >= 0 ? Vec3(arm_b[c] * n[c]) : Vec3::Zero(); }
  /// The known part of G_r v from the wall's motion, row r of contact c (unscaled; zero for a particle pair).
  double bias_of(int r, std::size_t c) const { return c < first_wall ? 0.0 : bias[r][c - first_wall]; }

  std::vector<std::int32_t> a, b;          ///< body indices; b = -1: kinematic (wall) body
  std::vector<std::uint32_t> contact;      ///< index into World::contacts
  std::vector<Vec3> n, t1;                 ///< contact frame (t2: t2_of)
  std::vector<Vec3> ra;                    ///< lever arm p - x_a; x dir: row_levers.hpp
  std::vector<double> arm_b;               ///< r_b - delta / 2 (0 for walls): p - x_b = arm_b n (rb_of)
  std::vector<double> scale;               ///< s = e_H max(delta, floor)^{e_H - 1}
  std::vector<double> overlap;             ///< delta
  std::vector<double> stiffness;           ///< k_n (Hertz N/m^{3/2}, linear N/m)
  std::vector<double> sigma_n;             ///< Sigma_n = (4/Dt^2) eps_n Upsilon
  std::vector<double> q_n;                 ///< rhs of the normal row, continuous stage
  std::vector<double> mu, mu_roll, mu_twist;  ///< bound factors: |lambda_t| <= mu s lambda_n, ...
  std::vector<double> restitution, impact_speed;  ///< e and v_imp of the contact
  std::size_t first_wall = 0;              ///< rows [first_wall, size()) are the wall contacts (listed last)
  std::array<std::vector<double>, 6> bias; ///< bias_of for the wall rows only: row c at c - first_wall
  std::array<std::vector<double>, 6> inv_diag;   ///< continuous stage D^{-1} per row
  std::array<std::vector<double>, 6> lambda;     ///< multipliers (normal, t1, t2, r1, r2, twist)
  bool angular_columns = false;            ///< rows 3-5 are stored (resize); `rolling` needs them
  bool rolling = false;                    ///< rolling/twisting rows present (any mu_r > 0 or alpha > 0)
  double sigma_t = 0, sigma_r = 0;         ///< gamma_t / Dt, gamma_r / Dt
};

/// Separation rate G_r v (unscaled, the wall's motion included) of row r (0..5) of contact c for velocities
/// `bodies`, as the solver computes it.
double ndem_row_velocity(const NdemRows& rows, const NdemBodies& bodies, std::size_t c, int r);
/// Separation rate (unscaled) of the normal row of contact c.
inline double normal_velocity(const NdemRows& rows, const NdemBodies& bodies, std::size_t c) {
  return ndem_row_velocity(rows, bodies, c, 0);
}

/// G_r M^{-1} G_r^T of row r (0..5) of contact c, unscaled (for D^{-1}).
double ndem_row_mass(const NdemRows& rows, const NdemBodies& bodies, std::size_t c, int r);

/// Bytes of the packed per-contact record the sweep streams for a particle-particle contact (copied from
/// NdemRows at the start of each solve, in sweep order; see pgs.cpp), for `rolling` = 6 rows or 3 rows;
/// wall contacts use pgs_packed_bytes_per_general_contact; plus pgs_packed_bytes_per_body per body.
/// Reported by bench/ndem_pgs.cpp as solver memory.
std::size_t pgs_packed_bytes_per_contact(bool rolling);
std::size_t pgs_packed_bytes_per_general_contact(bool rolling);
inline constexpr std::size_t pgs_packed_bytes_per_body = 64;

/// Bytes held by the calling thread's solver scratch for 6-row (`rolling`) or 3-row solves (plain and
/// four-lane packed records, body records), kept between solves.
std::size_t pgs_thread_scratch_bytes(bool rolling);

/// Applies M^{-1} G^T lambda of all rows to the bodies (warm-start velocity update, Eq. 8).
void apply_impulses(const NdemRows& rows, NdemBodies& bodies);

/// Graph colouring of the contacts for the parallel sweep: order[start[g] .. start[g+1]) are the
/// contacts of colour g (no shared particle), the last group is the overflow set (solved serially).
struct NdemColouring {
  std::vector<std::uint32_t> order;
  std::vector<std::size_t> start;
  int colours_used = 0;
  std::size_t overflow = 0;
  void build(const NdemRows& rows, std::size_t num_bodies, int max_colours);
};

/// Velocities of the particles as a running solve holds them (the sphere sweep keeps its own packed
/// copy; see pgs.cpp). Index = particle index. For PgsExtraRows only: not thread-safe.
class PgsVelocities {
 public:
  virtual Vec3& v(std::size_t particle) = 0;
  virtual Vec3& w(std::size_t particle) = 0;

 protected:
  ~PgsVelocities() = default;
};

/// Residual sums of one sweep, per constraint type: sum of |dlambda| / D^{-1} (m/s per row), and the
/// number of rows each sum runs over.
struct PgsSweepSums {
  double normal = 0, friction = 0, rolling = 0;
  std::size_t rows_normal = 0, rows_friction = 0, rows_rolling = 0;
};

/// Rows the sphere sweep does not cover (contacts of rigid bodies and dynamic walls, motor rows; see
/// core/ndem/body_rows.hpp). Both stages call sweep() once per iteration, serially, right after the
/// sphere contacts (also when there are no sphere contacts), so the whole iteration stays one
/// Gauss-Seidel pass in a fixed order. `impact` selects the stage: the implementation keeps the
/// multipliers of each stage itself.
class PgsExtraRows {
 public:
  virtual ~PgsExtraRows() = default;
  virtual PgsSweepSums sweep(PgsVelocities& particles, bool impact, double omega, bool cone) = 0;
};

struct PgsOptions {
  int iterations = 1;
  double tolerance = 0;
  double omega = 1;
  bool cone = false;
  bool record_residuals = false;
  /// Called after each iteration k (1-based) when set.
  std::function<void(int)> after_iteration;
  /// When set: coloured sweeps, TBB parallel per colour (deterministic for any thread count, but a
  /// different Gauss-Seidel order than the serial sweep). Null: serial sweep in contact order.
  const NdemColouring* colouring = nullptr;
  /// When set (serial sweep only; ignored with `colouring`): every iteration visits the contacts in a
  /// fresh random permutation drawn from this generator (NdemContactOrder::random). Null: contact order.
  std::mt19937_64* shuffle = nullptr;
  /// Rows outside the sphere sweep, swept after it in every iteration (see PgsExtraRows). Null: none.
  PgsExtraRows* extra = nullptr;
  /// Testing aid: sweep every contact with the general record (full Jacobian per row) instead of the
  /// compact particle-pair record, which must give the same result up to rounding (tests/ndem).
  bool general_records_only = false;
  /// Testing aid, the plain reference path: the groups and chunks of a coloured sweep run one after
  /// another on the calling thread (no parallel_for). The parallel path gives the same result bit for bit
  /// (tests/ndem/column_test.cpp), so a change to the schedule can be checked.
  bool reference_path = false;
};

struct PgsResult {
  int iterations = 0;
  double final_residual = 0;
  std::vector<double> residual_normal, residual_friction, residual_rolling;
};

/// Continuous (SPOOK) stage: iterates on rows.lambda and bodies starting from their current values.
PgsResult solve_continuous(NdemRows& rows, NdemBodies& bodies, const PgsOptions& options);

/// Impact stage (000 l.744-760): contacts flagged in `impacting` get G_n v+ = -e G_n v- (unscaled
/// normal, u_minus their approach rates), the others G_n v+ >= 0; friction and rolling rows keep
/// G v+ = 0 within bounds from this stage's normal impulse. Multipliers start at 0 and are returned
/// in `impulse` (rows 0-2, and 3-5 with rolling rows; the others are left empty); bodies are updated in place.
PgsResult solve_impact(const NdemRows& rows, const std::vector<char>& impacting, const std::vector<double>& u_minus,
                       NdemBodies& bodies, const PgsOptions& options, std::array<std::vector<double>, 6>& impulse);

}  // namespace grainlab
