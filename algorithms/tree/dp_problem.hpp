// What both dynamic programs (optimal_tree.cpp here, the model's dp_binary.cpp) share: a
// problem's block sizes with prefix sums, the argument check, and how their split loops compile.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sequenced_tree.hpp"

// The DPs' O(p^3) split loops: also compiled for AVX2 where GCC targets x86-64 (target_clones,
// also on the split-search template; the CPU picks the version when the program loads),
// elsewhere once. AVX2 without FMA performs the same operations: the same tables and trees.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TUW_DP_SPLIT_LOOP __attribute__((target_clones("avx2", "default")))
#else
#define TUW_DP_SPLIT_LOOP
#endif

namespace tuw::tree::dp {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Problem {
  int p;
  std::vector<double> m;       // block sizes
  std::vector<double> prefix;  // prefix[i] = m_0 + ... + m_{i-1}
  CostParams c;
  Problem(const std::vector<std::int64_t>& blocks, const CostParams& cost)
      : p(static_cast<int>(blocks.size())),
        m(blocks.begin(), blocks.end()),
        prefix(p + 1, 0),
        c(cost) {
    for (int i = 0; i < p; ++i) prefix[i + 1] = prefix[i] + m[i];
  }
  double Size(int i, int j) const { return i > j ? 0.0 : prefix[j + 1] - prefix[i]; }
  double Comm(double units) const { return c.Comm(units); }
  double Copy(int i) const { return c.gamma * m[i]; }
};

inline void CheckArguments(int p, int root) {
  if (p < 1) throw std::invalid_argument("p must be >= 1, got " + std::to_string(p));
  if (root < -1 || root >= p) {
    throw std::invalid_argument("root " + std::to_string(root) + " is not in [0, " +
                                std::to_string(p) + ")");
  }
}

}  // namespace tuw::tree::dp
