// Checkpoint writer/reader (format in checkpoint.hpp and docs/io.md). One `fields` function per struct
// lists its members once; ByteWriter and ByteReader walk the same list, so save and load cannot drift.
#include "core/io/checkpoint.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <variant>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/fnv1a.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/byte_archive.hpp"
#include "core/io/wall_shape_io.hpp"

namespace grainlab::io {

namespace {

// ---- Guards: a member added to a saved struct must be added to its `fields` list below (and the
// format version bumped). Each mirror repeats the struct's members; when the sizes differ the struct
// has changed and the static_assert points here.
struct ParticleStoreMirror {
  std::vector<std::uint32_t> a;
  std::vector<Vec3> b, c;
  std::vector<Quat> d;
  std::vector<Vec3> e, f, g;
  std::vector<double> h, i, j, k, l;
  std::vector<std::uint16_t> m;
  std::vector<std::uint8_t> n;
  std::vector<std::int32_t> body;
  std::uint32_t o;
};
struct BodyMemberMirror {
  std::uint32_t a;
  std::int32_t b;
  Vec3 c;
  Quat d;
};
struct RigidBodyMirror {
  double a;
  Mat3 b, c;
  Vec3 d;
  Quat e;
  Vec3 f, g, h, i, j, k;
  bool l;
  BodyJoint m;
  Vec3 n;
  BodyMotor o;
  double p, q, r, s;
  std::vector<BodyMember> t;
  std::vector<std::uint32_t> u;
};
struct MaterialMirror {
  std::string a;
  double b, c, d, e, f, g, h;
};
struct ContactMirror {
  std::uint64_t a;
  std::int32_t b, c;
  Vec3 d, e;
  double f, g;
  Vec3 m;
  std::uint32_t h;
};
struct TangentialSpringHistoryMirror {
  Vec3 i;
};
struct SpringHistoryMirror {
  Vec3 j;
  double n;
};
struct MultiplierHistoryMirror {
  Vec3 k;
  std::array<double, 3> l;
};
struct AngularMultiplierHistoryMirror {
  std::array<double, 3> l;
};
struct WallMirror {
  std::string a;
  WallShape b;
  std::uint16_t c;
  Vec3 d, e, f, g, h, i;
};
struct DetectorMirror {
  bool a;
  std::vector<Vec3> b;
  std::size_t c;
  double d;
  CollisionStats e;
  std::vector<Contact> f, g;     // scratch buffers only: no state between steps
  ModelHistory fm, gm;
  std::vector<std::int32_t> f0;  // pair particle indices: a copy of the records', cleared by restore() (or taken by the SDEM stepper)
  std::vector<std::uint32_t> f01;  // wall contacts' particle and wall: a copy of the records', cleared by restore()
  std::vector<std::uint32_t> f1;  // (from here to f9 too: collision workspace, see collision.hpp)
  std::vector<std::uint32_t> f1a, f1b, f1c;
  std::vector<double> f1d, f1e, f1f, f1g;  // the cell grid, by column
  std::vector<std::uint32_t> f1h, f1i;
  std::vector<std::vector<char>> f2, f3;
  std::vector<char> f4;
  std::vector<std::span<const char>> f5;
  std::vector<std::size_t> f6;
  std::vector<char> f7;
  bool f8;
  std::vector<std::uint16_t> f9;
  bool i;                        // static plane lists: derived, rebuilt after a restore
  std::vector<char> j;
  std::vector<PlaneShape> k;
  std::vector<std::uint32_t> l;
  std::vector<std::uint16_t> m;
  std::vector<std::uint32_t> n;
};
struct WorldMirror {
  ParticleStore a;
  MaterialTable b;
  PairOverrides pair;  // the PAIR section
  std::vector<Wall> c;
  std::vector<RigidBody> bodies;
  std::vector<Contact> d;
  ModelHistory dm;  // saved with the contacts (zero where a column is not kept)
  ContactDetector e;
  CollisionSettings f;
  Gravity g;
  double h;
  std::uint64_t i;
  int threads;  // not saved: a run setting that changes the speed only (World::threads)
  StageTimers j;
  DeferredContacts k;  // not saved: a cache of the pair state, written into the records before saving
};
static_assert(sizeof(ParticleStore) == sizeof(ParticleStoreMirror), "ParticleStore changed: update particle_fields and checkpoint_version");
static_assert(sizeof(BodyMember) == sizeof(BodyMemberMirror), "BodyMember changed: update member_fields and checkpoint_version");
static_assert(sizeof(RigidBody) == sizeof(RigidBodyMirror), "RigidBody changed: update body_fields and checkpoint_version");
static_assert(sizeof(Material) == sizeof(MaterialMirror), "Material changed: update material_fields and checkpoint_version");
static_assert(sizeof(Contact) == sizeof(ContactMirror), "Contact changed: update contact_fields and checkpoint_version");
static_assert(sizeof(TangentialSpringHistory) == sizeof(TangentialSpringHistoryMirror),
              "TangentialSpringHistory changed: update contact_fields and checkpoint_version");
static_assert(sizeof(SpringHistory) == sizeof(SpringHistoryMirror), "SpringHistory changed: update contact_fields and checkpoint_version");
static_assert(sizeof(MultiplierHistory) == sizeof(MultiplierHistoryMirror),
              "MultiplierHistory changed: update contact_fields and checkpoint_version");
static_assert(sizeof(AngularMultiplierHistory) == sizeof(AngularMultiplierHistoryMirror),
              "AngularMultiplierHistory changed: update contact_fields and checkpoint_version");
static_assert(sizeof(Wall) == sizeof(WallMirror), "Wall changed: update wall_fields and checkpoint_version");
static_assert(sizeof(ContactDetector) == sizeof(DetectorMirror), "ContactDetector changed: update DetectorState and detector_fields");
static_assert(sizeof(CollisionSettings) == sizeof(double) * 8, "CollisionSettings changed: update settings_fields");
static_assert(sizeof(Gravity) == sizeof(double) * 5, "Gravity changed: update gravity_fields");
static_assert(sizeof(StageTimers) == sizeof(double) * 6, "StageTimers changed: update timer_fields");
static_assert(sizeof(CollisionStats) == 24, "CollisionStats changed: update stats_fields");
static_assert(sizeof(PairOverride) == 4 * sizeof(std::optional<double>), "PairOverride changed: update the PAIR section and checkpoint_version");
static_assert(sizeof(World) == sizeof(WorldMirror), "World changed: save the new member in checkpoint_bytes/world_from_checkpoint");

// ---- Member lists (S is the struct or const struct; F is a ByteWriter or ByteReader).
template <class S, class F>
void particle_fields(S& p, F& f) {
  f(p.id); f(p.position); f(p.velocity); f(p.orientation); f(p.angular_velocity); f(p.force); f(p.torque);
  f(p.radius); f(p.mass); f(p.inv_mass); f(p.inertia); f(p.inv_inertia); f(p.material); f(p.flags); f(p.body);
  f(p.next_id);
}
template <class S, class F>
void mat3_fields(S& m, F& f) {
  for (int k = 0; k < 9; ++k) f(m.data()[k]);
}
template <class S, class F>
void member_fields(S& m, F& f) {
  f(m.id); f(m.index); f(m.offset); f(m.relative);
}
template <class S, class F>
void body_fields_except_lists(S& b, F& f) {
  f(b.mass); mat3_fields(b.inertia_body, f); mat3_fields(b.inv_inertia_body, f); f(b.position); f(b.orientation);
  f(b.velocity); f(b.angular_velocity); f(b.force); f(b.torque); f(b.external_force); f(b.external_torque);
  f(b.gravity); f(b.joint); f(b.axis); f(b.motor); f(b.target_speed); f(b.max_force); f(b.motor_force);
  f(b.motor_lambda);
}
template <class S, class F>
void material_fields(S& m, F& f) {
  f(m.name); f(m.density); f(m.youngs_modulus); f(m.poisson_ratio); f(m.restitution); f(m.friction);
  f(m.rolling_friction); f(m.twisting_factor);
}
template <class S, class T, class H, class M, class A, class F>
void contact_fields(S& c, T& tangential, H& s, M& m, A& angular, F& f) {
  f(c.key); f(c.a); f(c.b); f(c.normal); f(c.point); f(c.overlap); f(c.effective_radius); f(c.age);
  f(tangential.elongation); f(s.rolling_spring); f(m.tangent); f(m.lambda); f(angular.lambda); f(c.force);
  f(s.twisting_spring);
}
template <class S, class F>
void wall_fields_except_shape(S& w, F& f) {
  f(w.name); f(w.material); f(w.velocity); f(w.angular_velocity); f(w.rotation_center); f(w.surface_velocity);
  f(w.force); f(w.torque);
}
template <class S, class F>
void stats_fields(S& s, F& f) {
  f(s.rebuilds); f(s.candidates); f(s.wall_contacts);
}
template <class S, class F>
void settings_fields(S& s, F& f) {
  f(s.skin); f(s.periodic); f(s.periodic_lo); f(s.periodic_hi);
}
template <class S, class F>
void gravity_fields(S& g, F& f) {
  f(g.g); f(g.ramp_from); f(g.ramp_duration);
}
template <class S, class F>
void timer_fields(S& t, F& f) {
  f(t.collision); f(t.forces); f(t.solve); f(t.integrate); f(t.reduction); f(t.observers);
}

template <class Shape>
void check_shape() {
  static_assert(CheckpointableShape<Shape>,
                "a WallShape alternative has no shape_tag/archive_fields overload in core/io/wall_shape_io.hpp");
}

void write_shape(const WallShape& shape, ByteWriter& out) {
  out(std::uint32_t(shape.index()));
  std::visit(
      [&](const auto& s) {
        check_shape<std::decay_t<decltype(s)>>();
        out(std::string(shape_tag(s)));
        archive_fields(s, out);
      },
      shape);
}

void read_shape(WallShape& shape, ByteReader& in) {
  std::uint32_t index = 0;
  in(index);
  in.emplace_alternative(shape, index);
  std::string tag;
  in(tag);
  std::visit(
      [&](auto& s) {
        if (tag != shape_tag(s))
          in.fail(fmt::format("wall shape index {} is '{}' in the file but '{}' in this build", index, tag, shape_tag(s)));
        archive_fields(s, in);
      },
      shape);
}

constexpr char magic[8] = {'G', 'R', 'L', 'B', 'C', 'K', 'P', 'T'};
constexpr char end_magic[8] = {'C', 'K', 'P', 'T', '_', 'E', 'N', 'D'};
constexpr std::uint32_t endian_marker = 0x01020304;
constexpr std::size_t header_size = 8 + 4 * 4 + 8;
constexpr std::size_t footer_size = 8 + 8;


void check_particle_arrays(const ParticleStore& p, const std::string& where) {
  const std::size_t n = p.id.size();
  const bool ok = p.position.size() == n && p.velocity.size() == n && p.orientation.size() == n &&
                  p.angular_velocity.size() == n && p.force.size() == n && p.torque.size() == n &&
                  p.radius.size() == n && p.mass.size() == n && p.inv_mass.size() == n && p.inertia.size() == n &&
                  p.inv_inertia.size() == n && p.material.size() == n && p.flags.size() == n && p.body.size() == n;
  if (!ok) throw InputError(fmt::format("{}: particle arrays have different lengths", where));
}

}  // namespace

std::string checkpoint_bytes(const World& world) {
  check_particle_arrays(world.particles, "checkpoint");
  ByteWriter out;
  // Size estimate (avoids regrowing a large buffer): ~230 bytes per particle (incl. the detector's
  // reference position) and ~230 per contact.
  out.reserve(1024 + 256 * world.particles.size() + 240 * world.contact_count());
  out.bytes().append(header_size, '\0');  // filled in below, once the payload size is known
  out.tag("PART");
  particle_fields(world.particles, out);
  out.tag("MATL");
  out(std::uint64_t(world.materials.size()));
  for (const Material& m : world.materials) material_fields(m, out);
  out.tag("PAIR");
  out(std::uint64_t(world.pair_overrides.all().size()));
  for (const auto& [key, o] : world.pair_overrides.all()) {
    out(std::int32_t(key.first));
    out(std::int32_t(key.second));
    for (const std::optional<double>* v : {&o.restitution, &o.friction, &o.rolling_friction, &o.twisting_factor}) {
      out(std::uint8_t(v->has_value()));
      out(v->value_or(0.0));
    }
  }
  out.tag("WALL");
  out(std::uint64_t(world.walls.size()));
  for (const Wall& w : world.walls) {
    wall_fields_except_shape(w, out);
    write_shape(w.shape, out);
  }
  out.tag("BODY");
  out(std::uint64_t(world.bodies.size()));
  for (const RigidBody& b : world.bodies) {
    body_fields_except_lists(b, out);
    out(std::uint64_t(b.members.size()));
    for (const BodyMember& m : b.members) member_fields(m, out);
    out(b.walls);
  }
  out.tag("CONT");
  // As synced (World::contact): the SDEM stepper may keep the pair state outside the records.
  out(std::uint64_t(world.contact_count()));
  const ModelHistory& model = world.model_history();
  const SpringHistory no_springs;
  const MultiplierHistory no_multipliers;
  const AngularMultiplierHistory no_angular;
  for (std::size_t k = 0; k < world.contact_count(); ++k) {
    const Contact c = world.contact(k);
    const TangentialSpringHistory tangential{world.tangential_spring(k)};
    contact_fields(c, tangential, model.springs_kept ? model.springs[k] : no_springs,
                   model.multipliers_kept ? model.multipliers[k] : no_multipliers,
                   model.angular_multipliers_kept ? model.angular_multipliers[k] : no_angular, out);
  }
  out.tag("DETC");
  const DetectorState d = world.detector.state();
  out(d.valid); out(d.reference_position); out(std::uint64_t(d.pair_count)); out(d.skin);
  stats_fields(d.stats, out);
  out.tag("SETT");
  settings_fields(world.collision, out);
  out.tag("GRAV");
  gravity_fields(world.gravity, out);
  out.tag("TIME");
  out(world.time); out(world.step);
  timer_fields(world.timers, out);
  out.tag("DONE");

  const std::uint64_t payload_size = out.bytes().size() - header_size;
  ByteWriter head;
  head.bytes().append(magic, 8);
  head(checkpoint_version); head(endian_marker); head(std::uint32_t(sizeof(double))); head(std::uint32_t(0));
  head(payload_size);
  std::string file = std::move(out.bytes());
  file.replace(0, header_size, head.bytes());
  ByteWriter foot;
  foot(fnv1a64(std::string_view(file).substr(header_size)));
  foot.bytes().append(end_magic, 8);
  file += foot.bytes();
  return file;
}

namespace {

[[noreturn]] void fail_checkpoint(const std::string& source, const std::string& why) {
  throw InputError(fmt::format("checkpoint '{}': {}", source, why));
}

// The header, size, end marker and checksum around the payload; returns the payload.
std::string_view checked_payload(std::string_view bytes, const std::string& source) {
  auto fail = [&](const std::string& why) { fail_checkpoint(source, why); };
  if (bytes.size() < 8 || std::memcmp(bytes.data(), magic, 8) != 0)
    fail("not a grainlab checkpoint (magic bytes 'GRLBCKPT' missing)");
  if (bytes.size() < header_size) fail(fmt::format("truncated: {} bytes, the header alone has {}", bytes.size(), header_size));
  ByteReader head(bytes.data(), 8, header_size, source);
  std::uint32_t version = 0, marker = 0, dsize = 0, reserved = 0;
  std::uint64_t payload_size = 0;
  head(version); head(marker); head(dsize); head(reserved); head(payload_size);
  if (version != checkpoint_version)
    fail(fmt::format("format version {} is not supported (this build reads version {})", version, checkpoint_version));
  if (marker != endian_marker) fail("byte order differs from this machine's (file from a big-endian machine?)");
  if (dsize != sizeof(double)) fail(fmt::format("written with {}-byte doubles, this build uses {}", dsize, sizeof(double)));
  const std::uint64_t expected = header_size + payload_size + footer_size;
  if (bytes.size() < expected)
    fail(fmt::format("truncated: {} bytes, the header announces {} (payload {} bytes)", bytes.size(), expected, payload_size));
  if (bytes.size() > expected)
    fail(fmt::format("{} trailing bytes after the end of the checkpoint", bytes.size() - expected));
  const std::string_view payload = bytes.substr(header_size, payload_size);
  ByteReader foot(bytes.data(), header_size + payload_size, bytes.size(), source);
  std::uint64_t hash = 0;
  foot(hash);
  if (std::memcmp(bytes.data() + header_size + payload_size + 8, end_magic, 8) != 0) fail("end marker 'CKPT_END' missing");
  if (hash != fnv1a64(payload)) fail("checksum mismatch: the file is corrupt");
  return payload;
}

// The payload's tagged sections, in the order checkpoint_bytes writes them.
void read_sections(ByteReader& in, World& world, const std::string& source) {
  in.tag("PART");
  particle_fields(world.particles, in);
  check_particle_arrays(world.particles, fmt::format("checkpoint '{}'", source));
  auto count = [&](const char* what, std::size_t min_bytes) {
    std::uint64_t n = 0;
    in(n);
    if (n * min_bytes > in.remaining()) in.fail(fmt::format("{} count {} exceeds the data left", what, n));
    return std::size_t(n);
  };
  in.tag("MATL");
  world.materials.resize(count("material", 8));
  for (Material& m : world.materials) material_fields(m, in);
  in.tag("PAIR");
  world.pair_overrides = PairOverrides{};
  for (std::size_t k = count("pair override", 44); k > 0; --k) {
    std::int32_t a = 0, b = 0;
    in(a);
    in(b);
    PairOverride o;
    for (std::optional<double>* v : {&o.restitution, &o.friction, &o.rolling_friction, &o.twisting_factor}) {
      std::uint8_t has = 0;
      double value = 0;
      in(has);
      in(value);
      if (has) *v = value;
    }
    if (a < 0 || b < 0 || std::size_t(a) >= world.materials.size() || std::size_t(b) >= world.materials.size())
      in.fail(fmt::format("pair override of materials {} and {}: no such material ({} materials)", a, b,
                          world.materials.size()));
    world.pair_overrides.set(a, b, o);  // validates the values, as for a world built in code
  }
  in.tag("WALL");
  world.walls.resize(count("wall", 8));
  for (Wall& w : world.walls) {
    wall_fields_except_shape(w, in);
    read_shape(w.shape, in);
  }
  in.tag("BODY");
  world.bodies.resize(count("body", 8));
  for (RigidBody& b : world.bodies) {
    body_fields_except_lists(b, in);
    b.members.resize(count("body member", 8));
    for (BodyMember& m : b.members) member_fields(m, in);
    in(b.walls);
  }
  in.tag("CONT");
  world.contacts().resize(count("contact", 8));
  std::vector<TangentialSpringHistory> tangential(world.contacts().size());
  std::vector<SpringHistory> springs(tangential.size());
  std::vector<MultiplierHistory> multipliers(tangential.size());
  std::vector<AngularMultiplierHistory> angular(tangential.size());
  for (std::size_t k = 0; k < tangential.size(); ++k)
    contact_fields(world.contacts()[k], tangential[k], springs[k], multipliers[k], angular[k], in);
  // A column is kept when it holds anything (a stepper that needs it asks for it again, zero-filled).
  auto nonzero = [](const auto& column) {
    const std::decay_t<decltype(column[0])> zero;
    return std::any_of(column.begin(), column.end(), [&](const auto& x) { return std::memcmp(&x, &zero, sizeof x) != 0; });
  };
  if (nonzero(tangential)) world.keep_tangential_springs(), world.model_history().tangential_springs = std::move(tangential);
  if (nonzero(springs)) world.keep_springs(), world.model_history().springs = std::move(springs);
  if (nonzero(multipliers)) world.keep_multipliers(), world.model_history().multipliers = std::move(multipliers);
  if (nonzero(angular)) world.keep_angular_multipliers(), world.model_history().angular_multipliers = std::move(angular);
  in.tag("DETC");
  DetectorState d;
  std::uint64_t pair_count = 0;
  in(d.valid); in(d.reference_position); in(pair_count); in(d.skin);
  stats_fields(d.stats, in);
  if (pair_count > world.contacts().size())
    in.fail(fmt::format("detector pair count {} exceeds the {} contacts", pair_count, world.contacts().size()));
  d.pair_count = std::size_t(pair_count);
  world.detector.restore(std::move(d));
  in.tag("SETT");
  settings_fields(world.collision, in);
  in.tag("GRAV");
  gravity_fields(world.gravity, in);
  in.tag("TIME");
  in(world.time); in(world.step);
  timer_fields(world.timers, in);
  in.tag("DONE");
  if (in.remaining() != 0) in.fail(fmt::format("{} unread bytes at the end of the payload", in.remaining()));

}

// Indices between the sections (a valid hash makes these failures unlikely, but they would crash later).
void check_indices(const World& world, const std::string& source) {
  auto fail = [&](const std::string& why) { fail_checkpoint(source, why); };
  const std::size_t n = world.particles.size();
  for (std::size_t i = 0; i < n; ++i)
    if (world.particles.material[i] >= world.materials.size())
      fail(fmt::format("particle id {} refers to material {} of {}", world.particles.id[i], world.particles.material[i],
                       world.materials.size()));
  for (std::size_t i = 0; i < n; ++i)
    if (world.particles.body[i] < -1 || world.particles.body[i] >= std::int32_t(world.bodies.size()))
      fail(fmt::format("particle id {} refers to body {} of {}", world.particles.id[i], world.particles.body[i], world.bodies.size()));
  for (const RigidBody& b : world.bodies) {
    for (const BodyMember& m : b.members)
      if (m.index < 0 || std::size_t(m.index) >= n) fail(fmt::format("a body member refers to particle index {} of {}", m.index, n));
    for (std::uint32_t w : b.walls)
      if (w >= world.walls.size()) fail(fmt::format("a body refers to wall {} of {}", w, world.walls.size()));
  }
  for (const Contact& c : world.contacts()) {
    const bool bad_b = c.b >= 0 ? std::size_t(c.b) >= n : std::size_t(c.wall_index()) >= world.walls.size();
    if (c.a < 0 || std::size_t(c.a) >= n || bad_b) fail(fmt::format("contact key {} refers to a missing body", c.key));
  }
}

}  // namespace

World world_from_checkpoint(std::string_view bytes, const std::string& source) {
  const std::string_view payload = checked_payload(bytes, source);
  World world;
  ByteReader in(bytes.data(), header_size, header_size + payload.size(), source);
  read_sections(in, world, source);
  check_indices(world, source);
  return world;
}

void save_checkpoint(const World& world, const std::filesystem::path& path, Overwrite overwrite) {
  if (overwrite == Overwrite::forbid && std::filesystem::exists(path))
    throw InputError(fmt::format("checkpoint '{}' exists already; pass Overwrite::allow to replace it", path.string()));
  write_file_atomically(path, checkpoint_bytes(world));
}

World load_checkpoint(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) throw InputError(fmt::format("checkpoint '{}' cannot be opened", path.string()));
  std::string bytes(std::size_t(file.tellg()), '\0');
  file.seekg(0);
  if (!file.read(bytes.data(), std::streamsize(bytes.size())))
    throw InputError(fmt::format("checkpoint '{}' cannot be read", path.string()));
  return world_from_checkpoint(bytes, path.string());
}

}  // namespace grainlab::io
