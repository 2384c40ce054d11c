#include "results_file.hpp"

#include <cmath>
#include <cstdlib>
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

namespace {

std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream ss(line);
  std::string field;
  while (std::getline(ss, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

bool ToInt(const std::string& s, long long* x) {
  char* end = nullptr;
  *x = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0';
}

}  // namespace

bool ReadCases(const std::string& path, std::map<std::string, std::string>* meta,
               std::vector<MeasuredCase>* cases, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read '" + path + "'";
    return false;
  }
  std::map<std::string, std::size_t> index;  // CaseKey -> position in *cases
  std::string line;
  bool header_seen = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind("# ", 0) == 0) {
      const auto eq = line.find('=');
      if (eq != std::string::npos) (*meta)[line.substr(2, eq - 2)] = line.substr(eq + 1);
      continue;
    }
    if (line == kHeader) {
      header_seen = true;
      continue;
    }
    if (!header_seen) {
      *error = "'" + path + "' is not an irrbench raw.csv (no header line '" + kHeader + "')";
      return false;
    }
    if (in.eof()) continue;  // a last line without '\n' was cut off by a kill
    const std::vector<std::string> f = SplitFields(line);
    long long b = 0, p = 0, root = 0, m = 0, m_padded = 0;
    if (f.size() != 11 || !ToInt(f[2], &b) || !ToInt(f[3], &p) || !ToInt(f[4], &root) ||
        !ToInt(f[5], &m) || !ToInt(f[6], &m_padded)) {
      *error = "'" + path + "' line " + std::to_string(number) + ": not a row of " + kHeader;
      return false;
    }
    const std::string key = CaseKey(f[0], f[1], b);
    auto [it, added] = index.emplace(key, cases->size());
    if (added) {
      MeasuredCase c;
      c.op = f[0];
      c.dist = f[1];
      c.b = b;
      c.p = static_cast<int>(p);
      c.root = static_cast<int>(root);
      c.m = m;
      c.m_padded = m_padded;
      c.status = f[10];
      cases->push_back(c);
    }
    MeasuredCase& c = (*cases)[it->second];
    c.status = f[10];
    if (f[10] == "ok") {
      char* end = nullptr;
      const double seconds = std::strtod(f[8].c_str(), &end);
      if (f[8].empty() || *end != '\0' || !std::isfinite(seconds) || seconds < 0) {
        *error = "'" + path + "' line " + std::to_string(number) + ": time '" + f[8] +
                 "' is not a number of seconds >= 0";
        return false;
      }
      c.seconds.push_back(seconds);
    }
  }
  if (!header_seen) {
    *error = "'" + path + "' is not an irrbench raw.csv (no header line)";
    return false;
  }
  return true;
}

}  // namespace irr::bench
