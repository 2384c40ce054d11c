#include "raw_csv.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace irr::formats {
namespace {

std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> fields(1);
  for (char ch : line) {
    if (ch == ',') {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  return fields;
}

bool ToInt(const std::string& s, long long* x) {
  char* end = nullptr;
  *x = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0';
}

}  // namespace

std::string CaseKey(const std::string& op, const std::string& dist, std::int64_t b) {
  return op + "," + dist + "," + std::to_string(b);
}

std::string MetadataLine(const std::string& key, const std::string& value) {
  return "# " + key + "=" + value + "\n";
}

std::string FormatRow(const RawRow& r) {
  std::string status = r.status;
  for (char& ch : status) {
    if (ch == ',' || ch == '\n') ch = ';';  // one field, one line
  }
  char seconds[32] = "";
  if (r.status == "ok") std::snprintf(seconds, sizeof seconds, "%.9f", r.seconds);
  return r.op + "," + r.dist + "," + std::to_string(r.b) + "," + std::to_string(r.p) + "," +
         std::to_string(r.root) + "," + std::to_string(r.m) + "," + std::to_string(r.m_padded) +
         "," + std::to_string(r.rep) + "," + seconds + "," + std::to_string(r.late) + "," + status +
         "\n";
}

bool ReadRawFile(const std::string& path, RawFile* file, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read '" + path + "'";
    return false;
  }
  std::map<std::string, std::size_t> index;  // CaseKey -> position in file->cases
  std::string line;
  bool header_seen = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind("# ", 0) == 0) {  // metadata, also between rows (--resume notes)
      const auto eq = line.find('=');
      if (eq != std::string::npos) file->meta.emplace(line.substr(2, eq - 2), line.substr(eq + 1));
      file->meta_lines.push_back(line);
      continue;
    }
    if (line == kRawHeader) {
      header_seen = true;
      continue;
    }
    if (!header_seen) {
      *error = "'" + path + "' is not an irrbench raw.csv (no header line '" + kRawHeader + "')";
      return false;
    }
    if (in.eof()) {  // a last line without '\n' was cut off by a kill
      file->torn_last_line = true;
      continue;
    }
    const std::vector<std::string> f = SplitFields(line);
    long long b = 0, p = 0, root = 0, m = 0, m_padded = 0;
    if (f.size() != 11 || !ToInt(f[2], &b) || !ToInt(f[3], &p) || !ToInt(f[4], &root) ||
        !ToInt(f[5], &m) || !ToInt(f[6], &m_padded)) {
      *error = "'" + path + "' line " + std::to_string(number) + ": not a row of " + kRawHeader;
      return false;
    }
    const std::string key = CaseKey(f[0], f[1], b);
    auto [it, added] = index.emplace(key, file->cases.size());
    if (added) {
      MeasuredCase c;
      c.op = f[0];
      c.dist = f[1];
      c.b = b;
      c.p = static_cast<int>(p);
      c.root = static_cast<int>(root);
      c.m = m;
      c.m_padded = m_padded;
      file->cases.push_back(c);
    }
    MeasuredCase& c = file->cases[it->second];
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
      c.ok_rows++;
    }
    file->rows.emplace_back(key, line);
  }
  if (!header_seen) {
    *error = "'" + path + "' is not an irrbench raw.csv (no header line '" + kRawHeader + "')";
    return false;
  }
  return true;
}

const std::vector<std::string>& MethodKeys() {
  // launch: a file holds one launch; --resume continues that launch, never another's.
  // tuwcoll_radix: the radix-k rows' radixes (absent without such rows); a resume by a build
  // or TUWCOLL_RADIX that chooses others would mix two trees under one operation's name.
  // tuwcoll_scatter_step: likewise a small TUWk_Scatterv call's greedy step (TUWk_Scatter_step),
  // and tuwcoll_small_call_max_bytes the largest such call (tree::kOneMessageMaxBytes);
  // tuwcoll_large_scatter_radix how a larger one's radix is chosen, tuwcoll_init_radix how a
  // persistent request's;
  // tuwcoll_gather_pieces how TUWk_Gatherv cuts its transfers into pieces;
  // tuwcoll_carry_max_bytes the largest cube TUWk_Gatherv's construction carries, and
  // tuwcoll_carry_to_root how its root's group reaches the root ("direct"; "direct-only": told
  // only, tuwcoll_carry_to_root_max_bytes the largest cube carried there).
  static const std::vector<std::string> keys = {"library",
                                                "p",
                                                "root",
                                                "nrep",
                                                "warmup",
                                                "sync",
                                                "seed",
                                                "rho",
                                                "launch",
                                                "tuwcoll_radix",
                                                "tuwcoll_scatter_step",
                                                "tuwcoll_large_scatter_radix",
                                                "tuwcoll_init_radix",
                                                "tuwcoll_gather_pieces",
                                                "tuwcoll_small_call_max_bytes",
                                                "tuwcoll_carry_max_bytes",
                                                "tuwcoll_carry_to_root",
                                                "tuwcoll_carry_to_root_max_bytes"};
  return keys;
}

bool PlanResume(const std::string& path, int nrep, ResumePlan* plan, std::string* error) {
  if (!ReadRawFile(path, &plan->file, error)) return false;
  for (const MeasuredCase& c : plan->file.cases) {
    if (c.ok_rows == nrep || c.status.rfind("skipped", 0) == 0) {
      plan->complete.insert(CaseKey(c.op, c.dist, c.b));
    }
  }
  plan->lines = plan->file.meta_lines;
  plan->lines.push_back(kRawHeader);
  for (const auto& [key, line] : plan->file.rows) {
    if (plan->complete.count(key)) {
      plan->lines.push_back(line);
    } else {
      plan->dropped_rows++;
    }
  }
  return true;
}

}  // namespace irr::formats
