// The LogP-greedy scatter tree of a small TUWk_Scatterv call (issue 37; pure, no MPI): the shape
// of Karp et al.'s optimal single-item broadcast (1993) over contiguous rank ranges. Time goes in
// send steps: a process that has its data sends to a new child every step, and a child can send
// `step` steps after its parent began to send to it (step = the hop 2o + L over the send step
// max(g, o), as a whole number). With x steps left a subtree holds at most f(x) ranks:
// f(x) = 1 for x < step, else f(x - 1) + f(x - step) (the sender goes on, the new child starts).
// A range of n ranks takes the least T with f(T) >= n; its i-th child (sent i-th, from 0) gets
// f(T - step - i) ranks, the last what is left. Where the adaptive radix tree has ceil(log_k p)
// rounds of k - 1 children each, this one lets every process send on as long as it pays, which is
// what a latency-bound call (b = 1) wants: docs/irrmodel.md.
//
// The shape depends on the number of ranks only, so a child given its range (the sizes and the
// data come with it) computes its own subtree without any other knowledge. Below the top a range's
// sender is its first rank and its children follow in rank order; at the top the children's
// ranges start after the root and wrap round to rank 0, a range that would cross the root's place
// being split in two children (every range stays contiguous: the data goes in rank order).
#pragma once

#include <cstdint>
#include <vector>

#include "hypercube_tree.hpp"

namespace tuw::tree {

// Steps from 1 to this (larger would be a chain of processes each serving one child).
constexpr int kMaxGreedyStep = 64;
// A by_bytes cut's least mean part: there a part's bytes cost more than a message's latency
// (the QDR-class fit's L / G: 2.04 us / 3.7e-4 us a byte = 5.5 KB). Simulated with the model's
// choice, equal bytes against equal counts: p = 6400, b = 10 (parts of 8.6 KB) Random, Spikes,
// Decreasing 109.9, 128.5, 111.6 us against 117.2, 140.4, 152.0; p = 560, b = 10 (1.9 KB)
// 25.8, 28.5, 26.5 against 26.7, 27.1, 27.6 and Two blocks 19.5 against 14.1 (its bytes in two
// nodes put all the empty ones in one part); b = 1 (below 1.4 KB) alike or worse.
constexpr std::int64_t kByteCutMinPartBytes = 4096;
// The most ranks a node a two-level shape is built for (larger: one level).
constexpr int kMaxShapeRanksPerNode = (1 << 15) - 1;

// A greedy tree's shape. One level: every range is split by `step`. Two levels (node_step > 0,
// ranks_per_node > 1; nodes are consecutive ranks from rank 0): a range over several nodes is
// split into whole nodes by `step` (its sender's node counts as one; each child range goes to
// its first node's first rank), and its sender's own node is split by `node_step`; a range
// inside one node by `node_step`. So the network carries one message per node, not the
// node's ranks forwarding to other nodes through the node's one shared link.
// Two levels with equal_node_ranges: a range over several nodes is split into at most `step`
// ranges of equal node counts (the larger first) instead of by the greedy counts: SimGrid's
// measured bandwidth falls by half for messages of 9-65 KB and 0.26-1.4 KB against 5.8-9.4 KB
// (smpi/bw-factor), and a sender's messages share its link and end together, so a bandwidth-
// bound call wants its node's data in a few messages of like size where the greedy counts halve
// them (results/simulated/scatter-6400-floor).
struct GreedyShape {
  int step = 1;
  int node_step = 0;
  int ranks_per_node = 1;
  bool equal_node_ranges = false;
  // With equal_node_ranges: the ranges' cuts at equal bytes (whole nodes, each range at least
  // one, the last the rest), not equal node counts, where the parts would hold at least
  // kByteCutMinPartBytes on average; smaller parts are cut by counts. An irregular call's equal
  // node counts carry unequal bytes (simulated p = 6400, b = 10, Spikes: 140.4 us against the
  // LogP bound's 103.1; results/simulated/equal-node-ranges).
  bool by_bytes = false;
  bool TwoLevel() const { return node_step > 0 && ranks_per_node > 1; }
};
// The shape as one int (TUWk_Scatterv's message headers and settings name the tree with it):
// step alone for one level (1 ... kMaxGreedyStep), step | node_step << 7 | ranks_per_node << 14
// for two, | 1 << 30 with equal_node_ranges, | 1 << 29 more with by_bytes (ranks_per_node below
// 2^15). ShapeOfCode is false for an int that is no shape's code.
int ShapeCode(const GreedyShape& shape);
bool ShapeOfCode(int code, GreedyShape* shape);

// The number of ranks of each child of the sender of a range of n ranks, the first sent first.
std::vector<int> GreedyChildCounts(int n, int step);

// One process's node of the greedy tree of shape code `shape` over n ranks with these block
// sizes, rooted at fixed_root (-1: rank 0, a subtree's own range), rank relative to the range
// whose first rank is `first` in the communicator (a two-level shape's nodes are the
// communicator's); children in ascending round as in every NodeView (the first sent is the
// last: a scatter serves from the last). O(n + depth).
NodeView GreedyNodeOf(const std::int64_t* block_bytes, int n, int fixed_root, int shape, int rank,
                      int first = 0);

// The whole tree (every GreedyNodeOf), O(p).
Tree BuildGreedyTree(const std::vector<std::int64_t>& block_bytes, int root, int shape);
// The same into *tree (every node set anew; its nodes' buffers kept): the model's shape search
// builds dozens of trees of one p.
void BuildGreedyTree(const std::vector<std::int64_t>& block_bytes, int root, int shape, Tree* tree);

}  // namespace tuw::tree
