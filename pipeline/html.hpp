#pragma once
// HTML for the reports: escaping, the small inline Markdown our own reports use (**bold**, `code`,
// [text](url)), Markdown tables, and the page chrome (head with style, foot) shared by index.html and
// the per-paper pages. Escaping always happens first, so text can never inject markup. Also the cell
// quoting of the reports' Markdown tables and CSV files.
#include <string>

namespace grainlab::pipeline {

std::string html_escape(const std::string& s);

/// Inline Markdown -> HTML: escapes, then renders **bold**, `code` (verbatim inside) and [text](url).
/// An unmatched marker stays as literal text.
std::string md_inline(const std::string& s);

/// Markdown table (header row, separator row, rows; `\|` escapes a bar) -> HTML table with inline
/// Markdown in the cells. Cells reading pass / fail / FAIL… / not reproduced… get a verdict class.
std::string md_table_to_html(const std::string& md);

/// CSS class of a verdict text ("pass", "fail", "not reproduced", "not reproducible", "not attempted", "not run").
std::string verdict_class(const std::string& verdict);

/// One line with `|` escaped: a cell of a Markdown table.
std::string md_cell(const std::string& s);
/// A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& s);

std::string page_head(const std::string& title);  ///< <!DOCTYPE …><body> with the shared style
std::string page_foot();

}  // namespace grainlab::pipeline
