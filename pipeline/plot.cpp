// gnuplot figures (see plot.hpp).
#include "pipeline/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <map>
#include <ostream>

#include <fmt/format.h>

#include "core/io/atomic_file.hpp"
namespace grainlab::pipeline {
namespace fs = std::filesystem;

bool gnuplot_available() {
  static const bool ok = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
  return ok;
}

namespace {
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::vector<std::string> write_plots(const Study& study, const Analysis& a, const fs::path& dir, const std::string& source_root,
                                     std::ostream& log) {
  std::vector<std::string> pngs;
  fs::create_directories(dir);
  for (const auto& p : study.plots) {
    const std::string x = p.text("x");
    std::ostringstream dat;
    std::vector<std::string> plot_cmds;
    int block = 0;
    bool image = false;  // a heat map: equal axis scales and a colour palette
    const auto plot_where = p.where_filter();
    for (const auto& el : *p.spec->get("series")->as_array()) {
      Item s{p.name, "series", std::make_shared<toml::table>(*el.as_table()), p.where};
      const std::string y = s.text("y"), err = s.text("error"), style = s.text("style", "points");
      auto where = plot_where;
      for (const auto& [k, v] : s.where_filter()) where[k] = v;
      if (p.has("run_series")) {  // one curve per selected run, from its stored series CSV
        const std::string name = p.text("run_series"), by = p.text("label_by");
        for (const auto& r : a.rows) {
          if (r.status != "ok" || !r.matches(where)) continue;
          const fs::path csv = dir / r.key / ("series_" + name + ".csv");
          if (!fs::exists(csv)) {
            log << fmt::format("warning: plot {}: run {} has no series '{}'\n", p.name, r.key, name);
            continue;
          }
          const std::string z = s.text("z");  // style "image": a heat map of z over the x-y grid
          dat << "# series " << block << ": run " << r.key << ", " << x << " " << y << (z.empty() ? "" : " " + z) << "\n";
          for (const auto& row : read_csv(csv.string()))
            if (row.count(x) && row.count(y) && (z.empty() || row.count(z)))
              dat << row.at(x) << " " << row.at(y) << (z.empty() ? "" : " " + row.at(z)) << "\n";
          dat << "\n\n";
          std::string label = s.text("label", y);
          if (!by.empty())
            label += " " + by + " = " + (r.num.count(by) ? fmt::format("{:g}", r.num.at(by)) : r.text.count(by) ? r.text.at(by) : "?");
          if (style == "image") {
            image = true;
            plot_cmds.push_back(fmt::format("{} index {} using 1:2:3 with image title {}", quote(p.name + ".dat"), block, quote(label)));
            ++block;
            continue;
          }
          const std::string with = style == "lines" ? "lines lw 2" : style == "linespoints" ? "linespoints pt 7" : "points pt 7 ps 0.8";
          plot_cmds.push_back(fmt::format("{} index {} using 1:2 with {} title {}", quote(p.name + ".dat"), block, with, quote(label)));
          ++block;
        }
        continue;
      }
      const bool aggregate = s.flag("aggregate", false);
      dat << "# series " << block << ": " << x << " " << y << (err.empty() ? "" : " " + err) << "\n";
      std::map<double, std::vector<std::pair<double, double>>> pts;
      for (const auto& r : a.rows)
        if (r.status == "ok" && r.matches(where) && r.num.count(x) && std::isfinite(r.num.at(x)) && r.num.count(y))
          pts[r.num.at(x)].emplace_back(r.num.at(y), err.empty() ? 0.0 : r.num.at(err));
      bool with_err = !err.empty();
      for (const auto& [xv, ys] : pts) {
        if (aggregate) {  // mean and standard error over replicates
          double m = 0, s2 = 0;
          for (const auto& [yv, e] : ys) m += yv / double(ys.size());
          for (const auto& [yv, e] : ys) s2 += (yv - m) * (yv - m);
          const double se = ys.size() > 1 ? std::sqrt(s2 / double(ys.size() - 1) / double(ys.size())) : 0.0;
          dat << fmt::format("{} {} {}\n", xv, m, se);
          with_err = true;
        } else {
          for (const auto& [yv, e] : ys) dat << fmt::format("{} {} {}\n", xv, yv, e);
        }
      }
      dat << "\n\n";
      const std::string label = s.text("label", y);
      std::string with = style == "lines" ? "lines lw 2" : style == "linespoints" ? "linespoints pt 7" : "points pt 7 ps 1.2";
      if (with_err) with = "yerrorbars pt 7";
      plot_cmds.push_back(fmt::format("{} index {} using 1:2{} with {} title {}", quote(p.name + ".dat"), block,
                                      with_err ? ":3" : "", with, quote(label)));
      ++block;
    }
    if (auto ref = p.spec->get("reference"); ref && ref->is_table()) {
      Item r{p.name, "reference", std::make_shared<toml::table>(*ref->as_table()), p.where};
      const auto rows = read_csv((fs::path(source_root) / r.text("file")).string());
      const auto where = r.where_filter();
      dat << "# reference: " << r.text("file") << "\n";
      const std::string err = r.text("error");
      for (const auto& row : rows) {
        bool match = true;
        for (const auto& [k, values] : where)
          match = match && row.count(k) && std::any_of(values.begin(), values.end(), [&](const ParamValue& v) {
                    return row.at(k) == (std::holds_alternative<std::string>(v) ? std::get<std::string>(v) : to_string(v));
                  });
        if (!match) continue;
        dat << row.at(r.text("x")) << " " << row.at(r.text("y")) << " " << (err.empty() ? "0" : row.at(err)) << "\n";
      }
      dat << "\n\n";
      plot_cmds.push_back(fmt::format("{} index {} using 1:2{} with {} title {}", quote(p.name + ".dat"), block,
                                      err.empty() ? "" : ":3", err.empty() ? "points pt 6 ps 1.8 lc rgb 'black'" : "yerrorbars pt 6 ps 1.8 lc rgb 'black'",
                                      quote(r.text("label", "paper"))));
      ++block;
    }
    io::write_file_atomically(dir / (p.name + ".dat"), dat.str());
    std::string body = fmt::format("set title {}\nset xlabel {}\nset ylabel {}\nset key opaque\nset grid\n{}{}", quote(p.text("title", p.name)),
                                   quote(p.text("xlabel", x)), quote(p.text("ylabel", "")), p.flag("logx", false) ? "set logscale x\n" : "",
                                   p.flag("logy", false) ? "set logscale y\n" : "");
    if (image) body += "unset grid\nset size ratio -1\nset palette rgbformulae 33,13,10\nset key noopaque top left\n";
    std::string cmd = "plot ";
    for (size_t i = 0; i < plot_cmds.size(); ++i) cmd += (i ? ", \\\n     " : "") + plot_cmds[i];
    std::ostringstream gp;
    gp << "# " << study.name << ": " << p.name << " (generated by grainlab; edit and run `gnuplot " << p.name << ".gp`)\n"
       << body << "\nset terminal pngcairo size 900,600 noenhanced font 'sans,11'\nset output " << quote(p.name + ".png") << "\n"
       << cmd << "\nset terminal svg size 900,600 noenhanced font 'sans,11'\nset output " << quote(p.name + ".svg") << "\nreplot\nunset output\n";
    io::write_file_atomically(dir / (p.name + ".gp"), gp.str());
    pngs.push_back(p.name + ".png");
    if (!gnuplot_available()) {
      log << fmt::format("warning: gnuplot not found; kept {} and its data\n", (dir / (p.name + ".gp")).string());
      continue;
    }
    const std::string run = fmt::format("cd {} && gnuplot {} 2>{}", quote(dir.string()), quote(p.name + ".gp"), quote(p.name + ".gnuplot.log"));
    if (std::system(run.c_str()) != 0)
      log << fmt::format("warning: gnuplot failed on {} (see {}.gnuplot.log)\n", (dir / (p.name + ".gp")).string(), p.name);
  }
  return pngs;
}

}  // namespace grainlab::pipeline
