#include "output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "metadata.hpp"

namespace irr::bench {
namespace {

// Every directory of `path` up to its last '/': "a/b/" makes a and a/b ("/x/" makes /x).
bool MakeDirs(const std::string& path) {
  for (std::size_t pos = path.find('/', 1); pos != std::string::npos;
       pos = path.find('/', pos + 1)) {
    const std::string part = path.substr(0, pos);
    if (!part.empty() && mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string Dirname(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

ResultsFile::~ResultsFile() { Close(); }

std::string ResultsFile::Open(const std::string& path, bool resume, int nrep,
                              const std::map<std::string, std::string>& method) {
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && !resume) {
    return "--out: '" + path + "' exists; pass --resume to continue it or choose another file";
  }
  if (!exists) {
    if (!MakeDirs(Dirname(path) + "/")) {
      return "--out: cannot create directory '" + Dirname(path) + "': " + std::strerror(errno);
    }
    file_ = std::fopen(path.c_str(), "w");
    if (file_ == nullptr) return "--out: cannot write '" + path + "': " + std::strerror(errno);
    return "";
  }
  formats::ResumePlan plan;
  std::string error;
  if (!formats::PlanResume(path, nrep, &plan, &error)) return "--resume: " + error;
  for (const auto& key : formats::MethodKeys()) {
    const auto it = plan.file.meta.find(key);
    // Files from before launches were recorded are launch 1.
    const std::string missing = key == "launch" ? "1" : "";
    const std::string theirs = it == plan.file.meta.end() ? missing : it->second;
    const std::string ours = method.count(key) ? method.at(key) : "";
    if (theirs != ours) {
      return "--resume: '" + path + "' was measured with " + key + "=" + theirs +
             ", this run has " + key + "=" + ours + "; use another --out";
    }
  }
  // Rewrite without the rows of interrupted cases, atomically.
  const std::string tmp = path + ".tmp";
  std::ofstream rewrite(tmp);
  for (const auto& line : plan.lines) rewrite << line << '\n';
  // Which cases came from which run: the cases above this line were finished before it; the
  // job that resumes says who it is (a requeued SLURM job keeps its id, its restart count grows).
  std::string resumed = Now() + " dropped_rows=" + std::to_string(plan.dropped_rows) +
                        " cases_before=" + std::to_string(plan.complete.size());
  for (const auto& [variable, key] : {std::pair<const char*, const char*>{"SLURM_JOB_ID", "job"},
                                      {"SLURM_RESTART_COUNT", "restart"}}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0' && std::strchr(value, ' ') == nullptr) {
      resumed += std::string(" ") + key + "=" + value;
    }
  }
  rewrite << formats::MetadataLine("resumed", resumed);
  rewrite.close();
  if (!rewrite || std::rename(tmp.c_str(), path.c_str()) != 0) {
    return "--out: cannot rewrite '" + path + "'";
  }
  file_ = std::fopen(path.c_str(), "a");
  if (file_ == nullptr) return "--out: cannot write '" + path + "': " + std::strerror(errno);
  resumed_ = true;
  complete_ = plan.complete;
  return "";
}

void ResultsFile::WriteHeader(const std::vector<std::pair<std::string, std::string>>& metadata) {
  for (const auto& [key, value] : metadata) {
    std::fputs(formats::MetadataLine(key, value).c_str(), file_);
  }
  std::fprintf(file_, "%s\n", formats::kRawHeader);
  std::fflush(file_);
}

void ResultsFile::AppendCase(const std::vector<formats::RawRow>& rows) {
  std::string text;
  for (const auto& row : rows) text += formats::FormatRow(row);
  std::fputs(text.c_str(), file_);
  std::fflush(file_);
  fsync(fileno(file_));
}

void ResultsFile::Close() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
}

}  // namespace irr::bench
