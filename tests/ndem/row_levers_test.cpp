// The lever-arm cross products and t2 of the NDEM rows (core/ndem/row_levers.hpp) are formed where
// they are used, from the stored lever arms; they must round exactly as the set-up that stored them did
// (1748efc, GCC 12, x86-64-v3), or every NDEM run changes in the last bits. The values below are that
// set-up's, for sphere contacts of a settling pile whose naive Eigen cross products round differently in
// at least one component (the first six: b's t2 lever, whose y used a second rounding of t2's z).
#include <boost/test/unit_test.hpp>

#include <array>

#include "core/ndem/row_levers.hpp"

using namespace grainlab;
using namespace grainlab::ndem_rows;

namespace {

struct StoredRow {
  Vec3 ra, rb, n, t1, t2, ca_n, ca_t1, ca_t2, cb_n, cb_t1, cb_t2;
};

const std::array<StoredRow, 12> stored_rows = {{
    { {0x1.4dac1e38ed4a2p-8, 0x1.60be5c301174ap-14, 0x1.ca5f3577cccp-16}, {-0x1.3e7e4e448fe6fp-8, -0x1.50b273a0bcd0bp-14, -0x1.b585322e58644p-16}, {-0x1.ffec3c724edf8p-1, -0x1.0e974e4161b4dp-6, -0x1.5f9e733bfb499p-8}, {0x1.5f922c2f3c011p-8, 0x1.73aa4e105238ap-14, -0x1.fffe1d0b3a277p-1}, {0x1.0e984d801fcf7p-6, -0x1.ffee1f5637ac5p-1, -0x1.a1a8c03eedfc6p-67}, {-0x1.d555ca86e3cf3p-66, 0x1.bb5a012031f3p-60, 0x1.98cff7d87aa3p-69}, {-0x1.60bfa8ed23216p-14, 0x1.4dad58f8a398fp-8, 0x1.6aa2b76758aa8p-75}, {0x1.ca4f342cdf1cp-16, 0x1.e4811db024b8ep-22, -0x1.4db7c5420a035p-8}, {-0x1.b014eb48dc368p-77, 0x1.c994a093705ep-69, -0x1.653cdd357873ap-67}, {0x1.50b3b13ade672p-14, -0x1.3e7f7ab2d63c9p-8, -0x1.a1d83229aa9acp-75}, {-0x1.b575eb46d23f7p-16, -0x1.ce76c676b5cdp-22, 0x1.3e896d9a7479dp-8},},
    { {0x1.42b53a31a9eedp-8, 0x1.ac1c255746p-18, 0x1.9e37f78d39cp-15}, {-0x1.447258c75ca8cp-8, -0x1.ae6aa62bba314p-18, -0x1.a0734f4045b27p-15}, {-0x1.fff94ce0553cap-1, -0x1.5398c138c67dp-10, -0x1.4893d41703d7bp-7}, {0x1.4893c204e080ap-7, 0x1.b3e56dd7e1bebp-17, -0x1.fff969089177p-1}, {0x1.539d20334f249p-10, -0x1.ffffe3d766fe4p-1, 0x1.6c696c81a8e2p-69}, {-0x1.4464d81727288p-67, 0x1.b3e55940172e8p-60, 0x1.891a53aa1e8c2p-61}, {-0x1.ac21a7f900cb3p-18, 0x1.42b96186142ep-8, -0x1.f922e0d53138fp-68}, {0x1.9e37e0c5520ddp-15, 0x1.12c12c9e6c9ep-24, -0x1.42b54bf12ab03p-8}, {0x1.7a74f25863d38p-78, -0x1.2541ee13f6e3ap-68, -0x1.2deea67a348p-75}, {0x1.ae7030672da19p-18, -0x1.447685d6749bcp-8, 0x1.07aed8b4d26bep-76}, {-0x1.a0733858f1e6ep-15, -0x1.143c2685cc2afp-24, 0x1.44726a9f58632p-8},},
    { {0x1.43e466956fbabp-8, 0x1.d46909f325p-16, 0x1.fdfeac10b35p-16}, {-0x1.444ee0637a768p-8, -0x1.d50305f86198bp-16, -0x1.fea653b6d1617p-16}, {-0x1.fffb6df10961ap-1, -0x1.723656336f35bp-8, -0x1.9314352888be2p-8}, {0x1.93128fa785ecbp-8, 0x1.2375cab28348ap-15, -0x1.fffd8555d5ae4p-1}, {0x1.7238211dfb749p-8, -0x1.fffde8989c067p-1, 0x1.fd0e9952cc652p-69}, {-0x1.25b393baded5p-67, -0x1.93e6693e18b1p-64, 0x1.8c37fd7c61f39p-60}, {-0x1.d46b4e97b3aaap-16, 0x1.43e5f814da0d8p-8, -0x1.378627f00459ap-67}, {0x1.fdfc96c21a33ap-16, 0x1.70c4f32faae4bp-23, -0x1.43e5b94962cc6p-8}, {0x1.8317cf06416d8p-78, 0x1.1e60d79d6e158p-71, 0x1.f140b234073fp-69}, {0x1.d5054b5bd16fdp-16, -0x1.44507266e1a45p-8, 0x1.6bc45bdf50f8p-78}, {-0x1.fea43db8e6bcp-16, -0x1.713e2db7e4ea3p-23, 0x1.44503386c5c3bp-8},},
    { {0x1.4aac20fbef74fp-8, 0x1.04fb3ef0c3cp-15, -0x1.71bc3216b7p-18}, {-0x1.429f21c6f83b6p-8, -0x1.fd413ad8c9ec3p-16, 0x1.68bbbb01b3074p-18}, {-0x1.fffd6e28ab0dep-1, -0x1.9415db24e70fap-8, 0x1.1e3c6ab74b875p-10}, {-0x1.1e3b062114062p-10, -0x1.c3cfda0bb13e1p-18, -0x1.ffffebff4ed0cp-1}, {0x1.9415eaee4e13dp-8, -0x1.fffd82294351fp-1, 0x1.aaa71da408098p-71}, {-0x1.0d25953c44894p-69, 0x1.ce16df670564p-64, -0x1.3d9233e34c213p-60}, {-0x1.04fb4922eeec5p-15, 0x1.4aac2de71bafp-8, -0x1.64443de09e739p-70}, {-0x1.71ba657b00c5p-18, -0x1.23ce536514163p-25, -0x1.4aadbcefc77f8p-8}, {-0x1.caea329796e3ep-79, 0x1.2cdc410943b68p-71, 0x1.e4b1a77f47f78p-69}, {0x1.fd414ebe073bbp-16, -0x1.429f2e619fb1p-8, 0x1.2208c3abb44f6p-78}, {0x1.68b9f99cd776ep-18, 0x1.1cb392c83593dp-25, 0x1.42a0b3b337ddcp-8},},
    { {0x1.4e56758372274p-8, 0x1.75483ceeeb4p-14, -0x1.69aff469c3p-16}, {-0x1.406f6b550643ep-8, -0x1.65c2a204b91b7p-14, 0x1.5aa5c700f3207p-16}, {-0x1.ffeae3e94e61p-1, -0x1.1dc600fdfaa42p-6, 0x1.14e593a3ef9fcp-8}, {-0x1.14dacafba1568p-8, -0x1.351a74d0bcd7bp-14, -0x1.fffed47fd42bep-1}, {0x1.1dc6a82907f8bp-6, -0x1.ffec0f5dd0308p-1, 0x1.badbd88ddaccp-68}, {-0x1.4a0e9b143f968p-65, 0x1.04093d41f38cp-59, -0x1.29dcf14a88fa8p-60}, {-0x1.7549174a8c942p-14, 0x1.4e573917146b5p-8, -0x1.4461ecba041c7p-68}, {-0x1.69a1de65240f2p-16, -0x1.93c18ec638ba9p-22, -0x1.4e637b5d14a2dp-8}, {-0x1.e1da216e0de48p-75, 0x1.1e3e2ba0e959p-69, -0x1.7675baacbf01p-68}, {0x1.65c3734bec6d4p-14, -0x1.407026c6bc60cp-8, 0x1.1c58ee51f9f94p-75}, {0x1.5a9846ee8c7c5p-16, 0x1.82f78e785357fp-22, 0x1.407be68dadb97p-8},},
    { {0x1.50f6481bd3205p-8, -0x1.5c4d0e5d878p-15, 0x1.4af47f376bp-17}, {-0x1.3ad0bcbf162d3p-8, 0x1.4568ba7610ac2p-15, -0x1.353405cdcc4cfp-17}, {-0x1.fffb7c3ecd661p-1, 0x1.089afd759c407p-7, -0x1.f6daf707e2eabp-10}, {0x1.f6d6c48c643fep-10, -0x1.03e13f80d46bdp-16, -0x1.ffffc24404857p-1}, {-0x1.089b1d5d3ddeap-7, -0x1.fffbb9fa44f75p-1, 0x1.bc350826f581cp-70}, {0x1.8073bbc2fa505p-66, 0x1.97cf1af5239d4p-60, -0x1.619615c016567p-58}, {0x1.5c4d385c9bfe6p-15, 0x1.50f670bce7127p-8, 0x1.5ae2df18cb1dap-67}, {0x1.4af1bc0b4ae37p-17, -0x1.5614ab306a1d6p-24, -0x1.50f91823d73c7p-8}, {0x1.d4d8d96c2f46ap-77, 0x1.ffdaf5ffe71bcp-72, -0x1.bbb3de73c7f8ap-68}, {-0x1.4568e1b289332p-15, -0x1.3ad0e2b48f1b5p-8, 0x1.c9e20fef2a7c7p-76}, {-0x1.3531711c2df06p-17, 0x1.3f98fff34192cp-24, 0x1.3ad35d743ceeap-8},},
    { {0x1.224548bd2695cp-15, -0x1.83759b2f14p-16, 0x1.463c219c3a738p-8}, {-0x1.23be6c41519d8p-15, 0x1.856d04da72ecep-16, -0x1.47e3ff44ce5aap-8}, {-0x1.c78a8148eb68p-8, 0x1.30086cd4dcf0dp-8, -0x1.fffb6c491e01fp-1}, {-0x1.250679d057ae1p-15, -0x1.fffe96eb7600ep-1, -0x1.30063b537b116p-8}, {-0x1.fffcd55a9e211p-1, 0x1.684130dd17663p-19, 0x1.c78bf80827eabp-8}, {-0x1.3081ff57e64ap-60, -0x1.36fb51bc56cp-68, 0x1.0e8e82a998cbep-67}, {0x1.463d07aed54dep-8, -0x1.cb1bbd7930417p-27, -0x1.224637870f97dp-15}, {-0x1.756e69b5eed29p-23, -0x1.463e26256ad03p-8, -0x1.8372cf9a07b53p-16}, {-0x1.4ec9bab83abc8p-71, -0x1.97c2e81fa4fp-68, -0x1.c14bf85dfeffp-76}, {-0x1.47e4e68256276p-8, 0x1.cd703e7389b8ap-27, 0x1.23bf5c417aa1p-15}, {0x1.775399771cdeep-23, 0x1.47e6066d1cc8dp-8, 0x1.856a35a3ab5b4p-16},},
    { {0x1.48cdbd123dc71p-8, -0x1.586366a5b88p-15, -0x1.bb4767c70fcp-16}, {-0x1.4e4210f39d6c4p-8, 0x1.5e19e96467a33p-15, 0x1.c2a1dfc6fc106p-16}, {-0x1.fff9cb74554b6p-1, 0x1.0c1f05ad3564cp-7, 0x1.591ca07f8ca67p-8}, {-0x1.5919ab54e4b9dp-8, 0x1.6975129752db1p-15, -0x1.fffe2ec100d34p-1}, {-0x1.0c1ff9513cd3ap-7, -0x1.fffb9caf57bb3p-1, -0x1.65b716bcf3d9p-69}, {-0x1.e40c934c423b8p-67, 0x1.05585d4bb8194p-60, -0x1.1903fbeb914ccp-58}, {0x1.58649f977b44ap-15, 0x1.48cee7da9c47p-8, -0x1.7ae9ee71fe7dcp-66}, {-0x1.bb439b3c1cc9bp-16, 0x1.d0461dff14739p-23, -0x1.48d08e7b7af1ep-8}, {-0x1.68b844da12ef6p-76, -0x1.94ee873673244p-69, -0x1.e96d6f6ecd18p-70}, {-0x1.5e1b278724d06p-15, -0x1.4e4340b0d2696p-8, -0x1.4a6c27aa3e308p-76}, {0x1.c29e0319f258dp-16, -0x1.d7f9bebcdbec7p-23, 0x1.4e44ee5476cb6p-8},},
    { {0x1.3a07be401b9ap-17, -0x1.a273a38381p-15, 0x1.499bd2e1f9d6p-8}, {-0x1.337d93421f403p-17, 0x1.99bcc6992d78fp-15, -0x1.42be9a827fcddp-8}, {-0x1.e7c6ba89d8c9p-10, 0x1.44fc65bc53d16p-7, -0x1.fff9539f19243p-1}, {-0x1.630f742a9a6e3p-20, -0x1.fff98db4f035ep-1, -0x1.44fc8552258b8p-7}, {-0x1.ffffc5e99f881p-1, -0x1.1f6ba7a74f76bp-16, 0x1.e7c177b1b6a6ep-10}, {-0x1.b479eb88067ap-61, 0x1.758124808df4p-67, 0x1.bb95026e6044fp-70}, {0x1.499ff956f78d3p-8, 0x1.7215204111803p-24, -0x1.3a045b270545dp-17}, {-0x1.c92cf0949f5f6p-28, -0x1.499bf8472cd8bp-8, -0x1.a273cc2eccf61p-15}, {0x1.51a7b6060f26p-73, -0x1.5a715bebf9ecp-72, -0x1.cca8cd2bd5e84p-77}, {-0x1.42c2aad7493f5p-8, -0x1.6a6021616be9ap-24, 0x1.337a4237bc286p-17}, {0x1.bfa7a19007189p-28, 0x1.42bebf2055df8p-8, 0x1.99bcee6ba8669p-15},},
    { {0x1.45087c34cd72fp-8, 0x1.00a9a72bd1p-15, -0x1.bfaa040a8c8p-16}, {-0x1.44426a9164f24p-8, -0x1.000d3f6b68e93p-15, 0x1.be9937cb32c17p-16}, {-0x1.fffb9bee562f9p-1, -0x1.9449a6eb551c8p-8, 0x1.6092e5a9ff231p-8}, {-0x1.60912dfb9bf78p-8, -0x1.1667a925e2b4cp-15, -0x1.fffe1a6acdde2p-1}, {0x1.944b265a5465ep-8, -0x1.fffd81812ac46p-1, -0x1.1c527e8a8dcp-72}, {0x1.1f4a3139f501p-67, -0x1.f4c0f7d65d15ep-59, -0x1.6dd73761d2c7ep-59}, {-0x1.00aa9a983738ep-15, 0x1.4509b07932432p-8, -0x1.f648571b436c7p-67}, {-0x1.bfa7d5c6cc2f8p-16, -0x1.617ddc2083631p-23, -0x1.450a118cde2a7p-8}, {-0x1.b756e0e0a8046p-76, 0x1.434c271193e84p-71, -0x1.06fb8d6278fcp-69}, {0x1.000e324378ba2p-15, -0x1.44439e19efa37p-8, -0x1.4cf46edbaeaap-76}, {0x1.be970adba487cp-16, 0x1.60a672ec2c016p-23, 0x1.4443fef2736a4p-8},},
    { {0x1.416e97dec5736p-8, 0x1.fa7e7b2f548p-15, 0x1.144c4c0fc7p-17}, {-0x1.4b575eca7a5b8p-8, -0x1.050de4ef1b349p-14, -0x1.1cd0df321e9a8p-17}, {-0x1.fff5e274a043ep-1, -0x1.935be3dbee6ap-7, -0x1.b812caa7cc85ap-10}, {0x1.b80a4187d7fc4p-10, 0x1.5ab1e5b793b69p-16, -0x1.ffffd0b7f431p-1}, {0x1.935c091ba37eep-7, -0x1.fff611bbc14dep-1, 0x1.0284f4b58f94p-68}, {-0x1.188ffbe36a7b5p-65, 0x1.966dce99e239cp-59, -0x1.70dc755a22506p-59}, {-0x1.fa7ea9f53a987p-15, 0x1.416eb58daa194p-8, 0x1.3b607d3888f37p-68}, {0x1.1446f02425663p-17, 0x1.b35770fcaf1e8p-24, -0x1.4174d404a6f79p-8}, {0x1.4e703cccc1f54p-77, 0x1.03ba1c6369b58p-69, -0x1.1ec67438a3ap-68}, {0x1.050dfd0a9fecp-14, -0x1.4b577d63a2502p-8, 0x1.1cf30c809cfc4p-75}, {-0x1.1ccb58fb23daap-17, -0x1.c0c3348e33f6ap-24, 0x1.4b5dcc2555f1ap-8},},
    { {0x1.debbec796a8p-18, -0x1.a54cf989bd23p-16, 0x1.464670c5d7ebp-8}, {-0x1.e2d310e95fc64p-18, 0x1.a8e67dfdc652p-16, -0x1.49101b6d6fd3bp-8}, {-0x1.779dc00f1f179p-10, 0x1.4a8dc5939d3a9p-8, -0x1.fffe32bb67b62p-1}, {-0x1.0968c5ba0246fp-17, -0x1.fffe552d7db0cp-1, -0x1.4a8dab231688cp-8}, {-0x1.ffffdd8dc16edp-1, 0x1.6e73b558cb944p-21, 0x1.779f345683d8bp-10}, {0x1.845c31f0e198p-71, -0x1.ce2954e901249p-61, -0x1.2a6bbe66a44c6p-68}, {0x1.464780c574dcep-8, -0x1.d30dd2c70459fp-29, -0x1.debdc6f46fc9dp-18}, {-0x1.5245a41ce9e08p-25, -0x1.464686b94cdf9p-8, -0x1.a54cd7d70cd64p-16}, {0x1.bb9424895d38p-70, 0x1.f2420d234ef8cp-72, -0x1.73e1b270502p-85}, {-0x1.49112dbfff0f2p-8, 0x1.d70b6aec320c3p-29, 0x1.e2d4ef723bb9cp-18}, {0x1.55298c7388e84p-25, 0x1.49103190e84e4p-8, 0x1.a8e65c0160bbap-16},}
}};

bool same(const Vec3& x, const Vec3& y) { return x.x() == y.x() && x.y() == y.y() && x.z() == y.z(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(row_levers)

BOOST_AUTO_TEST_CASE(round_as_the_setup_that_stored_them) {
  for (std::size_t i = 0; i < stored_rows.size(); ++i) {
    const StoredRow& s = stored_rows[i];
    BOOST_TEST_CONTEXT("row " << i) {
      BOOST_TEST(same(frame_t2(s.n, s.t1), s.t2));
      const Levers a = levers_a(s.ra, s.n, s.t1, s.t2), b = levers_b(s.rb, s.n, s.t1, s.t2);
      BOOST_TEST(same(a.n, s.ca_n));
      BOOST_TEST(same(a.t1, s.ca_t1));
      BOOST_TEST(same(a.t2, s.ca_t2));
      BOOST_TEST(same(b.n, s.cb_n));
      BOOST_TEST(same(b.t1, s.cb_t1));
      BOOST_TEST(same(b.t2, s.cb_t2));
    }
  }
}

// The rows above discriminate: the plain cross products (no fused multiply-add) miss some of them.
BOOST_AUTO_TEST_CASE(plain_cross_products_round_differently) {
  auto plain = [](const Vec3& r, const Vec3& d) {
    volatile double p[6] = {r.y() * d.z(), r.z() * d.y(), r.z() * d.x(), r.x() * d.z(), r.x() * d.y(), r.y() * d.x()};
    return Vec3(p[0] - p[1], p[2] - p[3], p[4] - p[5]);
  };
  int misses = 0;
  for (const StoredRow& s : stored_rows)
    misses += !same(plain(s.n, s.t1), s.t2) + !same(plain(s.ra, s.t2), s.ca_t2) + !same(plain(s.rb, s.t2), s.cb_t2);
  BOOST_TEST(misses >= 6);
}

BOOST_AUTO_TEST_SUITE_END()
