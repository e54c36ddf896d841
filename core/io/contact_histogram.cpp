#include "core/io/contact_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::io {

namespace {
void validate_axis(const HistogramAxis& a, const char* name) {
  if (a.bins < 1) throw InputError(fmt::format("contact histogram: {}.bins = {} is invalid (must be >= 1)", name, a.bins));
  if (a.automatic) return;
  if (!std::isfinite(a.lower) || !std::isfinite(a.upper) || !(a.lower < a.upper))
    throw InputError(fmt::format("contact histogram: {} range [{}, {}] is invalid (need finite lower < upper, "
                                 "or automatic binning)",
                                 name, a.lower, a.upper));
}
}  // namespace

void ContactHistogramSettings::validate() const {
  validate_axis(overlap, "overlap");
  validate_axis(normal_velocity, "normal_velocity");
}

OverlapUnit parse_overlap_unit(const std::string& name) {
  if (name == "d") return OverlapUnit::diameter;
  if (name == "m") return OverlapUnit::metre;
  throw InputError(fmt::format("contact histogram: overlap unit '{}' is invalid (d, m)", name));
}

std::uint64_t Histogram::total() const {
  std::uint64_t t = underflow + overflow;
  for (std::uint64_t c : counts) t += c;
  return t;
}

Histogram make_histogram(const std::vector<double>& values, const HistogramAxis& axis) {
  if (axis.bins < 1) throw InputError(fmt::format("contact histogram: bins = {} is invalid (must be >= 1)", axis.bins));
  for (double x : values)
    if (!std::isfinite(x)) throw InputError(fmt::format("contact histogram: non-finite value {} to bin", x));
  Histogram h;
  h.counts.assign(std::size_t(axis.bins), 0);
  if (axis.automatic) {
    if (values.empty()) {
      h.lower = 0;
      h.upper = 1;
    } else {
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      h.lower = *lo;
      h.upper = *hi;
      if (!(h.upper > h.lower)) {
        const double half = h.lower != 0 ? 0.5 * std::abs(h.lower) : 0.5;
        h.lower -= half;
        h.upper += half;
      }
    }
  } else {
    h.lower = axis.lower;
    h.upper = axis.upper;
  }
  const double span = h.upper - h.lower;
  const std::size_t n = h.counts.size();
  for (double x : values) {
    if (x < h.lower) {
      ++h.underflow;
    } else if (x > h.upper) {
      ++h.overflow;
    } else {
      // x in [lower, upper]: bin k = floor((x - lower) / w); the last bin is closed at upper (and takes
      // anything rounding to n there).
      const std::size_t k = std::min(n - 1, std::size_t((x - h.lower) / span * double(n)));
      ++h.counts[k];
    }
  }
  return h;
}

void add_histogram(Histogram& sum, const Histogram& h) {
  if (sum.counts.empty()) {
    sum = h;
    return;
  }
  if (sum.counts.size() != h.counts.size() || sum.lower != h.lower || sum.upper != h.upper)
    throw InputError(fmt::format("contact histogram: cannot add bins [{}, {}] x {} to bins [{}, {}] x {}", h.lower,
                                 h.upper, h.counts.size(), sum.lower, sum.upper, sum.counts.size()));
  for (std::size_t k = 0; k < h.counts.size(); ++k) sum.counts[k] += h.counts[k];
  sum.underflow += h.underflow;
  sum.overflow += h.overflow;
}

ContactValues touching_contact_values(const World& world, OverlapUnit unit) {
  const ParticleStore& P = world.particles;
  ContactValues out;
  for (const Contact& c : world.contacts()) {
    if (!(c.overlap > 0)) continue;
    const int a = c.a;
    const Vec3& n = c.normal;
    const Vec3 va = P.velocity[a] + P.angular_velocity[a].cross(c.point - P.position[a]);
    Vec3 vb;
    double d;
    if (c.is_wall()) {
      vb = world.walls[c.wall_index()].velocity_at(c.point);
      d = 2 * P.radius[a];
    } else {
      const int b = c.b;
      vb = P.velocity[b] + P.angular_velocity[b].cross(-(P.radius[b] - 0.5 * c.overlap) * n);
      d = P.radius[a] + P.radius[b];
    }
    out.overlap.push_back(unit == OverlapUnit::diameter ? c.overlap / d : c.overlap);
    out.normal_velocity.push_back((va - vb).dot(n));
  }
  return out;
}

ContactHistograms sample_contact_histograms(const World& world, const ContactHistogramSettings& settings) {
  settings.validate();
  const ContactValues v = touching_contact_values(world, settings.overlap_unit);
  ContactHistograms s;
  s.time = world.time;
  s.step = world.step;
  s.touching = v.overlap.size();
  s.overlap = make_histogram(v.overlap, settings.overlap);
  s.normal_velocity = make_histogram(v.normal_velocity, settings.normal_velocity);
  return s;
}

std::vector<std::string> histogram_columns() { return {"time", "step", "bin", "lower", "upper", "count", "fraction"}; }

std::vector<std::vector<double>> histogram_rows(const Histogram& h, double time, std::uint64_t step, std::size_t touching) {
  const double inf = std::numeric_limits<double>::infinity();
  const double norm = touching > 0 ? 1.0 / double(touching) : 0.0;
  const std::size_t n = h.counts.size();
  std::vector<std::vector<double>> rows;
  rows.reserve(n + 2);
  auto row = [&](double bin, double lo, double hi, std::uint64_t count) {
    rows.push_back({time, double(step), bin, lo, hi, double(count), double(count) * norm});
  };
  row(-1, -inf, h.lower, h.underflow);
  for (std::size_t k = 0; k < n; ++k)
    row(double(k), h.lower + double(k) * h.bin_width(), k + 1 == n ? h.upper : h.lower + double(k + 1) * h.bin_width(),
        h.counts[k]);
  row(double(n), h.upper, inf, h.overflow);
  return rows;
}

ContactHistogramObserver::ContactHistogramObserver(ContactHistogramSettings settings, std::uint64_t every,
                                                   const std::filesystem::path& path_prefix)
    : settings_(std::move(settings)), every_(every) {
  settings_.validate();  // before any file is created
  if (!path_prefix.empty()) {
    overlap_csv_ = std::make_unique<CsvWriter>(path_prefix.string() + "overlap.csv", histogram_columns());
    velocity_csv_ = std::make_unique<CsvWriter>(path_prefix.string() + "normal_velocity.csv", histogram_columns());
  }
}

bool ContactHistogramObserver::observe(World& world) {
  if (every_ == 0 || world.step % every_ != 0) return false;
  sample(world);
  return true;
}

void ContactHistogramObserver::sample(World& world) {
  world.sync_contacts();
  last_ = sample_contact_histograms(world, settings_);
  ++samples_;
  auto append = [&](const Histogram& h, std::vector<std::vector<double>>& keep, CsvWriter* csv) {
    for (auto& r : histogram_rows(h, last_.time, last_.step, last_.touching)) {
      if (csv) csv->row(r);
      keep.push_back(std::move(r));
    }
  };
  append(last_.overlap, overlap_rows_, overlap_csv_.get());
  append(last_.normal_velocity, velocity_rows_, velocity_csv_.get());
}

}  // namespace grainlab::io
