// Bed-profile chain (experiments/bed_profile.hpp) on synthetic profiles with known answers: the Paper II
// objective against the ledger's independently computed E6 table (../shared/claims/paper2.md E6, python3,
// w_n = 2^(1-n), N = 20, 0.025 m samples) and against closed forms; the cellular automaton's conservation
// and repose slope; Paper III Eq. 14-15 on cosines and the range of Eq. 15.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "experiments/bed_profile.hpp"

using namespace grainlab;

namespace {
constexpr double dy = 0.025;                      // CA cell = 2.5 d (000 l.936)
constexpr double cross_section = 4.4 / (2500 * 0.7 * 0.25);  // m^2: feed / (rho chi v), ledger E2 (0.01006)

std::vector<double> cosine(int m, int n, double mean, double amplitude) {
  std::vector<double> h(static_cast<std::size_t>(m));
  for (int k = 0; k < m; ++k) h[static_cast<std::size_t>(k)] = mean + amplitude * std::cos(2 * std::numbers::pi * n * k / m);
  return h;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(bed_profile)

BOOST_AUTO_TEST_CASE(constant_profile_has_zero_objective) {
  const FftObjective o = fft_objective(std::vector<double>(40, 0.01));
  BOOST_TEST(o.f < 1e-15);
  BOOST_TEST(o.termination_criterion);
  BOOST_TEST(o.magnitude[0] == 0.4, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(cosine_of_mode_n_gives_2_pow_2_minus_n_times_amplitude) {
  for (int n = 1; n <= 5; ++n) {
    const FftObjective o = fft_objective(cosine(40, n, 0.01, 0.002));
    BOOST_TEST(o.f == std::ldexp(0.002, 2 - n), boost::test_tools::tolerance(1e-10));
    BOOST_TEST(o.magnitude[static_cast<std::size_t>(n)] / 20 == 0.002, boost::test_tools::tolerance(1e-10));
  }
  // Dropping the weight (w_n = 1) gives 2 a whatever the mode: the perturbation the study shows.
  const FftObjective flat = fft_objective(cosine(40, 3, 0.01, 0.002), {20, ModeWeights::uniform});
  BOOST_TEST(flat.f == 0.004, boost::test_tools::tolerance(1e-10));
}

BOOST_AUTO_TEST_CASE(all_mass_in_one_cell_reaches_the_bound_0_0805) {
  for (int m : {40, 30}) {
    std::vector<double> h(static_cast<std::size_t>(m), 0.0);
    h[static_cast<std::size_t>(m / 2)] = cross_section / dy;
    const FftObjective o = fft_objective(h);
    BOOST_TEST(o.f == 0.0805, boost::test_tools::tolerance(0.002));  // ledger E6 (both options)
    // Closed form: |a_n| = a_0 for all n, so f = (2/N) a_0 (2 - 2^(1-N)) <= 4 A/(N dy).
    BOOST_TEST(o.f == 0.2 * cross_section / dy * (1 - std::ldexp(1.0, -20)), boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(uniform_bed_under_the_outlet_depends_on_the_window) {
  std::vector<double> h(40, 0.0);
  const double height = cross_section / 0.75;
  for (std::size_t j = 6; j < 36; ++j) h[j] = height;  // cells centred in [0.15, 0.9] m
  BOOST_TEST(fft_objective(h).f == 0.0177, boost::test_tools::tolerance(0.01));  // option A, ledger E6
  const std::vector<double> b = profile_window(h, 0.0, dy, 0.15, 0.9);
  BOOST_TEST(b.size() == 30u);
  BOOST_TEST(fft_objective(b).f < 1e-15);  // option B
}

BOOST_AUTO_TEST_CASE(printed_weights_blow_up_on_noise) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.05 * 0.01006);
  std::vector<double> h(40);
  for (double& v : h) v = 0.01006 + noise(rng);
  const double decaying = fft_objective(h).f, printed = fft_objective(h, {20, ModeWeights::as_printed}).f;
  BOOST_TEST(decaying < 0.002);  // ledger: 0.00035 m for its noise draw
  BOOST_TEST(printed > 10.0);    // ledger: 307 m; Table 1 prints 0.006-0.077 m
}

BOOST_AUTO_TEST_CASE(termination_criterion_bounds_the_objective) {
  // Uniform bed with a fraction q of the mass moved into one cell: |a_n| = q a_0 for every n >= 1, the
  // largest f the criterion (q <= 1/10) allows: f = (2/N) q a_0 sum_{n=1..N} 2^(1-n) = (4/N) q a_0 (1 - 2^-N).
  for (double q : {0.099, 0.05}) {
    std::vector<double> h(40, (1 - q) * cross_section / 1.0);
    h[25] += q * cross_section / dy;
    const FftObjective o = fft_objective(h);
    BOOST_TEST(o.termination_criterion);
    BOOST_TEST(o.largest_mode_ratio == q, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(o.f == 4 * q * (cross_section / dy) / 20 * (1 - std::ldexp(1.0, -20)), boost::test_tools::tolerance(1e-9));
    BOOST_TEST(o.f < 0.01);
  }
  // Any profile that meets the criterion stays below 0.4 a_0 / N (= 0.0080 m at the feed-rate bed).
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int met = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<double> h(40);
    for (double& v : h) v = 0.8 + 0.4 * u(rng) * u(rng);
    h[static_cast<std::size_t>(trial % 40)] += 2.5 * u(rng);
    const FftObjective o = fft_objective(h);
    if (!o.termination_criterion) continue;
    ++met;
    BOOST_TEST(o.f <= 0.4 * o.magnitude[0] / 20);
  }
  BOOST_TEST(met > 100);
  std::vector<double> over(40, 0.9 * cross_section);
  over[25] += 0.11 * cross_section / dy;
  BOOST_TEST(!fft_objective(over).termination_criterion);
}

BOOST_AUTO_TEST_CASE(cellular_automaton_conserves_volume_and_settles_at_the_repose_slope) {
  BeltSurfaceSettings s;  // 1.0 m belt, 0.025 m cells, 35 deg, packing 0.7, 2500 kg/m^3
  const double mass = 2500 * std::numbers::pi / 6 * 1e-6;  // one 10 mm sphere
  std::vector<BeltDeposit> d;
  for (int k = 0; k < 2000; ++k) d.push_back({0.3, 0.51, 0.0, mass});  // one cell
  const BeltSurface surf = cellular_automaton_surface(d, s);
  double volume = 0, steepest = 0;
  for (std::size_t i = 0; i < surf.nx; ++i)
    for (std::size_t j = 0; j < surf.ny; ++j) {
      volume += surf.at(i, j) * dy * dy;
      if (i + 1 < surf.nx) steepest = std::max(steepest, std::abs(surf.at(i, j) - surf.at(i + 1, j)));
      if (j + 1 < surf.ny) steepest = std::max(steepest, std::abs(surf.at(i, j) - surf.at(i, j + 1)));
    }
  BOOST_TEST(volume == 2000 * mass / (2500 * 0.7), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(steepest <= dy * std::tan(35 * std::numbers::pi / 180) + 1e-6);
  BOOST_TEST(steepest >= dy * std::tan(35 * std::numbers::pi / 180) - 1e-3);  // it did pile up to the slope
  BOOST_TEST(surf.dropped == 0u);
}

BOOST_AUTO_TEST_CASE(cellular_automaton_grid_grows_until_the_heap_is_clear_of_its_ends) {
  // 20k spheres on one spot: a 35 deg cone of radius ~0.27 m, wider than the first 10-cell margin.
  const double mass = 2500 * std::numbers::pi / 6 * 1e-6;
  const std::vector<BeltDeposit> d(20000, BeltDeposit{0.0, 0.5, 0.0, mass});
  const BeltSurface surf = cellular_automaton_surface(d, BeltSurfaceSettings{});
  BOOST_TEST(surf.nx > 21u);
  double volume = 0;
  for (std::size_t j = 0; j < surf.ny; ++j) {
    BOOST_TEST(surf.at(0, j) == 0.0);
    BOOST_TEST(surf.at(surf.nx - 1, j) == 0.0);
  }
  for (double v : surf.h) volume += v * dy * dy;
  BOOST_TEST(volume == 20000 * mass / (2500 * 0.7), boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(belt_frame_spreads_one_landing_point_along_the_belt) {
  BeltSurfaceSettings s;
  s.belt_speed = 0.25;
  const double mass = 1e-3;
  std::vector<BeltDeposit> d;
  for (int k = 0; k < 40; ++k) d.push_back({0.0, 0.5, 0.1 * k, mass});  // same lab point, 4 s
  d.push_back({0.0, 1.2, 0.0, mass});                                     // off the belt
  const BeltSurface surf = cellular_automaton_surface(d, s);
  BOOST_TEST(surf.dropped == 1u);
  BOOST_TEST(surf.nx * surf.cell > 0.25 * 3.9);  // the deposits lie along 0.975 m of belt
  // Averaged over the whole deposit, the profile carries all the volume in y = 0.5 m's column.
  const std::vector<double> h = time_averaged_profile(surf, -0.975 - 1e-9, 0.0);
  double sum = 0;
  for (double v : h) sum += v;
  BOOST_TEST(sum * dy * 0.975 == 40 * mass / (2500 * 0.7), boost::test_tools::tolerance(0.03));
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_parameter) {
  std::vector<BeltDeposit> d{{0, 0.5, 0, 1e-3}};
  BeltSurfaceSettings s;
  s.cell_size = 0;
  BOOST_CHECK_THROW(cellular_automaton_surface(d, s), InputError);
  BOOST_CHECK_THROW(cellular_automaton_surface({}, BeltSurfaceSettings{}), InputError);
  BOOST_CHECK_THROW(fft_objective(std::vector<double>{1.0}), InputError);
  BOOST_CHECK_THROW(mode_weights_from_text("printed"), InputError);
  BOOST_CHECK_THROW(coefficient_of_variation(std::vector<double>(4, 0.0)), InputError);
  BOOST_CHECK_THROW(relative_coefficient_of_variation(std::vector<double>(4, 1.0), std::vector<double>(3, 1.0)),
                    InputError);
}

BOOST_AUTO_TEST_CASE(eq14_of_a_cosine_is_amplitude_over_root_2) {
  const std::vector<double> h = cosine(96, 2, 0.1, 0.03);  // 2.4 m belt, 0.025 m samples
  BOOST_TEST(coefficient_of_variation(h) == 0.3 / std::sqrt(2.0), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(eq15_is_zero_for_the_observation_and_the_distance_of_two_cosines) {
  const std::vector<double> a = cosine(96, 1, 0.1, 0.05), b = cosine(96, 1, 0.1, 0.02);
  BOOST_TEST(relative_coefficient_of_variation(a, a) == 0.0);
  // Equal means: 4 |u - v|^2 / (2 m)^2 = |u - v|^2 / m^2, u - v = 0.03 cos: 0.3 / sqrt 2.
  BOOST_TEST(relative_coefficient_of_variation(a, b) == 0.3 / std::sqrt(2.0), boost::test_tools::tolerance(1e-12));
  const BedProfileStatistics st = bed_profile_statistics(a, b);
  BOOST_TEST(st.sigma_h == 0.5 / std::sqrt(2.0), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(st.sigma_reference == 0.2 / std::sqrt(2.0), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(eq15_range_is_attained_and_holds_for_random_profiles) {
  // Aligned and opposed cosines reach the two ends of the range, for equal and unequal means.
  for (double r : {1.0, 340.0 / 275.0}) {
    const std::vector<double> obs = cosine(96, 1, 0.1, 0.03);
    const std::vector<double> aligned = cosine(96, 1, 0.1 * r, 0.06 * r), opposed = cosine(96, 1, 0.1 * r, -0.06 * r);
    const RelativeVariationRange range = relative_variation_range(coefficient_of_variation(aligned),
                                                                  coefficient_of_variation(obs), r);
    BOOST_TEST(relative_coefficient_of_variation(aligned, obs) == range.lowest, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(relative_coefficient_of_variation(opposed, obs) == range.highest, boost::test_tools::tolerance(1e-12));
  }
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> h(48), hb(48);
    for (std::size_t j = 0; j < h.size(); ++j) {
      h[j] = std::pow(u(rng), 3);
      hb[j] = u(rng);
    }
    const BedProfileStatistics st = bed_profile_statistics(h, hb);
    const RelativeVariationRange range = relative_variation_range(st.sigma_h, st.sigma_reference, st.mean / st.mean_reference);
    BOOST_TEST(st.sigma_h_minus_reference >= range.lowest - 1e-12);
    BOOST_TEST(st.sigma_h_minus_reference <= range.highest + 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(eq13_averages_profiles_sample_by_sample) {
  const std::vector<double> avg = time_average({{1.0, 2.0}, {3.0, 6.0}});
  BOOST_TEST(avg[0] == 2.0);
  BOOST_TEST(avg[1] == 4.0);
  BOOST_CHECK_THROW(time_average({{1.0}, {1.0, 2.0}}), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
