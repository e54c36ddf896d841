// HTML helpers for the reports (see html.hpp).
#include "pipeline/html.hpp"

#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace grainlab::pipeline {

std::string md_cell(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : c == '\n' || c == '\r' ? std::string(" ") : std::string(1, c);
  return o;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

namespace {
// Links may only point at relative paths, anchors or http(s): a report never needs javascript: URLs.
bool safe_url(const std::string& u) {
  if (u.empty()) return false;
  return u.find(':') == std::string::npos || u.rfind("http://", 0) == 0 || u.rfind("https://", 0) == 0;
}
}  // namespace

std::string md_inline(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '`') {
      if (const size_t e = s.find('`', i + 1); e != std::string::npos) {
        o += "<code>" + html_escape(s.substr(i + 1, e - i - 1)) + "</code>";
        i = e + 1;
        continue;
      }
    } else if (s.compare(i, 2, "**") == 0) {
      if (const size_t e = s.find("**", i + 2); e != std::string::npos && e > i + 2) {
        o += "<strong>" + md_inline(s.substr(i + 2, e - i - 2)) + "</strong>";
        i = e + 2;
        continue;
      }
    } else if (s[i] == '[') {
      const size_t close = s.find("](", i + 1);
      const size_t end = close == std::string::npos ? close : s.find(')', close + 2);
      if (end != std::string::npos && s.find('\n', i) > end && safe_url(s.substr(close + 2, end - close - 2))) {
        o += fmt::format("<a href=\"{}\">{}</a>", html_escape(s.substr(close + 2, end - close - 2)), md_inline(s.substr(i + 1, close - i - 1)));
        i = end + 1;
        continue;
      }
    }
    o += html_escape(std::string(1, s[i]));
    ++i;
  }
  return o;
}

std::string verdict_class(const std::string& v) {
  if (v == "pass") return "pass";
  if (v == "fail" || v.rfind("FAIL", 0) == 0) return "fail";
  if (v.rfind("not reproduced", 0) == 0) return "nr";
  if (v == "not reproducible") return "nrb";
  if (v == "not attempted" || v == "not run") return "na";
  return "";
}

std::string md_table_to_html(const std::string& md) {
  std::istringstream in(md);
  std::string line, html = "<table>\n";
  int n = 0;
  while (std::getline(in, line)) {
    if (line.size() < 2 || line[0] != '|') continue;
    if (n == 1) {  // the |---|---| separator
      ++n;
      continue;
    }
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') cell += '|', ++i;
      else if (line[i] == '|') cells.push_back(cell), cell.clear();
      else cell += line[i];
    }
    html += "<tr>";
    for (auto& c : cells) {
      const size_t a = c.find_first_not_of(' '), b = c.find_last_not_of(' ');
      const std::string t = a == std::string::npos ? "" : c.substr(a, b - a + 1);
      const std::string cls = n == 0 ? "" : verdict_class(t);
      html += fmt::format("<{0}{1}>{2}</{0}>", n == 0 ? "th" : "td", cls.empty() ? "" : " class=\"" + cls + "\"", md_inline(t));
    }
    html += "</tr>\n";
    ++n;
  }
  return html + "</table>\n";
}

std::string page_head(const std::string& title) {
  return fmt::format(R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{}</title>
<style>
body{{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}}
table{{border-collapse:collapse;margin:0.5em 0;font-size:0.9em}}td,th{{border:1px solid #bbb;padding:3px 6px;text-align:left;vertical-align:top}}
th{{background:#eee}}.pass{{background:#c8f0c8}}.fail{{background:#f5b5b5}}.nr{{background:#f0e6b0}}.nrb{{background:#dde3f0}}.na{{background:#f4f4f4;color:#555}}
img{{max-width:100%;border:1px solid #ddd}}section{{border-top:2px solid #444;margin-top:2em}}.summary{{font-weight:bold}}
table.claims td:nth-child(-n+2){{white-space:nowrap}}nav{{margin:0.5em 0}}nav a{{margin-right:1em}}code{{background:#f2f2f2;padding:0 2px}}
</style></head><body>
)",
                     html_escape(title));
}

std::string page_foot() { return "</body></html>\n"; }

}  // namespace grainlab::pipeline
