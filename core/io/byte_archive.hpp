#pragma once
// Little-endian raw byte archives used by the checkpoint format (core/io/checkpoint.*).
//
// ByteWriter appends values to a byte string; ByteReader reads them back with bounds checks and throws
// InputError naming the file, the section and the byte offset when the data ends early or is
// inconsistent. Both expose the same call operator for every supported type, so one `fields(obj, f)`
// function per struct serves both directions (see checkpoint.cpp): arithmetic types and enums (raw
// bytes), Vec3 (x, y, z), Quat (x, y, z, w), std::string, std::array and std::vector of those
// (u64 count first), C arrays, std::variant (u32 index, then the alternative; std::monostate is empty)
// and any struct with an `archive_fields(obj, archive)` overload found by argument-dependent lookup
// (declared in the struct's namespace; see core/io/wall_shape_io.hpp). Doubles are written as their
// IEEE-754 bytes, so a round trip is bitwise exact.
//
// Threading: none; an archive is used by one thread.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/math.hpp"

namespace grainlab::io {

static_assert(std::endian::native == std::endian::little,
              "the checkpoint format stores little-endian bytes; add byte swapping for a big-endian host");

class ByteWriter {
 public:
  template <class T>
    requires(std::is_arithmetic_v<T> || std::is_enum_v<T>)
  void operator()(const T& v) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    buffer_.append(bytes, sizeof(T));
  }
  void operator()(const Vec3& v) {
    for (int k = 0; k < 3; ++k) (*this)(v[k]);
  }
  void operator()(const Quat& q) {
    for (int k = 0; k < 4; ++k) (*this)(q.coeffs()[k]);
  }
  void operator()(const std::string& s) {
    (*this)(std::uint64_t(s.size()));
    buffer_.append(s);
  }
  template <class T, std::size_t N>
  void operator()(const std::array<T, N>& a) {
    for (const T& x : a) (*this)(x);
  }
  template <class T>
  void operator()(const std::vector<T>& v) {
    (*this)(std::uint64_t(v.size()));
    if constexpr (std::is_arithmetic_v<T>) buffer_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    else for (const T& x : v) (*this)(x);
  }
  template <class T, std::size_t N>
  void operator()(const T (&a)[N]) {
    for (const T& x : a) (*this)(x);
  }
  void operator()(const std::monostate&) {}
  template <class... Ts>
  void operator()(const std::variant<Ts...>& v) {
    (*this)(std::uint32_t(v.index()));
    std::visit([&](const auto& x) { (*this)(x); }, v);
  }
  template <class T>
    requires requires(const T& x, ByteWriter& w) { archive_fields(x, w); }
  void operator()(const T& x) {
    archive_fields(x, *this);
  }
  void reserve(std::size_t bytes) { buffer_.reserve(bytes); }
  /// A four-character section tag (catches a reader that lost its place).
  void tag(const char (&t)[5]) { buffer_.append(t, 4); }

  const std::string& bytes() const { return buffer_; }
  std::string& bytes() { return buffer_; }

 private:
  std::string buffer_;
};

class ByteReader {
 public:
  /// Reads from data[begin, end); `source` (the file name) appears in every error message.
  ByteReader(const char* data, std::size_t begin, std::size_t end, std::string source)
      : data_(data), pos_(begin), end_(end), source_(std::move(source)) {}

  template <class T>
    requires(std::is_arithmetic_v<T> || std::is_enum_v<T>)
  void operator()(T& v) {
    need(sizeof(T), "a value");
    std::memcpy(&v, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
  }
  void operator()(Vec3& v) {
    for (int k = 0; k < 3; ++k) (*this)(v[k]);
  }
  void operator()(Quat& q) {
    for (int k = 0; k < 4; ++k) (*this)(q.coeffs()[k]);
  }
  void operator()(std::string& s) {
    std::uint64_t n = 0;
    (*this)(n);
    need(n, "a string");
    s.assign(data_ + pos_, std::size_t(n));
    pos_ += std::size_t(n);
  }
  template <class T, std::size_t N>
  void operator()(std::array<T, N>& a) {
    for (T& x : a) (*this)(x);
  }
  template <class T>
  void operator()(std::vector<T>& v) {
    std::uint64_t n = 0;
    (*this)(n);
    if (n > remaining()) fail(fmt::format("an array claims {} elements but only {} bytes remain", n, remaining()));
    v.assign(std::size_t(n), T{});
    if constexpr (std::is_arithmetic_v<T>) {
      need(n * sizeof(T), "an array");
      if (n > 0) std::memcpy(v.data(), data_ + pos_, std::size_t(n) * sizeof(T));  // v.data() may be null when empty
      pos_ += std::size_t(n) * sizeof(T);
    } else {
      for (T& x : v) (*this)(x);
    }
  }
  template <class T, std::size_t N>
  void operator()(T (&a)[N]) {
    for (T& x : a) (*this)(x);
  }
  void operator()(std::monostate&) {}
  template <class... Ts>
  void operator()(std::variant<Ts...>& v) {
    std::uint32_t index = 0;
    (*this)(index);
    emplace_alternative(v, index);
    std::visit([&](auto& x) { (*this)(x); }, v);
  }
  template <class T>
    requires requires(T& x, ByteReader& r) { archive_fields(x, r); }
  void operator()(T& x) {
    archive_fields(x, *this);
  }
  /// Makes alternative `index` of `v` active (default-constructed); fails on an unknown index.
  template <std::size_t I = 0, class... Ts>
  void emplace_alternative(std::variant<Ts...>& v, std::uint32_t index) {
    if constexpr (I < sizeof...(Ts)) {
      if (index == I) {
        v.template emplace<I>();
        return;
      }
      emplace_alternative<I + 1>(v, index);
    } else {
      fail(fmt::format("variant index {} is unknown to this build (it knows {} alternatives)", index, sizeof...(Ts)));
    }
  }
  void tag(const char (&t)[5]) {
    need(4, "a section tag");
    if (std::memcmp(data_ + pos_, t, 4) != 0)
      fail(fmt::format("expected section '{}' but found '{}'", t, std::string(data_ + pos_, 4)));
    pos_ += 4;
    section_ = t;
  }

  std::size_t remaining() const { return end_ - pos_; }
  std::size_t position() const { return pos_; }
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(fmt::format("checkpoint '{}': corrupt data in section '{}' at byte {}: {}", source_, section_, pos_, why));
  }

 private:
  void need(std::uint64_t n, const char* what) const {
    if (n > remaining())
      throw InputError(fmt::format("checkpoint '{}' is truncated: section '{}' needs {} more bytes for {} at byte {}, "
                                   "only {} remain",
                                   source_, section_, n, what, pos_, remaining()));
  }

  const char* data_;
  std::size_t pos_, end_;
  std::string source_;
  std::string section_ = "header";
};

}  // namespace grainlab::io
