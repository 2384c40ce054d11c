#include "radix_record.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace irr::formats {
namespace {

constexpr const char* kFamilyNames[kRadixFamilies] = {"TUWk", "TUWk_Gatherv", "Binomialk",
                                                      "TUWk_init"};

bool Radix(const std::string& text, int max_radix, int* value) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || errno != 0 || *end != '\0' || v < 2 || v > max_radix) return false;
  *value = static_cast<int>(v);
  return true;
}

}  // namespace

const char* RadixFamilyName(RadixFamily family) { return kFamilyNames[static_cast<int>(family)]; }

int RadixRecord::Of(RadixFamily family) const {
  const int own = named[static_cast<int>(family)];
  if (own == 0 && family == RadixFamily::kTuwkGatherv) {
    return named[static_cast<int>(RadixFamily::kTuwk)];
  }
  return own;
}

bool ParseRadixRecord(const std::string& text, int max_radix, RadixRecord* record) {
  *record = RadixRecord{};
  if (text.find('=') == std::string::npos) {
    int all = 0;
    if (!Radix(text, max_radix, &all)) return false;
    std::fill(std::begin(record->named), std::end(record->named), all);
    return true;
  }
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.find(',', at));
    const std::string word =
        text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? text.size() : end + 1;
    if (word.empty()) continue;
    const std::size_t equals = word.find('=');
    const std::string name = word.substr(0, equals);
    const auto family = std::find(std::begin(kFamilyNames), std::end(kFamilyNames), name);
    int value = 0;
    if (equals == std::string::npos || family == std::end(kFamilyNames) ||
        !Radix(word.substr(equals + 1), max_radix, &value)) {
      *record = RadixRecord{};
      return false;
    }
    record->named[family - std::begin(kFamilyNames)] = value;
  }
  return true;
}

std::string RadixRecordText(int tuwk, int binomialk, int tuwk_init, int tuwk_gatherv) {
  return "TUWk=" + std::to_string(tuwk) + " Binomialk=" + std::to_string(binomialk) +
         " TUWk_init=" + std::to_string(tuwk_init) +
         " TUWk_Gatherv=" + std::to_string(tuwk_gatherv);
}

}  // namespace irr::formats
