#include "tsv_table.hpp"

#include <sstream>
#include <stdexcept>

namespace irr::formats {

std::vector<std::vector<std::string>> TsvRows(const char* text,
                                              const std::vector<std::string>& header,
                                              const std::string& file) {
  std::vector<std::vector<std::string>> rows;
  std::stringstream in(text);
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream row(line);
    std::string field;
    while (std::getline(row, field, '\t')) fields.push_back(field);
    if (first) {
      if (fields != header) throw std::logic_error(file + ": unexpected header '" + line + "'");
      first = false;
    } else if (fields.size() != header.size()) {
      throw std::logic_error(file + ": row '" + line + "' has the wrong field count");
    } else {
      rows.push_back(std::move(fields));
    }
  }
  return rows;
}

}  // namespace irr::formats
