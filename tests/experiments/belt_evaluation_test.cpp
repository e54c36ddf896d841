// One design's belt verdict (experiments/belt_evaluation.hpp) on synthetic deposits: a bed spread evenly over
// the belt has f ~ 0 and no end heap; the same mass with a heap under the outlet end puts argmax h(y) there and
// raises f; a landing zone longer than the belt travel leaves no fully covered window (NaN, not an error); at
// half the belt speed the mean bed doubles and so does f (mass balance, ledger P4).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "experiments/belt_evaluation.hpp"

using namespace grainlab;
namespace tt = boost::test_tools;

namespace {
constexpr double ball = 1.309e-3;  // kg, d = 10 mm at 2500 kg/m^3

// Deposits at a steady rate over `record` s, landing x in [0, 0.3) m, y spread by `y_of(k)`.
template <class Y>
std::vector<BeltDeposit> stream(int n, double record, Y y_of) {
  std::vector<BeltDeposit> d;
  for (int k = 0; k < n; ++k) d.push_back({0.3 * ((k * 37) % 100) / 100.0, y_of(k), record * (k + 0.5) / n, ball});
  return d;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(belt_evaluation)

BOOST_AUTO_TEST_CASE(even_bed_versus_end_heap) {
  const double record = 5.2;
  const int n = 17500;  // 4.4 kg/s for 5.2 s
  const auto even = stream(n, record, [&](int k) { return (k % 40 + 0.5) * 0.025; });
  const BeltEvaluation e = evaluate_belt(even, record, BeltSurfaceSettings{});
  BOOST_TEST(e.covered);
  BOOST_TEST(e.f < 1e-3);
  BOOST_TEST(e.interior_cov < 0.05);
  // A third of the mass in the cell at y = 0.9 m.
  const auto heap = stream(n, record, [&](int k) { return k % 3 == 0 ? 0.9125 : (k % 40 + 0.5) * 0.025; });
  const BeltEvaluation h = evaluate_belt(heap, record, BeltSurfaceSettings{});
  BOOST_TEST(std::abs(h.argmax_y - 0.9125) <= 0.05);
  BOOST_TEST(h.end_heap_ratio > 1.5);
  BOOST_TEST(h.f > 10 * e.f);
  BOOST_TEST(h.f < 0.0805);  // the ledger's bound for all the mass in one cell
}

BOOST_AUTO_TEST_CASE(half_belt_speed_doubles_f) {
  const double record = 7.8;
  const auto heap = stream(20000, record, [](int k) { return k % 3 == 0 ? 0.9125 : (k % 40 + 0.5) * 0.025; });
  BeltSurfaceSettings s;
  const BeltEvaluation base = evaluate_belt(heap, record, s);
  s.belt_speed = 0.125;
  const BeltEvaluation half = evaluate_belt(heap, record, s);
  BOOST_TEST(half.covered);
  BOOST_TEST(half.f / base.f == 2.0, tt::tolerance(0.15));  // the CA may topple the heap differently
}

BOOST_AUTO_TEST_CASE(no_fully_covered_window) {
  auto d = stream(1000, 1.0, [](int k) { return (k % 40 + 0.5) * 0.025; });
  d.front().x = -0.5;  // landing zone 0.8 m > v T = 0.25 m
  const BeltEvaluation e = evaluate_belt(d, 1.0, BeltSurfaceSettings{});
  BOOST_TEST(!e.covered);
  BOOST_TEST(std::isnan(e.f));
  BOOST_CHECK_THROW(evaluate_belt(std::vector<BeltDeposit>{}, 1.0, BeltSurfaceSettings{}), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
