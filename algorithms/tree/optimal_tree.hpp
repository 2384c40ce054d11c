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
// Pure (no MPI): the cost model (irrmodel) and Optimal_Gatherv_init/Optimal_Scatterv_init run
// the same code. The exact DP is O(p^3) time and O(p^2) memory; kWindowed keeps its recurrences
// but tries only the splits in a few short windows per range (next to both ends, around the
// middle rank, the power-of-two split, the data midpoint, and for a fixed root around the
// root): O(p^2) time, within 2.2 % of the optimum on the paper's distributions
// (tests/test_optimal_tree.cpp). One core, tree for a fixed root (model/bench, BM_OptimalInitTree,
// the split loops in AVX2 where the CPU has it): exact 8 ms at p = 256, 60 ms at 560, 3.0 s at
// 2000; windowed 55 ms at 560, 1.1 s and 60 MB at 2000 - the tables (p^2 entries), not the
// windows, dominate.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sequenced_tree.hpp"

namespace tuw::tree {

enum class DpMethod {
  kReference,  // the straightforward O(p^3) loops over one row-major table
  kFast,       // contiguous row + transposed column tables (vectorizable), OpenMP threads
  kWindowed,   // approximate: candidate splits from short windows only, O(p^2)
};
// Half-width of kWindowed's windows.
constexpr int kDpWindow = 3;
// The DP Optimal_*_init runs for p processes (unless TUWCOLL_OPTIMAL_DP says otherwise): exact
// (kFast, on the calling thread) up to kExactDpMaxP, where it takes a few milliseconds, else
// kWindowed. irrmodel predicts the executed tree with the same rule.
constexpr int kExactDpMaxP = 256;
inline DpMethod ExecutedDpMethod(int p) {
  return p <= kExactDpMaxP ? DpMethod::kFast : DpMethod::kWindowed;
}

// The tree Optimal_*_init executes for `root`: the DP's optimal tree where the model predicts it
// at least kOptimalMinGain faster than TUW's adaptive tree, else the adaptive tree itself. The
// model cannot tell apart the many trees with (nearly) equal times - Same, Alternating, small
// blocks - and among those the adaptive tree is the one measured to lose nothing to the costs
// the model leaves out (contention in the nodes' links, receive overheads): in the p = 560
// simulation, optimal trees the model ranked within 2 % of the adaptive one ran up to 1.34x
// slower than it.
constexpr double kOptimalMinGain = 0.05;
// On several multi-core nodes with large enough blocks (PreferNodeTree, node_tree.hpp) it is the
// node-aware tree instead, whose model times count messages inside a node as free.
struct ExecutedTree {
  SequencedTree tree;
  double time = 0;          // its model time (gather)
  double scatter_time = 0;  // its model time as a scatter tree
  bool optimal = false;     // the DP's tree (else the adaptive one)
  bool nodes = false;       // the node-aware tree (node_tree.hpp)
};
// node_first: each rank's node as node_tree.hpp describes it; empty where nodes are not known.
// ExecutedNodeTree: the node-aware tree as executed (throws like BuildNodeTree), which
// OptimalInitTree returns where PreferNodeTree holds and TUWCOLL_NODE_TREE=always forces.
ExecutedTree ExecutedNodeTree(const std::vector<std::int64_t>& blocks,
                              const std::vector<int>& node_first, const CostParams& c, int root);
ExecutedTree OptimalInitTree(const std::vector<std::int64_t>& blocks, const CostParams& c, int root,
                             DpMethod method, const std::vector<int>& node_first = {});

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
}  // namespace tuw::tree
