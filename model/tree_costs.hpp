// The five trees of Traeff 2018, Section 5.1, each for a fixed root or the best root.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "dp_binary.hpp"
#include "optimal_tree.hpp"

namespace irr::model {

// The optimal DP lives with the trees the algorithms execute (Optimal_*_init runs it too).
using tuw::tree::DpBytes;
using tuw::tree::DpMethod;
using tuw::tree::OptimalCost;
using tuw::tree::OptimalDp;

enum class TreeType { kLinear, kBinary, kOblivious, kAdaptive, kOptimal };

const std::vector<std::string>& TreeNames();     // linear binary oblivious adaptive optimal
TreeType TreeFromName(const std::string& name);  // throws std::invalid_argument

// Which roots "best root" tries for the oblivious binomial tree. kAll: every rank (what the
// words "best root" promise). kPaper: 0, 2^k - 1 and p - 1 - the roots of the cubes that hold
// rank 0, plus the last rank - which is what reproduces the 2018 paper's Table 1 (its
// Increasing, gamma = 1 cell, 2097228 at root 1999, is the best over this set; rank 1792 gives
// 2035788).
enum class ObliviousRoots { kAll, kPaper };

struct TreeOptions {
  DpMethod dp = DpMethod::kFast;
  ObliviousRoots oblivious_roots = ObliviousRoots::kAll;
};

// root in [0, p) or -1 (best root: for Adaptive, the root the construction itself chooses).
Result TreeCost(TreeType type, const std::vector<std::int64_t>& blocks, const CostParams& c,
                int root, const TreeOptions& options = {});
// The tree itself (for DP trees, the reconstructed optimal one) and its root.
SequencedTree BuildSequencedTree(TreeType type, const std::vector<std::int64_t>& blocks,
                                 const CostParams& c, int root, const TreeOptions& options = {});

}  // namespace irr::model
