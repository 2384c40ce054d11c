#include "run_metadata.hpp"

#include <algorithm>
#include <climits>
#include <iterator>
#include <stdexcept>

#include "tsv_table.hpp"

namespace irr::formats {
namespace {

#include "environment_tsv.inc"  // generated: constexpr const char* kEnvironmentTsv = R"(...)";

// A setting's record "N SETTING": true where `record` is up to max_digits digits, a space and
// `setting` (*value: N).
bool SettingRecord(const std::string& record, const std::string& setting, std::size_t max_digits,
                   long long* value) {
  const std::string suffix = " " + setting;
  if (record.size() <= suffix.size() || record.size() > suffix.size() + max_digits ||
      record.compare(record.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  const std::string number = record.substr(0, record.size() - suffix.size());
  if (number.find_first_not_of("0123456789") != std::string::npos) return false;
  *value = std::stoll(number);
  return true;
}

}  // namespace

std::string CleanLibraryVersion(const std::string& raw) {
  std::string s = raw.substr(0, raw.find('\0'));  // Open MPI counts the NUL in its length
  s = s.substr(0, s.find('\n'));
  s.erase(std::remove(s.begin(), s.end(), '\r'), s.end());
  std::replace(s.begin(), s.end(), '\t', ' ');
  while (!s.empty() && (s.back() == ' ' || s.back() == ',')) s.pop_back();
  return s;
}

const std::vector<EnvironmentRule>& EnvironmentRules() {
  static const std::vector<EnvironmentRule> rules = [] {
    std::vector<EnvironmentRule> parsed;
    for (const auto& f : TsvRows(kEnvironmentTsv, {"pattern", "kind", "why"}, "environment.tsv")) {
      if (f[1] != "setting" && f[1] != "context" && f[1] != "plumbing") {
        throw std::logic_error("environment.tsv: unknown kind '" + f[1] + "'");
      }
      parsed.push_back({f[0], f[1]});
    }
    return parsed;
  }();
  return rules;
}

std::string EnvironmentKind(const std::string& name) {
  for (const auto& rule : EnvironmentRules()) {
    const bool prefix = !rule.pattern.empty() && rule.pattern.back() == '*';
    const std::string stem =
        prefix ? rule.pattern.substr(0, rule.pattern.size() - 1) : rule.pattern;
    if (prefix ? name.rfind(stem, 0) == 0 : name == stem) return rule.kind;
  }
  return "";
}

std::vector<std::pair<std::string, std::string>> RecordedEnvironment(char** environment) {
  std::vector<std::pair<std::string, std::string>> recorded;
  for (char** e = environment; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = entry.substr(0, eq);
    const std::string kind = EnvironmentKind(name);
    if (kind == "setting" || kind == "context") recorded.emplace_back(name, entry.substr(eq + 1));
  }
  return recorded;
}

namespace {
// The record's words by rule number (ParseScatterStepRecord's *rule): a forced step, then the
// library's rules in the order they came; the last is the one this build writes.
constexpr const char* kScatterStepWords[] = {"TUWCOLL_SCATTER_STEP", "model",
                                             "model-by-size",        "model-by-size3",
                                             "model-by-size3-rates", "model-heavy-radix"};
constexpr int kScatterStepRules = sizeof kScatterStepWords / sizeof kScatterStepWords[0];
}  // namespace

std::string ScatterStepRecord(int step, bool by_model) {
  return std::to_string(step) + " " + kScatterStepWords[by_model ? kScatterStepRules - 1 : 0];
}

bool ParseScatterStepRecord(const std::string& record, int* step, bool* by_model, int* rule) {
  const std::size_t blank = record.find(' ');
  if (blank == std::string::npos || blank == 0) return false;
  const std::string number = record.substr(0, blank), how = record.substr(blank + 1);
  if (number.find_first_not_of("0123456789") != std::string::npos || number.size() > 10 ||
      std::stoll(number) > INT_MAX) {
    return false;
  }
  int which = 0;
  while (which < kScatterStepRules && how != kScatterStepWords[which]) ++which;
  if (which == kScatterStepRules) return false;
  *step = static_cast<int>(std::stoll(number));
  *by_model = which > 0;
  if (rule != nullptr) *rule = which;
  return true;
}

namespace {
// The records of the model's choice, by LinkGreedyRule.
const char* const kModelChoiceRecords[] = {"model",
                                           "model link-greedy",
                                           "model link-greedy layouts",
                                           "model link-greedy scatter-layouts",
                                           "model link-greedy node-link",
                                           "model link-greedy node-scatter",
                                           "model link-greedy two-level-scatter",
                                           "model link-greedy two-level-scatter-8192",
                                           "model link-greedy two-level-scatter-wide"};
}  // namespace

std::string ModelChoiceRecords(bool link_greedy) {
  std::string out;
  const std::size_t count = link_greedy ? std::size(kModelChoiceRecords) : 1;
  for (std::size_t i = 0; i < count; ++i) {
    out += (i == 0 ? "'" : ", '") + std::string(kModelChoiceRecords[i]) + "'";
  }
  return out;
}

std::string RadixChoiceRecord(int radix, bool by_model, LinkGreedyRule link_greedy) {
  if (by_model) return kModelChoiceRecords[link_greedy];
  return std::to_string(radix) + " TUWCOLL_RADIX";
}

bool ParseRadixChoiceRecord(const std::string& record, int max_radix, int* radix,
                            LinkGreedyRule* link_greedy) {
  if (link_greedy != nullptr) *link_greedy = kNoLinkGreedy;
  for (std::size_t rule = 0; rule < std::size(kModelChoiceRecords); ++rule) {
    if (record != kModelChoiceRecords[rule]) continue;
    *radix = 0;
    if (link_greedy != nullptr) *link_greedy = static_cast<LinkGreedyRule>(rule);
    return true;
  }
  long long value = 0;
  if (!SettingRecord(record, "TUWCOLL_RADIX", 2, &value)) return false;
  if (value < 2 || value > max_radix) return false;
  *radix = static_cast<int>(value);
  return true;
}

std::string GatherPiecesRecord(long long piece, bool by_model) {
  return by_model ? "model" : std::to_string(piece) + " TUWCOLL_GATHER_PIECES";
}

bool ParseGatherPiecesRecord(const std::string& record, long long* piece) {
  if (record == "model") {
    *piece = -1;
    return true;
  }
  return SettingRecord(record, "TUWCOLL_GATHER_PIECES", 10, piece);
}

}  // namespace irr::formats
