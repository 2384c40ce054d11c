// The node-aware tree of Optimal_*_init (pure, no MPI). On a cluster of multi-core nodes the
// root node's network link carries every element that is not on the root's node, while messages
// inside a node do not touch the network. So each node first gathers to one leader over shared
// memory - the process with the node's largest block (it need not move), the root on the root's
// node - and the leaders form the 2018 paper's optimal tree over the nodes' sums (its DP, with
// the node as the unit). In the p = 560 simulation (16 ranks per node) this tree is 2-7 % faster
// than the one-level optimal or adaptive tree at b >= 1000 on all six distributions, but up to
// 8 % slower on small blocks, where the serial intra-node step is latency the root cannot hide
// (results/simulated/README.md); hence PreferNodeTree.
#pragma once

#include <cstdint>
#include <vector>

#include "optimal_tree.hpp"

namespace tuw::tree {

// Which node each rank runs on: node_first[i] = the lowest rank on rank i's node. Usable when
// every node is a contiguous rank range (the trees' subtrees must be): node_first[0] == 0 and
// node_first[i] is i or node_first[i - 1].
bool ContiguousNodes(const std::vector<int>& node_first);
int CountNodes(const std::vector<int>& node_first);
// node_first for `ranks_per_node` consecutive ranks per node (block placement).
std::vector<int> BlockPlacement(int p, int ranks_per_node);

struct NodeTree {
  SequencedTree tree;                    // over all ranks, runnable (ToNodeViews)
  SequencedTree node_tree;               // the DP's tree over the nodes
  std::vector<std::int64_t> node_bytes;  // each node's sum
  double time = 0;                       // node_tree's gather time: messages inside a node free
};
// Throws std::invalid_argument unless node_first matches blocks and ContiguousNodes holds.
NodeTree BuildNodeTree(const std::vector<std::int64_t>& blocks, const std::vector<int>& node_first,
                       const CostParams& c, int root, DpMethod method);

// Whether Optimal_*_init runs the node tree: more than one node, some node with several ranks,
// contiguous nodes, and a node's average data costs more on the wire than a message's latency
// (beta * total / nodes >= alpha): there the root's link, not latency, decides.
bool PreferNodeTree(const std::vector<std::int64_t>& blocks, const std::vector<int>& node_first,
                    const CostParams& c);

}  // namespace tuw::tree
