#include "pipeline/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace grainlab::units {
namespace {

constexpr double pi = 3.14159265358979323846;

struct Symbol {
  Quantity q;
  bool prefixable;
};

Dimension dim(int m, int kg, int s, int a = 0, int k = 0, int mol = 0, int cd = 0, int rad = 0) {
  return {m, kg, s, a, k, mol, cd, rad};
}

const std::map<std::string, Symbol>& symbols() {
  static const std::map<std::string, Symbol> t = {
      {"m", {{1, dim(1, 0, 0)}, true}},
      {"g", {{1e-3, dim(0, 1, 0)}, true}},  // the kilogram is the prefixed gram
      {"s", {{1, dim(0, 0, 1)}, true}},
      {"A", {{1, dim(0, 0, 0, 1)}, true}},
      {"K", {{1, dim(0, 0, 0, 0, 1)}, true}},
      {"mol", {{1, dim(0, 0, 0, 0, 0, 1)}, true}},
      {"cd", {{1, dim(0, 0, 0, 0, 0, 0, 1)}, true}},
      {"rad", {{1, dim(0, 0, 0, 0, 0, 0, 0, 1)}, true}},
      {"deg", {{pi / 180, dim(0, 0, 0, 0, 0, 0, 0, 1)}, false}},
      {"N", {{1, dim(1, 1, -2)}, true}},
      {"Pa", {{1, dim(-1, 1, -2)}, true}},
      {"J", {{1, dim(2, 1, -2)}, true}},
      {"W", {{1, dim(2, 1, -3)}, true}},
      {"Hz", {{1, dim(0, 0, -1)}, true}},
      {"L", {{1e-3, dim(3, 0, 0)}, true}},
      {"bar", {{1e5, dim(-1, 1, -2)}, true}},
      {"min", {{60, dim(0, 0, 1)}, false}},
      {"h", {{3600, dim(0, 0, 1)}, false}},
      {"rpm", {{2 * pi / 60, dim(0, 0, -1, 0, 0, 0, 0, 1)}, false}},
      {"%", {{1e-2, dim(0, 0, 0)}, false}},
  };
  return t;
}

const std::map<std::string, double>& prefixes() {
  static const std::map<std::string, double> t = {
      {"Y", 1e24}, {"Z", 1e21}, {"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3},
      {"h", 1e2},  {"da", 1e1}, {"d", 1e-1}, {"c", 1e-2}, {"m", 1e-3}, {"u", 1e-6}, {"\u00b5", 1e-6},
      {"n", 1e-9}, {"p", 1e-12}, {"f", 1e-15}, {"a", 1e-18}, {"z", 1e-21}, {"y", 1e-24}};
  return t;
}

Quantity times(Quantity a, const Quantity& b, int sign) {
  a.factor = sign > 0 ? a.factor * b.factor : a.factor / b.factor;
  for (std::size_t i = 0; i < a.dim.size(); ++i) a.dim[i] += sign * b.dim[i];
  return a;
}

Quantity power(Quantity a, int n) {
  a.factor = std::pow(a.factor, n);
  for (int& e : a.dim) e *= n;
  return a;
}

// Recursive descent over the unit expression:
//   expr   := factor ( ('*' | '.' | ' ' | '/') factor )*     ('/' divides by the next factor only)
//   factor := atom ( '^' integer )?                          (also "**" for the power)
//   atom   := symbol | '1' | '(' expr ')'
class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Quantity parse() {
    skip_spaces();
    Quantity q = expr();
    skip_spaces();
    if (i_ != s_.size()) fail(fmt::format("unexpected '{}'", s_.substr(i_)));
    return q;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw UnitError(fmt::format("unit '{}': {}", s_, why)); }
  void skip_spaces() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool at_end() const { return i_ >= s_.size(); }

  Quantity expr() {
    Quantity q = factor();
    while (true) {
      const std::size_t before = i_;
      skip_spaces();
      if (at_end() || s_[i_] == ')') return q;
      int sign = 1;
      if (s_[i_] == '/') sign = -1, ++i_;
      else if (s_[i_] == '*' || s_[i_] == '.' || (s_[i_] == '\xc2' && s_.compare(i_, 2, "\xc2\xb7") == 0))
        i_ += s_[i_] == '\xc2' ? 2 : 1;
      else if (i_ == before) fail(fmt::format("expected an operator at '{}'", s_.substr(i_)));  // a space multiplies
      skip_spaces();
      q = times(q, factor(), sign);
    }
  }

  Quantity factor() {
    Quantity q = atom();
    if (s_.compare(i_, 2, "**") == 0) i_ += 2;
    else if (i_ < s_.size() && s_[i_] == '^') ++i_;
    else return q;
    std::size_t start = i_;
    if (i_ < s_.size() && (s_[i_] == '-' || s_[i_] == '+')) ++i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    const std::string digits = s_.substr(start, i_ - start);
    if (digits.empty() || digits == "-" || digits == "+" || digits.size() > 3) fail("a power must be a small integer");
    return power(q, std::stoi(digits));
  }

  Quantity atom() {
    if (at_end()) fail("a unit symbol is missing");
    if (s_[i_] == '(') {
      ++i_;
      if (++depth_ > 8) fail("parentheses nested too deep");
      skip_spaces();
      Quantity q = expr();
      skip_spaces();
      if (at_end() || s_[i_] != ')') fail("missing ')'");
      ++i_;
      --depth_;
      return q;
    }
    if (s_[i_] == '1') {  // "1/s"
      ++i_;
      return {};
    }
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '%' ||
                              static_cast<unsigned char>(s_[i_]) >= 0x80) &&
           s_.compare(i_, 2, "\xc2\xb7") != 0)
      ++i_;
    if (i_ == start) fail(fmt::format("expected a unit symbol at '{}'", s_.substr(i_)));
    return symbol(s_.substr(start, i_ - start));
  }

  Quantity symbol(const std::string& name) const {
    if (auto it = symbols().find(name); it != symbols().end()) return it->second.q;
    for (const auto& [p, f] : prefixes()) {
      if (name.size() <= p.size() || name.compare(0, p.size(), p) != 0) continue;
      auto it = symbols().find(name.substr(p.size()));
      if (it != symbols().end() && it->second.prefixable) return times({f, {}}, it->second.q, 1);
    }
    fail(fmt::format("unknown unit symbol '{}'", name));
  }

  const std::string& s_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

Quantity parse_unit(const std::string& unit) {
  if (unit.empty() || unit == "-") return {};
  return Parser(unit).parse();
}

Quantity parse_quantity(const std::string& text) {
  const char* begin = text.c_str();
  while (*begin == ' ') ++begin;
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin) throw UnitError(fmt::format("'{}' is not a number with a unit (e.g. \"5 mm\")", text));
  if (!std::isfinite(value)) throw UnitError(fmt::format("'{}': the number must be finite", text));
  std::string rest(end);
  while (!rest.empty() && rest.back() == ' ') rest.pop_back();
  Quantity q = parse_unit(rest.empty() ? "" : rest.substr(rest.find_first_not_of(' ')));
  q.factor *= value;
  return q;
}

std::string to_string(const Dimension& d) {
  static const char* names[] = {"m", "kg", "s", "A", "K", "mol", "cd", "rad"};
  std::string out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == 0) continue;
    if (!out.empty()) out += ' ';
    out += names[i];
    if (d[i] != 1) out += fmt::format("^{}", d[i]);
  }
  return out.empty() ? "dimensionless" : out;
}

double convert(const std::string& text, const std::string& target_unit) {
  const Quantity q = parse_quantity(text);
  const Quantity target = parse_unit(target_unit);
  if (q.dim != target.dim)
    throw UnitError(fmt::format("'{}' is a {} quantity, but the unit here is {} ({})", text, to_string(q.dim),
                                target_unit.empty() || target_unit == "-" ? "dimensionless" : "'" + target_unit + "'",
                                to_string(target.dim)));
  return q.factor / target.factor;
}

bool is_known_unit(const std::string& unit) {
  try {
    parse_unit(unit);
    return true;
  } catch (const UnitError&) {
    return false;
  }
}

ParamValue quantity_value(const ParamValue& value, const ParameterSpec* spec, const std::string& where) {
  const auto* text = std::get_if<std::string>(&value);
  if (!text || !spec || spec->type != ParamType::real) return value;
  // Not even a number first ("fast"): left to the type check, which says a real was expected.
  char* end = nullptr;
  std::strtod(text->c_str(), &end);
  if (end == text->c_str()) return value;
  if (!is_known_unit(spec->unit))
    throw std::invalid_argument(fmt::format("{}: parameter '{}' is in '{}', which is not a physical unit: give a bare "
                                            "number, not \"{}\"", where, spec->name, spec->unit, *text));
  try {
    return convert(*text, spec->unit);
  } catch (const UnitError& e) {
    throw std::invalid_argument(fmt::format("{}: {} (parameter '{}' is in {})", where, e.what(), spec->name,
                                            spec->unit == "-" || spec->unit.empty() ? "no unit" : spec->unit));
  }
}

}  // namespace grainlab::units
