#pragma once
// How each WallShape alternative is saved in a checkpoint: a stable tag (written to the file, checked on
// load) and the list of its data members. Adding a shape to the WallShape variant (core/walls.hpp)
// needs exactly one `shape_tag` and one `archive_fields` overload here (plus a mirror static_assert so
// a later member addition is noticed); without them the checkpoint code does not compile
// (static_assert in checkpoint.cpp names this file).
//
// archive_fields(s, f) calls f(member) for every member in a fixed order; f is a ByteWriter or
// ByteReader (core/io/byte_archive.hpp), so members may be arithmetic, enums, Vec3, Quat, strings,
// std::array / C arrays / std::vector, std::variant, or structs with their own archive_fields. The
// overloads live in namespace grainlab (the shapes' namespace) so the archives find them by ADL.
// Covered: plane, rectangle, box, cylinder and drum (smooth, sawtooth or bump texture, with all
// precomputed texture data, so a reloaded drum is bitwise the saved one).
#include <concepts>
#include <type_traits>

#include "core/io/byte_archive.hpp"
#include "core/walls.hpp"

namespace grainlab {

/// True for S = T or const T: one template serves saving (const) and loading.
template <class S, class T>
concept SameOrConst = std::is_same_v<std::remove_const_t<S>, T>;

inline const char* shape_tag(const PlaneShape&) { return "plane"; }
template <SameOrConst<PlaneShape> S, class F>
void archive_fields(S& s, F& f) {
  f(s.point); f(s.normal);
}

inline const char* shape_tag(const RectangleShape&) { return "rectangle"; }
template <SameOrConst<RectangleShape> S, class F>
void archive_fields(S& s, F& f) {
  f(s.center); f(s.normal); f(s.u_axis); f(s.half_u); f(s.half_v);
}

inline const char* shape_tag(const BoxShape&) { return "box"; }
template <SameOrConst<BoxShape> S, class F>
void archive_fields(S& s, F& f) {
  f(s.center); f(s.half_extents); f(s.orientation); f(s.open_faces);
}

inline const char* shape_tag(const CylinderShape&) { return "cylinder"; }
template <SameOrConst<CylinderShape> S, class F>
void archive_fields(S& s, F& f) {
  f(s.center); f(s.axis); f(s.radius); f(s.length); f(s.cap_lo); f(s.cap_hi); f(s.side); f(s.polygon_faces);
  f(s.reference);
}

template <SameOrConst<SawtoothParams> S, class F>
void archive_fields(S& s, F& f) {
  f(s.count); f(s.height); f(s.length); f(s.attack_angle_deg);
}
template <SameOrConst<BumpParams> S, class F>
void archive_fields(S& s, F& f) {
  f(s.density); f(s.height_min); f(s.height_max); f(s.width); f(s.seed); f(s.axial_period);
}
template <SameOrConst<SawtoothTexture> S, class F>
void archive_fields(S& s, F& f) {
  f(s.params); f(s.pitch); f(s.cos_pitch); f(s.sin_pitch); f(s.base_angle); f(s.min_radius); f(s.b0); f(s.apex);
  f(s.b1); f(s.n_ramp); f(s.n_attack); f(s.n_base);
}
template <SameOrConst<Bump> S, class F>
void archive_fields(S& s, F& f) {
  f(s.cos_angle); f(s.sin_angle); f(s.axial); f(s.height); f(s.base_radius); f(s.tip_radius); f(s.tip_center);
  f(s.nu_s); f(s.nu_y); f(s.tangent_t); f(s.extent);
}
template <SameOrConst<BumpTexture> S, class F>
void archive_fields(S& s, F& f) {
  f(s.params); f(s.bumps); f(s.axial_lo); f(s.axial_extent); f(s.periodic); f(s.max_extent);
  f(s.min_apex_radius); f(s.cells_angle); f(s.cells_axial); f(s.cell_start); f(s.cell_items);
}

template <SameOrConst<ShellSlot> S, class F>
void archive_fields(S& s, F& f) {
  f(s.u_start); f(s.z_start); f(s.bisector); f(s.base_width); f(s.widening); f(s.length);
}

inline const char* shape_tag(const DrumShape&) { return "drum"; }
template <SameOrConst<DrumShape> S, class F>
void archive_fields(S& s, F& f) {
  f(s.body); f(s.reference); f(s.phase); f(s.texture); f(s.slots);
}

namespace io::detail {
// Member mirrors: when a geometry struct gains a member, its size changes and the build stops here.
struct RectangleMirror { Vec3 a, b, c; double d, e; };
struct BoxMirror { Vec3 a, b; Quat c; std::uint8_t d; };
struct CylinderMirror { Vec3 a, b; double c, d; bool e, f; CylinderShape::Side g; int h; Vec3 i; };
struct SawtoothParamsMirror { int a; double b, c, d; };
struct BumpParamsMirror { double a, b, c, d; std::uint64_t e; double f; };
struct SawtoothTextureMirror { SawtoothParams a; double b, c, d, e, f; double g[2], h[2], i[2], j[2], k[2], l[2]; };
struct BumpMirror { double a, b, c, d, e, f, g, h, i, j, k; };
struct BumpTextureMirror {
  BumpParams a; std::vector<Bump> b; double c, d; bool e; double f, g; int h, i;
  std::vector<std::uint32_t> j, k;
};
struct ShellSlotMirror { double a, b, c, d, e, f; };
struct DrumMirror {
  CylinderShape a; Vec3 b; double c; std::variant<std::monostate, SawtoothTexture, BumpTexture> d; std::vector<ShellSlot> e;
};
static_assert(sizeof(ShellSlot) == sizeof(ShellSlotMirror), "ShellSlot changed: update core/io/wall_shape_io.hpp");
static_assert(sizeof(RectangleShape) == sizeof(RectangleMirror), "RectangleShape changed: update archive_fields in core/io/wall_shape_io.hpp");
static_assert(sizeof(BoxShape) == sizeof(BoxMirror), "BoxShape changed: update archive_fields in core/io/wall_shape_io.hpp");
static_assert(sizeof(CylinderShape) == sizeof(CylinderMirror), "CylinderShape changed: update archive_fields in core/io/wall_shape_io.hpp");
static_assert(sizeof(SawtoothParams) == sizeof(SawtoothParamsMirror), "SawtoothParams changed: update core/io/wall_shape_io.hpp");
static_assert(sizeof(BumpParams) == sizeof(BumpParamsMirror), "BumpParams changed: update core/io/wall_shape_io.hpp");
static_assert(sizeof(SawtoothTexture) == sizeof(SawtoothTextureMirror), "SawtoothTexture changed: update core/io/wall_shape_io.hpp");
static_assert(sizeof(Bump) == sizeof(BumpMirror), "Bump changed: update core/io/wall_shape_io.hpp");
static_assert(sizeof(BumpTexture) == sizeof(BumpTextureMirror), "BumpTexture changed: update core/io/wall_shape_io.hpp");
static_assert(sizeof(DrumShape) == sizeof(DrumMirror), "DrumShape changed: update archive_fields in core/io/wall_shape_io.hpp");
}  // namespace io::detail

namespace io::detail {
struct PlaneMirror { Vec3 a, b; };
static_assert(sizeof(PlaneShape) == sizeof(PlaneMirror), "PlaneShape changed: update archive_fields in core/io/wall_shape_io.hpp");
}  // namespace io::detail

}  // namespace grainlab

namespace grainlab::io {

/// True when a shape type has a tag and a member list for both directions.
template <class S>
concept CheckpointableShape = requires(S& s, const S& cs, ByteWriter& w, ByteReader& r) {
  { shape_tag(cs) } -> std::convertible_to<const char*>;
  archive_fields(cs, w);
  archive_fields(s, r);
};

}  // namespace grainlab::io
