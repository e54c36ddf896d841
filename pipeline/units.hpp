#pragma once
// Quantities with units in study files: `radius = "5 mm"`, `density = "2.5 g/cm^3"`, `youngs_modulus =
// "6 MPa"`, `angle_deg = "0.35 rad"`. A small dimensional parser: SI base dimensions plus the plane angle
// as a dimension of its own (so "20 deg" never silently becomes a dimensionless 0.35), SI prefixes, and
// products, quotients, powers and parentheses of unit symbols ("kg/m^3", "g/cm^3", "N*m", "m s^-2",
// "W/(m K)"). Bare numbers stay SI. Grammar and the unit table: docs/studies.md "Units".
#include <array>
#include <stdexcept>
#include <string>

#include "experiments/experiment.hpp"

namespace grainlab::units {

struct UnitError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Exponents of m, kg, s, A, K, mol, cd and the plane angle (rad).
using Dimension = std::array<int, 8>;

/// A unit or a quantity: `factor` SI units (angles in rad) of dimension `dim`.
struct Quantity {
  double factor = 1;
  Dimension dim{};
};

/// Parses a unit expression; "" and "-" are dimensionless 1. Throws UnitError naming the bad symbol.
Quantity parse_unit(const std::string& unit);
/// Parses "number [unit]", e.g. "5 mm", "2.5e3 kg/m^3", "7". Throws UnitError.
Quantity parse_quantity(const std::string& text);
/// The value of `text` in `target_unit`; throws UnitError when the dimensions differ.
double convert(const std::string& text, const std::string& target_unit);
/// "m kg^-3 s" style rendering of a dimension ("dimensionless" when all exponents are zero).
std::string to_string(const Dimension& d);
/// Whether `unit` is a unit this parser knows (so a quantity can be converted into it).
bool is_known_unit(const std::string& unit);

/// A study value for parameter `spec`: a string given to a real parameter is a quantity, converted to
/// the parameter's declared unit; anything else is returned unchanged. `where` ("file:line: key")
/// prefixes the message of the std::invalid_argument thrown on a bad quantity.
ParamValue quantity_value(const ParamValue& value, const ParameterSpec* spec, const std::string& where);

}  // namespace grainlab::units
