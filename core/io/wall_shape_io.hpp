#pragma once
// How each WallShape alternative is saved in a checkpoint: a stable tag (written to the file, checked on
// load) and the list of its data members. Adding a shape to the WallShape variant (core/walls.hpp)
// needs exactly one `shape_tag` and one `shape_fields` overload here; without them the checkpoint code
// does not compile (static_assert in checkpoint.cpp names the missing overload).
//
// shape_fields(s, f) calls f(member) for every member in a fixed order; f is a ByteWriter or ByteReader
// (core/io/byte_archive.hpp), so members may be double, integers, Vec3, Quat, std::string, std::array
// or std::vector of those.
#include <type_traits>

#include "core/walls.hpp"

namespace grainlab::io {

inline const char* shape_tag(const PlaneShape&) { return "plane"; }
template <class S, class F>
  requires std::is_same_v<std::remove_const_t<S>, PlaneShape>
void shape_fields(S& s, F&& f) {
  f(s.point);
  f(s.normal);
}

/// True when a shape type has both overloads above.
template <class S>
concept CheckpointableShape = requires(S& s, const S& cs) {
  { shape_tag(cs) };
  shape_fields(s, [](auto&) {});
};

}  // namespace grainlab::io
