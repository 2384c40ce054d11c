// The one command-line dialect of the C++ tools (irrbench, irrfit, irrmodel), on CLI11: every
// option takes `--x v` or `--x=v`, lists are comma-separated with no empty items, sizes accept
// K/M/G/T suffixes, a flag given twice takes the last value, --help is generated and --version
// names the project version and git commit. Every bad value gives one line naming the flag, the
// value and what would be valid.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace irr::cli {

// "irrbench 0.2.0 (git 1865343374fc-dirty)".
std::string VersionLine(const std::string& tool);
std::string ProjectVersion();
std::string GitCommit();

// The value rules, shared by the tools and usable on their own (tests, cross-option checks).
// Each returns "" when `text` is valid (and stores the value), else the reason without the flag.
std::string ParseInt(const std::string& text, long long min, long long max, long long* value);
std::string ParseNumber(const std::string& text, double min, bool min_exclusive, double* value);
std::string ParseSize(const std::string& text, std::int64_t* bytes);  // 8G, 512M, 1000000
std::string ParseNameList(const std::string& text, const std::vector<std::string>& valid,
                          const std::string& what, std::vector<std::string>* names);
std::string ParseIntList(const std::string& text, long long min, const std::string& what,
                         std::vector<std::int64_t>* values);
std::string Join(const std::vector<std::string>& items, const char* separator = ",");

class Parser {
 public:
  Parser(const std::string& tool, const std::string& description);
  ~Parser();
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // Options; `help` is the --help line. Values are checked while parsing.
  void Int(const std::string& flag, long long* value, long long min, long long max,
           const std::string& help);
  void Number(const std::string& flag, double* value, double min, bool min_exclusive,
              const std::string& help);
  void Size(const std::string& flag, std::int64_t* bytes, const std::string& help);
  void Names(const std::string& flag, std::vector<std::string>* names,
             const std::vector<std::string>& valid, const std::string& what,
             const std::string& help);
  void Ints(const std::string& flag, std::vector<std::int64_t>* values, long long min,
            const std::string& what, const std::string& help);
  void Choice(const std::string& flag, std::string* value, const std::vector<std::string>& valid,
              const std::string& what, const std::string& help);
  void Text(const std::string& flag, std::string* value, const std::string& help);
  void Flag(const std::string& flag, bool* value, const std::string& help);
  void Footer(const std::string& text);

  // Whether the user gave `flag`.
  bool Given(const std::string& flag) const;

  enum class Outcome { kRun, kExitSuccess, kExitError };
  // Parses; on kExitSuccess *output holds --help or --version text, on kExitError *error one
  // line (without the tool's prefix). Prints nothing: MPI tools print on rank 0 only.
  Outcome Parse(int argc, char** argv, std::string* output, std::string* error);

 private:
  std::string tool_;
  std::unique_ptr<CLI::App> app_;  // CLI11 stays out of this header (SMPI's mpi.h defines exit)
};

}  // namespace irr::cli
