// The SDEM stepper keeps the pair candidates' overlap and tangential spring outside the contact records
// (World::deferred_contacts) and World::sync_contacts() writes them into the records. Checked here:
//  - the const accessor never writes: it refuses records that lag behind (std::logic_error) until they
//    are synced; World::contact(k) reads contact k as the sync will write it, without writing;
//  - reading the records (which also makes the stepper load them again) changes nothing in the run:
//    bitwise the same particles and contacts as a run that never reads them, across candidate rebuilds
//    (which carry the pair history from the records when they are current, else from the deferred store);
//  - the synced records are what the force stage used: per particle, the sum of its contact forces is
//    the contact force the gather applied (same additions, different order: 1e-12 relative), and the
//    normal and point are those of the current positions.
#include <boost/test/unit_test.hpp>

#include "core/sdem/sdem_stepper.hpp"
#include "tests/io/toy_stepper.hpp"

using namespace grainlab;

namespace {

World settling_world(double rolling_friction) {
  World w = test::toy_world(9);  // 64 spheres settling in a box of planes
  for (Material& m : w.materials) m.rolling_friction = rolling_friction;
  return w;
}

/// `sync_every_step`: the read run syncs the records before every step, so each candidate
/// rebuild carries the history from the records, while the unread run's rebuilds carry it from the
/// deferred store, which is then ahead of the records.
void reading_changes_nothing(double rolling_friction, bool sync_every_step = false) {
  SdemSettings settings;
  settings.time_step = 2e-5;
  World read = settling_world(rolling_friction), unread = settling_world(rolling_friction);
  SdemStepper a(settings), b(settings);
  std::size_t touching = 0;
  for (int i = 0; i < 3000; ++i) {
    if (sync_every_step) read.sync_contacts();
    a.step(read);
    b.step(unread);
    if (i % 7 == 0) {
      read.sync_contacts();
      const World& view = read;
      touching = 0;
      for (const Contact& c : view.contacts()) touching += c.overlap > 0;  // sync only
    }
    if (i % 11 == 0) read.contacts();  // sync, and the stepper loads the records again
  }
  BOOST_TEST(touching > 20u);
  BOOST_TEST(unread.detector.stats().rebuilds > 2u);
  BOOST_TEST((read.particles.position == unread.particles.position));
  BOOST_TEST((read.particles.velocity == unread.particles.velocity));
  BOOST_TEST((read.particles.angular_velocity == unread.particles.angular_velocity));
  const std::vector<Contact>&x = read.contacts(), &y = unread.contacts();
  BOOST_REQUIRE(x.size() == y.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    BOOST_TEST(x[k].overlap == y[k].overlap);
    BOOST_TEST((read.tangential_spring(k) == unread.tangential_spring(k)));
    BOOST_TEST((x[k].force == y[k].force));
  }
}

/// The bed after 2000 SDEM steps, its records stale (more than 20 pairs touch).
World settled_world() {
  SdemSettings settings;
  settings.time_step = 2e-5;
  World w = settling_world(0.0);
  SdemStepper stepper(settings);
  for (int i = 0; i < 2000; ++i) stepper.step(w);
  return w;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sdem_deferred_contacts)

BOOST_AUTO_TEST_CASE(reading_the_records_changes_nothing) { reading_changes_nothing(0.0); }
BOOST_AUTO_TEST_CASE(reading_the_records_changes_nothing_with_rolling_resistance) { reading_changes_nothing(0.05); }
BOOST_AUTO_TEST_CASE(rebuilds_carry_the_same_history_from_records_and_deferred_store) { reading_changes_nothing(0.0, true); }

BOOST_AUTO_TEST_CASE(the_const_accessor_refuses_stale_records) {
  World w = settled_world();
  const World& view = w;
  BOOST_TEST(!view.contacts_current());
  BOOST_CHECK_THROW(view.contacts(), std::logic_error);
  BOOST_TEST(!view.contacts_current());  // the failed read wrote nothing
  std::vector<Contact> as_synced;  // World::contact(k): what the sync will write, read without writing
  std::vector<Vec3> springs_as_synced;  // World::tangential_spring(k) likewise
  for (std::size_t k = 0; k < view.contact_count(); ++k)
    as_synced.push_back(view.contact(k)), springs_as_synced.push_back(view.tangential_spring(k));
  BOOST_TEST(!view.contacts_current());
  w.sync_contacts();
  BOOST_TEST(view.contacts_current());
  const std::vector<Contact>& synced = view.contacts();
  BOOST_REQUIRE(synced.size() == as_synced.size());
  std::size_t touching = 0;
  for (std::size_t k = 0; k < synced.size(); ++k) {
    const Contact &x = synced[k], &y = as_synced[k];
    touching += x.overlap > 0;
    BOOST_TEST((x.key == y.key && x.overlap == y.overlap && x.normal == y.normal && x.point == y.point &&
                x.force == y.force && view.model_history().tangential_springs[k].elongation == springs_as_synced[k]));
  }
  BOOST_TEST(touching > 20u);
}

BOOST_AUTO_TEST_CASE(synced_records_hold_the_applied_forces) {
  World w = settled_world();
  w.sync_contacts();
  const World& view = w;
  const std::vector<Contact>& contacts = view.contacts();
  std::vector<Vec3> sum(w.particles.size(), Vec3::Zero());
  std::size_t pairs_touching = 0;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const Contact& c = contacts[k];
    sum[c.a] += c.force;
    if (c.is_wall()) continue;
    sum[c.b] -= c.force;
    pairs_touching += c.overlap > 0;
    const Vec3 delta = w.particles.position[c.a] - w.particles.position[c.b];
    BOOST_TEST((c.normal - delta.normalized()).norm() <= 1e-14);
    // The point: midway through the current overlap, on the line of centres.
    const double d_now = w.particles.radius[c.a] + w.particles.radius[c.b] - delta.norm();
    const Vec3 point = w.particles.position[c.a] - (w.particles.radius[c.a] - 0.5 * d_now) * delta.normalized();
    BOOST_TEST((c.point - point).norm() <= 1e-15);
  }
  BOOST_TEST(pairs_touching > 20u);
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    BOOST_TEST((sum[i] - w.particles.force[i]).norm() <= 1e-12 * (1e-9 + w.particles.force[i].norm()));
}

BOOST_AUTO_TEST_SUITE_END()
