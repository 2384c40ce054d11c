// A LogGP-style cost model of the trees (issue 37; pure, no MPI): where the linear model of the
// 2018 paper charges every message alpha + beta*bytes and lets a process receive one message at a
// time, LogGP (Alexandrov et al. 1995) separates the CPU's per-message overhead o (each side)
// from the latency L, during which a process is free, and the gap g between two messages a
// process handles; G is the time per byte on a link. So k - 1 children sending at once cost
// their parent one latency and k - 1 overheads, not k - 1 latencies: the reason for radix-k
// trees. The model follows the code, step by step, per process (each with its own clock):
// TUW's construction rounds (tree::GroupOf, the fixed roots' exchange, the notice to the gather
// root) and then the data phase of tree_executor.cpp (a gather parent receives its children in
// arrival order - the oblivious tree's once it has probed them - and then sends up; a scatter
// parent serves its children from the last, serially from tree::kSerialSendMinBytes on, the
// oblivious tree's inner children their sizes first). Links are one-ported: a process's
// incoming (outgoing) bytes share one link of G per byte, and a node's messages one of their own
// (shared memory); the messages a process takes in one exchange of the construction over the
// network share its link and end together (SimGrid divides a link among its flows). Optionally
// (LogGPParams::node_links) the processes of a node also share its network link.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "carried_cubes.hpp"
#include "greedy_tree.hpp"
#include "hypercube_tree.hpp"
#include "sequenced_tree.hpp"

namespace tuw::tree {

// One level of the machine: latency and time per byte.
struct LogGPLevel {
  double latency_us = 0;   // L
  double us_per_byte = 0;  // G
  // Where not empty, a message's time on the wire is irrfit's measured one-way time for its size
  // less L + 2o (protocol switches and size-dependent bandwidth show), instead of bytes * G.
  MeasuredCurve one_way = {};
};

// TUWk_Gatherv's pieces (GatherPieceRule, below). The model's rule cuts a transfer into at most
// kMaxModelPieces: a receiver posts that many pieces of a transfer ahead (transfer.hpp) and the
// next ones only once a batch is through.
constexpr int kMaxModelPieces = 16;
struct PieceRule {
  std::int64_t piece = 0;  // 0: every transfer one message
  double extra_piece_us = 0;
  LogGPLevel level;  // the network's: its curve and L
  double overhead_us = 0;
  // The piece size of a transfer of `bytes`, 0 where it goes in one message.
  std::int64_t PieceBytes(std::int64_t bytes) const;
};

struct LogGPParams {
  double overhead_us = 0;  // o: a process's CPU time per message sent or received
  double gap_us = 0;       // g: at least this long between two sends (receives) of a process
  LogGPLevel network;      // between processes of different nodes
  LogGPLevel node;         // between processes of one node (used where ranks_per_node > 1)
  int ranks_per_node = 1;  // consecutive ranks share a node
  // Where true (irrmodel's pricing of a run on nodes; the library's choices go without), a node's
  // processes share one network link each way, as SimGrid's cluster gives each host of
  // ranks_per_node cores one SPLITDUPLEX link: the network messages the model times through the
  // links (a gather's, a scatter parent's shared sends, the construction's exchanges) also cross
  // their sender's up link and their receiver's down link, shared with the node's other flows
  // (processor sharing at Shared's time per message: small ones hold a link longer per byte). The
  // model runs the protocol again with each message's end on those links as the earliest it can
  // arrive, three runs in all (settled by then at p = 560). Simulated p = 560, b = 10
  // (link-greedy-init): gathers whose root's node pulls many small messages over its link
  // (TUWk_Gatherv_init's link-greedy tree in its first or mirrored layout) ran 1.12-1.62x the
  // price without, 1.04-1.15x with (docs/irrmodel.md).
  bool node_links = false;
  bool SharesNodeLinks() const { return node_links && ranks_per_node > 1; }
  // Messages up to this size leave at once (eager); larger ones start when the receive is
  // posted (rendezvous), as every message does in SimGrid SMPI's default (async-small-thresh 0).
  // 0: none, not even an empty one (SMPI sends those as it sends any other).
  std::int64_t eager_limit_bytes = 0;
  bool Eager(std::int64_t bytes) const {
    return eager_limit_bytes > 0 && bytes <= eager_limit_bytes;
  }
  // What irrbench measures with sync=barrier: every process starts when it leaves the barrier
  // (a dissemination barrier of empty messages, as the harness's MPI_Barrier in the
  // simulations), and a call's time is the slowest process's own elapsed time. False: all start
  // at 0, the time is the last process's end.
  bool barrier_start = false;
  // TUWk_Scatterv's small call (kRootPlanned): the library's limit (kOneMessageMaxBytes), or an
  // older build's where irrmodel prices its run (irrbench's tuwcoll_small_call_max_bytes).
  std::int64_t one_message_max_bytes = kOneMessageMaxBytes;
  // TUWk_Gatherv's carried cubes (kCarried): the library's limit, or an older build's where
  // irrmodel prices its run (irrbench's tuwcoll_carry_max_bytes; -1 before carrying).
  std::int64_t carry_max_bytes = kCarryMaxBytes;
  // TUWk_Gatherv's root group told the root directly (RootToldDirectly): the library's way, or
  // not, where irrmodel prices a run of an older build (no tuwcoll_carry_to_root record).
  bool root_told_directly = true;
  // And told only (RootToldOnly) with this CarryLimit: the library's, or -1 where irrmodel
  // prices a run before tuwcoll_carry_to_root=direct-only (the group's exchange).
  std::int64_t carry_to_root_max_bytes = kCarryToRootMaxBytes;
  // TUWk_Gatherv's pieces (kCarried's data phase, and kPlanned's: TUWk_Gatherv_init's starts;
  // TUW_Gatherv_init's go without): the library's rule (GatherPieceRule of these costs, or the
  // setting's fixed size) where irrmodel prices a run that recorded it; none here.
  PieceRule gather_pieces;
  const LogGPLevel& Between(int a, int b) const {
    return ranks_per_node > 1 && a / ranks_per_node == b / ranks_per_node ? node : network;
  }
  // A message's time on the wire at `level` (after L; the link is busy that long): bytes * G,
  // or with a measured curve everything above L + 2o.
  double Wire(const LogGPLevel& level, std::int64_t bytes) const;
  // Where true (irrmodel's pricing, and the library's choices under kEqualNodeRangesAtSizeRates
  // and kHeavyBlocksOnRadixTree; the earlier rules' without it), the messages a parent sends
  // together (Machine::ArrivalsShared: processor sharing on its link) split their measured one-way
  // time: the bytes at the curve's per-byte rate for their size, where the curve is steady there
  // (MeasuredCurve::SteadySlopeAt), share the link; the rest is the message's own latency, which no
  // other message shares. SimGrid moves a message at its share of a link times a factor of its size
  // and starts it after a latency times another: 1426-3483 bytes cost 0.51 ns/B, yet a 1600-byte
  // message only 0.35 us more than a 4-byte one (the latency factor drops at 1426), and sixteen of
  // them sharing a link took 13 us, not the 5.6 that their time above L + 2o says. Not in the
  // gathers' back-to-back chains, which merge messages with any time on the wire (there many small
  // messages would end together late).
  bool latency_by_size = false;
  struct SharedCost {
    double wire = 0, latency = 0;
  };
  SharedCost Shared(const LogGPLevel& level, std::int64_t bytes) const;
  // The least time `bytes` can take on a link of `level` in messages of any size: G per byte,
  // or the measured curve's least steady slope (a simulator's or network's fastest size can
  // move bytes faster than one large message: SimGrid's bw-factor 1.09 at 5.8-9.4 KB, 0.94 at
  // 224 KB).
  double LeastWire(const LogGPLevel& level, std::int64_t bytes) const;
};

// From the linear model's measured one-way time alpha (a ping-pong's half round trip, which
// holds two overheads: L = alpha - 2o, never below 0) and beta (G), the same o everywhere, and
// irrfit's burst time per message (gap_us): where a burst costs about a latency per message
// (at least alpha / 2), a message waits for its receive (eager limit 0) and g = o; else small
// messages (up to kEagerLimitBytes) fly ahead and g = the burst's time per message.
constexpr std::int64_t kEagerLimitBytes = 8192;
LogGPParams LogGPFromLinear(double alpha_us, double beta_us_per_byte, double alpha_local_us,
                            double beta_local_us_per_byte, int ranks_per_node, double overhead_us,
                            double burst_us);

// The trees the model evaluates (the rows of libtuwcoll).
enum class ModelTree {
  kAdaptive,  // TUW (radix 2) and TUWk: construction rounds, then the data
  // TUWk_Gatherv: the same, small cubes' data carried by the construction (carried_cubes.hpp;
  // gather only)
  kCarried,
  kPlanned,  // the adaptive tree built at init (TUW_*_init): the data only
  // TUWk_Scatterv on an intracommunicator: the adaptive tree planned by the root, each child's
  // subtree sizes sent ahead of its data and passed on at once, or in a small call with its data
  // on the tree SmallScatterShape picks (scatter only)
  kRootPlanned,
  kOblivious,  // Binomial(k): no construction, children probed (taken) in round order
  kLinear,     // every process straight to the root
};

// The time (microseconds) of a gather or scatter of block_bytes with the given root and radix
// (ignored for kLinear): the last process's end, or with barrier_start the slowest process's
// elapsed time after the barrier.
double GatherTime(ModelTree tree, const std::vector<std::int64_t>& block_bytes, int root, int radix,
                  const LogGPParams& params);
// kRootPlanned's small call runs on small_call_step's tree: kModelsStep the one
// SmallScatterShape picks (the library's own choice), 0 the radix tree, s > 0 the greedy tree of
// shape code s (greedy_tree.hpp: 1 ... 64 one level's step, as under TUWCOLL_SCATTER_STEP=s; a
// two-level code as under TUWCOLL_SCATTER_STEP=S/N).
constexpr int kModelsStep = -1;
double ScatterTime(ModelTree tree, const std::vector<std::int64_t>& block_bytes, int root,
                   int radix, const LogGPParams& params, int small_call_step = kModelsStep);

// The data phase alone of a tree built before the call (irrmodel's binary and optimal trees of
// the linear model, as the executors run them: sizes known everywhere), with the same clocks.
// in_pieces: its edges in params.gather_pieces' pieces, as TUWk_Gatherv_init's starts run them.
double PlannedGatherTime(const Tree& tree, const LogGPParams& params, bool in_pieces = false);
double PlannedScatterTime(const Tree& tree, const LogGPParams& params);

// The time TUW's construction alone takes (the last process to know its place).
double ConstructionTime(int p, const std::vector<std::int64_t>& block_bytes, int root, int radix,
                        const LogGPParams& params);

// A root's link run backwards from a deadline, the schedule of LogPLowerBound and of
// BuildLinkGreedyTree: the root takes its last message at the deadline and each earlier one a
// step before; a message's bytes cross the link before the root's o, one message at a time.
// most(wire_end, wanted) is the message whose wire ends by wire_end, at most `wanted`: its amount
// (<= 0: none, nor any earlier one) and its time on the link; take(amount, wire_end) is told each
// message, latest first. Stops once `need` is carried; returns what was.
struct LinkMessage {
  double amount = 0;
  double link_us = 0;
};
template <typename Most, typename Take>
double RunLinkBackwards(double deadline, double step, double overhead, double need, Most most,
                        Take take) {
  double carried = 0;
  double link_free = deadline;
  for (int j = 0; carried < need; ++j) {
    const double wire_end = std::min(link_free, deadline - j * step - overhead);
    const LinkMessage message = most(wire_end, need - carried);
    if (message.amount <= 0) break;
    take(message.amount, wire_end);
    carried += message.amount;
    link_free = wire_end - message.link_us;
  }
  return carried;
}

// Lower bounds of any gather or scatter of these blocks under LogP: the optimal single-item
// broadcast time of the root and the processes with a non-empty block (Karp et al. 1993: every
// informed process sends a new message every max(g, o); a gather that combines messages is a
// broadcast run backwards), at the given latency, and the root's links, which must carry every
// other block (the blocks from other nodes at LeastWire's rate, and the same inside its node at
// the node's costs) in messages that the root takes one every max(g, o), each no larger than its
// sender can have gathered by the time it sends: the least deadline by which the most each
// message can carry, latest first, adds up to the link's bytes (docs/irrmodel.md). A level's L is
// no more than its measured curve allows (the line at LeastWire's rate below every point, less
// 2o). `latency` picks the level: the network's L is the bound the one-level LogP model gives; the
// node's (cheaper) L is a bound that no two-level schedule beats.
double LogPLowerBound(const std::vector<std::int64_t>& block_bytes, int root,
                      const LogGPParams& params, const LogGPLevel& latency);

// The costs a radix is chosen with (libtuwcoll and irrmodel alike): one level, the network's
// (alpha, beta: a fit's ping-pong line; L = alpha - 2o), o and g from the fit where irrfit
// measured them. Without a fit, these: irrfit's on the calibrated simulated cluster of the 2017
// paper's p = 560 runs (results/simulated/paper-560/default/fit.txt), an InfiniBand QDR class
// machine, with harness/platforms/README.md's o = 0.3 us per message and g = o.
struct RadixCosts {
  double alpha_us = 2.64;
  double beta_us_per_byte = 3.7e-4;
  double overhead_us = 0.3;
  double gap_us = 0.3;
  // A node's own alpha and beta, where the fit measured them (alpha_local_us).
  bool has_local = false;
  double alpha_local_us = 0;
  double beta_local_us_per_byte = 0;
  // One level (every hop the network's): the radix's choice.
  LogGPParams Params() const { return Params(1); }
  // irrfit's measured one-way times (the fit's point lines; empty where it has fewer than two):
  // across nodes and, where measured, inside a node.
  MeasuredCurve one_way, one_way_local;
  // Two levels where ranks_per_node > 1 and a node's costs are known, else one: TUWk_Scatterv's
  // small-call tree before equal node ranges were chosen by size (SmallCallRule::kGreedy; irrmodel
  // prices such a run with it).
  LogGPParams Params(int ranks_per_node) const {
    const bool two = ranks_per_node > 1 && has_local;
    return LogGPFromLinear(alpha_us, beta_us_per_byte, two ? alpha_local_us : alpha_us,
                           two ? beta_local_us_per_byte : beta_us_per_byte,
                           two ? ranks_per_node : 1, overhead_us, gap_us);
  }
  // Params(ranks_per_node) with messages at the measured curves where the fit has them: the
  // small call's tree is chosen for the sizes it sends (ModelScatterStep), and a simulated or
  // real network's cost per byte changes between the sizes a line fits (SimGrid's bw-factor
  // halves it from 9376 bytes on: results/simulated/scatter-6400-floor).
  LogGPParams SmallCallParams(int ranks_per_node) const;
};

// The tree of a small TUWk_Scatterv call (OneMessageCall): 0 = the adaptive radix-k tree, s >= 1 =
// the LogP-greedy tree of step s (greedy_tree.hpp), whichever the model gives the smaller time
// (the one-message protocol, root 0) for p blocks of block_bytes each. The step is the one with
// the smallest modelled time for 4-byte blocks (the latency-bound case, as for the radix), of
// 1 ... 16 (the hop over the send step is about 9 on the QDR-class fit): steps chosen per size
// measured worse, not better (radix-560-scatter's platform, b = 10: the model's 11 30.6 us, its
// 9 28.1, the radix tree 28.1; docs/irrmodel.md). ShapeBlockBytes is the block size
// a call is judged by: its mean rounded down (0 for none; as the rule below says), so that a
// process computes the choice once per p and size class, and the rounded call is small when the
// call is. SmallCallRule::kEqualNodeRangesBySize (libtuwcoll's rule before
// kEqualNodeRangesAtSizeRates, below): where params has two levels and the call spans at least
// three nodes, that choice is then held, at the call's own block size, against the trees of equal
// node ranges (GreedyShape::equal_node_ranges; the node step the two-level greedy tree's, K the
// best of 2 ... 64 at this size), and the fastest is taken: the bandwidth-bound small calls want
// few messages of like size (scatter-6400-floor: p = 6400, b = 10, e32/4 95.5 us against 10/4's
// 158.7). kGreedy: the rule before (irrmodel prices the runs recorded with it, irrbench's "S
// model"). The rule's size class (ShapeBlockBytes) is the mean block rounded down to three
// significant bits (32, 40, 48, 56, 64, 80, ...), kGreedy's to a power of two: the class's error
// shifts the ranges' message sizes by as much, and SimGrid's fastest sizes span a factor of 1.6
// (5776-9376 bytes). A p = 560, b = 100 call (400-byte blocks) priced as 256 took 17 ranges
// (messages of 8 KB there, 12.8 KB in the call: 128.7 us), priced as 384 it takes 34 (6.4 KB: 74.0
// us; TUW_Scatterv 144.5); Spikes there (mean 403 bytes, 378 of the old rounding) priced as 256
// took 17 (122.99 us), as 320 34 (96.94). kEqualNodeRangesByCoarseSize: the same rule on two
// significant bits (32, 48, 64, 96, ...), the builds from 0a65247 (irrbench's "S model-by-size";
// the rule's own record "S model-by-size3"). kEqualNodeRangesAtSizeRates (libtuwcoll's rule on
// 2026-11-28, "S model-by-size3-rates"): kEqualNodeRangesBySize with a parent's shared sends priced
// at their sizes' per-byte rates (LogGPParams::latency_by_size): simulated p = 6400, b = 1 its
// trees took 32.17 (Same, Alternating), 40.59, 38.83, 38.43 us (Random, Spikes, Decreasing) against
// kEqualNodeRangesBySize's 33.21, 42.99, 44.96, 43.45; at p = 560, b = 10 within -4.2 ... +3.5 % of
// it (results/simulated/equal-node-ranges). kHeavyBlocksOnRadixTree (libtuwcoll's rule now,
// irrbench's record "S model-heavy-radix"): kEqualNodeRangesAtSizeRates, but a call with a heavy
// block (SmallCallOnRadixTree) takes the radix tree.
enum class SmallCallRule {
  kGreedy,
  kEqualNodeRangesByCoarseSize,
  kEqualNodeRangesBySize,
  kEqualNodeRangesAtSizeRates,
  kHeavyBlocksOnRadixTree
};
constexpr SmallCallRule kLibrarySmallCallRule = SmallCallRule::kHeavyBlocksOnRadixTree;
// The significant bits of a rule's size class (1, 2, 3, 3, 3).
int SizeClassBits(SmallCallRule rule);
// The rule of a run's record (irrbench's tuwcoll_scatter_step, formats::ParseScatterStepRecord:
// 0 or 1 kGreedy, 2 the coarse rule, 3 kEqualNodeRangesBySize, 4 kEqualNodeRangesAtSizeRates, 5
// or more the rule now).
SmallCallRule SmallCallRuleOfRecord(int record);
// A small call's block above this is heavy: the shapes of a size class (greedy steps, equal node
// ranges) are chosen for blocks of about the class's size and pass every block through their
// levels, while the adaptive radix tree puts a heavy block's owner next to the root. The measure
// is kByteCutMinPartBytes's, bytes that cost about a message's latency. Simulated at p = 560
// (paper-560.xml, Two blocks, the class's shape against the radix tree): blocks of 4000 bytes
// 16.60 against 18.31 us, of 40 000 bytes 88.10 against 52.65 (TUW_Scatterv 67.88); at p = 6400
// (40 000 bytes) 112.92 against 68.76 (73.71). The model puts the change between 4 and 6 KiB at
// p = 560, between 12 and 16 KiB at p = 6400 (the radix tree there still models faster than
// TUW_Scatterv from 4 KiB on; results/simulated/radix-560-current).
constexpr std::int64_t kHeavyBlockBytes = kByteCutMinPartBytes;
// Whether the small call of these blocks takes the radix tree under `rule`: a block above
// kHeavyBlockBytes under kHeavyBlocksOnRadixTree (never under the rules before).
bool SmallCallOnRadixTree(const std::vector<std::int64_t>& block_bytes,
                          SmallCallRule rule = kLibrarySmallCallRule);
// The least modelled gain for which the rule leaves the greedy choice for equal ranges: the
// model's error on the latency-bound trees (measured / LogGP 1.20-1.54) exceeds the margins there.
// Simulated p = 560, b = 1, Random (mean 6 bytes): b8/4 modelled 1.5 % faster than step 5 and
// measured 11 % slower (16.95 against 15.21 us); the gains taken elsewhere model 16 % (p = 6400,
// b = 1) to 44 % (p = 560, b = 100).
constexpr double kEqualRangesMinGain = 0.10;
std::int64_t ShapeBlockBytes(const std::vector<std::int64_t>& block_bytes,
                             SmallCallRule rule = kLibrarySmallCallRule);
// From `root` (0 by default): where params has two levels the root matters, since the greedy
// tree's top ranges fall on other nodes from different roots. Where the call spans at least
// kTwoLevelMinNodes nodes (TwoLevelSmallScatter), the tree is the two-level greedy tree
// (greedy_tree.hpp): its node step the best of 1 ... 8 at the network's hop in send steps, then
// its network step the best of 1 ... 16 at that node step; a shape code then, not a step, for
// every small call (not held against the radix tree, which the model, without the shared link,
// prices faster at p = 6400, b = 10: the simulation measured it 11 % slower).
int SmallScatterShape(int p, std::int64_t block_bytes, int radix, const LogGPParams& costs,
                      int root = 0, SmallCallRule rule = kLibrarySmallCallRule);
// Two levels of the small call's greedy tree from this many nodes on. The model gives each
// process its own link and cannot rank one level against two (at p = 6400 it prices them within
// 2 %); the simulation, where a node's 16 ranks share one link, measured them (b = 1, Same and
// Random, results/simulated/radix-6400-two-level): one level 12-14 % faster on 35 nodes (p = 560,
// both platforms), two levels 4-5 % faster on 50, -5 ... +1.5 % on 70, 1-5 % on 100, 6-9 % on
// 200 and 6-20 % on 400 (all six distributions; b = 10: 11 % against the radix tree the model
// chose there).
constexpr int kTwoLevelMinNodes = 48;
bool TwoLevelSmallScatter(int p, const LogGPParams& params);

// The radix of TUWk (kAdaptive; kCarried: TUWk_Gatherv's own, its construction carrying small
// cubes, which favours more cubes a round) or Binomialk (kOblivious) for p processes: the one with
// the smallest modelled gather time for one 4-byte block per process (the latency-bound case the
// radix is for; in the bandwidth-bound case every radix moves the same bytes through the
// root's link). Candidates: for each number of rounds ceil(log_k p), the smallest radix k that
// needs no more (a larger one only adds messages to every round), up to kMaxRadix; ties go to
// the smaller radix. About 10 trees at p = 6400. kRootPlanned: TUWk's (kAdaptive's).
int ModelRadix(ModelTree tree, int p, const LogGPParams& params);
// The radixes ModelRadix tries for p processes, ascending (2 first), each once: at p = 6400
// 2, 3, 4, 5, 6, 9, 19 (3 is the least radix for 8 to 12 rounds; it was priced five times).
std::vector<int> RadixCandidates(int p);

// The radix of a TUWk_Scatterv call too large for one message a child (OneMessageCall false:
// the sizes go a level ahead of the data, which moves along the radix tree): the candidate whose
// root-planned scatter of p blocks of block_bytes each (the call's size class, ShapeBlockBytes)
// models fastest, from `root`. The radix chosen at 4-byte blocks (ModelRadix) is the
// latency-bound case's; in the bandwidth-bound one every radix moves the same bytes through the
// root's link, but the tree's shape still decides how much of it waits: simulated p = 6400
// (radix-6400-current-large/scatter), b = 100 and 1000, ModelRadix's 5 ran 1.2 % to 23 % slower
// than TUW_Scatterv, radix 4 within 1.9 %; the model, within 1 % of every cell, prices radix 2
// fastest there.
int LargeScatterRadix(int p, std::int64_t block_bytes, const LogGPParams& costs, int root = 0);

// The radix of a TUWk_Gatherv_init / TUWk_Scatterv_init request, chosen at its init by its root,
// which knows every block: the candidate (RadixCandidates) whose start (kPlanned: the data phase on
// TUW's tree at that radix; a gather's edges in params.gather_pieces) models fastest on these
// blocks from `root`. ModelRadix's 4-byte radix is the latency-bound case's; on even blocks of
// b >= 100 it made starts of TUWk_Scatterv_init up to 13 % slower than TUW_Scatterv_init's, where
// on Decreasing a larger radix is 18-27 % faster (results/simulated/radix-560-persistent-scatter-
// large): the best radix depends on the counts.
int PlannedRadix(bool scatter, const std::vector<std::int64_t>& block_bytes, int root,
                 const LogGPParams& params);

// TUWk_Gatherv's pieces (issue 37): a transfer goes in pieces of `piece` bytes (the largest
// message of the network's measured curve's cheapest stretch, LeastSteadySlopeEnd) where their
// time on the wire (LogGPParams::Wire, back to back on one link, as the model runs them) plus,
// per extra piece, a send (max(o, g)) and a receive (o) is less than the one message's, and they
// are at most kMaxModelPieces. SimGrid's calibrated network moves messages of 5.8-9.4 KB at 1.09
// of a link's bandwidth, large ones at 0.94 (smpi/bw-factor): at p = 6400, b = 10 a radix-6
// gather's data phase with the root's children in pieces of 8640 bytes took 91.9 us, in one
// message each 121.8 (results/simulated/gather-6400-pieces). No curve (a line's one rate): never.
PieceRule GatherPieceRule(const LogGPParams& params);
// Pieces of `piece` bytes for every transfer above that size (TUWCOLL_GATHER_PIECES=piece).
PieceRule FixedPieceRule(std::int64_t piece);

}  // namespace tuw::tree
