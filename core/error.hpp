#pragma once
// Errors the engine raises. InputError: a parameter is invalid (the message names it).
// InstabilityError: the simulation diverged (NaN, overlap beyond a limit); carries the step number.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace grainlab {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct InstabilityError : std::runtime_error {
  InstabilityError(const std::string& what, std::uint64_t step_)
      : std::runtime_error(what), step(step_) {}
  std::uint64_t step;
};

}  // namespace grainlab
