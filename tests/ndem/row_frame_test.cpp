// The contact frame's t1 (core/ndem/row_frame.hpp) is shared by the sphere rows and the body rows; it must
// round exactly as both set-ups did when each computed it in place (7323ef5, GCC 12, x86-64-v3), or every
// NDEM run changes in the last bits. The values below are that sphere-row set-up's, for contacts of a
// settling pile whose t1 rounds differently when GCC may fuse one of the dot products' first two products
// into their sum (the set-up rounded both products first).
#include <boost/test/unit_test.hpp>

#include <array>

#include "core/ndem/row_frame.hpp"

using namespace grainlab;
using namespace grainlab::ndem_rows;

namespace {

struct StoredFrame {
  Vec3 n, tangent, t1;  ///< the contact normal, the carried tangent, the stored t1
};

const std::array<StoredFrame, 8> stored_frames = {{
    {{-0x1.ff47980c1f672p-1, 0x1.77ce023d5fe57p-6, 0x1.87a70a18164c6p-5}, {-0x1.68feeafb97ed5p-5, 0x1.beda6f6219b15p-12, -0x1.ff80a9a19fc84p-1}, {-0x1.87a8cc7ba9778p-5, 0x1.0c806ccc60f99p-11, -0x1.ff6a1863b45efp-1}},
    {{-0x1.ff855d7947372p-1, 0x1.34a9f1bae782cp-7, 0x1.59c809690f58dp-5}, {-0x1.d96acc1d6d924p-5, 0x1.1cd7b94ef97ddp-13, -0x1.ff24f1dfc493fp-1}, {-0x1.59cc2ef848511p-5, -0x1.74be1b17ba28ap-17, -0x1.ff8b2cad0ee4ep-1}},
    {{-0x1.ffe8adb1f6fb6p-1, 0x1.24ee13ae4bfeap-6, 0x1.8a1ff7e23b04fp-8}, {-0x1.0b3444f67d785p-5, 0x1.260942e5467ddp-12, -0x1.ffba40696f86fp-1}, {-0x1.8a6ab38f06806p-8, -0x1.99acb4eaf6585p-13, -0x1.fffd9fae131d9p-1}},
    {{-0x1.ff1c3298e9781p-1, 0x1.de5f8a6918d62p-6, 0x1.a35a49275d534p-5}, {-0x1.371039a8422b2p-5, 0x1.1e5e73f3e89b8p-13, -0x1.ffa178dac1033p-1}, {-0x1.a3680be3edcb1p-5, 0x1.125acb0f485adp-11, -0x1.ff54171b5b4e3p-1}},
    {{-0x1.ff5f42fd5f975p-1, 0x1.4de3364df357bp-7, 0x1.8ce5bd295151bp-5}, {-0x1.448a833fd397fp-5, 0x1.e0befea47a5ap-14, -0x1.ff9919b6b3fa6p-1}, {-0x1.8ce6a45d3c187p-5, 0x1.ad54e034b978ep-13, -0x1.ff66119133edep-1}},
    {{-0x1.ff80999716199p-1, -0x1.eeb6fc472e319p-6, 0x1.07133feac6aa7p-5}, {-0x1.59ab1050442eap-5, -0x1.296ced252e134p-11, -0x1.ff8b3da889d1bp-1}, {-0x1.0721556878b96p-5, -0x1.137f2e7fe030fp-12, -0x1.ffbc5cff62097p-1}},
    {{-0x1.fec7dc0bb4f53p-1, 0x1.2d00c85b39cf7p-7, 0x1.17feb0eb3d9b7p-4}, {-0x1.18d040bb929f5p-5, 0x1.a781020911eap-13, -0x1.ffb2f7778f9fp-1}, {-0x1.17fcc01f3d534p-4, 0x1.0e59d4f16e2d8p-11, -0x1.fecd66d90b77dp-1}},
    {{-0x1.ffdfcd690c331p-1, 0x1.6acaccad4e4ap-6, -0x1.f6fcad1fa4777p-11}, {-0x1.914a871885fd7p-9, 0x1.324fb2ef8f928p-15, -0x1.ffff62b78991bp-1}, {0x1.f6801e482680dp-11, -0x1.b898e88e9cb0bp-15, -0x1.fffff08abbb0dp-1}},
}};

bool same(const Vec3& x, const Vec3& y) { return x.x() == y.x() && x.y() == y.y() && x.z() == y.z(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(row_frame)

BOOST_AUTO_TEST_CASE(t1_rounds_as_the_setup_that_stored_it) {
  for (std::size_t i = 0; i < stored_frames.size(); ++i) {
    const StoredFrame& s = stored_frames[i];
    BOOST_TEST_CONTEXT("contact " << i) { BOOST_TEST(same(frame_t1(s.n, s.tangent), s.t1)); }
  }
  // A new contact carries no tangent: any direction normal to n.
  const Vec3 n = stored_frames[0].n;
  BOOST_TEST(same(frame_t1(n, Vec3::Zero()), any_orthogonal(n)));
}

// The contacts above discriminate: with the first product fused into the dot products' sums, t1 misses
// every one of them.
BOOST_AUTO_TEST_CASE(fusing_the_first_product_rounds_differently) {
  auto dot = [](const Vec3& a, const Vec3& b) {
    return std::fma(a.z(), b.z(), std::fma(a.x(), b.x(), separate_product(a.y(), b.y())));
  };
  int misses = 0;
  for (const StoredFrame& s : stored_frames) {
    const double along = dot(s.tangent, s.n);
    const Vec3 t(std::fma(-along, s.n.x(), s.tangent.x()), std::fma(-along, s.n.y(), s.tangent.y()),
                 std::fma(-along, s.n.z(), s.tangent.z()));
    const double norm = std::sqrt(dot(t, t));
    misses += !same(Vec3(t.x() / norm, t.y() / norm, t.z() / norm), s.t1);
  }
  BOOST_TEST(misses >= 4);
}

BOOST_AUTO_TEST_SUITE_END()
