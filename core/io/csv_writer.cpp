#include "core/io/csv_writer.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::io {

CsvWriter::CsvWriter(const std::filesystem::path& path, std::vector<std::string> columns)
    : path_(path), columns_(std::move(columns)) {
  if (columns_.empty()) throw InputError(fmt::format("CSV '{}': columns is empty", path_.string()));
  for (const std::string& c : columns_)
    if (c.empty() || c.find_first_of(",\"\n\r") != std::string::npos)
      throw InputError(fmt::format("CSV '{}': column name '{}' is invalid (empty or contains , \" or a newline)",
                                   path_.string(), c));
  file_ = std::fopen(path_.c_str(), "w");
  if (!file_) throw std::runtime_error(fmt::format("cannot open '{}' for writing: {}", path_.string(), std::strerror(errno)));
  std::string header;
  for (std::size_t i = 0; i < columns_.size(); ++i) header += (i ? "," : "") + columns_[i];
  header += '\n';
  std::fputs(header.c_str(), file_);
  std::fflush(file_);
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::row(const std::vector<double>& values) {
  if (values.size() != columns_.size())
    throw InputError(fmt::format("CSV '{}': row has {} values but the header has {} columns", path_.string(), values.size(),
                                 columns_.size()));
  std::string line;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) line += ',';
    fmt::format_to(std::back_inserter(line), "{:.17g}", values[i]);
  }
  line += '\n';
  if (std::fputs(line.c_str(), file_) < 0 || std::fflush(file_) != 0)
    throw std::runtime_error(fmt::format("cannot write to '{}': {}", path_.string(), std::strerror(errno)));
  ++rows_;
}

}  // namespace grainlab::io
