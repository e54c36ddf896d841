// `grainlab report [--tier T] [--claims]`: re-analyse every study from the store (no runs), rewrite the
// reports and results/index.html; --claims prints the claims coverage per paper.
#include <iostream>
#include <memory>

#include "app/command.hpp"
#include "pipeline/driver.hpp"
#include "pipeline/report.hpp"

namespace grainlab {
namespace {

struct Options {
  std::string tier = "quick", results, claims;
  bool claims_only = false;
};

const CommandRegistration reg{
    "report", "Rewrite the reports and results/index.html from stored runs; --claims: coverage table",
    [](CLI::App& cmd) {
      auto o = std::make_shared<Options>();
      cmd.add_option("--tier", o->tier, "tier whose results are reported")->capture_default_str();
      cmd.add_flag("--claims", o->claims_only, "print the claims coverage per paper (from validation/claims.csv) and exit");
      cmd.add_option("--claims-file", o->claims, "claim index (default: <source>/validation/claims.csv)");
      cmd.add_option("--results", o->results, "results directory (default: <project root>/results)");
      return [o] {
        auto paths = pipeline::default_paths();
        if (!o->results.empty()) paths.results_root = o->results;
        const std::string claims = o->claims.empty() ? paths.claims_csv().string() : o->claims;
        if (o->claims_only) {
          if (!std::filesystem::exists(claims)) {
            std::cerr << "grainlab: no claim index at " << claims << "\n";
            return 2;
          }
          std::cout << pipeline::coverage_markdown(pipeline::coverage(claims, paths.results_root, o->tier));
          return 0;
        }
        return pipeline::report_all(o->tier, paths, std::cout, std::cerr);
      };
    },
    40};

}  // namespace
}  // namespace grainlab
