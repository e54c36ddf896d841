// Claims coverage: the four verdicts, the verdict-source file, and the audit that fails on an unknown
// claim ID, a "not reproducible" without a reason, a stale source file, and unexplained contradictions.
// Also the inline Markdown of the HTML report, and the audit of the real claim index and studies.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

#include "pipeline/analysis.hpp"
#include "pipeline/coverage.hpp"
#include "pipeline/html.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace fs = std::filesystem;

namespace {
const ClaimVerdict& claim(const ClaimAudit& a, const std::string& id) {
  for (const auto& c : a.claims)
    if (c.id == id) return c;
  throw std::runtime_error("no claim " + id);
}
bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

// A claim index, one study citing claims, and its stored verdicts.
struct Fixture {
  fs::path dir = toy::temp_dir("coverage");
  ClaimFiles files;
  Fixture() {
    fs::create_directories(dir / "validation");
    fs::create_directories(dir / "results" / "s" / "quick");
    toy::write(dir / "validation" / "claims.csv",
               "# comment block\n"
               "id,paper,quantity,reproducible\n"
               "T-C01,I,judged and passes,yes\n"
               "T-C02,I,needs a lost figure,\"no: outlet geometry of the lost Fig. 3\"\n"
               "T-C03,I,needs an engine,later: NDEM engine\n"
               "T-C04,II,two checks disagree,yes\n"
               "T-C05,II,ran and disagrees,yes\n"
               "T-C06,II,study not run,yes\n");
    write_study("");
    toy::write(dir / "results" / "s" / "quick" / "verdicts.csv",
               "id,claim,paper,source,seed,lines,verdict,detail\n"
               "c1,T-C01,I,,,,pass,ours 1 vs 1\n"
               "c2,T-C04,II,,,,pass,ours 2 vs 2\n"
               "c3,T-C04,II,,,,fail,ours 3 vs 2\n"
               "c4,T-C05,II,,,,not reproduced,DISAGREES: 0.19 vs 0.175\n");
    files = claim_files(dir / "validation" / "claims.csv");
    regenerate();
  }
  ~Fixture() { fs::remove_all(dir); }
  void write_study(const std::string& extra) {
    toy::write(dir / "studies" / "s.toml", "[study]\nname = \"s\"\nexperiment = \"toy_power\"\n"
                                           "[[check]]\nid = \"c1\"\nkind = \"within\"\nclaim = \"T-C01\"\n"
                                           "[[check]]\nid = \"c2\"\nkind = \"within\"\nclaim = \"T-C04\"\n"
                                           "[[check]]\nid = \"c3\"\nkind = \"within\"\nclaim = \"T-C04\"\n"
                                           "[[check]]\nid = \"c4\"\nkind = \"not_reproduced\"\nclaim = \"T-C05\"\n" +
                                               extra);
    toy::write(dir / "studies" / "t.toml", "[study]\nname = \"t\"\nexperiment = \"toy_power\"\n"
                                           "[[check]]\nid = \"d1\"\nkind = \"within\"\nclaim = \"T-C06\"\n");
  }
  void regenerate() {
    std::vector<VerdictSource> previous;
    if (fs::exists(files.sources_csv)) previous = read_sources(files.sources_csv);
    std::ofstream(files.sources_csv) << sources_csv_text(derive_sources(read_claims(files.claims_csv), scan_citations(files.studies_dir), previous));
  }
  ClaimAudit audit() const { return audit_claims(files, dir / "results", "quick"); }
  void edit_sources(const std::string& from, const std::string& to) {
    std::string t = test::slurp(files.sources_csv);
    const size_t p = t.find(from);
    BOOST_TEST_REQUIRE(p != std::string::npos, from);
    toy::write(files.sources_csv, t.replace(p, from.size(), to));
  }
};
}  // namespace

BOOST_AUTO_TEST_SUITE(coverage)

BOOST_AUTO_TEST_CASE(four_verdicts_from_sources_and_stored_checks) {
  Fixture f;
  const auto a = f.audit();
  for (const auto& e : a.index_errors) BOOST_ERROR(e);
  BOOST_TEST(claim(a, "T-C01").verdict == "pass");
  BOOST_TEST(claim(a, "T-C01").source == "s:c1");
  BOOST_TEST(claim(a, "T-C02").verdict == "not reproducible");
  BOOST_TEST(claim(a, "T-C02").source == "recorded reason");
  BOOST_TEST(claim(a, "T-C02").detail == "outlet geometry of the lost Fig. 3");
  BOOST_TEST(claim(a, "T-C03").verdict == "not attempted");
  BOOST_TEST(claim(a, "T-C03").detail == "needs NDEM engine");
  BOOST_TEST(claim(a, "T-C04").verdict == "fail");  // pass and fail: the worst wins, and it is a contradiction
  BOOST_TEST(claim(a, "T-C05").verdict == "fail");  // "not reproduced" = ran, and disagrees
  BOOST_TEST(claim(a, "T-C05").detail.find("not reproduced: DISAGREES") != std::string::npos, claim(a, "T-C05").detail);
  BOOST_TEST(claim(a, "T-C06").verdict == "not attempted");  // study t has no stored verdicts
  BOOST_TEST(claim(a, "T-C06").detail.find("study t not run at tier quick") != std::string::npos, claim(a, "T-C06").detail);
  const auto rows = coverage_rows(a);
  BOOST_TEST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[2].paper == "total");
  BOOST_TEST(rows[2].pass == 1);
  BOOST_TEST(rows[2].fail == 2);
  BOOST_TEST(rows[2].not_reproducible == 1);
  BOOST_TEST(rows[2].not_attempted == 2);
  const std::string md = coverage_markdown(rows);
  BOOST_TEST(md.find("| I | 3 | 1 | 0 | 1 | 1 |") != std::string::npos, md);
  BOOST_TEST(md.find("| **total** | 6 | 1 | 2 | 1 | 2 |") != std::string::npos, md);
  const std::string list = claims_list_markdown(a, "II");
  BOOST_TEST(list.find("| T-C04 | fail | s:c2 s:c3 |") != std::string::npos, list);
  BOOST_TEST(list.find("T-C01") == std::string::npos);
}

// "not reproduced" means ran: a study with nothing run gives "not run"; one whose runs all failed gives
// "not reproduced"; a not_reproduced check records a finding either way.
BOOST_AUTO_TEST_CASE(check_verdict_when_nothing_ran) {
  const auto dir = toy::temp_dir("notrun");
  auto verdicts = [&](const std::string& experiment, bool run, bool explode) {
    const auto file = toy::write(dir / "studies" / "s.toml", "[study]\nname = \"s\"\nexperiment = \"" + experiment +
                                                               "\"\nmetrics = [\"y\"]\n[parameters]\nexplode = " + (explode ? "true" : "false") +
                                                               "\n[[check]]\nid = \"c\"\nkind = \"within\"\nquantity = \"y\"\nvalue = 2.0\ntolerance = 0.1\n"
                                                               "[[check]]\nid = \"nr\"\nkind = \"not_reproduced\"\nreason = \"DISAGREES\"\n");
    const Study st = load_study(file, dir.string());
    std::ostringstream log;
    fs::remove_all(dir / "results");
    const RunOutcome o = run ? run_study(st, "quick", dir / "results", toy::options(1, false, false), log)
                             : collect_study(st, "quick", dir / "results");
    return analyse(st, o, dir.string()).verdicts;
  };
  auto v = verdicts("missing_exp", true, false);
  BOOST_TEST(v[0].verdict == "not run");
  BOOST_TEST(v[0].detail.find("not available") != std::string::npos, v[0].detail);
  BOOST_TEST(v[1].verdict == "not reproduced");
  v = verdicts("toy_power", false, false);
  BOOST_TEST(v[0].verdict == "not run");
  v = verdicts("toy_power", true, true);
  BOOST_TEST(v[0].verdict == "not reproduced");
  BOOST_TEST(v[0].detail == "every run failed");
  v = verdicts("toy_power", true, false);
  BOOST_TEST(v[0].verdict == "pass");  // y = 2 x^1.5 at x = 1
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(contradiction_needs_a_reason) {
  Fixture f;
  auto a = f.audit();
  BOOST_TEST_REQUIRE(a.contradictions.size() == 1u);
  BOOST_TEST(a.contradictions[0].find("T-C04") != std::string::npos, a.contradictions[0]);
  BOOST_TEST(a.contradictions[0].find("s:c3") != std::string::npos, a.contradictions[0]);
  // The reason is written by hand into the source file and survives regeneration.
  f.edit_sources("T-C04,II,s:c2 s:c3,,", "T-C04,II,s:c2 s:c3,,c3 tests the printed value, c2 the recomputed one");
  f.regenerate();
  a = f.audit();
  BOOST_TEST(a.contradictions.empty());
  BOOST_TEST(a.index_errors.empty());
  BOOST_TEST(claim(a, "T-C04").detail.find("checks disagree: c3 tests the printed value") != std::string::npos, claim(a, "T-C04").detail);
}

BOOST_AUTO_TEST_CASE(unknown_claim_id_is_an_index_error) {
  Fixture f;
  f.write_study("[[check]]\nid = \"c5\"\nkind = \"within\"\nclaim = \"T-C01 T-C99\"\n");
  const auto a = f.audit();
  BOOST_TEST(mentions(a.index_errors, "s.toml:23: check 'c5' of study s cites claim T-C99, which is not in claims.csv"));
  BOOST_TEST(mentions(a.index_errors, "T-C01 says source 's:c1', the index and studies say 's:c1 s:c5'"));  // stale source file
}

BOOST_AUTO_TEST_CASE(not_reproducible_needs_a_recorded_reason) {
  Fixture f;
  f.edit_sources("T-C02,I,reason,outlet geometry of the lost Fig. 3,", "T-C02,I,reason,,");
  BOOST_TEST(mentions(f.audit().index_errors, "T-C02 is not reproducible without a recorded reason"));
}

BOOST_AUTO_TEST_CASE(source_file_must_list_every_claim) {
  Fixture f;
  f.edit_sources("T-C06,II,t:d1,,\n", "");
  BOOST_TEST(mentions(f.audit().index_errors, "no row for T-C06"));
  fs::remove(f.files.sources_csv);
  BOOST_TEST(mentions(f.audit().index_errors, "claim_verdicts.csv is missing"));
}

// The real index: every claim a study cites exists, validation/claim_verdicts.csv is in step with
// claims.csv and studies/, and every "not reproducible" claim has its reason.
BOOST_AUTO_TEST_CASE(repository_claim_index_holds_up) {
  const fs::path root = fs::path(GRAINLAB_TEST_DATA_DIR).parent_path();
  const auto a = audit_claims(claim_files(root / "validation" / "claims.csv"), root / "no-results", "quick");
  for (const auto& e : a.index_errors) BOOST_ERROR(e);
  BOOST_TEST(a.claims.size() == 364u);
  BOOST_TEST(a.citations.size() > 0u);
  for (const auto& c : a.claims)
    if (c.verdict == "not reproducible") BOOST_TEST(!c.detail.empty(), c.id);
}

BOOST_AUTO_TEST_CASE(inline_markdown) {
  BOOST_TEST(md_inline("**total**") == "<strong>total</strong>");
  BOOST_TEST(md_inline("run `make test` now") == "run <code>make test</code> now");
  BOOST_TEST(md_inline("`a **b**`") == "<code>a **b**</code>");  // verbatim inside code
  BOOST_TEST(md_inline("[I](paper_I.html)") == "<a href=\"paper_I.html\">I</a>");
  BOOST_TEST(md_inline("<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;");  // escaped first
  BOOST_TEST(md_inline("**<i>**") == "<strong>&lt;i&gt;</strong>");
  BOOST_TEST(md_inline("2 ** 3 and *") == "2 ** 3 and *");  // unmatched markers stay literal
  BOOST_TEST(md_inline("[x](javascript:alert(1))").find("<a ") == std::string::npos);
  const std::string t = md_table_to_html("| paper | n |\n|---|---|\n| **total** | 3 |\n| `a\\|b` | pass |\n");
  BOOST_TEST(t.find("<td><strong>total</strong></td>") != std::string::npos, t);
  BOOST_TEST(t.find("<td><code>a|b</code></td>") != std::string::npos, t);
  BOOST_TEST(t.find("<td class=\"pass\">pass</td>") != std::string::npos, t);
  BOOST_TEST(t.find("**") == std::string::npos, t);
}

BOOST_AUTO_TEST_SUITE_END()
