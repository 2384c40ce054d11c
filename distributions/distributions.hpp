// Block-size distributions of Traeff 2017 (Section 5) and 2018 (Section 5.1): pure C++, no MPI.
// Random ones use a fixed generator (SplitMix64) and rejection sampling, so every rank and every
// platform derives the identical problem from --seed without any communication.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace irr::dist {

struct Params {
  std::int64_t b = 1;  // average block size (elements)
  double rho = 5.0;    // spikes: the spike factor; skewed: the number of large blocks
  std::uint64_t seed = 1;
  // two_blocks: the 2017 paper puts b at ranks 0 and p-1 (m = 2b, the harness's default); the
  // 2018 paper's model experiments put floor(p*b/2) there (m ~ pb like every other problem).
  bool two_blocks_2018 = false;
};

// All names, in documentation order, and the six of the 2017 paper (the default selection).
const std::vector<std::string>& AllNames();
const std::vector<std::string>& PaperNames();
bool IsKnown(const std::string& name);

// m_0 .. m_{p-1}. Throws std::invalid_argument for an unknown name, p < 1, b < 1 or rho <= 1.
std::vector<std::int64_t> Generate(const std::string& name, int p, const Params& params);

struct Totals {
  std::int64_t m = 0;          // sum of all blocks
  std::int64_t max_block = 0;  // the padded block
  std::int64_t m_padded = 0;   // m' = p * max block
};
Totals Summarize(const std::vector<std::int64_t>& blocks);

}  // namespace irr::dist
