// irrbench's results file at rank 0: created with its metadata, or continued with --resume
// (formats::PlanResume: interrupted cases are dropped and run again), then one case appended
// and fsynced at a time, so that a crash or a killed job keeps every finished case.
#pragma once

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "raw_csv.hpp"

namespace irr::bench {

class ResultsFile {
 public:
  ResultsFile() = default;
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;
  ~ResultsFile();

  // Opens `path`: a new file (its directory is created), or with `resume` an existing one whose
  // method keys (formats::MethodKeys) must equal `method`. Returns "" or the reason it cannot.
  std::string Open(const std::string& path, bool resume, int nrep,
                   const std::map<std::string, std::string>& method);
  bool resumed() const { return resumed_; }
  // Whether a case (formats::CaseKey) is complete in a resumed file.
  bool Complete(const std::string& case_key) const { return complete_.count(case_key) > 0; }

  // A new file's metadata lines and header (not for a resumed file).
  void WriteHeader(const std::vector<std::pair<std::string, std::string>>& metadata);
  // Appends one case's rows and makes them durable (fflush + fsync).
  void AppendCase(const std::vector<formats::RawRow>& rows);
  void Close();

 private:
  std::FILE* file_ = nullptr;
  bool resumed_ = false;
  std::set<std::string> complete_;
};

}  // namespace irr::bench
