#pragma once
// CSV time series: a header line written once, then rows with exactly the header's number of columns.
// Numbers are printed with fmt "{:.17g}" (round-trip exact for doubles; integers below 2^53 print as
// integers). Each row is flushed so a crashed run keeps every row written before the crash.
//
// The file is created (truncated) when the writer is constructed; opening it for append is not
// offered, so two writers never interleave in one file.
// Threading: none; one writer per thread.
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

namespace grainlab::io {

class CsvWriter {
 public:
  /// Creates/truncates `path` and writes the header. Column names must be non-empty and contain no
  /// comma, quote or newline (InputError naming the column otherwise).
  CsvWriter(const std::filesystem::path& path, std::vector<std::string> columns);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  /// Appends one row; throws InputError when values.size() differs from the column count.
  void row(const std::vector<double>& values);
  void row(std::initializer_list<double> values) { row(std::vector<double>(values)); }

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rows() const { return rows_; }

 private:
  std::filesystem::path path_;
  std::vector<std::string> columns_;
  std::FILE* file_ = nullptr;
  std::size_t rows_ = 0;
};

}  // namespace grainlab::io
