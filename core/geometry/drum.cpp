#include "core/geometry/drum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/geometry/validate_util.hpp"

namespace grainlab {

using namespace geometry_detail;

namespace {

constexpr double two_pi = 2 * pi;
constexpr int max_features = 65535 - 3;  // feature ids are 16 bit; 0-2 are shell and caps

double wrap_angle(double a) { return a - two_pi * std::floor(a / two_pi); }
int floor_div(double x, double w) { return int(std::floor(x / w)); }
int positive_mod(int k, int n) { return ((k % n) + n) % n; }
double sq(double x) { return x * x; }

/// Closest point of p on segment a-b; returns the parameter in [0, 1].
double closest_on_segment(const double a[2], const double b[2], const double p[2], double q[2]) {
  const double ex = b[0] - a[0], ey = b[1] - a[1];
  const double u = std::clamp(((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey), 0.0, 1.0);
  q[0] = a[0] + u * ex;
  q[1] = a[1] + u * ey;
  return u;
}

double distance_to_segment(const double a[2], const double b[2], const double p[2]) {
  double q[2];
  closest_on_segment(a, b, p, q);
  return std::hypot(p[0] - q[0], p[1] - q[1]);
}

/// Unit normal of edge a-b pointing away from the third triangle vertex o.
void outward_normal(const double a[2], const double b[2], const double o[2], double n[2]) {
  double nx = -(b[1] - a[1]), ny = b[0] - a[0];
  const double len = std::hypot(nx, ny);
  nx /= len;
  ny /= len;
  if ((o[0] - a[0]) * nx + (o[1] - a[1]) * ny > 0) {
    nx = -nx;
    ny = -ny;
  }
  n[0] = nx;
  n[1] = ny;
}

void check_frame(const CylinderShape& body, const Vec3& reference, const std::string& wall) {
  validate(body, wall);
  if (body.side != CylinderShape::Side::inside) fail(wall, "drum body side", "must be inside");
  require_unit(reference, wall, "drum reference");
  if (std::abs(reference.dot(body.axis)) > 1e-9) fail(wall, "drum reference", "must be orthogonal to the axis");
}

SawtoothTexture build_sawtooth(const SawtoothParams& p, double R, const std::string& wall) {
  if (p.count < 1 || p.count > max_features)
    fail(wall, "sawtooth count", fmt::format("must be in [1, {}] (got {})", max_features, p.count));
  require_positive_finite(p.height, wall, "sawtooth height", "m");
  require_positive_finite(p.length, wall, "sawtooth length", "m");
  if (!(p.attack_angle_deg > 0 && p.attack_angle_deg <= 90))
    fail(wall, "sawtooth attack_angle_deg", fmt::format("must be in (0, 90] degrees (got {})", p.attack_angle_deg));
  const double pitch_chord = 2 * R * std::sin(pi / p.count);
  if (p.length > pitch_chord * (1 + 1e-12))
    fail(wall, "sawtooth length",
         fmt::format("{} m: {} teeth do not fit on a drum of radius {} m (at most a chord of {:.6g} m each)", p.length,
                     p.count, R, pitch_chord));
  const double alpha = p.attack_angle_deg * pi / 180;
  const double attack_run = p.height / std::tan(alpha);
  if (attack_run >= p.length)
    fail(wall, "sawtooth height",
         fmt::format("{} m with attack angle {} deg needs a base longer than the tooth length {} m", p.height,
                     p.attack_angle_deg, p.length));
  if (p.height >= 0.5 * R) fail(wall, "sawtooth height", fmt::format("must be below half the drum radius {} m", R));

  SawtoothTexture t;
  t.params = p;
  t.pitch = two_pi / p.count;
  t.cos_pitch = std::cos(t.pitch);
  t.sin_pitch = std::sin(t.pitch);
  t.base_angle = std::min(t.pitch, 2 * std::asin(std::min(1.0, p.length / (2 * R))));
  t.b0[0] = R;
  t.b0[1] = 0;
  t.b1[0] = R * std::cos(t.base_angle);
  t.b1[1] = R * std::sin(t.base_angle);
  const double chord = std::hypot(t.b1[0] - t.b0[0], t.b1[1] - t.b0[1]);
  const double tx = (t.b1[0] - t.b0[0]) / chord, ty = (t.b1[1] - t.b0[1]) / chord;
  const double nx = -ty, ny = tx;  // chord normal towards the axis (see docs/geometry.md)
  t.apex[0] = t.b0[0] + (chord - attack_run) * tx + p.height * nx;
  t.apex[1] = t.b0[1] + (chord - attack_run) * ty + p.height * ny;
  const double origin[2] = {0, 0};
  outward_normal(t.b0, t.apex, t.b1, t.n_ramp);
  outward_normal(t.apex, t.b1, t.b0, t.n_attack);
  outward_normal(t.b1, t.b0, t.apex, t.n_base);
  t.min_radius = std::min(distance_to_segment(t.b0, t.apex, origin), distance_to_segment(t.apex, t.b1, origin));
  return t;
}

/// Portable uniform double in [0, 1) from the standard-defined mt19937_64 sequence.
double uniform01(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

BumpTexture build_bumps(const BumpParams& p, const CylinderShape& body, const std::string& wall) {
  const double R = body.radius;
  if (!(p.density >= 0) || !std::isfinite(p.density)) fail(wall, "bumps density", "must be finite and >= 0 per m^2");
  require_positive_finite(p.height_min, wall, "bumps height_min", "m");
  require_positive_finite(p.height_max, wall, "bumps height_max", "m");
  if (p.height_max < p.height_min) fail(wall, "bumps height_max", "must be >= height_min");
  if (p.height_max >= 0.5 * R) fail(wall, "bumps height_max", fmt::format("must be below half the drum radius {} m", R));
  require_positive_finite(p.width, wall, "bumps width", "m");
  BumpTexture t;
  t.params = p;
  if (std::isinf(body.length)) {
    require_positive_finite(p.axial_period, wall, "bumps axial_period", "m (needed for an infinite drum)");
    t.axial_extent = p.axial_period;
    t.periodic = true;
  } else {
    t.axial_extent = body.length;
  }
  t.axial_lo = -0.5 * t.axial_extent;
  const double expected = p.density * two_pi * R * t.axial_extent;
  if (expected > max_features) fail(wall, "bumps density", fmt::format("gives {:.0f} bumps, more than {}", expected, max_features));
  const std::size_t count = std::size_t(std::llround(expected));

  std::mt19937_64 rng(p.seed);
  t.bumps.reserve(count);
  const double sigma = p.width / (2 * std::sqrt(2 * std::log(2.0)));
  for (std::size_t i = 0; i < count; ++i) {
    const double angle = two_pi * uniform01(rng);
    const double axial = t.axial_lo + t.axial_extent * uniform01(rng);
    const double h = p.height_min + (p.height_max - p.height_min) * uniform01(rng);
    Bump b{};
    b.cos_angle = std::cos(angle);
    b.sin_angle = std::sin(angle);
    b.axial = axial;
    b.height = h;
    b.base_radius = 2 * sigma;
    // Cone: tangent to the Gaussian at s = sigma, y = e^{-1/2} h; it reaches y = 0 at s = 2 sigma.
    const double m = std::exp(-0.5) * h / sigma;
    const double root = std::sqrt(1 + m * m);
    b.nu_s = m / root;
    b.nu_y = 1 / root;
    // Apex sphere: top at h, tangent to the cone line m s + y = 2 m sigma.
    b.tip_radius = (2 * m * sigma - h) / (root - 1);
    b.tip_center = h - b.tip_radius;
    // Tangent point, and its distance from the base edge (2 sigma, 0) along the side direction (-nu_y, nu_s).
    const double ts = b.tip_radius * b.nu_s, ty = b.tip_center + b.tip_radius * b.nu_y;
    b.tangent_t = -(ts - b.base_radius) * b.nu_y + ty * b.nu_s;
    b.extent = std::hypot(b.base_radius, h);
    t.bumps.push_back(b);
    t.max_extent = std::max(t.max_extent, b.extent);
  }
  t.min_apex_radius = R - p.height_max;

  // Buckets as wide as a bump's reach (Bump::extent): a particle visits about 3 x 3 cells.
  const double cell = std::max(t.max_extent, 1e-12);
  t.cells_angle = std::clamp(int(two_pi * R / cell), 1, 4096);
  t.cells_axial = std::clamp(int(t.axial_extent / cell), 1, 4096);
  const std::size_t ncell = std::size_t(t.cells_angle) * t.cells_axial;
  t.cell_start.assign(ncell + 1, 0);
  std::vector<std::uint32_t> cell_of(t.bumps.size());
  const double wa = two_pi / t.cells_angle, wz = t.axial_extent / t.cells_axial;
  for (std::size_t i = 0; i < t.bumps.size(); ++i) {
    const Bump& b = t.bumps[i];
    const int ia = std::clamp(floor_div(wrap_angle(std::atan2(b.sin_angle, b.cos_angle)), wa), 0, t.cells_angle - 1);
    const int iz = std::clamp(floor_div(b.axial - t.axial_lo, wz), 0, t.cells_axial - 1);
    cell_of[i] = std::uint32_t(ia + t.cells_angle * iz);
    ++t.cell_start[cell_of[i] + 1];
  }
  for (std::size_t k = 0; k < ncell; ++k) t.cell_start[k + 1] += t.cell_start[k];
  t.cell_items.resize(t.bumps.size());
  std::vector<std::uint32_t> fill(t.cell_start.begin(), t.cell_start.end() - 1);
  for (std::size_t i = 0; i < t.bumps.size(); ++i) t.cell_items[fill[cell_of[i]]++] = std::uint32_t(i);
  return t;
}

/// Per-particle quantities the textures share.
struct DrumPoint {
  AxialCoordinates axial;
  Vec3 radial_vector;  ///< c minus its projection on the axis
};

/// Angle of the centre in the turning frame, [0, 2 pi).
double frame_angle(const DrumShape& s, const DrumPoint& p) {
  const Vec3 w0 = s.body.axis.cross(s.reference);
  return wrap_angle(std::atan2(p.radial_vector.dot(w0), p.radial_vector.dot(s.reference)) - s.phase);
}

void shell_hit(const DrumShape& s, const DrumPoint& p, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  if (!s.slots.empty()) {
    const Vec3 e1 = s.direction_at(0);
    collide_slotted_shell(s.slots, s.body.radius, s.body.center, s.body.axis, e1, s.body.axis.cross(e1),
                          frame_angle(s, p), p.axial.z, p.axial.rho, p.axial.radial, c, r, margin, hits);
    return;
  }
  const double distance = s.body.radius - p.axial.rho;
  emit_hit(hits, -p.axial.radial, c + distance * p.axial.radial, r - distance, 0, margin);
}

void collide_texture(const DrumShape& s, const std::monostate&, const DrumPoint& p, const Vec3& c, double r, double margin,
                     std::vector<WallHit>& hits) {
  shell_hit(s, p, c, r, margin, hits);
}

void collide_texture(const DrumShape& s, const SawtoothTexture& t, const DrumPoint& p, const Vec3& c, double r,
                     double margin, std::vector<WallHit>& hits) {
  const int n = t.params.count;
  const double rho = p.axial.rho;
  const double reach = r + margin;
  if (rho + reach < t.min_radius) return;  // far from every tooth and from the shell
  const double angle = frame_angle(s, p);
  // Shell: in the gaps between tooth bases, and under a tooth for a centre beyond its base chord (driven
  // through the tooth in one large step: at Dt = 10 ms, omega = 2.5 rad/s the tips move 1 d per step).
  // There no tooth face is nearest (the closest outline point is a base corner) and without the shell the
  // sphere would leave the drum; the shell pushes it back radially.
  const double in_pitch = angle - t.pitch * std::floor(angle / t.pitch);
  const bool in_gap = in_pitch > t.base_angle && in_pitch < t.pitch;
  const double half = 0.5 * t.base_angle;
  if (in_gap || rho * std::cos(in_pitch - half) > s.body.radius * std::cos(half)) shell_hit(s, p, c, r, margin, hits);
  // Teeth whose sector [k pitch, k pitch + base_angle] lies within the angular reach of the sphere
  // (a point at angular distance delta from the centre's direction is at least rho sin(delta) away).
  const double spread = reach >= rho ? pi : std::asin(reach / rho);
  int k_lo = floor_div(angle - spread - t.base_angle, t.pitch);
  int k_hi = floor_div(angle + spread, t.pitch);
  if (k_hi - k_lo + 1 >= n) {
    k_lo = 0;
    k_hi = n - 1;
  }
  const Vec3 base = c - p.radial_vector;  // the centre's projection on the axis
  // Frame of tooth k_lo, then turned by one pitch per tooth (one sin/cos per particle).
  Vec3 e1 = s.direction_at(positive_mod(k_lo, n) * t.pitch);
  Vec3 e2 = s.body.axis.cross(e1);
  for (int k = k_lo; k <= k_hi; ++k) {
    if (k > k_lo) {
      const Vec3 next = t.cos_pitch * e1 + t.sin_pitch * e2;
      e2 = t.cos_pitch * e2 - t.sin_pitch * e1;
      e1 = next;
    }
    const int tooth = positive_mod(k, n);
    const double q2[2] = {p.radial_vector.dot(e1), p.radial_vector.dot(e2)};
    double q[2], nn[2], distance;
    if (!tooth_closest_point(t, q2, q, nn, distance)) continue;
    if (r - distance < -margin) continue;
    emit_hit(hits, nn[0] * e1 + nn[1] * e2, base + q[0] * e1 + q[1] * e2, r - distance, std::uint16_t(3 + tooth), margin);
  }
}

void collide_texture(const DrumShape& s, const BumpTexture& t, const DrumPoint& p, const Vec3& c, double r, double margin,
                     std::vector<WallHit>& hits) {
  shell_hit(s, p, c, r, margin, hits);
  const double rho = p.axial.rho;
  if (t.bumps.empty() || rho + r + margin < t.min_apex_radius) return;
  const double reach = r + margin + t.max_extent;
  const double spread = reach >= rho ? pi : std::asin(reach / rho);
  const double wa = two_pi / t.cells_angle, wz = t.axial_extent / t.cells_axial;
  const double angle = frame_angle(s, p);
  int ia_lo = floor_div(angle - spread, wa), ia_hi = floor_div(angle + spread, wa);
  if (ia_hi - ia_lo + 1 >= t.cells_angle) {
    ia_lo = 0;
    ia_hi = t.cells_angle - 1;
  }
  const double u = p.axial.z - t.axial_lo;
  int iz_lo = floor_div(u - reach, wz), iz_hi = floor_div(u + reach, wz);
  if (t.periodic) {
    if (iz_hi - iz_lo + 1 >= t.cells_axial) {
      iz_lo = 0;
      iz_hi = t.cells_axial - 1;
    }
  } else {
    iz_lo = std::max(iz_lo, 0);
    iz_hi = std::min(iz_hi, t.cells_axial - 1);
  }
  const Vec3 e1 = s.direction_at(0);
  const Vec3 e2 = s.body.axis.cross(e1);
  const Vec3 axis_point = s.body.center;
  for (int iz = iz_lo; iz <= iz_hi; ++iz) {
    const int cz = positive_mod(iz, t.cells_axial);
    for (int ia = ia_lo; ia <= ia_hi; ++ia) {
      const std::size_t cell = std::size_t(positive_mod(ia, t.cells_angle)) + std::size_t(t.cells_angle) * cz;
      for (std::uint32_t k = t.cell_start[cell]; k < t.cell_start[cell + 1]; ++k) {
        const std::uint32_t i = t.cell_items[k];
        const Bump& b = t.bumps[i];
        double dz = p.axial.z - b.axial;
        if (t.periodic) dz -= t.axial_extent * std::round(dz / t.axial_extent);  // nearest image
        const Vec3 outward = b.cos_angle * e1 + b.sin_angle * e2;
        const Vec3 foot = axis_point + (p.axial.z - dz) * s.body.axis + s.body.radius * outward;
        collide_bump(b, foot, -outward, c, r, margin, std::uint16_t(3 + i), hits);
      }
    }
  }
}

}  // namespace

Vec3 DrumShape::direction_at(double angle) const {
  const double a = phase + angle;
  return std::cos(a) * reference + std::sin(a) * body.axis.cross(reference);
}

bool tooth_closest_point(const SawtoothTexture& t, const double p[2], double q[2], double n[2], double& distance) {
  const double* n_ramp = t.n_ramp;
  const double* n_attack = t.n_attack;
  auto side = [&](const double a[2], const double nn[2]) { return (p[0] - a[0]) * nn[0] + (p[1] - a[1]) * nn[1]; };
  const double* n_base = t.n_base;
  const double s_ramp = side(t.b0, n_ramp), s_attack = side(t.apex, n_attack), s_base = side(t.b0, n_base);
  if (s_ramp <= 0 && s_attack <= 0 && s_base <= 0) {  // centre inside the tooth: out through the nearer face
    const double* nn = s_ramp >= s_attack ? n_ramp : n_attack;
    distance = std::max(s_ramp, s_attack);
    n[0] = nn[0];
    n[1] = nn[1];
    q[0] = p[0] - distance * nn[0];
    q[1] = p[1] - distance * nn[1];
    return true;
  }
  double q_ramp[2], q_attack[2];
  const double u_ramp = closest_on_segment(t.b0, t.apex, p, q_ramp);
  const double u_attack = closest_on_segment(t.apex, t.b1, p, q_attack);
  const double d_ramp = std::sqrt(sq(p[0] - q_ramp[0]) + sq(p[1] - q_ramp[1]));
  const double d_attack = std::sqrt(sq(p[0] - q_attack[0]) + sq(p[1] - q_attack[1]));
  const bool ramp = d_ramp <= d_attack;
  if (ramp ? u_ramp == 0.0 : u_attack == 1.0) return false;  // a concave base corner
  const double* qq = ramp ? q_ramp : q_attack;
  distance = ramp ? d_ramp : d_attack;
  q[0] = qq[0];
  q[1] = qq[1];
  if (distance > 0) {
    n[0] = (p[0] - q[0]) / distance;
    n[1] = (p[1] - q[1]) / distance;
  } else {
    const double* nn = ramp ? n_ramp : n_attack;
    n[0] = nn[0];
    n[1] = nn[1];
  }
  return true;
}

void collide_bump(const Bump& b, const Vec3& foot, const Vec3& inward, const Vec3& c, double r, double margin,
                  std::uint16_t feature, std::vector<WallHit>& hits) {
  const Vec3 d = c - foot;
  if (d.squaredNorm() > sq(b.extent + r + margin)) return;
  const double y = d.dot(inward);
  const Vec3 lateral = d - y * inward;
  const double s = lateral.norm();
  // Position along the cone side, from the base edge (a, 0) towards the apex.
  const double t = -(s - b.base_radius) * b.nu_y + y * b.nu_s;
  if (t > b.tangent_t) {  // apex sphere region
    const Vec3 centre = foot + b.tip_center * inward;
    const Vec3 v = c - centre;
    const double dist = v.norm();
    if (dist == 0) return;
    const Vec3 n = v / dist;
    emit_hit(hits, n, centre + b.tip_radius * n, r - (dist - b.tip_radius), feature, margin);
  } else if (t >= 0) {  // cone side (a centre inside the cone gets a negative distance)
    const double distance = (s - b.base_radius) * b.nu_s + y * b.nu_y;
    const Vec3 radial = s > 0 ? Vec3(lateral / s) : any_orthogonal(inward);
    const Vec3 n = b.nu_s * radial + b.nu_y * inward;
    emit_hit(hits, n, c - distance * n, r - distance, feature, margin);
  }
  // t < 0: the closest point is the base edge, a concave corner with the shell: the shell has it.
}

DrumShape make_smooth_drum(const CylinderShape& body, const Vec3& reference, const std::string& wall) {
  check_frame(body, reference, wall);
  DrumShape d;
  d.body = body;
  d.reference = reference;
  return d;
}

DrumShape make_sawtooth_drum(const CylinderShape& body, const Vec3& reference, const SawtoothParams& teeth,
                             const std::string& wall) {
  DrumShape d = make_smooth_drum(body, reference, wall);
  d.texture = build_sawtooth(teeth, body.radius, wall);
  return d;
}

DrumShape make_bumpy_drum(const CylinderShape& body, const Vec3& reference, const BumpParams& bumps, const std::string& wall) {
  DrumShape d = make_smooth_drum(body, reference, wall);
  d.texture = build_bumps(bumps, body, wall);
  return d;
}

void collide(const DrumShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  DrumPoint p;
  p.axial = axial_coordinates(s.body.center, s.body.axis, c);
  bool interior = false;
  collide_ends(s.body, p.axial, c, r, margin, hits, interior);
  if (!interior) return;
  p.radial_vector = (c - s.body.center) - p.axial.z * s.body.axis;
  std::visit([&](const auto& t) { collide_texture(s, t, p, c, r, margin, hits); }, s.texture);
}

void move(DrumShape& s, const RigidMotion& m) {
  if (!m.rotates) {
    s.body.center = m.point(s.body.center);
    return;
  }
  const Vec3& a = s.body.axis;
  const double spin = m.rotation_vector.dot(a);
  const Vec3 off_axis_rotation = m.rotation_vector - spin * a;
  const Vec3 centre_offset = (m.from - s.body.center) - (m.from - s.body.center).dot(a) * a;
  if (off_axis_rotation.norm() <= 1e-12 * m.rotation_vector.norm() && centre_offset.norm() <= 1e-12 * s.body.radius) {
    // Spin about the drum's own axis: the texture phase advances, the frame stays (exact).
    s.phase = std::remainder(s.phase + spin, two_pi);
    s.body.center += m.to - m.from;
    return;
  }
  s.body.center = m.point(s.body.center);
  s.body.axis = m.direction(s.body.axis);
  const Vec3 ref = m.direction(s.reference);
  s.reference = (ref - ref.dot(s.body.axis) * s.body.axis).normalized();
}

void validate(const DrumShape& s, const std::string& wall) {
  check_frame(s.body, s.reference, wall);
  if (!std::isfinite(s.phase)) fail(wall, "drum phase", "must be finite");
  if (!s.slots.empty()) {
    if (!std::holds_alternative<std::monostate>(s.texture)) fail(wall, "drum slots", "need a smooth drum (no texture)");
    validate_slots(s.slots, wall);
  }
  if (const auto* t = std::get_if<SawtoothTexture>(&s.texture)) {
    const SawtoothTexture rebuilt = build_sawtooth(t->params, s.body.radius, wall);
    if (rebuilt.pitch != t->pitch || rebuilt.min_radius != t->min_radius)
      fail(wall, "drum sawtooth", "does not match the drum radius (build it with make_sawtooth_drum)");
  }
  if (const auto* t = std::get_if<BumpTexture>(&s.texture)) {
    if (t->cell_start.size() != std::size_t(t->cells_angle) * t->cells_axial + 1)
      fail(wall, "drum bumps", "are not built (use make_bumpy_drum)");
  }
}

}  // namespace grainlab
