#pragma once
// Figures with gnuplot: for each [[plot]] of a study, <name>.dat (one block per series), <name>.gp
// (pngcairo + svg terminals, log axes, error bars, reference points) and, when gnuplot is installed,
// <name>.png and <name>.svg, all in `dir`. Without gnuplot: a warning, the script and data are kept.
// Reads the frame and reference CSVs; writes files; single-threaded (gnuplot is a child process).
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "pipeline/analysis.hpp"

namespace grainlab::pipeline {

/// Returns the png file names written (or that the script would write).
std::vector<std::string> write_plots(const Study& study, const Analysis& a, const std::filesystem::path& dir,
                                     const std::string& source_root, std::ostream& log);

bool gnuplot_available();

}  // namespace grainlab::pipeline
