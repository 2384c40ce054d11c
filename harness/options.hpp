// irrbench's command line (the tools' one dialect, formats/cli.hpp): parsed without MPI so that
// every rank rejects bad input alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"

namespace irr::bench {

struct Options {
  std::vector<std::string> ops;
  std::vector<std::string> dists;
  std::vector<std::int64_t> b = {1, 10, 100, 1000, 10000};
  long long nrep = 75;
  long long warmup = 10;
  long long root = -1;  // -1: floor(p/2)
  long long seed = 1;
  long long launch = 1;  // which launch of a run this is (each launch its own --out)
  double rho = 5.0;
  std::string sync = "barrier";
  std::string out;
  bool resume = false;
  bool no_validate = false;
  std::int64_t max_mem = 0;  // bytes per process; 0: a quarter of physical memory
  bool list_ops = false;
  std::string format = "tsv";  // of --list-ops
};

using ParseOutcome = irr::cli::Parser::Outcome;  // kRun, kExitSuccess, kExitError

// Parses argv; on kExitSuccess *output is --help or --version text, on kExitError *error one
// line naming the bad value and the valid choices. Prints nothing (rank 0 prints).
ParseOutcome ParseOptions(int argc, char** argv, Options* options, std::string* output,
                          std::string* error);

}  // namespace irr::bench
