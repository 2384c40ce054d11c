// A scatter's tree on nodes of consecutive ranks (pure, no MPI): TUWk_Scatterv_init's root takes
// it where TUWCOLL_RANKS_PER_NODE says what a node is and the two-level model with each node's
// link shared prices it fastest of its choices (link_greedy_tree.hpp, PlannedTree: also the
// radix, link-greedy and greedy trees).
//
// Why: on SimGrid's cluster each node of 16 ranks has one link each way, and a small message
// holds it longer per byte than a larger one (the bandwidth factor: 0.92 ns/B at 257-1425 bytes,
// 0.29 at 5776-9375). A rank-level tree sends one message per subtree whatever node it is on, so
// the root's link carries many small ones; here the root sends each range of nodes one message
// (fewer, larger), each node's leader passes its range on the same way, and inside a node the
// ranks share the node's data over shared memory, which no network link carries. Simulated
// p = 560 (link-greedy-init, raw-scatter-560-node-scatter.csv): b = 10 24.5-25.5 us against the
// radix tree's 27.3-30.0 (1.97-2.29x the LogP bound instead of 2.16-2.55); b = 4 17.5-19.6
// against 19.0-22.7.
#pragma once

#include <cstdint>
#include <vector>

#include "hypercube_tree.hpp"
#include "loggp.hpp"
#include "sequenced_tree.hpp"

namespace tuw::tree {

// Each level splits what it passes on into at most this many contiguous ranges, one message
// each, in proportion to their bytes, never across the parent's own node or rank: the root the
// other nodes (root_ranges), every other leader the nodes of its range (leader_ranges), every
// rank of a node the rest of its node's ranks (rank_ranges). A range of nodes is led from its node
// nearest the parent's node, or with middle_leader from its middle node, by that node's rank
// nearest the parent's node (its last rank left of the parent, else its first); a range inside a
// node from its rank nearest the parent.
struct NodeScatterShape {
  int root_ranges = 4;
  int leader_ranges = 8;
  int rank_ranges = 4;
  bool middle_leader = false;
  bool operator==(const NodeScatterShape& o) const {
    return root_ranges == o.root_ranges && leader_ranges == o.leader_ranges &&
           rank_ranges == o.rank_ranges && middle_leader == o.middle_leader;
  }
};

// The tree over all ranks of block_bytes (ranks_per_node consecutive ranks a node, the last node
// possibly fewer), runnable by ToNodeViews. Throws std::invalid_argument for a root outside
// [0, p), ranks_per_node < 1 or a range count below 1.
SequencedTree BuildNodeScatterTree(const std::vector<std::int64_t>& block_bytes, int root,
                                   int ranks_per_node, const NodeScatterShape& shape);

// The fastest of the shapes a root weighs on these params: root and leader ranges (4, 8), (6, 6)
// or (8, 4), rank ranges 4 or 8, leaders nearest or in the middle (12 trees; bench_model's
// BM_NodeScatterTree on this 2-core VM: 3.3 ms at p = 560, 6.0 at 1024, 40-43 at 6400 on
// RadixCosts' defaults with a node's alpha).
// A search of 1155 shapes (2-8 root ranges, 2-12 leader ranges, 2-12 rank ranges) on
// radix-560-current's fit at p = 560 found one faster in 2 of the ten cells of the five
// distributions at b = 1 and 10, by 0.6 and 1.2 %.
struct NodeScatterChoice {
  Tree tree;
  double time = 0;  // PlannedScatterTime on the given params
  NodeScatterShape shape;
};
// wide_shapes, on at least kWideShapesMinNodes nodes: also leader ranges 16 from 4, 6 or 8 root
// ranges, rank ranges 4, leaders nearest or in the middle (6 more). At p = 6400 (400 nodes,
// radix-6400-small-current's fit) a search of 72 shapes (4-8 root, 4-24 leader, 4 or 8 rank
// ranges) priced these 0.92-0.98 of the 12 at b = 1 (five distributions), and 0.94-0.995 at
// b = 10; at p = 560 (35 nodes) none faster but Spikes at b = 10 (0.989).
constexpr int kWideShapesMinNodes = 128;
NodeScatterChoice FastestNodeScatterTree(const std::vector<std::int64_t>& block_bytes, int root,
                                         int ranks_per_node, const LogGPParams& params,
                                         bool wide_shapes = false);

// A root takes it (or the greedy tree it weighs beside it, PlannedTree) where priced at most this
// fraction of the tree it would take otherwise. Simulated
// p = 560 (link-greedy-init, raw-scatter-560-node-scatter-any.csv, taken wherever priced faster):
// b = 10, priced 0.81-0.92 of the radix tree, ran 0.85-0.91 of it; b = 1, priced 0.98-0.99 of
// the link-greedy tree (Same, Alternating, Decreasing), ran 1.03, 1.03 and 0.98 of it.
constexpr double kNodeScatterMaxRatio = 0.95;

// Above this many ranks a06ad2c's build (ScatterTreesOnNodes::kNodeAndGreedyTrees) weighed no tree
// over nodes (neither this one nor the greedy tree): only p = 560 was simulated, and the search
// then cost about 0.5 s at p = 6400.
constexpr int kNodeScatterMaxRanks = 1024;
// Above this many the builds since weigh none (kNodeAndGreedyTreesToLargerP): simulated up to
// p = 6400, where the two trees' search costs the root about 0.17 s at its first init of a shape
// (bench_model's BM_InitScatterOnNodes with the wide shapes; about 0.07 s once libtuwcoll keeps
// the greedy tree's shape, BM_SmallScatterShape), growing with p.
constexpr int kScatterTreesMaxRanks = 8192;

}  // namespace tuw::tree
