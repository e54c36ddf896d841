#pragma once
// Helpers shared by the pipeline report tests: find a verdict by check id, read a whole file.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "pipeline/analysis.hpp"

namespace grainlab::pipeline::test {

inline const Verdict& verdict(const Analysis& a, const std::string& id) {
  for (const auto& v : a.verdicts)
    if (v.id == id) return v;
  throw std::runtime_error("no verdict " + id);
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace grainlab::pipeline::test
