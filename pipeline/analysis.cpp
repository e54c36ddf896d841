// Frame building, derived quantities and checks (see analysis.hpp).
#include "pipeline/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "pipeline/fit.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

bool Analysis::passed() const {
  if (runs_failed) return false;
  return std::none_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) { return v.verdict == "fail"; });
}

bool Row::matches(const Where& where) const {
  auto equal = [this](const std::string& k, const ParamValue& v) {
    if (auto s = std::get_if<std::string>(&v)) {
      auto it = text.find(k);
      return it != text.end() && it->second == *s;
    }
    double x = 0;
    if (auto d = std::get_if<double>(&v)) x = *d;
    else if (auto i = std::get_if<std::int64_t>(&v)) x = double(*i);
    else if (auto b = std::get_if<bool>(&v)) x = *b ? 1 : 0;
    auto it = num.find(k);
    return it != num.end() && std::abs(it->second - x) <= 1e-12 * std::max(1.0, std::abs(x));
  };
  for (const auto& [k, values] : where)
    if (std::none_of(values.begin(), values.end(), [&](const ParamValue& v) { return equal(k, v); })) return false;
  return true;
}

std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  // Lines starting with '#' before the header are a comment block (validation/README.md): skipped whole,
  // so that quotes or commas inside them do not reach the parser.
  std::stringstream in;
  {
    std::string line;
    bool header = false;
    while (std::getline(file, line)) {
      if (!header && !line.empty() && line[0] == '#') continue;
      header = true;
      in << line << '\n';
    }
  }
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> rec;
  std::string field;
  bool quoted = false, any = false;
  char c;
  while (in.get(c)) {
    any = true;
    if (quoted) {
      if (c == '"') {
        if (in.peek() == '"') field += char(in.get());
        else quoted = false;
      } else field += c;
    } else if (c == '"') quoted = true;
    else if (c == ',') rec.push_back(std::move(field)), field.clear();
    else if (c == '\n') {
      rec.push_back(std::move(field));
      field.clear();
      if (!(rec.size() == 1 && rec[0].empty())) records.push_back(std::move(rec));
      rec.clear();
      any = false;
    } else if (c != '\r') field += c;
  }
  if (any) rec.push_back(field), records.push_back(rec);
  std::vector<std::map<std::string, std::string>> out;
  if (records.empty()) return out;
  for (size_t r = 1; r < records.size(); ++r) {
    std::map<std::string, std::string> m;
    for (size_t i = 0; i < records[0].size(); ++i) m[records[0][i]] = i < records[r].size() ? records[r][i] : "";
    out.push_back(std::move(m));
  }
  return out;
}

namespace {

std::vector<const Row*> select(const std::vector<Row>& rows, const Item& item, const Where& where) {
  std::vector<const Row*> out;
  for (const auto& r : rows)
    if (r.status == "ok" && r.matches(where)) out.push_back(&r);
  (void)item;
  return out;
}

double get(const Row& r, const std::string& col) {
  auto it = r.num.find(col);
  if (it == r.num.end()) throw std::runtime_error(fmt::format("run {} has no value for '{}'", r.key, col));
  return it->second;
}

/// (x, y) sorted by x, averaging y over runs with the same x (replicates).
std::vector<std::pair<double, double>> curve(const std::vector<const Row*>& rows, const std::string& x, const std::string& y) {
  std::map<double, std::pair<double, int>> acc;
  for (const Row* r : rows) {
    auto& a = acc[get(*r, x)];
    a.first += get(*r, y);
    a.second += 1;
  }
  std::vector<std::pair<double, double>> out;
  for (const auto& [k, v] : acc) out.emplace_back(k, v.first / v.second);
  return out;
}

Verdict cite(const Item& c) {
  Verdict v;
  v.id = c.name;
  v.claim = c.text("claim");
  v.paper = c.text("paper");
  v.source = c.text("source");
  v.seed = c.text("seed");
  v.lines = c.text("lines");
  v.description = c.text("description");
  return v;
}

double scalar_or_column(const Analysis& a, const Item& c, const std::string& q) {
  if (auto it = a.scalars.find(q); it != a.scalars.end()) return it->second;
  auto rows = select(a.rows, c, c.where_filter());
  if (rows.size() != 1)
    throw std::runtime_error(fmt::format("'{}' selects {} runs; a value needs exactly one (add `where`)", q, rows.size()));
  return get(*rows[0], q);
}

/// The smallest sweep value of x whose y reaches the threshold (docs/studies.md, min_reaching); NaN if none.
double min_reaching(const std::vector<const Row*>& rows, const Item& d) {
  const double thr = d.number("threshold", 0);
  const bool below = d.text("direction", "below") == "below";
  auto reaches = [&](double y) { return (below && y <= thr) || (!below && y >= thr); };  // NaN never reaches
  const auto pts = curve(rows, d.text("x"), d.text("y"));
  double best = std::numeric_limits<double>::quiet_NaN();
  if (d.flag("stays", false)) {
    // The smallest x from which every larger x reaches too: a lucky dip below the threshold followed by
    // a miss (or a divergence) at a larger x does not count.
    for (auto it = pts.rbegin(); it != pts.rend() && reaches(it->second); ++it) best = it->first;
  } else {
    for (const auto& [x, y] : pts)
      if (reaches(y)) {
        best = x;
        break;
      }
  }
  return best;
}

/// A run's values of the group_by columns, as text; a column the run lacks (a parameter of another
/// imported study) is its own value "-".
std::vector<std::string> group_key(const Row& r, const std::vector<std::string>& columns) {
  std::vector<std::string> key;
  for (const auto& c : columns) {
    if (auto t = r.text.find(c); t != r.text.end()) key.push_back("t:" + t->second);
    else if (auto n = r.num.find(c); n != r.num.end()) key.push_back(fmt::format("n:{}", n->second));
    else key.push_back("-");
  }
  return key;
}

/// With `one_per = [columns]` and `keep_largest = column`: of `rows`, one per group of equal one_per values,
/// the one with the largest keep_largest (e.g. the largest N_it of each (study, N_p): one fit point per
/// geometry whatever the N_it grids of the imported studies), among the runs `usable` accepts. Without them: `rows`.
std::vector<const Row*> one_per_group(const std::vector<const Row*>& rows, const Item& d, const std::function<bool(const Row&)>& usable,
                                      int* groups_without_usable = nullptr) {
  if (!d.has("one_per")) return rows;
  std::map<std::vector<std::string>, const Row*> kept;  // nullptr: a group with no usable run so far
  const std::string by = d.text("keep_largest");
  for (const Row* r : rows) {
    const Row*& k = kept[group_key(*r, d.texts("one_per"))];
    if (!usable(*r)) continue;  // a run without a usable point (e.g. a threshold never reached) is never the one kept
    if (!k || get(*r, by) > get(*k, by)) k = r;
  }
  if (groups_without_usable)
    *groups_without_usable = int(std::count_if(kept.begin(), kept.end(), [](const auto& g) { return g.second == nullptr; }));
  std::set<const Row*> chosen;
  for (const auto& [key, r] : kept)
    if (r) chosen.insert(r);
  std::vector<const Row*> out;
  for (const Row* r : rows)  // in frame order
    if (chosen.count(r)) out.push_back(r);
  return out;
}

/// A model's settings from a fit or model quantity (eq41's eps and narrow-branch width).
ModelSettings model_settings(const Item& d) {
  ModelSettings s;
  s.tolerance = d.number("tolerance", s.tolerance);
  s.narrow_width = d.number("narrow_width", s.narrow_width);
  return s;
}

/// The x point of a run for a model of several x columns; NaN where the run lacks a column.
std::vector<double> point_of(const Row& r, const std::vector<std::string>& columns) {
  std::vector<double> x;
  for (const auto& c : columns) {
    auto it = r.num.find(c);
    x.push_back(it == r.num.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
  }
  return x;
}

bool finite_point(const std::vector<double>& x, double y) {
  return std::isfinite(y) && std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
}

void evaluate_derived(Analysis& a, const Study& study, const RunOutcome& outcome, const Item& d) {
  const auto where = d.where_filter();
  if (d.kind == "ratio") {
    const std::string n = d.text("numerator"), m = d.text("denominator");
    for (auto& r : a.rows)
      if (r.status == "ok") r.num[d.name] = get(r, n) / get(r, m);
    return;
  }
  if (d.kind == "coalesce") {
    // The first finite value among the columns (a column the run lacks is skipped): one column from
    // quantities that imported studies report differently, e.g. a swept threshold and a ladder metric.
    for (auto& r : a.rows) {
      if (r.status != "ok") continue;
      double v = std::numeric_limits<double>::quiet_NaN();
      for (const auto& c : d.texts("of"))
        if (auto it = r.num.find(c); it != r.num.end() && std::isfinite(it->second)) {
          v = it->second;
          break;
        }
      r.num[d.name] = v;
    }
    return;
  }
  if (d.kind == "time_average") {
    // Each run's series lives in its own study's store (an importing study analyses several).
    std::map<std::string, fs::path> store_of;
    for (const auto& run : outcome.runs)
      if (!run.dir.empty()) store_of[run.key] = run.dir.parent_path();
    const double from = d.number("from", -std::numeric_limits<double>::infinity());
    const double to = d.number("to", std::numeric_limits<double>::infinity());
    for (auto& r : a.rows) {
      if (r.status != "ok") continue;
      const TimeSeries s = ResultStore(store_of[r.key]).series(r.key, d.text("series"));
      auto col = [&](const std::string& name) {
        auto it = std::find(s.columns.begin(), s.columns.end(), name);
        if (it == s.columns.end()) throw std::runtime_error(fmt::format("series '{}' has no column '{}'", d.text("series"), name));
        return size_t(it - s.columns.begin());
      };
      const size_t ti = d.has("time") ? col(d.text("time")) : 0, yi = col(d.text("column"));
      // trapezoidal average over the samples inside [from, to]
      double integral = 0, span = 0;
      for (size_t i = 1; i < s.rows.size(); ++i) {
        const double t0 = s.rows[i - 1][ti], t1 = s.rows[i][ti];
        if (t0 < from || t1 > to) continue;
        integral += 0.5 * (s.rows[i - 1][yi] + s.rows[i][yi]) * (t1 - t0);
        span += t1 - t0;
      }
      if (span <= 0) throw std::runtime_error(fmt::format("derived '{}': no samples in [{}, {}]", d.name, from, to));
      r.num[d.name] = integral / span;
    }
    return;
  }
  if (d.kind == "series_distance") {
    // L1 distance sum_i |y_i - y_ref,i| between each run's stored series column and that of the one
    // reference run `where` selects, row by row (equal row counts; the series of a fixed grid, e.g. a
    // normalised histogram): how similar two distributions are (Paper V E1 discharge, 000 l.2158).
    std::map<std::string, fs::path> store_of;
    for (const auto& run : outcome.runs)
      if (!run.dir.empty()) store_of[run.key] = run.dir.parent_path();
    const auto refs = select(a.rows, d, where);
    if (refs.size() != 1)
      throw std::runtime_error(fmt::format("derived '{}': `where` selects {} runs, need exactly one reference", d.name, refs.size()));
    auto column_of = [&](const std::string& key) {
      const TimeSeries s = ResultStore(store_of[key]).series(key, d.text("series"));
      auto it = std::find(s.columns.begin(), s.columns.end(), d.text("column"));
      if (it == s.columns.end()) throw std::runtime_error(fmt::format("series '{}' has no column '{}'", d.text("series"), d.text("column")));
      std::vector<double> v;
      for (const auto& row : s.rows) v.push_back(row[size_t(it - s.columns.begin())]);
      return v;
    };
    const std::vector<double> ref = column_of(refs[0]->key);
    for (auto& r : a.rows) {
      if (r.status != "ok") continue;
      const std::vector<double> v = column_of(r.key);
      if (v.size() != ref.size())
        throw std::runtime_error(fmt::format("derived '{}': series '{}' has {} rows, the reference {}", d.name, d.text("series"), v.size(), ref.size()));
      double sum = 0;
      for (size_t i = 0; i < v.size(); ++i) sum += std::abs(v[i] - ref[i]);
      r.num[d.name] = sum;
    }
    return;
  }
  if (d.kind == "relative_deviation") {
    // |y / reference - 1| per selected run (NaN on the others), the reference a scalar of an earlier derived
    // quantity: e.g. how far sigma^c(N_it) is from its value at the largest N_it (Paper IV E4 "levels out").
    const auto ref = a.scalars.find(d.text("reference"));
    if (ref == a.scalars.end()) throw std::runtime_error(fmt::format("derived '{}': no scalar '{}'", d.name, d.text("reference")));
    for (auto& r : a.rows)
      if (r.status == "ok") r.num[d.name] = std::numeric_limits<double>::quiet_NaN();
    for (const Row* r : select(a.rows, d, where)) const_cast<Row*>(r)->num[d.name] = std::abs(get(*r, d.text("y")) / ref->second - 1);
    return;
  }
  auto rows = select(a.rows, d, where);
  if (rows.empty()) throw std::runtime_error(fmt::format("derived '{}': no successful run matches", d.name));
  if (d.kind == "value_at") {
    if (rows.size() != 1)
      throw std::runtime_error(fmt::format("derived '{}': `where` selects {} runs, need exactly one (use kind = \"mean\")", d.name, rows.size()));
    a.scalars[d.name] = get(*rows[0], d.text("y"));
  } else if (d.kind == "mean") {
    // skip_nonfinite: average only the runs where y is finite (e.g. a rate "while flowing" of a run that
    // never flowed); NaN if none is.
    if (d.flag("skip_nonfinite", false))
      std::erase_if(rows, [&](const Row* r) { return !std::isfinite(get(*r, d.text("y"))); });
    if (rows.empty()) {
      a.scalars[d.name] = a.scalars[d.name + ".se"] = std::numeric_limits<double>::quiet_NaN();
      return;
    }
    double s = 0, s2 = 0;
    for (const Row* r : rows) s += get(*r, d.text("y"));
    const double mean = s / double(rows.size());
    for (const Row* r : rows) s2 += std::pow(get(*r, d.text("y")) - mean, 2);
    a.scalars[d.name] = mean;
    a.scalars[d.name + ".se"] = rows.size() > 1 ? std::sqrt(s2 / double(rows.size() - 1) / double(rows.size())) : 0.0;
  } else if (d.kind == "min_reaching") {
    if (!d.has("group_by")) {
      a.scalars[d.name] = min_reaching(rows, d);  // NaN: no sweep value reaches the threshold
      return;
    }
    // One value per group of runs with equal group_by columns, written to each run of the group.
    std::map<std::vector<std::string>, std::vector<const Row*>> groups;
    for (const Row* r : rows) groups[group_key(*r, d.texts("group_by"))].push_back(r);
    for (auto& r : a.rows)
      if (r.status == "ok") r.num[d.name] = std::numeric_limits<double>::quiet_NaN();  // outside `where`
    for (const auto& [key, members] : groups) {
      const double value = min_reaching(members, d);
      for (const Row* r : members) const_cast<Row*>(r)->num[d.name] = value;
    }
  } else if (d.kind == "scalar_mean") {
    // Mean of earlier scalars (or of their ratios of[i]/per[i]); .above_one = fraction of terms > 1.
    std::vector<double> of;  // scalar names or constant numbers
    for (const auto& t : *d.spec->get("of")->as_array()) of.push_back(t.is_string() ? a.scalars.at(t.as_string()->get()) : t.value_or(0.0));
    const auto per = d.has("per") ? d.texts("per") : std::vector<std::string>{};
    const std::string kind = d.text("mean", "geometric");
    double sum = 0;
    int above = 0;
    for (std::size_t i = 0; i < of.size(); ++i) {
      const double t = of[i] / (per.empty() ? 1.0 : a.scalars.at(per[i]));  // NaN propagates
      sum += kind == "geometric" ? std::log(t) : kind == "harmonic" ? 1.0 / t : t;
      above += t > 1;
    }
    const double m = sum / double(of.size());
    a.scalars[d.name] = kind == "geometric" ? std::exp(m) : kind == "harmonic" ? 1.0 / m : m;
    a.scalars[d.name + ".above_one"] = double(above) / double(of.size());
  } else if (d.kind == "fit") {
    // Runs whose x or y is not finite (a tolerance never reached, a diverged run) are left out and counted
    // (with one_per: the groups without such a run).
    const auto columns = d.texts("x");
    std::vector<std::vector<double>> x;
    std::vector<double> y, guess;
    int skipped = 0;
    const auto usable = [&](const Row& r) { return finite_point(point_of(r, columns), get(r, d.text("y"))); };
    for (const Row* r : one_per_group(rows, d, usable, &skipped)) {
      auto point = point_of(*r, columns);
      const double v = get(*r, d.text("y"));
      if (!finite_point(point, v)) {
        ++skipped;
        continue;
      }
      x.push_back(std::move(point));
      y.push_back(v);
    }
    if (auto g = d.spec->get("guess"); g && g->is_array())
      for (const auto& v : *g->as_array()) guess.push_back(v.value_or(0.0));
    a.scalars[d.name + ".points"] = double(y.size());
    a.scalars[d.name + ".skipped"] = skipped;
    if (y.size() <= model_parameters(d.text("model")).size())
      throw std::runtime_error(fmt::format("derived '{}': {} fit points ({} left out: no finite x and y) cannot determine {} parameters "
                                           "with errors",
                                           d.name, y.size(), skipped, model_parameters(d.text("model")).size()));
    const FitResult f = fit_model(d.text("model"), x, y, guess, model_settings(d));
    for (size_t j = 0; j < f.names.size(); ++j) {
      a.scalars[d.name + "." + f.names[j]] = f.values[j];
      a.scalars[d.name + "." + f.names[j] + "_se"] = f.std_errors[j];
    }
    a.scalars[d.name + ".r2"] = f.r2;
    a.scalars[d.name + ".rss"] = f.rss;
  } else if (d.kind == "model") {
    // The model with given coefficients (numbers, or scalars such as a fit's): a column, or one value `at`.
    std::vector<double> p;
    for (const auto& t : *d.spec->get("parameters")->as_array())
      p.push_back(t.is_string() ? a.scalars.at(t.as_string()->get()) : t.value_or(0.0));
    const ModelSettings settings = model_settings(d);
    if (auto at = d.spec->get("at")) {
      std::vector<double> x;
      for (const auto& v : *at->as_array()) x.push_back(v.value_or(0.0));
      a.scalars[d.name] = evaluate_model(d.text("model"), x, p, settings);
      return;
    }
    for (auto& r : a.rows)
      if (r.status == "ok") r.num[d.name] = std::numeric_limits<double>::quiet_NaN();  // outside `where`
    const auto usable = [&](const Row& r) { return finite_point(point_of(r, d.texts("x")), 0.0); };
    for (const Row* r : one_per_group(rows, d, usable))  // rows of a.rows, selected above
      const_cast<Row*>(r)->num[d.name] = evaluate_model(d.text("model"), point_of(*r, d.texts("x")), p, settings);
  }
  (void)study;
}

/// Largest deviation of x from a reference column y: relative where y != 0, absolute where y == 0 (a
/// relative deviation from 0 means nothing).
struct DeviationSummary {
  double relative = 0, absolute_at_zero = 0;
  int nonzero = 0, zero = 0;
  void add(double x, double y) {
    if (y != 0) {
      ++nonzero;
      relative = std::max(relative, std::abs(x - y) / std::abs(y));
    } else {
      ++zero;
      absolute_at_zero = std::max(absolute_at_zero, std::abs(x));
    }
  }
  std::string text() const {
    std::string out;
    if (nonzero) out = fmt::format("largest relative deviation {:.3g}", relative);
    if (zero)
      out += fmt::format("{}largest absolute deviation {:.3g} where the reference is 0 ({} run{})", out.empty() ? "" : "; ",
                         absolute_at_zero, zero, zero == 1 ? "" : "s");
    return out;
  }
};

/// Errata a check names in a reference file (`reference_file`, `errata` = quantity cells; columns
/// quantity, printed, recomputed, source, lines, claim_id of validation/README.md) go to the report's errata
/// section, with our value of the check's `quantity` (named, as it may be another quantity than the
/// erratum's) where the check selects one.
void add_reference_errata(Analysis& a, const Item& c, const std::string& source_root) {
  if (!c.has("errata")) return;
  const std::string file = c.text("reference_file");
  const auto rows = read_csv((fs::path(source_root) / file).string());
  std::string ours;
  if (c.has("quantity")) {
    try {
      ours = fmt::format("{} = {:.6g} (check {})", c.text("quantity"), scalar_or_column(a, c, c.text("quantity")), c.name);
    } catch (const std::exception&) {
      ours = "";  // several runs or none: no single value of ours to show
    }
  }
  auto cell = [](const std::map<std::string, std::string>& row, const std::string& k) {
    auto it = row.find(k);
    return it == row.end() ? std::string() : it->second;
  };
  for (const auto& q : c.texts("errata")) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& row) { return cell(row, "quantity") == q; });
    if (it == rows.end()) throw std::runtime_error(fmt::format("erratum '{}' not found in {}", q, file));
    const auto& row = *it;
    std::string where = c.text("source").empty() ? file : c.text("source");
    where += fmt::format(" (seed {} line {})", cell(row, "source"), cell(row, "lines"));
    std::string note = fmt::format("{}; check {}; {}", cell(row, "claim_id"), c.name, file);
    a.errata.push_back({where, q, cell(row, "printed"), cell(row, "recomputed"), ours, note});
  }
}

// A check that stays live although the claim it judges disagrees with our result: its expected failure is
// the finding ("not reproduced", which counts the claim as failed) and keeps the study green; if it starts
// to pass, the recorded finding is out of date and the check fails until someone reviews it.
void record_known_disagreement(Verdict& v, const std::string& finding) {
  if (v.verdict == "fail") {
    v.verdict = "not reproduced";
    v.detail = fmt::format("known disagreement: {} (measured now: {})", finding, v.detail);
  } else if (v.verdict == "pass") {
    v.verdict = "fail";
    v.detail = fmt::format("recorded as a known disagreement ({}) but passes now: review the claim's verdict ({})",
                           finding, v.detail);
  }
}

void evaluate_check(Analysis& a, const Item& c, const std::string& source_root) {
  Verdict v = cite(c);
  auto pass = [&](bool ok, std::string detail) {
    v.verdict = ok ? "pass" : "fail";
    v.detail = std::move(detail);
  };
  const auto where = c.where_filter();
  if (c.kind == "not_reproduced") {
    v.verdict = "not reproduced";
    v.detail = c.text("reason");
  } else if (c.kind == "within") {
    const double ours = scalar_or_column(a, c, c.text("quantity")), ref = c.number("value", 0);
    double tol = c.number("tolerance", 0);
    if (c.has("rel_tolerance")) tol = std::max(tol, c.number("rel_tolerance", 0) * std::abs(ref));
    if (c.has("uncertainty")) tol = std::max(tol, c.number("uncertainty", 0));
    pass(std::abs(ours - ref) <= tol, fmt::format("ours {:.6g} vs reference {:.6g} ± {:.3g} {}", ours, ref, tol, c.text("unit")));
  } else if (c.kind == "columns_within") {
    const double tol = c.number("tolerance", 0), rel = c.number("rel_tolerance", 0);
    int bad = 0, n = 0;
    DeviationSummary dev;
    std::string first_bad;
    for (const Row* r : select(a.rows, c, where)) {
      const double x = get(*r, c.text("a")), y = get(*r, c.text("b"));
      const double allowed = std::max(tol, rel * std::abs(y));
      ++n;
      dev.add(x, y);
      if (!(std::abs(x - y) <= allowed)) {
        if (!bad) first_bad = fmt::format("; first outside: run {} {} = {:.6g} vs {} = {:.6g}", r->key, c.text("a"), x, c.text("b"), y);
        ++bad;
      }
    }
    if (!n) v.verdict = "not reproduced", v.detail = "no successful run";
    else pass(bad == 0, fmt::format("{} of {} runs within tolerance ({}){}", n - bad, n, dev.text(), first_bad));
  } else if (c.kind == "scalars_within") {
    // Every listed scalar in [min, max] (a range claim judged on several systems at once).
    const double lo = c.number("min", -std::numeric_limits<double>::infinity());
    const double hi = c.number("max", std::numeric_limits<double>::infinity());
    std::string values, outside;
    for (const auto& q : c.texts("of")) {
      const double x = a.scalars.at(q);
      values += fmt::format("{}{} = {:.4g}", values.empty() ? "" : ", ", q, x);
      if (!(x >= lo && x <= hi)) outside += (outside.empty() ? "" : ", ") + q;
    }
    pass(outside.empty(), fmt::format("{} in [{}, {}]{}", values, lo, hi, outside.empty() ? "" : "; outside: " + outside));
  } else if (c.kind == "bounds") {
    const std::string q = c.text("quantity");
    const double lo = c.number("min", -std::numeric_limits<double>::infinity());
    const double hi = c.number("max", std::numeric_limits<double>::infinity());
    const auto rows = select(a.rows, c, where);
    int bad = 0;
    double smallest = std::numeric_limits<double>::infinity(), largest = -smallest;
    std::string outside;
    for (const Row* r : rows) {
      const double x = get(*r, q);
      smallest = std::min(smallest, x);
      largest = std::max(largest, x);
      if (!(x >= lo && x <= hi)) {
        ++bad;
        if (outside.size() < 300) outside += fmt::format(" run {}: {:.6g};", r->key, x);
      }
    }
    const int expected = c.has("count") ? int(c.number("count", 0)) : -1;
    if (rows.empty()) {
      v.verdict = "not reproduced";
      v.detail = "no successful run matches `where`";
    } else if (expected >= 0 && int(rows.size()) != expected) {
      pass(false, fmt::format("`where` selects {} successful runs, expected {} (a run failed or is missing)", rows.size(), expected));
    } else {
      const std::string unit = c.text("unit").empty() ? "" : " " + c.text("unit");
      const std::string range = !c.has("max")   ? fmt::format(">= {}{}", lo, unit)
                                : !c.has("min") ? fmt::format("<= {}{}", hi, unit)
                                                : fmt::format("in [{}, {}]{}", lo, hi, unit);
      pass(bad == 0, fmt::format("{} of {} runs have {} {} (values {:.6g} ... {:.6g}){}", rows.size() - bad, rows.size(), q, range,
                                 smallest, largest, bad ? "; outside:" + outside : ""));
    }
  } else if (c.kind == "ratio_bounds") {
    const double r = a.scalars.at(c.text("numerator")) / a.scalars.at(c.text("denominator"));
    const double lo = c.number("min", -std::numeric_limits<double>::infinity()), hi = c.number("max", std::numeric_limits<double>::infinity());
    pass(r >= lo && r <= hi, fmt::format("ratio {:.4g}, allowed [{}, {}]", r, lo, hi));
  } else if (c.kind == "monotone" || c.kind == "saturating" || c.kind == "scaling") {
    const auto pts = curve(select(a.rows, c, where), c.text("x"), c.text("y"));
    // A monotone check may compare as few as 2 points (min_points, e.g. a pair of Table I rows).
    const std::size_t min_points = c.kind == "monotone" ? std::size_t(c.number("min_points", 3)) : 3;
    if (pts.size() < min_points) {
      v.verdict = "not reproduced";
      v.detail = fmt::format("{} sweep points; this check needs at least {}", pts.size(), min_points);
    } else if (c.kind == "monotone") {
      const bool inc = c.text("direction", "increasing") == "increasing", strict = c.flag("strict", false);
      bool ok = true;
      for (size_t i = 1; i < pts.size(); ++i) {
        const double dy = pts[i].second - pts[i - 1].second;
        ok = ok && (inc ? (strict ? dy > 0 : dy >= 0) : (strict ? dy < 0 : dy <= 0));
      }
      pass(ok, fmt::format("{} {} over {} points ({:.4g} -> {:.4g})", c.text("y"), inc ? "increasing" : "decreasing", pts.size(),
                           pts.front().second, pts.back().second));
    } else if (c.kind == "saturating") {
      // increments shrink and the last one is a small fraction of the total change
      const double total = pts.back().second - pts.front().second;
      const double last = pts.back().second - pts[pts.size() - 2].second, frac = c.number("last_fraction", 0.1);
      bool shrinking = true;
      for (size_t i = 2; i < pts.size(); ++i)
        shrinking = shrinking && std::abs(pts[i].second - pts[i - 1].second) <= std::abs(pts[i - 1].second - pts[i - 2].second) * 1.0000001;
      pass(shrinking && std::abs(last) <= frac * std::abs(total),
           fmt::format("last increment {:.4g} = {:.3g} of the total change {:.4g} (allowed {}); increments {}shrinking", last,
                       total != 0 ? last / total : 0.0, total, frac, shrinking ? "" : "not "));
    } else {
      std::vector<double> lx, ly;
      for (const auto& [x, y] : pts)
        if (x > 0 && y > 0) lx.push_back(std::log(x)), ly.push_back(std::log(y));
      const FitResult f = fit_model("linear", lx, ly);
      const double lo = c.number("min", 0), hi = c.number("max", 0);
      pass(f.values[1] >= lo && f.values[1] <= hi,
           fmt::format("log-log slope {:.4g} ± {:.2g}, allowed [{}, {}]", f.values[1], f.std_errors[1], lo, hi));
    }
  } else if (c.kind == "reference_table") {
    const auto ref = read_csv((fs::path(source_root) / c.text("file")).string());
    const std::string key = c.text("key");
    std::set<std::string> columns;
    for (const auto& col : c.texts("columns")) columns.insert(col);
    int n = 0, bad = 0, errata = 0, differs = 0;
    std::string md = fmt::format("| {} | column | paper (printed) | ours | tolerance | status |\n|---|---|---|---|---|---|\n", key);
    std::string failures;
    for (const auto& cell : ref) {
      if (!columns.count(cell.at("column"))) continue;
      const double keyv = std::stod(cell.at(key == "row" ? "row" : key));
      const Row* run = nullptr;
      for (const auto& r : a.rows)
        if (r.status == "ok" && r.num.count(key) && r.num.at(key) == keyv) run = &r;
      std::string status;
      double ours = std::numeric_limits<double>::quiet_NaN();
      if (!run) status = "no run";
      else {
        ours = get(*run, cell.at("column"));
        const bool erratum = cell.at("status") == "erratum";
        const double refv = std::stod(erratum ? cell.at("recomputed") : cell.at("value"));
        // errata: compared with the independent recomputation to its 3 printed digits
        const double tol = erratum ? 0.005 * std::abs(refv) : std::stod(cell.at("tolerance"));
        const bool ok = std::abs(ours - refv) <= tol * (1 + 1e-9);
        ++n;
        // status differs: the printed cell is consistent with its row, our reconstruction misses it. Compared
        // with the printed value like any cell; a miss is a known disagreement (not reproduced), not an erratum.
        const bool known_miss = !ok && cell.at("status") == "differs";
        if (known_miss) {
          ++differs;
          if (failures.size() < 400)
            failures += fmt::format(" {}={} {}: ours {:.4g} vs printed {} (our reconstruction differs: {});", key,
                                    cell.at(key), cell.at("column"), ours, cell.at("printed"), cell.at("note"));
        }
        if (erratum) {
          ++errata;
          a.errata.push_back({fmt::format("{} {} {} (seed {} line {})", c.text("source"), key, cell.at(key), cell.at("seed"), cell.at("lines")),
                              cell.at("column"), cell.at("printed"), cell.at("recomputed"), fmt::format("{:.3g}", ours), cell.at("note")});
        }
        status = ok ? (erratum ? "erratum (ours = recomputed)" : "ok")
                    : (erratum ? "FAIL vs recomputed" : known_miss ? "differs (our reconstruction)" : "FAIL");
        if (!ok && !known_miss) {
          ++bad;
          if (failures.size() < 400) failures += fmt::format(" {}={} {}: ours {:.4g} vs {};", key, cell.at(key), cell.at("column"), ours, cell.at("printed"));
        }
      }
      md += fmt::format("| {} | {} | {} | {:.4g} | {} | {} |\n", cell.at(key), cell.at("column"), cell.at("printed"), ours,
                        cell.at("status") == "erratum" ? "±0.5 % of " + cell.at("recomputed") : "±" + cell.at("tolerance"), status);
    }
    v.table_md = md;
    const std::string detail =
        fmt::format("{} of {} cells agree at the printed precision ({} errata cells compared with their recomputed value{}){}",
                    n - bad - differs, n, errata,
                    differs ? fmt::format("; {} cells our reconstruction does not reproduce", differs) : "",
                    bad || differs ? ";" + failures : "");
    if (!n) v.verdict = "not reproduced", v.detail = "no successful run";
    else if (bad == 0 && differs > 0) v.verdict = "not reproduced", v.detail = detail;  // only known misses
    else pass(bad == 0, detail);
  }
  add_reference_errata(a, c, source_root);
  a.verdicts.push_back(std::move(v));
}

}  // namespace

Analysis analyse(const Study& study, const RunOutcome& outcome, const std::string& source_root) {
  Analysis a;
  for (const auto& run : outcome.runs) {
    Row r;
    r.key = run.key;
    r.status = run.status;
    r.message = run.message;
    for (const auto& [k, v] : run.parameters) {
      if (auto s = std::get_if<std::string>(&v)) r.text[k] = *s;
      else if (auto d = std::get_if<double>(&v)) r.num[k] = *d;
      else if (auto i = std::get_if<std::int64_t>(&v)) r.num[k] = double(*i);
      else if (auto b = std::get_if<bool>(&v)) r.num[k] = *b ? 1 : 0;
    }
    for (const auto& [k, v] : run.metrics) r.num[k] = v;
    for (const auto& [k, v] : run.provenance.stage_seconds) r.num["time_" + k] = v;  // timings, from provenance
    if (run.status == "ok") r.num["wall_s"] = run.provenance.wall_s;
    if (run.status == "ok") ++a.runs_ok;
    else if (run.status == "missing" || run.status == "running") ++a.runs_missing;
    else ++a.runs_failed;
    a.rows.push_back(std::move(r));
  }
  for (size_t i = 0; i < outcome.specs.size() && i < a.rows.size(); ++i) a.rows[i].num["replicate"] = outcome.specs[i].replicate;
  if (!study.imported.empty())  // an importing study's rows say whose runs they are
    for (size_t i = 0; i < outcome.studies.size() && i < a.rows.size(); ++i) a.rows[i].text["study"] = outcome.studies[i];
  if (!study.experiment_available || a.runs_ok == 0) {
    // Nothing ran: "not run", so that "not reproduced" keeps meaning "ran, and disagrees or cannot be
    // judged as stated" (every run failed is such a case; a not_reproduced check records a finding).
    const bool ran = study.experiment_available && a.runs_failed > 0;
    const std::string reason = !study.experiment_available
                                   ? fmt::format("experiment '{}' not available in this build", study.experiment)
                                   : (ran ? "every run failed" : "not run yet (grainlab run)");
    for (const auto& c : study.checks) {
      Verdict v = cite(c);
      v.verdict = c.kind == "not_reproduced" || ran ? "not reproduced" : "not run";
      v.detail = c.kind == "not_reproduced" ? c.text("reason") : reason;
      a.verdicts.push_back(v);
    }
    return a;
  }
  // The scalars of each imported study, from its own analysis of its runs, as `<study>.<scalar>`.
  for (const auto& imp : study.imported) {
    std::set<std::string> sources;
    for (const Study* s : run_sources(imp)) sources.insert(s->name);
    RunOutcome part;
    for (std::size_t i = 0; i < outcome.runs.size() && i < outcome.studies.size(); ++i)
      if (sources.count(outcome.studies[i])) {
        if (i < outcome.specs.size()) part.specs.push_back(outcome.specs[i]);
        part.runs.push_back(outcome.runs[i]);
        part.studies.push_back(outcome.studies[i]);
      }
    for (const auto& [name, value] : analyse(imp, part, source_root).scalars) a.scalars[imp.name + "." + name] = value;
  }
  for (const auto& d : study.derived) {
    try {
      evaluate_derived(a, study, outcome, d);
    } catch (const std::exception& e) {
      a.scalars[d.name] = std::numeric_limits<double>::quiet_NaN();
      if (d.kind == "fit")  // its coefficients are NaN too: the checks on them fail naming a NaN, not a lookup
        for (const auto& p : model_parameters(d.text("model")))
          a.scalars[d.name + "." + p] = a.scalars[d.name + "." + p + "_se"] = std::numeric_limits<double>::quiet_NaN();
      Verdict v;
      v.id = "derived:" + d.name;
      v.verdict = "fail";
      v.detail = e.what();
      a.verdicts.push_back(v);
    }
  }
  for (const auto& c : study.checks) {
    // A check judges its whole set of runs: one failed or missing run makes it a fail, not a pass on the rest.
    const Where where = c.where_filter();
    const auto absent = std::count_if(a.rows.begin(), a.rows.end(), [&](const Row& r) { return r.status != "ok" && r.matches(where); });
    if (absent && c.kind != "not_reproduced") {
      Verdict v = cite(c);
      v.verdict = "fail";
      v.detail = fmt::format("{} of the runs it judges failed or are missing (grainlab status --failed)", absent);
      a.verdicts.push_back(v);
      continue;
    }
    try {
      evaluate_check(a, c, source_root);
      if (c.has("known_disagreement")) record_known_disagreement(a.verdicts.back(), c.text("known_disagreement"));
    } catch (const std::exception& e) {
      Verdict v = cite(c);
      v.verdict = "fail";
      v.detail = std::string("could not evaluate: ") + e.what();
      a.verdicts.push_back(v);
    }
  }
  return a;
}

}  // namespace grainlab::pipeline
