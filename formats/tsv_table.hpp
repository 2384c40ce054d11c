// The tables this project embeds from formats/*.tsv (operations, environment): one reader, so
// every table skips comments the same way and fails the same way on a malformed row.
#pragma once

#include <string>
#include <vector>

namespace irr::formats {

// The rows of a tab-separated table: blank and '#' lines skipped, the first row must equal
// `header`, every other row must have as many fields (std::logic_error naming `file` if not).
std::vector<std::vector<std::string>> TsvRows(const char* text,
                                              const std::vector<std::string>& header,
                                              const std::string& file);

}  // namespace irr::formats
