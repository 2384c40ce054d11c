// The gather tree of the LogP bound's schedule (issue 37; pure, no MPI). tree::LogPLowerBound
// runs the root's link backwards from a deadline: the root takes one message every step
// (max(g, o)), latest first, each as large as its sender can have gathered by the time it sends.
// Built as a tree, "can have gathered" is the same rule one level down: A(t), the most ranks one
// process can hold by t, is 1 plus what its own messages, taken latest first from deadline t,
// carry. With no cost per byte this is Karp et al.'s optimal single-item broadcast run backwards
// (the shape of greedy_tree.hpp); with one, a message's size and the link it shares with the others
// cut the late, large messages, and the root takes more, smaller ones early.
//
// Simulated (results/simulated/link-greedy-trees, p = 560, equal blocks, run at the root's plan by
// a patched Optimal_Gatherv_init): b = 1 11.26-11.37 us, 1.04-1.05x the LogP bound
// (TUWk_Gatherv_init 13.68-14.39); b = 10 Same 17.44 us (1.38x; TUWk_Gatherv_init 21.67). The
// library runs it from TUWk_*_init where its root takes it (PlannedTree below;
// results/simulated/link-greedy-init).
//
// The shape is for p equal blocks; every subtree is a contiguous rank range (an ordered tree, as
// the executors need); the root's children lie left and right of it. Right of the root a range's
// sender is its first rank, its children after it. Left of it the layout says: the same from
// rank 0 up (kLeftAscending, the first layout), or the right side's mirror image, from the root
// down (kLeftMirrored). Equal blocks price alike in both; uneven ones do not: the late, large
// messages take the ranks far from their senders, which are Decreasing's heaviest on the left in
// the first layout (p = 560, b = 10 on radix-560-current's fit: 23.71 us, mirrored 17.72, the
// radix tree 20.55; but the simulated gather ran 25.20, and only scatters weigh it: WeighLayouts).
// A third, outward layout (kRightMirrored) keeps every sender of the root's children away from
// the root's node, where a gather's node link says (OutwardOnNodeLink).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "loggp.hpp"
#include "sequenced_tree.hpp"

namespace tuw::tree {

// The schedule's time grid (us): A(t) is computed at its points.
constexpr double kLinkGreedyGridUs = 0.01;

struct LinkGreedyTree {
  SequencedTree tree;      // children in the order their messages arrive
  double deadline_us = 0;  // the schedule's time of the whole gather
};

// A message of x bytes costs the network level's measured one-way time where params has a curve
// (made non-decreasing in x: a larger message is never planned as cheaper), else 2o + L + Wire;
// its bytes hold the root's link for that time less the curve's least (or x * G). Without a cost
// per message (o = g = 0) every rank sends straight to the root. Throws std::invalid_argument for
// p < 1, a root outside [0, p) or block_bytes < 0.
// kRightMirrored: the left side as in the first layout, the right side mirrored (each range's
// sender its last rank), so that every sender of the root's children is far from the root: the
// outward layout (OutwardOnNodeLink).
enum class LinkGreedyLayout { kLeftAscending, kLeftMirrored, kRightMirrored };
LinkGreedyTree BuildLinkGreedyTree(int p, std::int64_t block_bytes, int root,
                                   const LogGPParams& params,
                                   LinkGreedyLayout layout = LinkGreedyLayout::kLeftAscending);

// The link-greedy tree of these blocks: BuildLinkGreedyTree's shape for their mean (the shape is
// for equal blocks), as the executors run it (node views over the blocks themselves).
Tree LinkGreedyViews(const std::vector<std::int64_t>& block_bytes, int root,
                     const LogGPParams& params,
                     LinkGreedyLayout layout = LinkGreedyLayout::kLeftAscending);

// A TUWk_Gatherv_init / TUWk_Scatterv_init request's tree, chosen at the init by its root, which
// knows every block: PlannedRadix's radix tree, or the link-greedy tree (LinkGreedyViews) where
// the model prices its start on these blocks faster (a gather's edges in params.gather_pieces, as
// the starts run them), a scatter's by kScatterLinkGreedyMaxRatio. irrmodel prices a run's
// requests with it (tuwcoll_init_radix "model link-greedy").
// Gathers: the model ranked the two as the simulation did in all 10 cells of p = 560, b = 1 and
// 10 (results/simulated/link-greedy-trees): the link-greedy tree 1.04-1.05x the LogP bound at
// b = 1 (the radix tree 1.26-1.33x), 0.80-0.85 of the radix tree's start at b = 10 but
// Decreasing's (1.29x slower there: a shape for equal blocks, which the model sees).
// Scatters: the model prices the link-greedy tree 0.82-0.84 of the radix tree at b = 1, where it
// ran 0.85-0.93 of it, but at b = 10 it misranked three of five cells priced within 0.98-1.10 (the
// root's sends share its link, which the model sees only in part): a scatter takes it only where
// priced at most 0.9 of the radix tree.
// On more than kLinkGreedyUnevenMaxRanks ranks only for equal blocks: at p = 6400, b = 1 the model
// priced the link-greedy gather 1-10 % faster on Random, Spikes and Decreasing, where the
// simulation measured it 1.16-1.30x slower than the radix tree (on Same and Alternating, equal
// blocks at b = 1, 0.81x, as the model said); between 560 and 6400 nothing was measured.
// Only where the mean block is at most kLinkGreedyMaxMeanBytes: what was simulated to gain (b = 1
// and 10, 4-84-byte means; at 560 the model never took the tree at b = 100 either), and a bound
// on the root's work at the init (its schedule's grid grows with the gather's time: p = 6400 with
// 4000-byte blocks took 0.45 s, where the model would have taken it unmeasured).
// Only where the LogP lower bound of these blocks is at most kLinkGreedyMaxBoundUs (4000 points of
// the schedule's grid): the simulated gains had bounds of 10.9-17.0 us; at p = 6400, b = 10 (76.5)
// the model priced the tree slower, after the root had built it for 70 ms (equal 40-byte blocks
// on radix-6400-small-current's fit; bench_model's BM_InitPlannedTree/6400/40 on the built-in
// costs: 61.9 ms before this rule, 5.4 after). The bound costs the root 0.1 ms at p = 560, 1.3 at
// 6400. A network much slower than the simulated QDR-class one thus keeps its radix trees; a grid
// scaled to its costs would be the way there (not measured).
constexpr int kLinkGreedyUnevenMaxRanks = 1024;
constexpr std::int64_t kLinkGreedyMaxMeanBytes = 256;
constexpr double kLinkGreedyMaxBoundUs = 40;
constexpr double kScatterLinkGreedyMaxRatio = 0.9;
struct PlannedTreeChoice {
  int radix = 2;
  bool link_greedy = false;
  Tree link_greedy_tree;  // the tree priced, where link_greedy (else empty)
};
// Whether a gather's link-greedy tree goes outward (kRightMirrored) on a machine of nodes: in the
// first layout the root's right-side children on the root's node pull their subtrees' data from
// other nodes over the root's node link, while the root takes its own messages over it; outward,
// their senders sit on other nodes, but the last hop crosses the network instead of staying in the
// node. Outward where that data's wire time (us_per_byte x bytes) exceeds what the hop inside the
// node saves (hop_saved_us: the network's alpha less the node's). Simulated p = 560 (16 ranks a
// node, radix-560-current's fit: 3655 bytes; link-greedy-init, raw-560-outward*.csv against the
// first layout's runs): 276-1340 bytes at b = 1 to 4, where the first layout ran faster in all
// 7 cells compared cleanly; 4000-4516 at b = 10, where the outward one ran 5-9 % faster in all 4.
// p = 6400, b = 1 (radix-6400-small-current's fit: 4101 bytes): 4752 pulled, outward 19.13 us
// against 21.07 (raw-6400-node-link.csv). False without nodes (ranks_per_node <= 1).
// A scatter's root on such nodes may also weigh trees over the nodes (scatter_trees), each priced
// on TwoLevel(), the model with each node's link shared (LogGPParams::node_links), which priced the
// simulated radix tree's starts within 0.97-1.03: kNodeTree (irrmodel, for a run that recorded
// "model link-greedy node-scatter": a2333b8's build) the node scatter tree (node_scatter_tree.hpp)
// where the link-greedy tree was weighed (its limits above); kNodeAndGreedyTrees (libtuwcoll, and
// irrmodel for "model link-greedy two-level-scatter") the node scatter tree and the greedy tree of
// the plain TUWk_Scatterv's rule (SmallScatterShape on small_call, the call's two-level costs), for
// any blocks on at most kNodeScatterMaxRanks ranks (a06ad2c's build: "model link-greedy
// two-level-scatter"); kNodeAndGreedyTreesToLargerP (libtuwcoll since, irrmodel for "model
// link-greedy two-level-scatter-8192") the same on at most kScatterTreesMaxRanks;
// kNodeAndGreedyTreesWide (libtuwcoll since, "model link-greedy two-level-scatter-wide") the same
// with FastestNodeScatterTree's wide shapes on many nodes. Simulated p = 560
// (link-greedy-init): b = 10 the node tree 0.85-0.91 of the radix tree's starts; b = 100 the greedy
// tree 0.62-0.67 (Same, Random, Alternating).
enum class ScatterTreesOnNodes {
  kNone,
  kNodeTree,
  kNodeAndGreedyTrees,
  kNodeAndGreedyTreesToLargerP,
  kNodeAndGreedyTreesWide
};
// The rule libtuwcoll's TUWk_*_init roots weigh (RootPlannedRadix); irrbench's record of it:
// formats::kLibraryLinkGreedyRule (scatter_trees_record.hpp checks that the two agree).
constexpr ScatterTreesOnNodes kLibraryScatterTreesOnNodes =
    ScatterTreesOnNodes::kNodeAndGreedyTreesWide;
struct NodeLinkCosts {
  int ranks_per_node = 1;
  double hop_saved_us = 0;
  double us_per_byte = 0;
  ScatterTreesOnNodes scatter_trees = ScatterTreesOnNodes::kNone;
  LogGPParams small_call;
  // The greedy tree's shape for (p, size class, radix, root): SmallScatterShape on small_call
  // where empty. libtuwcoll gives its plain calls' cache of the same (ModelScatterStep): the
  // search is most of a root's init at p = 6400 (bench_model: about 48 of 93 ms), paid once per
  // shape.
  std::function<int(int, std::int64_t, int, int)> greedy_shape;
  // small_call with node links, a barrier start and latencies by size: the trees over nodes'
  // prices.
  LogGPParams TwoLevel() const;
};
bool OutwardOnNodeLink(const Tree& first_layout, const std::vector<std::int64_t>& block_bytes,
                       const NodeLinkCosts& node_link);
// A fit's node link: ranks_per_node consecutive ranks a node where the fit measured a node's own
// alpha, the network's alpha less it, the network's beta (libtuwcoll and irrmodel alike).
// small_call: costs.SmallCallParams(ranks_per_node).
NodeLinkCosts NodeLinkOf(const RadixCosts& costs, int ranks_per_node,
                         ScatterTreesOnNodes scatter_trees);

// weigh_layouts: the link-greedy tree in the faster of its first two layouts on these blocks (a
// tie keeps kLeftAscending); false: kLeftAscending only. The library weighs them for scatters
// (WeighLayouts). A gather on a machine of nodes (node_link): the outward layout where
// OutwardOnNodeLink says (irrbench's "model link-greedy node-link"), else as before. A scatter
// on 2 < p ranks of nodes (up to kNodeScatterMaxRanks, or kScatterTreesMaxRanks for
// kNodeAndGreedyTreesToLargerP): the trees node_link.scatter_trees names where
// TwoLevel() prices the fastest at most kNodeScatterMaxRatio of the tree chosen so far (returned
// as the link-greedy tree: any tree the root plans and hands out).
PlannedTreeChoice PlannedTree(bool scatter, const std::vector<std::int64_t>& block_bytes, int root,
                              const LogGPParams& params, bool weigh_layouts,
                              const NodeLinkCosts& node_link = {});
// Whether a TUWk_*_init root weighs the two layouts (simulated p = 560, link-greedy-init, the
// runs "-layouts" against the first ones): a scatter's choice of the mirrored layout ran faster
// where taken (Spikes at b = 1 15.47 us against 16.69, Decreasing 15.32 against 15.78), a gather's
// ran 1.06-1.32x slower where the one-level model priced it faster (Random, Spikes, Decreasing at
// b = 10; Decreasing at b = 1). The left side's senders then sit next to the root, on its node,
// where a gather's subtree data shares the root's node link with the root's own messages, which
// the choice's one-level model does not see (irrmodel's node links do: those starts 1.04-1.09x
// their price, LogGPParams::node_links; but it ranks the layouts no better than these rules).
inline bool WeighLayouts(bool scatter) { return scatter; }

}  // namespace tuw::tree
