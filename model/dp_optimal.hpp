// Optimal ordered trees by dynamic programming (Traeff 2018, Section 3.2), homogeneous costs.
//
// Optimal (variable degree; Figures 4 and 6, Proposition 3): C[i][j] is the least completion
// time of an ordered tree over ranks i..j with the best root. A tree over [i..j] is
//  - root i copying its block while [i+1..j] completes, then receiving it (Equation 5),
//  - root j receiving [i..j-1], then copying its block (Equation 6; its block is last in rank
//    order), or
//  - a split into [i..k] and [k+1..j] where the root of one part, after completing its own
//    tree, receives the other part last (Equations 3 and 4). A part that receives has at least
//    two processors: a lone root must still copy its block, which only Equations 5/6 account.
// Figure 6 as printed restricts splits to k >= i+1 and lets a lone right processor receive
// without its copy; both variants give the same times on the paper's Table 1 problems (checked
// while building this), and this one is the one Proposition 3 states.
// For a fixed root r, ranges that contain r use F[i][j] (root r): the same cases with the part
// that holds r receiving.
//
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cost_model.hpp"

namespace irr::model {

enum class DpMethod {
  kReference,  // the straightforward O(p^3) loops over one row-major table
  kFast,       // contiguous row + transposed column tables (vectorizable), OpenMP threads
};

// Bytes the DP tables need for p processors (both methods use about the same).
std::uint64_t DpBytes(int p);

struct OptimalTables;
// The optimal variable-degree DP over all ranges (best roots), computed once; fixed roots reuse
// it (only the ranges that hold the root are recomputed).
class OptimalDp {
 public:
  OptimalDp(const std::vector<std::int64_t>& blocks, const CostParams& c,
            DpMethod method = DpMethod::kFast);
  ~OptimalDp();
  OptimalDp(OptimalDp&&) noexcept;
  OptimalDp(const OptimalDp&) = delete;  // owns large tables: move it, do not copy it
  OptimalDp& operator=(const OptimalDp&) = delete;
  Result Best() const;
  Result Fixed(int root) const;
  SequencedTree Tree(int root) const;  // root -1: the best root's tree

 private:
  std::vector<std::int64_t> blocks_;
  CostParams cost_;
  DpMethod method_;
  std::unique_ptr<OptimalTables> tables_;
};

// One-shot versions. root: a fixed root in [0, p), or -1 for the best root. If tree is given,
// the optimal tree is reconstructed into it.
Result OptimalCost(const std::vector<std::int64_t>& blocks, const CostParams& c, int root,
                   DpMethod method = DpMethod::kFast, SequencedTree* tree = nullptr);
}  // namespace irr::model
