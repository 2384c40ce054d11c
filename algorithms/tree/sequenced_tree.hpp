// Trees as the 2018 paper's cost model sees them, and their execution form. Pure: no MPI.
//
// The linear cost model of Traeff 2018 (Section 2): a message of s units costs alpha + beta*s
// (nothing when s = 0), a local copy gamma*s, one port per processor. A gather/scatter tree is
// given as each node's sequence of steps - receive a child's subtree, or copy its own block.
// An ordered tree (every subtree a contiguous rank range, as the optimal DP's trees are) is
// turned into the NodeViews the MPI executors run (ToNodeViews).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hypercube_tree.hpp"

namespace tuw::tree {

struct CostParams {
  double alpha = 0;
  double beta = 1;
  double gamma = 1;
  double Comm(double units) const { return units == 0 ? 0 : alpha + beta * units; }
};

// A tree as sequences: steps[v] lists, in time order (for gather), what node v does before
// sending to its parent: kCopy or the rank of a child whose whole subtree it receives.
struct SequencedTree {
  static constexpr int kCopy = -1;
  int root = -1;
  std::vector<std::vector<int>> steps;
};

// A completion time and the root that achieves it.
struct Result {
  double time = 0;
  int root = -1;
};

// Figure 1's completion time of a gather over the tree: Time += gamma*m_r for the copy, and
// Time = max(Time, Time(child)) + alpha + beta*Size(child) for each child in sequence.
double GatherTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                  const CostParams& c);
// The same tree used for scatter, simulated forwards: each node, once it holds its segment,
// sends to its children and copies its own block in the reverse of the gather order; the time
// is the last processor's finish. (The 2018 paper states both are equal; the tests check it.)
double ScatterTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                   const CostParams& c);
// Two levels of message cost: on a cluster of multi-core nodes a message between two processes
// of one node goes through shared memory and costs `local` (irrfit's alpha_local_us,
// beta_local_us_per_byte), any other `network`. node_first[i]: the lowest rank on rank i's node
// (node_tree.hpp). The one-level functions above are these with local == network; one level
// with measured costs: every rank its own node.
// Message costs as measured at a few sizes instead of a line (PLogP-style, Kielmann et al.
// 2000): irrfit's one-way times, linear between two measured sizes and along the first and last
// segments beyond them (never below 0; nothing for 0 units). Where a protocol switches or the
// bandwidth depends on the size, a line through all sizes misses mid-size messages by tens of
// percent (results/simulated/README.md); the measured times do not.
class MeasuredCurve {
 public:
  MeasuredCurve() = default;
  // Throws std::invalid_argument unless there are at least two points, sizes rising and
  // times >= 0.
  MeasuredCurve(std::vector<double> units, std::vector<double> times);
  bool empty() const { return units_.empty(); }
  double Comm(double units) const;
  // The least time per unit the curve shows where it is steady: the smallest slope of two
  // consecutive segments that agree within 1 %. A segment alone may straddle a protocol switch
  // whose drop in time makes its slope small or negative; none steady: the smallest positive
  // slope, none positive: 0. A lower bound's time per unit (tree::LogPLowerBound).
  double LeastSteadySlope() const;
  // The largest c for which c + slope * units lies at or below every measured point: the
  // intercept of a lower bound's line at that slope (0 where empty).
  double InterceptBelow(double slope) const;
  // The largest size of the stretch where LeastSteadySlope holds (its segments in a row that agree
  // within 1 %): the largest message that moves units at that cost. 0 where no segment is steady.
  double LeastSteadySlopeEnd() const;
  // The time per unit of a message of `units` where the curve is steady there: its segment's
  // slope where it agrees within 1 % with a neighbour's, else (the segment straddles a switch)
  // the nearer neighbour's where that one is steady. False where neither: a sparse curve (e.g.
  // powers of two) whose segments each span switches.
  bool SteadySlopeAt(double units, double* slope) const;

 private:
  double Slope(std::size_t k) const;  // of segment k: points k - 1 to k
  // Whether segment k's slope is positive and within 1 % of segment k - 1's.
  bool AgreesWithPrevious(std::size_t k) const;
  std::vector<double> units_, times_;
  // Each segment's slope and AgreesWithPrevious, computed once: the model asks them for every
  // message it prices (LogGPParams::Shared), a tenth of a scatter root's init at p = 6400.
  std::vector<double> slopes_;
  std::vector<char> agrees_;
};
struct TwoLevelCosts {
  CostParams network, local;
  std::vector<int> node_first;
  // Where not empty, a level's messages cost its measured curve instead of its line.
  MeasuredCurve network_measured = {}, local_measured = {};
  double Comm(int from, int to, double units) const {
    if (node_first[from] == node_first[to]) {
      return local_measured.empty() ? local.Comm(units) : local_measured.Comm(units);
    }
    return network_measured.empty() ? network.Comm(units) : network_measured.Comm(units);
  }
};
// Throws std::invalid_argument unless node_first has one entry per block.
double GatherTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                  const TwoLevelCosts& c);
double ScatterTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                   const TwoLevelCosts& c);
// The hypercube trees of libtuwcoll as sequences: each internal node copies its own block
// first (overlapping the children's gathering, Proposition 2) and receives its children in
// round order - the order TUW_Gatherv and Binomial_Gatherv post and complete them.
SequencedTree FromHypercube(const Tree& tree);

// The executable form of an ordered tree: every node's parent, range [lo, hi], bytes, and its
// children in the sequence's receive order (for gather; a scatter serves them in reverse, as
// the executors do). Throws std::invalid_argument naming the node if `tree` is not a tree
// spanning all ranks whose subtrees are contiguous ranges. `block_bytes[i]`: rank i's block.
Tree ToNodeViews(const SequencedTree& tree, const std::vector<std::int64_t>& block_bytes);

}  // namespace tuw::tree
