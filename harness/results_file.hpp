// The raw.csv format of irrbench: '# key=value' metadata lines, a header, one row per timed
// repetition. Reading it back is what --resume and the tests need.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace irr::bench {

inline constexpr const char* kHeader =
    "op,distribution,b,p,root,m,m_padded,rep,seconds,late,status";

std::string CaseKey(const std::string& op, const std::string& dist, std::int64_t b);

struct ExistingResults {
  std::map<std::string, std::string> meta;
  std::set<std::string> complete;  // cases with all nrep rows, or a 'skipped' row
  std::vector<std::string> lines;  // metadata + header + rows of complete cases, in order
  int dropped_rows = 0;            // rows of incomplete (interrupted or failed) cases
};

// Reads `path`; false with *error set if it cannot be read or is not an irrbench file.
bool ReadExisting(const std::string& path, int nrep, ExistingResults* existing, std::string* error);

// One case of a raw.csv as measured: its repetitions' times (status "ok"), or its status.
struct MeasuredCase {
  std::string op, dist;
  std::int64_t b = 0, m = 0, m_padded = 0;
  int p = 0, root = 0;
  std::vector<double> seconds;
  std::string status;  // "ok", "validation_failed", "skipped: ..."
};

// Reads every case of `path` in file order (a torn last line is ignored); false with *error
// naming the file and line if it cannot be read or is not an irrbench file.
bool ReadCases(const std::string& path, std::map<std::string, std::string>* meta,
               std::vector<MeasuredCase>* cases, std::string* error);

// The metadata keys that must agree for --resume to append to a file.
const std::vector<std::string>& MethodKeys();

}  // namespace irr::bench
