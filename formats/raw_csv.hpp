// raw.csv, irrbench's results file: '# key=value' metadata lines, the header, then one row per
// timed repetition (or one row for a case that was skipped or failed validation). The one
// reader and the one writer of the format, and the resume rule built on them; no MPI.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace irr::formats {

inline constexpr const char* kRawHeader =
    "op,distribution,b,p,root,m,m_padded,rep,seconds,late,status";

// A case: one operation on one problem (distribution, b).
std::string CaseKey(const std::string& op, const std::string& dist, std::int64_t b);

struct RawRow {
  std::string op, dist;
  std::int64_t b = 0;
  int p = 0, root = 0;
  std::int64_t m = 0, m_padded = 0;
  int rep = -1;        // -1: a case that was not timed
  double seconds = 0;  // only for status "ok"
  int late = 0;
  std::string status;  // "ok", "validation_failed", "skipped: ..."
};

// Writing.
std::string MetadataLine(const std::string& key, const std::string& value);  // "# key=value\n"
std::string FormatRow(const RawRow& row);                                    // with '\n'

// One case as read back: its repetitions' times (status "ok"), or its status.
struct MeasuredCase {
  std::string op, dist;
  std::int64_t b = 0, m = 0, m_padded = 0;
  int p = 0, root = 0;
  std::vector<double> seconds;
  int ok_rows = 0;
  std::string status;
};

struct RawFile {
  std::map<std::string, std::string> meta;  // the first value of each key
  std::vector<std::string> meta_lines;      // as written, in order (also notes between rows)
  std::vector<MeasuredCase> cases;          // in file order
  std::vector<std::pair<std::string, std::string>> rows;  // (CaseKey, line) of every row
  bool torn_last_line = false;  // a last line without '\n' (cut off by a kill): ignored
};

// Reads `path`; false with *error naming the file (and line) if it cannot be read, is not an
// irrbench raw.csv, or has a row that does not parse.
bool ReadRawFile(const std::string& path, RawFile* file, std::string* error);

// The metadata keys that must agree for --resume to append to a file.
const std::vector<std::string>& MethodKeys();

// What --resume keeps of an existing file: the complete cases (all `nrep` repetitions ok, or a
// 'skipped' row) and the lines to rewrite the file with (metadata, header, their rows); the
// rows of interrupted or failed cases are dropped so that they run again.
struct ResumePlan {
  RawFile file;
  std::set<std::string> complete;
  std::vector<std::string> lines;
  int dropped_rows = 0;
};
bool PlanResume(const std::string& path, int nrep, ResumePlan* plan, std::string* error);

}  // namespace irr::formats
