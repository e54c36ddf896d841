#pragma once
// Contact histograms (issue 8 "Convergence observers": histograms of contact normal velocity and overlap;
// Paper IV compares solutions by histograms, there of the residuals per constraint type, 000 l.1679 and
// Fig. 9): per sample, one histogram of the contact overlaps and one of the contact normal velocities,
// over the touching contacts (overlap > 0; pairs and walls) of the world as it is now.
//
//   overlap          delta of the contact (core/contacts.hpp), in units of d (d = r_a + r_b for a pair,
//                    2 r against a wall: the <g/d> of Paper I l.577 and NdemStepStats) or in metres
//   normal velocity  u_n = (v_a(p) - v_b(p)) . n, m/s, the relative velocity of the two bodies' material
//                    points at the contact point p along the contact normal n (from b to a). Sign
//                    convention of core/contacts.hpp and core/ndem/pgs.hpp: u_n > 0 separating,
//                    u_n < 0 approaching. v_a(p) = v_a + w_a x (p - x_a); for a pair the lever arm of b
//                    is -(r_b - delta/2) n (no periodic image needed), for a wall v_b(p) =
//                    Wall::velocity_at(p) (translation, rotation, conveyor surface).
//
// What a sample pairs: the overlaps as detected at the start of the last step and the velocities after
// it, i.e. exactly the constraint velocity G v the NDEM solver enforced for those contacts; for SDEM the
// velocities one step after the forces were evaluated. Call it after Stepper::step().
//
// Binning: fixed (lower, upper, bins: uniform bins [lower + k w, lower + (k+1) w), the last one closed
// at `upper`; values below/above go to underflow/overflow, so counts + underflow + overflow = touching)
// or automatic (per sample: [min, max] of the sampled values, no under/overflow).
//
// Output (CSV or in-memory rows, one row per bin): time, step, bin, lower, upper, count, fraction;
// bin = -1 is the underflow row (lower = -inf), bin = bins the overflow row (upper = +inf); fraction =
// count / touching (0 when nothing touches), so a sample's fractions sum to 1.
//
// Reads World (particles, walls, contacts, time, step); writes nothing in it. Serial loops in contact
// order: a sample is deterministic. Cost when not sampled: none (the steppers know nothing of it; the
// observer returns at once on steps that are not due).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/io/csv_writer.hpp"
#include "core/world.hpp"

namespace grainlab::io {

enum class OverlapUnit {
  diameter,  ///< delta / d
  metre,     ///< delta in m
};

/// Bins of one histogram: `automatic` (range from the data of each sample) or fixed [lower, upper].
struct HistogramAxis {
  bool automatic = true;
  double lower = 0, upper = 0;  ///< fixed range (used when !automatic): lower < upper, finite
  int bins = 20;                ///< >= 1
};

struct ContactHistogramSettings {
  HistogramAxis overlap, normal_velocity;
  OverlapUnit overlap_unit = OverlapUnit::diameter;
  /// Throws InputError naming the parameter (e.g. "contact histogram: overlap.bins = 0 ...").
  void validate() const;
};

/// "d" or "m"; InputError otherwise.
OverlapUnit parse_overlap_unit(const std::string& name);

struct Histogram {
  double lower = 0, upper = 0;        ///< range of the regular bins
  std::vector<std::uint64_t> counts;  ///< one per regular bin
  std::uint64_t underflow = 0, overflow = 0;
  double bin_width() const { return counts.empty() ? 0.0 : (upper - lower) / double(counts.size()); }
  std::uint64_t total() const;  ///< counts + underflow + overflow
};

/// Histogram of `values` on `axis`. Automatic with no values: range [0, 1]; automatic with all values
/// equal to x: range [x - h, x + h] with h = |x|/2, or 1/2 when x = 0. Non-finite values are an error
/// (InputError): a histogram is never silently short of a contact.
Histogram make_histogram(const std::vector<double>& values, const HistogramAxis& axis);

/// Adds the counts of `h` to `sum` (a window of steps as one histogram). An empty `sum` takes h's bins;
/// otherwise the bins must be the same (InputError naming both ranges).
void add_histogram(Histogram& sum, const Histogram& h);

/// The overlap (in `unit`) and normal velocity of every touching contact, in contact order.
struct ContactValues {
  std::vector<double> overlap, normal_velocity;
};
ContactValues touching_contact_values(const World& world, OverlapUnit unit);

struct ContactHistograms {
  double time = 0;
  std::uint64_t step = 0;
  std::size_t touching = 0;  ///< contacts with overlap > 0
  Histogram overlap, normal_velocity;
};

/// Samples the world now. Reads the contact records: after an SDEM step, call World::sync_contacts() first.
ContactHistograms sample_contact_histograms(const World& world, const ContactHistogramSettings& settings);

/// Column names of histogram_rows().
std::vector<std::string> histogram_columns();
/// Rows (one per bin, underflow and overflow included) of one histogram of a sample.
std::vector<std::vector<double>> histogram_rows(const Histogram& h, double time, std::uint64_t step, std::size_t touching);

/// Samples every `every` steps (world.step % every == 0; every = 0: only on sample()) and keeps the rows
/// of each sample (time series); with a non-empty `path_prefix` also writes them to
/// <prefix>overlap.csv and <prefix>normal_velocity.csv as they are sampled.
class ContactHistogramObserver {
 public:
  ContactHistogramObserver(ContactHistogramSettings settings, std::uint64_t every,
                           const std::filesystem::path& path_prefix = {});
  /// Samples if this step is due; returns true when it did.
  bool observe(World& world);
  /// Samples now, whatever the step (syncing the contact records first).
  void sample(World& world);

  const ContactHistogramSettings& settings() const { return settings_; }
  const ContactHistograms& last() const { return last_; }
  std::size_t samples() const { return samples_; }
  /// All rows sampled so far (histogram_columns()).
  const std::vector<std::vector<double>>& overlap_rows() const { return overlap_rows_; }
  const std::vector<std::vector<double>>& normal_velocity_rows() const { return velocity_rows_; }

 private:
  ContactHistogramSettings settings_;
  std::uint64_t every_;
  std::unique_ptr<CsvWriter> overlap_csv_, velocity_csv_;
  ContactHistograms last_;
  std::size_t samples_ = 0;
  std::vector<std::vector<double>> overlap_rows_, velocity_rows_;
};

}  // namespace grainlab::io
