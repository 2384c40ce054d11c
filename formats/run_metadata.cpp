#include "run_metadata.hpp"

#include <algorithm>

namespace irr::formats {

std::string CleanLibraryVersion(const std::string& raw) {
  std::string s = raw.substr(0, raw.find('\0'));  // Open MPI counts the NUL in its length
  s = s.substr(0, s.find('\n'));
  s.erase(std::remove(s.begin(), s.end(), '\r'), s.end());
  std::replace(s.begin(), s.end(), '\t', ' ');
  while (!s.empty() && (s.back() == ' ' || s.back() == ',')) s.pop_back();
  return s;
}

const std::vector<std::string>& RecordedEnvironmentPrefixes() {
  static const std::vector<std::string> prefixes = {
      "I_MPI_ADJUST_", "OMPI_MCA_", "MPIR_CVAR_", "SMPI_", "SLURM_", "IRRBENCH_", "TUWCOLL_"};
  return prefixes;
}

std::vector<std::pair<std::string, std::string>> RecordedEnvironment(char** environment) {
  std::vector<std::pair<std::string, std::string>> recorded;
  for (char** e = environment; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    for (const auto& prefix : RecordedEnvironmentPrefixes()) {
      if (entry.rfind(prefix, 0) == 0) {
        recorded.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
        break;
      }
    }
  }
  return recorded;
}

}  // namespace irr::formats
