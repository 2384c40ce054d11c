#include "results_file.hpp"

#include <fstream>
#include <sstream>

namespace irr::bench {

std::string CaseKey(const std::string& op, const std::string& dist, std::int64_t b) {
  return op + "," + dist + "," + std::to_string(b);
}

const std::vector<std::string>& MethodKeys() {
  static const std::vector<std::string> keys = {"library", "p",    "root", "nrep",
                                                "warmup",  "sync", "seed", "rho"};
  return keys;
}

bool ReadExisting(const std::string& path, int nrep, ExistingResults* existing,
                  std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read '" + path + "'";
    return false;
  }
  std::vector<std::string> meta_lines, rows;
  std::map<std::string, int> ok_rows;
  std::set<std::string> skipped;
  std::string line;
  bool header_seen = false;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) {
      const auto eq = line.find('=');
      if (eq != std::string::npos) existing->meta[line.substr(2, eq - 2)] = line.substr(eq + 1);
      meta_lines.push_back(line);
      continue;
    }
    if (line == kHeader) {
      header_seen = true;
      continue;
    }
    if (!header_seen || in.eof()) {  // a last line without '\n' was cut off by a kill
      if (!header_seen) {
        *error = "'" + path + "' is not an irrbench raw.csv (no header line '" + kHeader + "')";
        return false;
      }
      continue;
    }
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, ',')) fields.push_back(field);
    if (fields.size() != 11) continue;  // a torn line
    const std::string key = fields[0] + "," + fields[1] + "," + fields[2];
    if (fields[10] == "ok") ok_rows[key]++;
    if (fields[10].rfind("skipped", 0) == 0) skipped.insert(key);
    rows.push_back(line);
  }
  if (!header_seen) {
    *error = "'" + path + "' is not an irrbench raw.csv (no header line)";
    return false;
  }
  for (const auto& [key, n] : ok_rows) {
    if (n == nrep) existing->complete.insert(key);
  }
  existing->complete.insert(skipped.begin(), skipped.end());
  existing->lines = meta_lines;
  existing->lines.push_back(kHeader);
  for (const auto& row : rows) {
    std::stringstream ss(row);
    std::string op, dist, b;
    std::getline(ss, op, ',');
    std::getline(ss, dist, ',');
    std::getline(ss, b, ',');
    if (existing->complete.count(op + "," + dist + "," + b)) {
      existing->lines.push_back(row);
    } else {
      existing->dropped_rows++;
    }
  }
  return true;
}

}  // namespace irr::bench
