// libFuzzer target over the study loader (tools/fuzz.sh builds and runs it): any input must either load
// or be refused with a StudyError; a crash, hang, sanitizer report or any other exception is a finding.
// The input is written to a file because load_study reads a path (as the CLI does).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "pipeline/study.hpp"
#include "pipeline/units.hpp"

namespace {
const std::string& scratch() {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("grainlab_fuzz_" + std::to_string(::getpid()) + ".toml")).string();
  return path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    std::ofstream f(scratch(), std::ios::binary | std::ios::trunc);
    f << text;
  }
  try {
    grainlab::pipeline::load_study(scratch(), GRAINLAB_SOURCE_DIR);
  } catch (const grainlab::pipeline::StudyError&) {
    // refused with file:line: key: message, as it should be
  } catch (const std::exception& e) {
    std::fprintf(stderr, "load_study threw a %s instead of StudyError: %s\n", typeid(e).name(), e.what());
    std::abort();
  }
  // The unit parser on its own: any text converts or throws UnitError.
  try {
    grainlab::units::convert(text.substr(0, 256), "kg/m^3");
  } catch (const grainlab::units::UnitError&) {
  }
  return 0;
}
