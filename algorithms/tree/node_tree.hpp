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

// An edge's data sent in the order it becomes ready. In the node tree a leader has its own
// block at once and its node's blocks after the local gather over shared memory, long before its
// child nodes' data has crossed the network, while its parent's link idles: the edge into the
// root on Spikes b = 1000 at p = 560 idled 97 us (results/simulated/README.md). So a leader's
// edge may go in up to three messages, each sent once its ranks are there and taken by the parent
// straight into place:
//  - node first: the ranks of its node within its range, then those below, then those above;
//  - own block first: its own block, then the ranks below it, then those above it.
struct RankRange {
  int lo = 0;
  int hi = -1;  // inclusive; empty where hi < lo
  bool empty() const { return hi < lo; }
  bool operator==(const RankRange& o) const { return lo == o.lo && hi == o.hi; }
};
// A message of an edge in parts has at least kMinNodePartBytes or at most kTinyPartBytes. From
// 64 KiB on a message's latency (alpha, 3 us on the paper's platform) is small against its
// transfer (21 us at 3.2 GB/s), and the simulated network gives smaller messages less bandwidth:
// split whatever the size, Spikes and Random at b = 1000 ran 1-2 % slower (Same 6.6 %), from
// 64 KiB on never slower and up to 1.1 % faster. A message of at most 1 KiB costs a latency and
// next to no link time; allowing it lets a large own block go ahead of a few tiny ones. The
// rule is for messages that share a busy link: an own block that goes first is exempt, since it
// is there at the call's start and fills link time that would idle (Spikes b = 1000: a spike's
// 20000 B ahead of the rest, 707.6 -> 697.3 us; never slower on the six distributions at b >= 100).
constexpr std::int64_t kMinNodePartBytes = 64 * 1024;
constexpr std::int64_t kTinyPartBytes = 1024;

// The messages of `rank`'s edge to its parent in the order it sends them, `node` being the ranks
// of its node within its range; empty where the edge stays one message. A layout is possible
// where at least two parts have bytes, each has min_part_bytes or at most kTinyPartBytes (a first
// own block any size), and no child's range with bytes crosses two parts. Own block first where
// possible and its node's other ranks hold less than min_part_bytes (they gain nothing from going
// early); else node first; else own block first. Parts without bytes are left out
// (tree.nodes[i].own_bytes is rank i's block). Parent and child both compute it from the tree, so
// they agree on every message.
std::vector<EdgePart> EdgeParts(const Tree& tree, int rank, RankRange node,
                                std::int64_t min_part_bytes = kMinNodePartBytes);
// Which edges of a node tree (as ToNodeViews gives it) go in parts: for each rank, the ranks of
// its node within its range where EdgeParts splits its edge, else an empty range (the root
// too). Throws std::invalid_argument unless node_first has one entry per rank and
// ContiguousNodes holds.
std::vector<RankRange> ChooseNodeParts(const Tree& tree, const std::vector<int>& node_first,
                                       std::int64_t min_part_bytes = kMinNodePartBytes);
// Fills every split edge's ChildEdge::parts and NodeView::parent_parts from the ranges
// ChooseNodeParts gave (one per rank, the same min_part_bytes).
void ApplyNodeParts(const std::vector<RankRange>& node_parts, Tree* tree,
                    std::int64_t min_part_bytes = kMinNodePartBytes);

}  // namespace tuw::tree
