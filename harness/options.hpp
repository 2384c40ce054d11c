// irrbench's command line: parsed without MPI so that every rank rejects bad input alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace irr::bench {

struct Options {
  std::vector<std::string> ops;
  std::vector<std::string> dists;
  std::vector<std::int64_t> b = {1, 10, 100, 1000, 10000};
  int nrep = 75;
  int warmup = 10;
  long root = -1;  // -1: floor(p/2)
  std::uint64_t seed = 1;
  double rho = 5.0;
  std::string sync = "barrier";
  std::string out;
  bool resume = false;
  bool validate = true;
  std::int64_t max_mem = 0;  // bytes per process; 0: a quarter of physical memory
  bool help = false;
};

// The operations irrbench knows, in the default order, and the ones only tests may use.
const std::vector<std::string>& KnownOps();
const std::vector<std::string>& TestOnlyOps();  // accepted when IRRBENCH_TEST_OPS=1

// Returns "" on success, else one line naming the bad value and the valid choices.
std::string ParseOptions(const std::vector<std::string>& args, Options* options);
std::string HelpText();

}  // namespace irr::bench
