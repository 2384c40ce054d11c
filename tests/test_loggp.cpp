// The LogGP-style model of the trees (algorithms/tree/loggp.hpp), checked against timelines
// worked out by hand from the protocol: L = 10, o = 1, G = 0, one level; messages eager (they
// leave when sent) unless a test says otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <thread>
#include <utility>

#include "greedy_tree.hpp"
#include "link_greedy_tree.hpp"
#include "loggp.hpp"
#include "node_scatter_tree.hpp"

namespace tuw::tree {
namespace {

LogGPParams Params(double latency, double overhead, double gap) {
  LogGPParams params;
  params.overhead_us = overhead;
  params.gap_us = gap;
  params.network = {latency, 0};
  params.node = params.network;
  params.eager_limit_bytes = 1 << 30;
  return params;
}

// Linear, p = 3, root 0: ranks 1 and 2 send at 0 (o until 1), both messages there at 11; the
// root takes them one after the other: 11-12, 12-13. With g = 5 the second waits until 16.
TEST(LogGP, LinearGatherByHand) {
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {4, 4, 4}, 0, 2, Params(10, 1, 0)), 13);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {4, 4, 4}, 0, 2, Params(10, 1, 5)), 17);
}

// Messages that keep the root's link busy back to back share it and end together, all of them,
// as SimGrid's flows do. Linear, p = 4, root 0, G = 1 per byte, 4-byte blocks (4 on the wire):
// ranks 1-3 send at 0-1; one after the other on the link they would be there at 15, 19, 23; a
// chain, so all at 23, taken 23-24, 24-25, 25-26. (One message after the other: 26 too, but the
// root would take the first at 15-16; sharing only by pairs gave 25.)
TEST(LogGP, BackToBackMessagesEndTogether) {
  LogGPParams params = Params(10, 1, 0);
  params.network.us_per_byte = 1;
  params.node = params.network;
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {4, 4, 4, 4}, 0, 2, params), 26);
  // Two children: 15 and 19, both at 19, taken 19-20, 20-21.
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {4, 4, 4}, 0, 2, params), 21);
}

// A node's messages go through shared memory, on links of their own: they neither queue behind
// the network's nor break its chains. Linear, p = 5, two ranks a node (nodes {0, 1}, {2, 3},
// {4}), root 2; the network L = 10, G = 1 (4 on the wire), the node's L = 1, G = 0; o = g = 1.
// Everyone sends at 0-1. Rank 3's message is there at 2, taken 2-3; 0, 1, 4 on the network link
// at 15, 19, 23, a chain, all at 23: taken 23-24, 24-25, 25-26. On one link with the network's,
// 3's message queued to 19 and, on the wire for no time, broke the chain: 0's and 1's taken at
// 19-20, 20-21, 25 in all.
TEST(LogGP, NodeMessagesHaveTheirOwnLinks) {
  LogGPParams params = Params(10, 1, 1);
  params.network.us_per_byte = 1;
  params.node = {1, 0};
  params.ranks_per_node = 2;
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {4, 4, 4, 4, 4}, 2, 2, params), 26);
}

// With node_links a node's processes share its network link each way (SimGrid's cluster). p = 4,
// two ranks a node ({0, 1}, {2, 3}), root 0; rank 1 gathers rank 2 (range [1, 2]), the root takes
// 1 and 3. The network L = 10, G = 1 (4 on the wire), the node's L = 1, G = 0; o = 1, g = 0.
// Ranks 2 and 3 send at 0-1. Without node links each message has its receiver's link to itself:
// both there at 15; rank 1 takes its at 15-16, sends 8 bytes at 16-17, there at 18; the root
// takes 3's at 15-16, then 1's at 18-19. With them both cross node {2, 3}'s up link and node
// {0, 1}'s down link from 11 on (after L), sharing them: both through at 19. Rank 1 takes its at
// 19-20, sends at 20-21, there at 22; the root takes 3's at 19-20, 1's at 22-23.
// The same tree as a scatter (a parent serves its children from the last): the root sends to 1 at
// 0-1 (through the node: there at 2) and to 3 at 1-2 (on its link 2-6, there at 16); rank 1 takes
// its at 2-3 and sends to 2 at 3-4 (4-8, there at 18); 3 takes 16-17, 2 18-19. With node links
// 0 -> 3 enters the links at 12, 1 -> 2 at 14: alone 12-14, then sharing them, 0 -> 3 through at
// 18, 1 -> 2 at 20; 3 takes its at 18-19, 2 at 20-21.
TEST(LogGP, NodeLinksAreSharedByTheNodesProcesses) {
  SequencedTree sequence;
  sequence.root = 0;
  sequence.steps = {{SequencedTree::kCopy, 3, 1},
                    {SequencedTree::kCopy, 2},
                    {SequencedTree::kCopy},
                    {SequencedTree::kCopy}};
  const Tree tree = ToNodeViews(sequence, {4, 4, 4, 4});
  LogGPParams params = Params(10, 1, 0);
  params.network.us_per_byte = 1;
  params.node = {1, 0};
  params.ranks_per_node = 2;
  EXPECT_DOUBLE_EQ(PlannedGatherTime(tree, params), 19);
  EXPECT_DOUBLE_EQ(PlannedScatterTime(tree, params), 19);
  params.node_links = true;
  EXPECT_DOUBLE_EQ(PlannedGatherTime(tree, params), 23);
  EXPECT_DOUBLE_EQ(PlannedScatterTime(tree, params), 21);
  // One rank a node: no two processes share a link, so node links change nothing.
  params.ranks_per_node = 1;
  params.node = params.network;
  const double one_level = PlannedGatherTime(tree, params);
  params.node_links = false;
  EXPECT_DOUBLE_EQ(one_level, PlannedGatherTime(tree, params));
}

// Where a message starts only when its receive is posted (SMPI's default). TUW, radix 2, the
// timeline of AdaptiveGatherByHand below: rank 2's data (sent at 13) waits for rank 3 to post
// its receive after its construction (24): there at 34, taken 34-35; rank 3 sends at 35, rank
// 1 at 25 (sent 26), both wait for the root's receives at 36: there at 46, taken 46-47, 47-48.
// Eager, the same tree takes 38. Posted at once (a linear root's Irecvs), nothing changes.
TEST(LogGP, MatchedMessagesWaitForTheirReceive) {
  LogGPParams params = Params(10, 1, 0);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kAdaptive, {4, 4, 4, 4}, 0, 2, params), 38);
  params.eager_limit_bytes = 0;
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kAdaptive, {4, 4, 4, 4}, 0, 2, params), 48);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {4, 4, 4}, 0, 2, params), 13);
  // irrfit's burst says which: a latency per message of a burst means matched.
  EXPECT_EQ(LogGPFromLinear(12, 0, 12, 0, 1, 1, 11).eager_limit_bytes, 0);
  EXPECT_EQ(LogGPFromLinear(12, 0, 12, 0, 1, 1, 11).gap_us, 1);
  EXPECT_EQ(LogGPFromLinear(12, 0, 12, 0, 1, 1, 2).eager_limit_bytes, kEagerLimitBytes);
  EXPECT_EQ(LogGPFromLinear(12, 0, 12, 0, 1, 1, 2).gap_us, 2);
  EXPECT_EQ(LogGPFromLinear(12, 0, 12, 0, 1, 1, 2).network.latency_us, 10);
}

// The oblivious gather (Binomial_Gatherv), p = 8, root 0, radix 2: 0 <- {1, 2, 4}, 2 <- 3,
// 4 <- {5, 6}, 6 <- 7; every rank starts at 0, messages wait for their receive. The leaves send
// at 0-1. Ranks 2 and 6 probe their one child (there at 1), post, the message arrives at 11,
// taken 11-12; they send up at 12-13. Rank 4, an inner node, probes 5 (1) and 6 (13) before it
// posts either receive: both leave at 13, there at 23, taken 23-24, 24-25; it sends up at 25-26.
// The root posts each receive after its own probe: 1's at 1 (there 11), 2's at 13 (23), 4's at
// 26 (36), taken 11-12, 23-24, 36-37: 37. Eager, 5's message is there at 11 and rank 4 takes it
// once it has probed (13-14), 6's at 23-24; the root takes 4's at 35-36: 36. Empty blocks (every
// oblivious edge still sends a message) go the same way: an empty message waits for its receive
// as any other where nothing is eager (SMPI's, measured: 2.28 us after the receive is posted,
// as 4 bytes); with a limit of 8 they are eager.
TEST(LogGP, ObliviousGatherPostsAfterItsProbes) {
  LogGPParams params = Params(10, 1, 0);
  const std::vector<std::int64_t> same(8, 4), empty(8, 0);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kOblivious, same, 0, 2, params), 36);
  params.eager_limit_bytes = 8;
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kOblivious, empty, 0, 2, params), 36);
  params.eager_limit_bytes = 0;
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kOblivious, same, 0, 2, params), 37);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kOblivious, empty, 0, 2, params), 37);
  EXPECT_FALSE(params.Eager(0));
  params.eager_limit_bytes = 8;
  EXPECT_TRUE(params.Eager(0));
  EXPECT_TRUE(params.Eager(8));
  EXPECT_FALSE(params.Eager(9));
}

// The oblivious scatter (Binomialk_Scatterv), p = 9, root 0, radix 3: 0 -> {1, 2, 3, 6},
// 3 -> {4, 5}, 6 -> {7, 8}, served from the last; messages wait for their receive. The root
// sends 6 its sizes at 0-1 (there 11, taken 11-12), its data at 1-2, 3 its sizes at 2-3 (there
// 13, taken 13-14), its data at 3-4, then 2's and 1's data at 4-5, 5-6. A small message goes out
// aside, and the data share the link, each leaving when its receive is posted: 6's at 12
// (there 22, taken 22-23), 3's at 14 (24, taken 24-25), 2's and 1's at 5 and 6. Rank 3 sends
// 5's and 4's at 25-26, 26-27, there 36 and 37, taken by 38: 38. (With each message holding
// the root's link until its receive, 3's sizes left only at 12 and its data at 23: 47.)
// Eager: 6's data is there at 12, taken 12-13; 3's at 14, taken 14-15, sends 15-16, 16-17,
// taken 26-27, 27-28: 28.
TEST(LogGP, ObliviousScatterSendsSizesAside) {
  LogGPParams params = Params(10, 1, 0);
  const std::vector<std::int64_t> same(9, 4);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kOblivious, same, 0, 3, params), 28);
  params.eager_limit_bytes = 0;
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kOblivious, same, 0, 3, params), 38);
}

// The sizes' bytes are on the parent's link. The same tree, messages matched, G = 1 a byte:
// 4-byte blocks, so each inner child gets 24 bytes of sizes and 12 of data. The root sends 6's
// sizes at 0-1, its data at 1-2, 3's sizes at 2-3, its data at 3-4, 2's and 1's data at 4-5 and
// 5-6. A child takes its sizes as if they were alone on the link (6's there at 35, taken 35-36;
// 3's at 37, 37-38) and then posts its data's receive, but their bytes share the root's link
// with the others: from 1, 3, 5, 6, 36 and 38 (6's sizes, 3's sizes, 2's, 1's data, 6's, 3's)
// they are through at 73.33, 79.33, 20.67, 21.67, 80.33 and 81. A child's link takes its sizes
// before its data: 3's sizes there at 89.33, its data at 89.33 + 12 = 101.33, taken 101.33-102.33;
// rank 3 sends 5's and 4's at 102.33-103.33, 103.33-104.33 (through at 110.33, 111.33), taken by
// 122.33. With the sizes aside, off the link (the model until 2026-11-29): 91.
TEST(LogGP, ObliviousScatterSizesShareTheLink) {
  LogGPParams params = Params(10, 1, 0);
  params.network.us_per_byte = 1;
  params.node = params.network;
  params.eager_limit_bytes = 0;
  EXPECT_NEAR(ScatterTime(ModelTree::kOblivious, std::vector<std::int64_t>(9, 4), 0, 3, params),
              122 + 1.0 / 3, 1e-9);
}

// A parent's sends share its link by the bytes' per-byte rate at their size; the rest of a
// message's measured time is its own latency (latency_by_size). Linear scatter, p = 3, root 0,
// 400-byte blocks, o = 1, g = 0, eager; the curve: 0.01 us a byte, a drop of 1.8 between 200
// and 300 bytes (a latency factor's step), so 400 bytes take 14.2 us: on the wire 4, latency
// 14.2 - 2 - 4 = 8.2. The root sends 2's at 0-1 and 1's at 1-2 (from the last): 2's alone on
// the link 1-2 (3 left), then both at half rate: 2's through at 8, 1's (1 left) at 9. There at
// 16.2 and 17.2, taken 16.2-17.2 and 17.2-18.2: 18.2. Without the split (everything above
// L + 2o = 12 on the wire, 2.2): 2's through at 4.4, 1's at 5.4, there at 14.4 and 15.4: 16.4.
TEST(LogGP, SharedSendsMoveTheirBytesAtTheirSizesRate) {
  LogGPParams params = Params(10, 1, 0);
  params.network.one_way =
      MeasuredCurve({1, 100, 200, 300, 400, 500}, {12, 12.99, 13.99, 13.2, 14.2, 15.2});
  params.node = params.network;
  const std::vector<std::int64_t> blocks(3, 400);
  EXPECT_NEAR(ScatterTime(ModelTree::kLinear, blocks, 0, 2, params), 16.4, 1e-9);
  params.latency_by_size = true;
  EXPECT_NEAR(params.Shared(params.network, 400).wire, 4, 1e-9);
  EXPECT_NEAR(params.Shared(params.network, 400).latency, 8.2, 1e-9);
  EXPECT_NEAR(params.Shared(params.network, 0).latency, 12 - 2, 1e-9);  // as the smallest
  EXPECT_NEAR(ScatterTime(ModelTree::kLinear, blocks, 0, 2, params), 18.2, 1e-9);
}

// p = 4, root 0, Same, 4 bytes.
// Radix 4: one round. Every rank (each its cube's fixed and gather root) sends its summary to the
// three others at 0, 1, 2 (arriving at 11, 12, 13 in that order of destinations) and takes three:
// rank 0 gets all at 11 -> done 14; rank 1: 11, 12, 12 -> 14; rank 2: 12, 12, 13 -> 15; rank 3:
// 13, 13, 13 -> 16. Data: ranks 1, 2, 3 send at 14, 15, 16 (arriving 25, 26, 27); the root
// takes them at 25-26, 26-27, 27-28.
// Radix 2: round 0 pairs (0,1), (2,3) exchange: at 11-12 everybody knows; 0 wins (root), 3 wins
// (full tie: the right). Round 1: fixed roots 1 and 3 exchange at 12 -> 23-24; 1 tells the gather
// root 0 (send 24-25, there 35, taken 35-36). Data: 2 sends to 3 at 12 (there 23; 3 takes it
// at 24-25), 1 sends at 25 and 3 at 25 (both at 0 at 36): 36-37, 37-38.
TEST(LogGP, AdaptiveGatherByHand) {
  const LogGPParams params = Params(10, 1, 0);
  EXPECT_DOUBLE_EQ(ConstructionTime(4, {4, 4, 4, 4}, 0, 4, params), 16);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kAdaptive, {4, 4, 4, 4}, 0, 4, params), 28);
  EXPECT_DOUBLE_EQ(ConstructionTime(4, {4, 4, 4, 4}, 0, 2, params), 36);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kAdaptive, {4, 4, 4, 4}, 0, 2, params), 38);
  // So the model prefers a radix above 2 here.
  EXPECT_GT(ModelRadix(ModelTree::kAdaptive, 4, params), 2);
}

// TUWk_Scatterv's tree planned by its root. p = 4, root 0, radix 2: 0 <- {1 (round 0),
// 3 (round 1, ranks 2-3)}, 3 <- 2; the root serves 3 first.
// The planned tree's data phase: the root sends 3's at 0-1 (there 11, taken 11-12), 3 sends 2's
// at 12-13 (there 23, taken 23-24), the root sends 1's at 1-2 (there 12, taken 12-13): 24,
// whether a message leaves at once or waits for its receive (posted at 0 by the child).
// A small call (kOneMessageMaxBytes) sends each child its sizes and data in one message on the
// tree SmallScatterShape picks: with L = 10 against o = 1 the greedy tree of step 3 (and any
// larger) is the star, which beats both the radix-2 tree (24) and the greedy step 2 (0 -> {1, 2},
// 0 -> 3, 1 -> 2: 24 too): 1's, 2's, 3's at 0-1, 1-2, 2-3, there 11, 12, 13, taken by 14.
// Blocks of 200000 bytes (800 KB: sizes a level ahead, then the data; every message serial,
// the root waiting for each before the next; eager): the root sends 3 its sizes (0-1, there 11,
// taken 11-12); 3 passes 2 its sizes at once (12-13, there 23, taken 23-24); the root's data to
// 3 (1-2, there 12, taken 13-14: 3's CPU was busy until 13); 3's data to 2 (14-15, there 25,
// taken 25-26); after 3's data is there (12) the root sends 1 its sizes (12-13, taken 23-24) and
// data (13-14, there 24, taken 24-25): 26.
TEST(LogGP, RootPlannedScatterByHand) {
  LogGPParams params = Params(10, 1, 0);
  const std::vector<std::int64_t> same = {4, 4, 4, 4};
  const std::vector<std::int64_t> large(4, 200000);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kPlanned, same, 0, 2, params), 24);
  EXPECT_EQ(SmallScatterShape(4, 4, 2, params), 3);
  EXPECT_DOUBLE_EQ(PlannedScatterTime(BuildGreedyTree(same, 0, 2), params), 24);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, same, 0, 2, params), 14);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, large, 0, 2, params), 26);
  // TUWCOLL_SCATTER_STEP's trees for the small call: 0 the radix-2 tree (the planned tree's 24),
  // 2 the greedy tree of step 2 (24, above), 3 the star (14); the large call keeps the radix tree.
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, same, 0, 2, params, 0), 24);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, same, 0, 2, params, 2), 24);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, same, 0, 2, params, 3), 14);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, large, 0, 2, params, 3), 26);
  EXPECT_THROW(ScatterTime(ModelTree::kRootPlanned, same, 0, 2, params, 65), std::invalid_argument);
  params.eager_limit_bytes = 0;
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kPlanned, same, 0, 2, params), 24);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, same, 0, 2, params), 14);
  EXPECT_THROW(GatherTime(ModelTree::kRootPlanned, same, 0, 2, params), std::invalid_argument);
  // A call is judged by its mean block rounded down to three significant bits (the coarse rule
  // to two, the greedy rule to a power of two); a call too large for one message keeps the radix
  // tree. By hand: 403 = 0b110010011 -> 0b110000000 = 384, 0b100000000 = 256 of one bit.
  EXPECT_EQ(ShapeBlockBytes({1, 2, 3, 4}), 2);
  EXPECT_EQ(ShapeBlockBytes({5, 5, 6}), 5);
  EXPECT_EQ(ShapeBlockBytes({5, 5, 6}, SmallCallRule::kEqualNodeRangesByCoarseSize), 4);
  EXPECT_EQ(ShapeBlockBytes({0, 0}), 0);
  EXPECT_EQ(ShapeBlockBytes({400, 406}), 384);
  EXPECT_EQ(ShapeBlockBytes({400, 406}, SmallCallRule::kEqualNodeRangesByCoarseSize), 384);
  EXPECT_EQ(ShapeBlockBytes({400, 406}, SmallCallRule::kGreedy), 256);
  EXPECT_EQ(ShapeBlockBytes({378, 378}), 320);  // 0b101111010
  EXPECT_EQ(ShapeBlockBytes({378, 378}, SmallCallRule::kEqualNodeRangesByCoarseSize), 256);
  EXPECT_EQ(ShapeBlockBytes({40, 40}), 40);  // 0b101000
  EXPECT_EQ(ShapeBlockBytes({40, 40}, SmallCallRule::kEqualNodeRangesByCoarseSize), 32);
  EXPECT_EQ(ShapeBlockBytes({47, 47}), 40);  // 0b101111 -> 0b101000
  EXPECT_EQ(ShapeBlockBytes({48, 50}), 48);
  EXPECT_EQ(ShapeBlockBytes({3, 3}), 3);
  EXPECT_EQ(ShapeBlockBytes({3, 3}, SmallCallRule::kGreedy), 2);
  EXPECT_EQ(ShapeBlockBytes({7, 7}), 7);
  EXPECT_EQ(ShapeBlockBytes({7, 7}, SmallCallRule::kEqualNodeRangesByCoarseSize), 6);
  EXPECT_EQ(ShapeBlockBytes({1, 1}), 1);
  EXPECT_EQ(SmallScatterShape(4, 1 << 20, 2, params), 0);
  EXPECT_EQ(ModelRadix(ModelTree::kRootPlanned, 560, RadixCosts{}.Params()),
            ModelRadix(ModelTree::kAdaptive, 560, RadixCosts{}.Params()));
}

// The large call at radix 4 (the star; the same costs, no cost per byte): the root serves each
// child in turn, its sizes then its data, and waits for data of kSerialSendMinBytes or more to
// be matched before the next: a child's sizes at t-(t+1) (there t+11, taken t+11-t+12, when it
// posts its data receive), its data at t+1-t+2 (there t+12, taken t+12-t+13); the next child at
// t = 12, 24: 37, against the radix-2 tree's 26 (above). Blocks of 4 bytes are not waited for:
// sizes and data of the three children at 0-1, 1-2, ..., 5-6; the last's sizes there at 15,
// taken 15-16, its data taken 16-17: 17, against radix 2's 26 (3 takes its data at 13-14, its
// CPU busy passing 2 its sizes at 12-13; 2's data at 14-15, there 25, taken 25-26). So
// LargeScatterRadix takes 2 for the 200 000-byte class and 4 for the 4-byte one (priced as a large
// call, which such blocks are not), as ModelRadix does for the construction (AdaptiveGatherByHand).
TEST(LogGP, LargeScatterRadixByHand) {
  const LogGPParams params = Params(10, 1, 0);
  const std::vector<std::int64_t> large(4, 200000);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, large, 0, 4, params), 37);
  EXPECT_EQ(LargeScatterRadix(4, 200000, params), 2);
  LogGPParams forced_large = params;  // 4-byte blocks as a large call
  forced_large.one_message_max_bytes = 0;
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, {4, 4, 4, 4}, 0, 4, forced_large), 17);
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kRootPlanned, {4, 4, 4, 4}, 0, 2, forced_large), 26);
  EXPECT_EQ(LargeScatterRadix(4, 4, params), 4);
  EXPECT_EQ(ModelRadix(ModelTree::kAdaptive, 4, params), 4);
  EXPECT_EQ(LargeScatterRadix(2, 200000, params), 2);
  // The candidates, each once (by hand: the least radix for each number of rounds below
  // ceil(log2 p), up to kMaxRadix = 64; 80 and 24 need two rounds at 6400 and 560).
  EXPECT_EQ(RadixCandidates(6400), (std::vector<int>{2, 3, 4, 5, 6, 9, 19}));
  EXPECT_EQ(RadixCandidates(560), (std::vector<int>{2, 3, 4, 5, 9, 24}));
  EXPECT_EQ(RadixCandidates(4), (std::vector<int>{2, 4}));
  EXPECT_EQ(RadixCandidates(2), (std::vector<int>{2}));
  EXPECT_EQ(RadixCandidates(1), (std::vector<int>{2}));
}

// The greedy step from the call's root: on one level every root is alike; on two (the simulated
// platform's fit: 16 ranks a node, alpha 2.64 us across nodes and 1.27 inside, o = g = 0.3, no
// eager messages) the step from root 280 is 5, the step the simulation measures fastest there
// (SMPI, Same b = 1: 14.0 us against 15.5 at 9 and 17.8 on the radix tree; docs/irrmodel.md),
// where one level gives 9 (the step the library chose in that run).
TEST(LogGP, GreedyStepFromTheCallsRoot) {
  const LogGPParams one_level = LogGPFromLinear(2.64, 3.7e-4, 2.64, 3.7e-4, 1, 0.3, 2.27);
  EXPECT_EQ(SmallScatterShape(560, 4, 4, one_level, 0),
            SmallScatterShape(560, 4, 4, one_level, 280));
  const LogGPParams two_levels = LogGPFromLinear(2.64, 3.7e-4, 1.27, 3.7e-4, 16, 0.3, 2.27);
  EXPECT_EQ(SmallScatterShape(560, 4, 4, two_levels, 280, SmallCallRule::kGreedy), 5);
  EXPECT_EQ(SmallScatterShape(560, 4, 4, one_level, 280), 9);  // radix-560-scatter's record
}

// The rule since equal node ranges (kEqualNodeRangesBySize, now kEqualNodeRangesAtSizeRates)
// holds the greedy rule's choice, at
// the call's own block size, against the equal-range trees: never slower in the model than the
// greedy choice, and where it takes equal ranges, kEqualRangesMinGain faster and no other K at
// its node step faster. On
// a curve whose cost per byte rises 2.5-fold from 9000 bytes (as SimGrid's bw-factor does from
// 9376), p = 6400 with 16 ranks a node and 40-byte blocks (b = 10): the greedy 10/4's top
// messages carry 50 KB and more, equal ranges keep every message of the root under 9000 bytes
// (400 nodes in at least 29 ranges of at most 14 nodes, 8960 bytes). One level never has them.
TEST(LogGP, EqualNodeRangesWhereTheyModelFaster) {
  LogGPParams params = LogGPFromLinear(2.64, 3.7e-4, 1.1, 1.9e-4, 16, 0.3, 2.27);
  const std::vector<double> bytes = {4, 1024, 8192, 9000, 9001, 16384, 65536};
  std::vector<double> across, inside;
  for (double b : bytes) {
    across.push_back(2.6 + b * (b <= 9000 ? 1.2e-4 : 3e-4));
    inside.push_back(1.1 + b * 1.9e-4);
  }
  params.network.one_way = MeasuredCurve(bytes, across);
  params.node.one_way = MeasuredCurve(bytes, inside);
  for (const int p : {560, 6400}) {
    for (const std::int64_t block : {4, 40}) {
      const std::vector<std::int64_t> blocks(p, block);
      const auto time = [&](int code) {  // priced as the rule prices (shared sends at rates)
        LogGPParams at_rates = params;
        at_rates.latency_by_size = true;
        return ScatterTime(ModelTree::kRootPlanned, blocks, p / 2, 3, at_rates, code);
      };
      const int greedy = SmallScatterShape(p, block, 3, params, p / 2, SmallCallRule::kGreedy);
      const int chosen = SmallScatterShape(p, block, 3, params, p / 2);
      EXPECT_LE(time(chosen), time(greedy)) << p << " " << block;
      GreedyShape shape;
      if (!ShapeOfCode(chosen, &shape) || !shape.equal_node_ranges) continue;
      EXPECT_LT(time(chosen), (1 - kEqualRangesMinGain) * time(greedy)) << p << " " << block;
      for (shape.step = 2; shape.step <= kMaxGreedyStep; ++shape.step) {
        EXPECT_GE(time(ShapeCode(shape)), time(chosen)) << p << " " << block << " " << shape.step;
      }
    }
  }
  GreedyShape wide;
  ASSERT_TRUE(ShapeOfCode(SmallScatterShape(6400, 40, 3, params, 3200), &wide));
  EXPECT_TRUE(wide.equal_node_ranges);
  EXPECT_GE(wide.step, 29);  // ranges of at most 14 nodes: 14 * 16 * 40 = 8960 bytes
  const LogGPParams one_level = LogGPFromLinear(2.64, 3.7e-4, 2.64, 3.7e-4, 1, 0.3, 2.27);
  EXPECT_EQ(SmallScatterShape(560, 40, 4, one_level, 280),
            SmallScatterShape(560, 40, 4, one_level, 280, SmallCallRule::kGreedy));
}

// From kTwoLevelMinNodes nodes on the small call takes the two-level greedy tree (the simulation
// measured it faster there, which the model cannot tell): 2 ranks a node, so 96 ranks are 48
// nodes and 94 are 47. Below, a one-level step; on one level's costs never two levels.
TEST(LogGP, TwoLevelSmallCallFromEnoughNodes) {
  const LogGPParams pairs = LogGPFromLinear(2.64, 3.7e-4, 1.27, 3.7e-4, 2, 0.3, 2.27);
  const int wide = kTwoLevelMinNodes * 2, narrow = wide - 2;
  EXPECT_TRUE(TwoLevelSmallScatter(wide, pairs));
  EXPECT_FALSE(TwoLevelSmallScatter(narrow, pairs));
  GreedyShape shape;
  ASSERT_TRUE(ShapeOfCode(SmallScatterShape(wide, 4, 4, pairs, wide / 2), &shape));
  EXPECT_TRUE(shape.TwoLevel());
  EXPECT_EQ(shape.ranks_per_node, 2);
  EXPECT_TRUE(shape.node_step >= 1 && shape.node_step <= 8) << shape.node_step;
  EXPECT_TRUE(shape.step >= 1 && shape.step <= 16) << shape.step;
  const int below = SmallScatterShape(narrow, 4, 4, pairs, narrow / 2);
  EXPECT_TRUE(below >= 0 && below <= 16) << below;  // the radix tree or one level's step
  const LogGPParams one_level = LogGPFromLinear(2.64, 3.7e-4, 2.64, 3.7e-4, 1, 0.3, 2.27);
  EXPECT_FALSE(TwoLevelSmallScatter(6400, one_level));
}

// A parent's sends share its link (the network's fair sharing), so the first and largest of a
// scatter's messages does not end first. p = 4, the greedy tree of step 2 (0 -> [1, 2] first,
// then 3; 1 -> 2), 1000-byte blocks, L = 1, o = 1, g = 0, G = 0.01 us/byte (10 us a block).
// The root posts 1's 2000 bytes at 0-1 and 3's 1000 at 1-2. Alone 1-2, 1's message has 19 us
// left; from 2 both share the link: 3's ends at 2 + 2 * 10 = 22, 1's then has 9 us left, alone:
// 31. Arrivals 23 (3 takes it 23-24) and 32 (1 takes it 32-33); 1 sends 2's at 33-34, on the
// wire 34-44, there 45, taken 45-46: 46. One after the other they would end at 36 (1's message
// 1-21, there 22; 3's 21-31; 1 -> 2: 23-24, 24-34, there 35, taken 35-36).
// A model with barrier_start prices each tree after the harness's barrier; the model keeps the
// barrier's exits of its last p and costs (a chooser prices a hundred trees on one machine). A
// price must not depend on what was priced before: each of these costs, priced one after the
// other on one thread, costs what it costs on a thread of its own (which starts with nothing
// kept). Each differs from the first in one of what the barrier reads.
TEST(LogGP, BarrierStartsDoNotDependOnThePriceBefore) {
  RadixCosts costs;
  costs.has_local = true;
  costs.alpha_local_us = 1.28;
  costs.beta_local_us_per_byte = 2.9e-4;
  LogGPParams first = costs.Params(8);
  first.barrier_start = true;
  first.eager_limit_bytes = 0;
  std::vector<LogGPParams> all(8, first);
  all[1].overhead_us *= 1.5;
  all[2].gap_us += 5;
  all[3].eager_limit_bytes = 1024;
  all[4].network.latency_us += 1;
  all[5].node.latency_us += 0.5;
  all[6].ranks_per_node = 4;
  all[7].barrier_start = false;
  const std::vector<std::int64_t> blocks = {8, 0, 40, 8, 1, 200, 8, 8, 3, 0, 8, 64, 8, 8, 16, 8,
                                            8, 8, 8,  2, 8, 8,   8, 8, 8, 8, 8, 80, 8, 8, 8,  8};
  const auto price = [&](const LogGPParams& params) {
    return GatherTime(ModelTree::kAdaptive, blocks, 5, 4, params) +
           ScatterTime(ModelTree::kOblivious, blocks, 5, 3, params, 0);
  };
  std::vector<double> alone(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::thread([&, i] { alone[i] = price(all[i]); }).join();
  }
  // The barrier counts: a start after it costs more than one at 0.
  ASSERT_GT(alone[0], alone[7]);
  for (std::size_t i = 1; i + 1 < all.size(); ++i) EXPECT_NE(alone[i], alone[0]) << i;
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(price(all[i]), alone[i]) << i;
      EXPECT_EQ(price(all[0]), alone[0]) << i;
    }
  }
}

TEST(LogGP, ScatterSendsShareTheParentsLink) {
  LogGPParams params = Params(1, 1, 0);
  params.network.us_per_byte = params.node.us_per_byte = 0.01;
  const std::vector<std::int64_t> blocks(4, 1000);
  EXPECT_DOUBLE_EQ(PlannedScatterTime(BuildGreedyTree(blocks, 0, 2), params), 46);
}

// A tree built once (TUWk_*_init) is chosen for its data phase alone: on the built-in costs at
// p = 560 the construction's rounds make TUWk prefer a small radix (fewer exchange messages a
// round), while the planned tree takes the k-nomial tree's radix, and is faster there.
TEST(LogGP, PlannedTreeHasItsOwnRadix) {
  const LogGPParams params = RadixCosts{}.Params();
  const int adaptive = ModelRadix(ModelTree::kAdaptive, 560, params);
  const int planned = ModelRadix(ModelTree::kPlanned, 560, params);
  EXPECT_GT(planned, adaptive);
  const std::vector<std::int64_t> blocks(560, 4);
  EXPECT_LT(GatherTime(ModelTree::kPlanned, blocks, 0, planned, params),
            GatherTime(ModelTree::kPlanned, blocks, 0, adaptive, params));
  EXPECT_GT(GatherTime(ModelTree::kAdaptive, blocks, 0, planned, params),
            GatherTime(ModelTree::kAdaptive, blocks, 0, adaptive, params));
}

// The carried construction by hand: p = 4, root 0, radix 2, 4-byte blocks, L = 10, o = g = 1.
// Level 0: the pairs exchange (sent at 1, there at 11, taken by 12); {1} carries to the root,
// {2} to 3. Level 1: 3 tells the root itself first (sent 13, there 23, taken by 24), then 1
// (sent 14, taken by 25); 1 sent its summary to 3 (taken by 24): 25, rank 1 the last. Told only
// (the library's since tuwcoll_carry_to_root=direct-only): the top round has no exchange, 3 tells
// the root alone: 24. Through the fixed root of the root's cube (before tuwcoll_carry_to_root):
// 3's data to 1 (taken by 24), 1's notice to the root (sent 25, taken by 36): 36.
TEST(LogGP, CarriedConstructionTellsTheRootDirectlyByHand) {
  LogGPParams params = Params(10, 1, 1);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kCarried, {4, 4, 4, 4}, 0, 2, params), 24);
  params.carry_to_root_max_bytes = -1;
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kCarried, {4, 4, 4, 4}, 0, 2, params), 25);
  params.root_told_directly = false;
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kCarried, {4, 4, 4, 4}, 0, 2, params), 36);
}

// TUWk_Gatherv's construction carries small cubes: its carried rounds cost less than TUW's
// merges, so its radix is chosen on its own tree and is the larger where that tree is faster at
// it (the built-in costs at p = 560: carried 5, TUWk's 4), not the family's.
TEST(LogGP, CarriedGatherHasItsOwnRadix) {
  const LogGPParams params = RadixCosts{}.Params();
  const int adaptive = ModelRadix(ModelTree::kAdaptive, 560, params);
  const int carried = ModelRadix(ModelTree::kCarried, 560, params);
  EXPECT_GT(carried, adaptive);
  const std::vector<std::int64_t> blocks(560, 4);
  EXPECT_LT(GatherTime(ModelTree::kCarried, blocks, 0, carried, params),
            GatherTime(ModelTree::kCarried, blocks, 0, adaptive, params));
  LogGPParams no_carrying = params;
  no_carrying.carry_max_bytes = -1;  // the tree without carrying: TUWk's radix again
  EXPECT_EQ(ModelRadix(ModelTree::kCarried, 560, no_carrying), adaptive);
}

// The bound: p = 4, o = 1, g = 0, L = 10: the root can take a message every o, the first at the
// earliest one hop (12) after the start: 12, 13, 14. Gathers of these blocks never beat it, nor
// does the root's link (G = 1: o + L + o + 3 blocks of 4 bytes = 24).
TEST(LogGP, LowerBoundByHand) {
  LogGPParams params = Params(10, 1, 0);
  EXPECT_DOUBLE_EQ(LogPLowerBound({4, 4, 4, 4}, 0, params, params.network), 14);
  params.network.us_per_byte = 1;
  EXPECT_DOUBLE_EQ(LogPLowerBound({4, 4, 4, 4}, 0, params, params.network), 24);
  for (int radix : {2, 3, 4}) {
    EXPECT_GE(GatherTime(ModelTree::kAdaptive, {4, 4, 4, 4}, 0, radix, params), 24);
    EXPECT_GE(GatherTime(ModelTree::kOblivious, {4, 4, 4, 4}, 0, radix, params), 24);
  }
  EXPECT_GE(GatherTime(ModelTree::kLinear, {4, 4, 4, 4}, 0, 2, params), 24);
  // Processes without a block need not be reached: one other block is one hop (12), not the
  // three of four processes (found by irrmodel --model loggp on Two blocks: the linear gather
  // of its two blocks ran below the bound of all p).
  params.network.us_per_byte = 0;
  EXPECT_DOUBLE_EQ(LogPLowerBound({4, 0, 0, 4}, 0, params, params.network), 12);
  EXPECT_DOUBLE_EQ(LogPLowerBound({0, 0, 4, 4}, 0, params, params.network), 13);  // two others
  EXPECT_DOUBLE_EQ(LogPLowerBound({4, 0, 0, 0}, 0, params, params.network), 0);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {4, 0, 0, 4}, 0, 2, params), 12);
}

// The root's link and its cost per message together: p = 3, o = 1, g = 0, L = 2, G = 0.5, blocks
// of 1 byte. Neither part alone says more than 5: the broadcast run backwards (hops of 2o + L = 4,
// one a step later: 4, 5) and the link (4 + 2 * 0.5). But each message is on the wire before the
// root's o: the first is done at 1 + 2 + 0.5 + 1 = 4.5, the second a step later, 5.5; and one
// message of both blocks first needs the other's, done at 4.5, then 4 + 1 more: 9.5. So 5.5: rank
// 2 sending 0.5 after rank 1 takes it. The model's linear gather, both sending at once, shares the
// link (both there at 4) and takes 6.
TEST(LogGP, LowerBoundTakesTheRootsMessagesOnItsLink) {
  LogGPParams params = Params(2, 1, 0);
  params.network.us_per_byte = 0.5;
  EXPECT_NEAR(LogPLowerBound({1, 1, 1}, 0, params, params.network), 5.5, 1e-9);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kLinear, {1, 1, 1}, 0, 2, params), 6);
  // Without a cost per byte the broadcast's 5 holds alone (the old bound, exact).
  params.network.us_per_byte = 0;
  EXPECT_DOUBLE_EQ(LogPLowerBound({1, 1, 1}, 0, params, params.network), 5);
}

// A measured curve whose smallest message took less than the fit's 2o + L: o = 1, L = 10, a 4-byte
// message 11 (not 12 + its bytes). The curve's least slope (9 / 96, no two segments agree) from
// the line below every point (10.625 + 0.09375 * units): a 4-byte gather from one process is 11,
// the measured message, and never more.
TEST(LogGP, LowerBoundStaysBelowTheMeasuredCurve) {
  LogGPParams params = Params(10, 1, 0);
  params.network.one_way = MeasuredCurve({4, 100, 200}, {11, 20, 30});
  EXPECT_DOUBLE_EQ(params.network.one_way.InterceptBelow(9.0 / 96), 10.625);
  EXPECT_DOUBLE_EQ(LogPLowerBound({0, 4}, 0, params, params.network), 11);
  params.network.one_way = MeasuredCurve({4, 100, 200}, {13, 22, 32});  // above 2o + L: L stays
  EXPECT_DOUBLE_EQ(LogPLowerBound({0, 4}, 0, params, params.network), 12.375);
}

// With a measured curve the root's link moves bytes at the curve's least steady slope, not at
// one message's time for all of them: one-way 12 + 0.1 per byte up to 300 bytes, a protocol
// switch, then 0.04 per byte from 400 on (a simulator's faster mid-size messages). Three blocks
// of 1000 bytes: 2o + L + 3000 * 0.04 = 132, where the curve's one message of 3000 bytes takes
// 12 + 30 + 0.5 + 0.04 * 2600 (= 146.5): a tree of 1000-byte messages may beat that.
TEST(LogGP, LowerBoundOnAMeasuredCurve) {
  LogGPParams params = Params(10, 1, 0);
  params.network.one_way =
      MeasuredCurve({100, 200, 300, 400, 500, 600, 700}, {22, 32, 42, 42.5, 46.5, 50.5, 54.5});
  EXPECT_DOUBLE_EQ(params.Wire(params.network, 3000), 146.5 - 12);
  EXPECT_DOUBLE_EQ(LogPLowerBound({0, 1000, 1000, 1000}, 0, params, params.network), 132);
}

// TUWk_Gatherv's pieces on a curve (L = 10, 2o = 2) that moves 400-600 bytes at 0.02 per byte
// after a protocol switch, other sizes at 0.05: the cheapest stretch ends at 600 bytes, whose
// message is 28 - 12 = 16 on the wire. With o = 1, g = 0 an extra piece costs 2: 1200 bytes (one
// message 43 + 15 - 12 = 46) go in two pieces (34); 650 bytes (18.5) do not, their second piece
// of 50 costing about a latency more (16 + 2.5 + 2 = 20.5); 600 bytes stay one message. With
// L = 0, o = 6 (the same L + 2o) an extra piece costs 12: still pieces (44 < 46); with g = 20
// it costs 26 (58): one message.
TEST(LogGP, GatherPiecesWhereTheCurveMakesThemPay) {
  LogGPParams params = Params(10, 1, 0);
  params.network.one_way = MeasuredCurve({100, 200, 300, 400, 500, 600, 700, 800, 900},
                                         {17, 22, 27, 24, 26, 28, 33, 38, 43});
  const PieceRule rule = GatherPieceRule(params);
  EXPECT_EQ(rule.piece, 600);
  EXPECT_EQ(rule.PieceBytes(1200), 600);
  EXPECT_EQ(rule.PieceBytes(650), 0);
  EXPECT_EQ(rule.PieceBytes(600), 0);
  EXPECT_EQ(rule.PieceBytes(0), 0);
  // Beyond kMaxModelPieces pieces (what a receiver posts ahead): one message.
  EXPECT_EQ(rule.PieceBytes(600 * kMaxModelPieces), 600);
  EXPECT_EQ(rule.PieceBytes(600 * kMaxModelPieces + 1), 0);
  params.network.latency_us = 0;
  params.overhead_us = 6;
  EXPECT_EQ(GatherPieceRule(params).PieceBytes(1200), 600);  // 32 + 12 < 46
  params.gap_us = 20;
  EXPECT_EQ(GatherPieceRule(params).PieceBytes(1200), 0);  // 32 + 26 > 46
  // A line (one rate for every size) never gains: no pieces.
  EXPECT_EQ(GatherPieceRule(Params(10, 1, 0)).PieceBytes(1 << 20), 0);
  // The setting's fixed size: every transfer above it.
  EXPECT_EQ(FixedPieceRule(64).PieceBytes(65), 64);
  EXPECT_EQ(FixedPieceRule(64).PieceBytes(64), 0);
  EXPECT_EQ(FixedPieceRule(0).PieceBytes(1000), 0);
}

// The simulated cluster's fit (radix-6400-small-current): its cheapest stretch is 5793-8933 bytes
// (0.287 ns/B; SimGrid's bw-factor step up to 9376), so pieces of 8933 bytes: a transfer of
// 12000 bytes (6.88 us on the wire) goes in two (2.66 + 1.03 + 0.6); one of 8 KB stays one.
TEST(LogGP, GatherPiecesOnTheSimulatedClustersCurve) {
  std::vector<double> bytes, one_way;
  // The fit's points from 3756 to 35734 bytes, one-way us
  // (results/simulated/radix-6400-small-current).
  const double points[][2] = {{3756, 3.96009},  {4096, 4.0972},   {4467, 4.24681}, {4871, 4.40973},
                              {5312, 4.58757},  {5793, 4.40768},  {6317, 4.55827}, {6889, 4.72266},
                              {7512, 4.9017},   {8192, 5.09712},  {8933, 5.31007}, {9742, 8.32544},
                              {10624, 8.79476}, {11585, 9.30611}, {12634, 9.86429}};
  for (const auto& point : points) {
    bytes.push_back(point[0]);
    one_way.push_back(point[1]);
  }
  LogGPParams params = Params(2.05, 0.3, 0.3);
  params.network.one_way = MeasuredCurve(bytes, one_way);
  const PieceRule rule = GatherPieceRule(params);
  EXPECT_EQ(rule.piece, 8933);
  EXPECT_EQ(rule.PieceBytes(12000), 8933);
  EXPECT_EQ(rule.PieceBytes(8192), 0);
}

// Bandwidth-bound: with a large block per process every radix moves the same bytes through the
// root's link, so the radix matters little; latency-bound, fewer rounds win.
TEST(LogGP, RadixMattersWhereLatencyDominates) {
  const LogGPParams params = Params(2, 0.3, 0.3);
  const std::vector<std::int64_t> tiny(64, 4);
  EXPECT_LT(GatherTime(ModelTree::kAdaptive, tiny, 0, 4, params),
            GatherTime(ModelTree::kAdaptive, tiny, 0, 2, params));
  LogGPParams wide = params;
  wide.network.us_per_byte = 1e-3;
  const std::vector<std::int64_t> large(64, 1 << 20);
  const double two = GatherTime(ModelTree::kAdaptive, large, 0, 2, wide);
  const double eight = GatherTime(ModelTree::kAdaptive, large, 0, 8, wide);
  EXPECT_NEAR(eight / two, 1.0, 0.05);
  EXPECT_GE(two, 63 * (1 << 20) * 1e-3);  // the root's link
}

// A persistent request's radix, chosen by its root on the call's blocks: on 4-byte blocks from
// root 0 the radix ModelRadix chooses for the planned tree (the same pricing); on the simulated
// cluster's built-in costs with 20 KB blocks a smaller one than at 4 bytes for the scatter (the
// construction's cost, which favours large radixes, is not the start's), whose start models
// faster than at the 4-byte radix; never an unknown candidate; radix 2 for p <= 2.
TEST(LogGP, PlannedRadixOnTheRootsBlocks) {
  const LogGPParams params = RadixCosts{}.Params();
  for (const int p : {7, 64, 560}) {
    const std::vector<std::int64_t> tiny(p, 4), large(p, 20000);
    const int at_four = ModelRadix(ModelTree::kPlanned, p, params);
    EXPECT_EQ(PlannedRadix(false, tiny, 0, params), at_four) << p;
    const std::vector<int> candidates = RadixCandidates(p);
    for (const bool scatter : {false, true}) {
      const int chosen = PlannedRadix(scatter, large, p / 2, params);
      EXPECT_NE(std::find(candidates.begin(), candidates.end(), chosen), candidates.end());
      const auto start = [&](int radix) {
        return scatter ? ScatterTime(ModelTree::kPlanned, large, p / 2, radix, params, 0)
                       : GatherTime(ModelTree::kPlanned, large, p / 2, radix, params);
      };
      for (const int radix : candidates) EXPECT_LE(start(chosen), start(radix)) << p << radix;
      if (scatter && p == 560) {
        EXPECT_LT(chosen, at_four);
        EXPECT_LT(start(chosen), start(at_four));
      }
    }
  }
  EXPECT_EQ(PlannedRadix(true, {5, 5}, 0, params), 2);
}

// A small call with a block above 4 KiB takes the radix tree under the library's rule, not under
// the rules before it; the records name the rules in order.
TEST(LogGP, HeavyBlockTakesTheRadixTree) {
  EXPECT_FALSE(SmallCallOnRadixTree({0, 4096, 0, 4096}));
  EXPECT_TRUE(SmallCallOnRadixTree({0, 4097, 0, 0}));
  EXPECT_FALSE(SmallCallOnRadixTree({0, 4097}, SmallCallRule::kEqualNodeRangesAtSizeRates));
  EXPECT_FALSE(SmallCallOnRadixTree({}));
  EXPECT_EQ(SmallCallRuleOfRecord(4), SmallCallRule::kEqualNodeRangesAtSizeRates);
  EXPECT_EQ(SmallCallRuleOfRecord(5), SmallCallRule::kHeavyBlocksOnRadixTree);
  EXPECT_EQ(kLibrarySmallCallRule, SmallCallRule::kHeavyBlocksOnRadixTree);
}

// Each (rank, parent) pair of `parents` is an edge of `tree`.
// A node link without the scatter's node tree.
NodeLinkCosts NodeLink(int ranks_per_node, double hop_saved_us, double us_per_byte) {
  NodeLinkCosts costs;
  costs.ranks_per_node = ranks_per_node;
  costs.hop_saved_us = hop_saved_us;
  costs.us_per_byte = us_per_byte;
  return costs;
}

void ExpectParents(const Tree& tree, std::initializer_list<std::pair<int, int>> parents) {
  for (const auto& [rank, parent] : parents) EXPECT_EQ(tree.nodes[rank].parent, parent) << rank;
}
// `rank` holds ranks lo..hi when it sends.
void ExpectRange(const Tree& tree, int rank, int lo, int hi) {
  EXPECT_EQ(tree.nodes[rank].lo, lo) << rank;
  EXPECT_EQ(tree.nodes[rank].hi, hi) << rank;
}
// Ranks [from, to) have the same views in both trees.
void ExpectSameNodes(const Tree& a, const Tree& b, int from, int to) {
  for (int rank = from; rank < to; ++rank) EXPECT_EQ(a.nodes[rank], b.nodes[rank]) << rank;
}

// The link-greedy tree with no cost per byte is Karp et al.'s broadcast run backwards: o = 1,
// g = 0, L = 2 (a hop 2o + L = 4, a step 1). The root takes messages at 8, 7, 6, 5, 4 (sent 4
// earlier: at 4, 3, 2, 1, 0); the one sent at 4 can carry a rank that reached its sender by 4 (sent
// at 0): 7 ranks by 8, six children of the root in all, one of them with a child. Root 3:
// children left and right of it, every subtree a contiguous range.
TEST(LinkGreedyTree, KarpsBroadcastWithoutBytes) {
  const LinkGreedyTree built = BuildLinkGreedyTree(7, 4, 3, Params(2, 1, 0));
  EXPECT_NEAR(built.deadline_us, 8, kLinkGreedyGridUs);
  const std::vector<std::int64_t> blocks(7, 4);
  const Tree views = ToNodeViews(built.tree, blocks);
  ASSERT_EQ(views.root, 3);
  EXPECT_EQ(views.nodes[3].children.size(), 5u);
  int with_child = 0, depth_two = 0;
  for (const NodeView& node : views.nodes) {
    if (node.parent == 3 && !node.children.empty()) ++with_child;
    if (node.parent >= 0 && node.parent != 3) ++depth_two;
  }
  EXPECT_EQ(with_child, 1);
  EXPECT_EQ(depth_two, 1);
  // The model prices the tree at the schedule's time: 8 (eager messages, the root's o each).
  EXPECT_DOUBLE_EQ(PlannedGatherTime(views, Params(2, 1, 0)), 8);
}

// The two layouts of that tree: left of root 3 the subtree of two ranks covers ranks 0-1 from
// rank 0 up (its sender 0) or 1-2 from the root down (its sender 2, the right side's mirror image);
// the lone child is the other rank. The right side is the same in both, and equal blocks price
// alike (8).
TEST(LinkGreedyTree, TwoLayoutsLeftOfTheRoot) {
  const std::vector<std::int64_t> blocks(7, 4);
  const Tree ascending = ToNodeViews(BuildLinkGreedyTree(7, 4, 3, Params(2, 1, 0)).tree, blocks);
  const Tree mirrored = ToNodeViews(
      BuildLinkGreedyTree(7, 4, 3, Params(2, 1, 0), LinkGreedyLayout::kLeftMirrored).tree, blocks);
  ExpectParents(ascending, {{0, 3}, {1, 0}, {2, 3}});
  ExpectParents(mirrored, {{0, 3}, {1, 2}, {2, 3}});
  ExpectRange(mirrored, 2, 1, 2);
  ExpectSameNodes(mirrored, ascending, 4, 7);
  EXPECT_DOUBLE_EQ(PlannedGatherTime(mirrored, Params(2, 1, 0)), 8);
  // PlannedTree weighing the layouts takes the faster: p = 12, root 6, blocks of 4 (i + 1) bytes
  // on the built-in costs: the heavy ranks are the right side's, the light ones far left, where
  // the mirrored layout's late messages go. Not weighing them, the first.
  std::vector<std::int64_t> increasing(12);
  for (int i = 0; i < 12; ++i) increasing[i] = 4 * (i + 1);
  LogGPParams costs = RadixCosts{}.SmallCallParams(1);
  costs.gather_pieces = GatherPieceRule(costs);
  const double first = PlannedGatherTime(LinkGreedyViews(increasing, 6, costs), costs, true);
  const Tree other = LinkGreedyViews(increasing, 6, costs, LinkGreedyLayout::kLeftMirrored);
  EXPECT_LT(PlannedGatherTime(other, costs, true), first);
  const PlannedTreeChoice chosen = PlannedTree(false, increasing, 6, costs, /*weigh_layouts=*/true);
  ASSERT_TRUE(chosen.link_greedy);
  const PlannedTreeChoice first_only = PlannedTree(false, increasing, 6, costs, false);
  ASSERT_TRUE(first_only.link_greedy);
  const Tree ascending_views = LinkGreedyViews(increasing, 6, costs);
  for (int rank = 0; rank < 12; ++rank) {
    EXPECT_EQ(chosen.link_greedy_tree.nodes[rank], other.nodes[rank]) << rank;
    EXPECT_EQ(first_only.link_greedy_tree.nodes[rank], ascending_views.nodes[rank]) << rank;
  }
  EXPECT_FALSE(WeighLayouts(false));
  EXPECT_TRUE(WeighLayouts(true));
}

// The outward layout and its rule, p = 9, root 4, o = 1, L = 2: the first layout's right side is
// child 5 with 6 below it (range 5-6) and children 7 and 8; outward, 6 sends with 5 below it. On
// nodes of two ranks ({4, 5}, {6, 7}) child 5 sits on the root's node and pulls rank 6's 4 bytes
// over its link: outward where 4 x us_per_byte exceeds hop_saved_us (2 > 1, not 0.8); on nodes of
// four ranks 6 is on the root's node too and nothing is pulled.
TEST(LinkGreedyTree, OutwardWhereTheRootsNodeLinkSays) {
  const std::vector<std::int64_t> blocks(9, 4);
  const Tree first = LinkGreedyViews(blocks, 4, Params(2, 1, 0));
  const Tree outward =
      LinkGreedyViews(blocks, 4, Params(2, 1, 0), LinkGreedyLayout::kRightMirrored);
  ExpectParents(first, {{6, 5}, {5, 4}});
  ExpectParents(outward, {{5, 6}, {6, 4}});
  ExpectRange(outward, 6, 5, 6);
  ExpectSameNodes(outward, first, 0, 4);
  ExpectSameNodes(outward, first, 7, 9);
  EXPECT_TRUE(OutwardOnNodeLink(first, blocks, NodeLink(2, 1.0, 0.5)));
  EXPECT_FALSE(OutwardOnNodeLink(first, blocks, NodeLink(2, 1.0, 0.2)));
  EXPECT_FALSE(OutwardOnNodeLink(first, blocks, NodeLink(4, 1.0, 0.5)));
  EXPECT_FALSE(OutwardOnNodeLink(first, blocks, NodeLink(1, 1.0, 0.5)));
  const PlannedTreeChoice chosen =
      PlannedTree(false, blocks, 4, Params(2, 1, 0), false, NodeLink(2, 1.0, 0.5));
  ASSERT_TRUE(chosen.link_greedy);
  const PlannedTreeChoice kept =
      PlannedTree(false, blocks, 4, Params(2, 1, 0), false, NodeLink(2, 1.0, 0.2));
  ASSERT_TRUE(kept.link_greedy);
  const PlannedTreeChoice scatter =
      PlannedTree(true, blocks, 4, Params(2, 1, 0), true, NodeLink(2, 1.0, 0.5));
  ASSERT_TRUE(scatter.link_greedy);
  for (int rank = 0; rank < 9; ++rank) {
    EXPECT_EQ(chosen.link_greedy_tree.nodes[rank], outward.nodes[rank]) << rank;
    EXPECT_EQ(kept.link_greedy_tree.nodes[rank], first.nodes[rank]) << rank;
    EXPECT_EQ(scatter.link_greedy_tree.nodes[rank], first.nodes[rank]) << rank;  // gathers only
  }
  // A fit's node link: its alphas' difference and beta, where it measured a node's own alpha.
  RadixCosts costs;
  EXPECT_EQ(NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNone).ranks_per_node, 1);
  costs.has_local = true;
  costs.alpha_local_us = 1.25;
  const NodeLinkCosts node_link = NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNone);
  EXPECT_EQ(node_link.ranks_per_node, 16);
  EXPECT_DOUBLE_EQ(node_link.hop_saved_us, costs.alpha_us - 1.25);
  EXPECT_DOUBLE_EQ(node_link.us_per_byte, costs.beta_us_per_byte);
  EXPECT_EQ(NodeLinkOf(costs, 1, ScatterTreesOnNodes::kNone).ranks_per_node, 1);
}

// With a cost per byte the root's link decides: o = 1, g = 0, L = 2, G = 0.5, blocks of 1 byte,
// p = 3 (LogGP.LowerBoundTakesTheRootsMessagesOnItsLink): two leaves, the second message a step
// after the first, 5.5; one message of both blocks would end at 9.5.
TEST(LinkGreedyTree, TwoLeavesWhereTheLinkDecides) {
  LogGPParams params = Params(2, 1, 0);
  params.network.us_per_byte = 0.5;
  const LinkGreedyTree built = BuildLinkGreedyTree(3, 1, 0, params);
  EXPECT_NEAR(built.deadline_us, 5.5, kLinkGreedyGridUs);
  const Tree views = ToNodeViews(built.tree, {1, 1, 1});
  EXPECT_EQ(views.nodes[0].children.size(), 2u);
  EXPECT_NEAR(built.deadline_us, LogPLowerBound({1, 1, 1}, 0, params, params.network),
              kLinkGreedyGridUs);
}

// A TUWk_*_init root takes the link-greedy tree where the model prices it faster: p = 7,
// o = 1, L = 2 (KarpsBroadcastWithoutBytes) gives it 8, the radix trees 9: the star (six messages
// arrive at o + L = 3 and take the root's o each) and radix 2 (eager: rank 4 takes 5's and 6's
// blocks at 3-5, sends at 5, the root takes it at 8-9 after 2's at 3-4 and 0's at 7-8; a tie goes
// to the smaller radix). On more than kLinkGreedyUnevenMaxRanks ranks uneven blocks keep the
// radix tree.
TEST(LinkGreedyTree, PlannedTreeTakesTheFasterTree) {
  const std::vector<std::int64_t> blocks(7, 4);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kPlanned, blocks, 3, 7, Params(2, 1, 0)), 9);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kPlanned, blocks, 3, 2, Params(2, 1, 0)), 9);
  const PlannedTreeChoice chosen = PlannedTree(false, blocks, 3, Params(2, 1, 0), false);
  EXPECT_TRUE(chosen.link_greedy);
  EXPECT_EQ(chosen.radix, 2);
  EXPECT_DOUBLE_EQ(PlannedGatherTime(LinkGreedyViews(blocks, 3, Params(2, 1, 0)), Params(2, 1, 0)),
                   8);
  // Without a cost per message both are the star (L + the root's link, 2 + 0.5 * 12): a tie keeps
  // the radix tree.
  LogGPParams free_messages = Params(2, 0, 0);
  free_messages.network.us_per_byte = 0.5;
  EXPECT_FALSE(
      PlannedTree(false, std::vector<std::int64_t>(4, 4), 1, free_messages, false).link_greedy);
  // As a scatter: the star's six sends leave the root at 1, ..., 6 and are taken by 4, ..., 9;
  // the link-greedy tree's first child forwards its grandchild's block at 4-5 (taken by 8), the
  // root's other five sends taken by 5, ..., 8: 8 = 0.89 of 9, within kScatterLinkGreedyMaxRatio.
  EXPECT_DOUBLE_EQ(ScatterTime(ModelTree::kPlanned, blocks, 3, 7, Params(2, 1, 0), 0), 9);
  EXPECT_DOUBLE_EQ(PlannedScatterTime(LinkGreedyViews(blocks, 3, Params(2, 1, 0)), Params(2, 1, 0)),
                   8);
  EXPECT_TRUE(PlannedTree(true, blocks, 3, Params(2, 1, 0), true).link_greedy);
  // Without a cost per byte the tree would win at any size; above kLinkGreedyMaxMeanBytes a mean
  // block keeps the radix tree.
  EXPECT_TRUE(PlannedTree(false, std::vector<std::int64_t>(7, kLinkGreedyMaxMeanBytes), 3,
                          Params(2, 1, 0), false)
                  .link_greedy);
  EXPECT_FALSE(PlannedTree(false, std::vector<std::int64_t>(7, kLinkGreedyMaxMeanBytes + 1), 3,
                           Params(2, 1, 0), false)
                   .link_greedy);
  // Ten times slower (L = 20, o = 10): the same trees, 80 against 90, but the blocks' LogP bound
  // is above kLinkGreedyMaxBoundUs, so the root does not build the tree at all.
  EXPECT_DOUBLE_EQ(
      PlannedGatherTime(LinkGreedyViews(blocks, 3, Params(20, 10, 0)), Params(20, 10, 0)), 80);
  EXPECT_DOUBLE_EQ(GatherTime(ModelTree::kPlanned, blocks, 3, 2, Params(20, 10, 0)), 90);
  EXPECT_GT(LogPLowerBound(blocks, 3, Params(20, 10, 0), Params(20, 10, 0).network),
            kLinkGreedyMaxBoundUs);
  EXPECT_FALSE(PlannedTree(false, blocks, 3, Params(20, 10, 0), false).link_greedy);
  std::vector<std::int64_t> many(kLinkGreedyUnevenMaxRanks + 1, 4);
  EXPECT_TRUE(PlannedTree(false, many, 0, Params(2, 1, 0), false).link_greedy);
  many[5] = 8;
  EXPECT_FALSE(PlannedTree(false, many, 0, Params(2, 1, 0), false).link_greedy);
}

TEST(LinkGreedyTree, BadArguments) {
  EXPECT_THROW(BuildLinkGreedyTree(0, 4, 0, Params(2, 1, 0)), std::invalid_argument);
  EXPECT_THROW(BuildLinkGreedyTree(4, 4, 4, Params(2, 1, 0)), std::invalid_argument);
  EXPECT_THROW(BuildLinkGreedyTree(4, -1, 0, Params(2, 1, 0)), std::invalid_argument);
  // o = g = 0: no cost per message, every rank straight to the root, L + the bytes' wire
  LogGPParams free_messages = Params(2, 0, 0);
  free_messages.network.us_per_byte = 0.5;
  const LinkGreedyTree linear = BuildLinkGreedyTree(4, 4, 1, free_messages);
  EXPECT_EQ(linear.tree.steps[1], (std::vector<int>{SequencedTree::kCopy, 0, 2, 3}));
  EXPECT_DOUBLE_EQ(linear.deadline_us, 2 + 0.5 * 12);
  const LinkGreedyTree one = BuildLinkGreedyTree(1, 4, 0, Params(2, 1, 0));
  EXPECT_EQ(one.deadline_us, 0);
  EXPECT_EQ(one.tree.steps[0], std::vector<int>{SequencedTree::kCopy});
}

// The node scatter tree by hand. p = 8, nodes of 4, root 2, one range a level and three inside a
// node: the other node's leader is its rank nearest the root's node (4), which serves its node's
// three other ranks; the root serves 0, 1 and 3 inside its node, and 4 first (the largest range
// from the last). One range inside a node: each rank passes the rest on (a chain), the root's
// left side through 1, the nearest.
TEST(NodeScatterTree, TwoNodesByHand) {
  const std::vector<std::int64_t> blocks(8, 4);
  const Tree three = ToNodeViews(BuildNodeScatterTree(blocks, 2, 4, {1, 1, 3, false}), blocks);
  ExpectParents(three, {{0, 2}, {1, 2}, {3, 2}, {4, 2}, {5, 4}, {6, 4}, {7, 4}});
  ExpectRange(three, 4, 4, 7);
  EXPECT_EQ(three.nodes[2].children.back().child, 4);
  const Tree one = ToNodeViews(BuildNodeScatterTree(blocks, 2, 4, {1, 1, 1, false}), blocks);
  ExpectParents(one, {{1, 2}, {0, 1}, {3, 2}, {4, 2}, {5, 4}, {6, 5}, {7, 6}});
  ExpectRange(one, 5, 5, 7);
}

// Four nodes of 4, root 0: the range of nodes 1-3 led from its middle node (8) or from the node
// next to the root's (4); 8 passes node 1 on through its rank nearest 8's node (7), node 3
// through 12. Leaders left of their parent's node are their node's last rank.
TEST(NodeScatterTree, MiddleLeader) {
  const std::vector<std::int64_t> blocks(16, 4);
  const Tree middle = ToNodeViews(BuildNodeScatterTree(blocks, 0, 4, {1, 2, 3, true}), blocks);
  ExpectParents(middle, {{8, 0}, {7, 8}, {12, 8}, {4, 7}, {13, 12}});
  ExpectRange(middle, 8, 4, 15);
  const Tree nearest = ToNodeViews(BuildNodeScatterTree(blocks, 0, 4, {1, 2, 3, false}), blocks);
  ExpectParents(nearest, {{4, 0}, {8, 4}, {5, 4}});
  ExpectRange(nearest, 4, 4, 15);
  // Root 15: nodes 0-2 led from node 2's last rank (nearest the root's node), which sends nodes 1
  // and 0 one message each (two ranges), through their last ranks.
  const Tree left = ToNodeViews(BuildNodeScatterTree(blocks, 15, 4, {1, 2, 3, false}), blocks);
  ExpectParents(left, {{11, 15}, {7, 11}, {3, 11}});
  ExpectRange(left, 11, 0, 11);
}

// Every shape, root and placement (the last node short) gives a tree ToNodeViews runs, in which
// every node but the root's takes exactly one message from another node: its data crosses its
// link once. Bad arguments are refused, naming them.
TEST(NodeScatterTree, OneMessageIntoEachNode) {
  for (int p : {1, 2, 5, 10, 16, 37}) {
    for (int per_node : {1, 3, 4}) {
      std::vector<std::int64_t> blocks(p);
      for (int i = 0; i < p; ++i) blocks[i] = (i * 7) % 5;  // some empty
      for (int root = 0; root < p; ++root) {
        for (const NodeScatterShape shape :
             {NodeScatterShape{1, 1, 1, false}, NodeScatterShape{2, 3, 2, true},
              NodeScatterShape{4, 8, 4, false}, NodeScatterShape{8, 4, 8, true}}) {
          const Tree tree =
              ToNodeViews(BuildNodeScatterTree(blocks, root, per_node, shape), blocks);
          std::vector<int> into(p, 0);  // messages into each node from another
          for (int rank = 0; rank < p; ++rank) {
            const int parent = tree.nodes[rank].parent;
            if (parent >= 0 && parent / per_node != rank / per_node) ++into[rank / per_node];
          }
          for (int node = 0; node * per_node < p; ++node) {
            EXPECT_EQ(into[node], node == root / per_node ? 0 : 1)
                << "p " << p << " per node " << per_node << " root " << root << " node " << node;
          }
        }
      }
    }
  }
  const std::vector<std::int64_t> blocks(4, 1);
  EXPECT_THROW(BuildNodeScatterTree(blocks, 4, 2, {}), std::invalid_argument);
  EXPECT_THROW(BuildNodeScatterTree(blocks, 0, 0, {}), std::invalid_argument);
  EXPECT_THROW(BuildNodeScatterTree(blocks, 0, 2, {1, 0, 1, false}), std::invalid_argument);
}

// Costs of the simulated cluster's class: RadixCosts' defaults (its fit) and a node's alpha 1.28
// us, as radix-560-current's fit measured.
RadixCosts ClusterClassCosts() {
  RadixCosts costs;
  costs.has_local = true;
  costs.alpha_local_us = 1.28;
  costs.beta_local_us_per_byte = 2.9e-4;
  return costs;
}

// A scatter's root on nodes weighs the node scatter tree where its node link says so, on the
// two-level model with node links: it takes the fastest of the shapes where that prices at most
// kNodeScatterMaxRatio of the tree it would take otherwise, and never for a gather or with
// ScatterTreesOnNodes::kNone. Costs of the simulated cluster's class (RadixCosts' defaults, a
// node's alpha 1.28 us), p = 64 in nodes of 16, 40 bytes a rank.
TEST(NodeScatterTree, PlannedTreeWeighsIt) {
  const RadixCosts costs = ClusterClassCosts();
  const std::vector<std::int64_t> blocks(64, 40);
  const NodeLinkCosts weighs = NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNodeTree);
  ASSERT_TRUE(weighs.TwoLevel().node_links);
  const LogGPParams one = costs.SmallCallParams(1);
  const PlannedTreeChoice without =
      PlannedTree(true, blocks, 32, one, true, NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNone));
  const PlannedTreeChoice with = PlannedTree(true, blocks, 32, one, true, weighs);
  const NodeScatterChoice node_tree = FastestNodeScatterTree(blocks, 32, 16, weighs.TwoLevel());
  const double so_far =
      without.link_greedy
          ? PlannedScatterTime(without.link_greedy_tree, weighs.TwoLevel())
          : ScatterTime(ModelTree::kPlanned, blocks, 32, without.radix, weighs.TwoLevel(), 0);
  ASSERT_LE(node_tree.time, kNodeScatterMaxRatio * so_far);
  ASSERT_TRUE(with.link_greedy);
  ExpectSameNodes(with.link_greedy_tree, node_tree.tree, 0, 64);
  const PlannedTreeChoice gather = PlannedTree(false, blocks, 32, one, false, weighs);
  const PlannedTreeChoice gather_without =
      PlannedTree(false, blocks, 32, one, false, NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNone));
  EXPECT_EQ(gather.link_greedy, gather_without.link_greedy);
  ExpectSameNodes(gather.link_greedy_tree, gather_without.link_greedy_tree, 0,
                  gather.link_greedy ? 64 : 0);
  // Without nodes (one rank a node) there is no node tree to weigh.
  EXPECT_EQ(
      PlannedTree(true, blocks, 32, one, true, NodeLinkOf(costs, 1, ScatterTreesOnNodes::kNodeTree))
          .link_greedy,
      without.link_greedy);
}

// A root that took a tree over nodes (chosen) took the faster of the greedy tree (the plain call's
// shape for the blocks, from the radix the root would take otherwise) and the fastest node scatter
// tree, priced on TwoLevel() at most kNodeScatterMaxRatio of that radix tree. Returns the shape.
int ExpectFasterTreeOverNodes(const PlannedTreeChoice& chosen,
                              const std::vector<std::int64_t>& blocks, int root, int radix,
                              const NodeLinkCosts& node_link) {
  const int p = static_cast<int>(blocks.size());
  const int shape =
      SmallScatterShape(p, ShapeBlockBytes(blocks), radix, node_link.small_call, root);
  EXPECT_GT(shape, 0);
  const Tree greedy = BuildGreedyTree(blocks, root, shape);
  const LogGPParams two_level = node_link.TwoLevel();
  const NodeScatterChoice node_tree = FastestNodeScatterTree(blocks, root, 16, two_level);
  const double greedy_time = PlannedScatterTime(greedy, two_level);
  ExpectSameNodes(chosen.link_greedy_tree, greedy_time < node_tree.time ? greedy : node_tree.tree,
                  0, p);
  EXPECT_LE(
      std::min(greedy_time, node_tree.time),
      kNodeScatterMaxRatio * ScatterTime(ModelTree::kPlanned, blocks, root, radix, two_level, 0));
  return shape;
}

// kNodeAndGreedyTrees also weighs the plain call's greedy tree, and beyond the link-greedy tree's
// limits: 400 bytes a rank (the mean above kLinkGreedyMaxMeanBytes), p = 560 in nodes of 16. There
// kNodeTree weighs nothing, and kNodeAndGreedyTrees takes one of the two trees, the faster on
// two_level, priced at most kNodeScatterMaxRatio of the radix tree.
TEST(NodeScatterTree, GreedyTreeToo) {
  const RadixCosts costs = ClusterClassCosts();
  const std::vector<std::int64_t> blocks(560, 400);
  const LogGPParams one = costs.SmallCallParams(1);
  const PlannedTreeChoice radix =
      PlannedTree(true, blocks, 280, one, true, NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNone));
  ASSERT_FALSE(radix.link_greedy);
  EXPECT_FALSE(PlannedTree(true, blocks, 280, one, true,
                           NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNodeTree))
                   .link_greedy);
  const NodeLinkCosts both = NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNodeAndGreedyTrees);
  const PlannedTreeChoice chosen = PlannedTree(true, blocks, 280, one, true, both);
  ASSERT_TRUE(chosen.link_greedy);
  const int shape = ExpectFasterTreeOverNodes(chosen, blocks, 280, radix.radix, both);
  // The library hands its cache of the shapes in (greedy_shape): asked once, for this call's shape,
  // and the choice is the same.
  NodeLinkCosts cached = both;
  int asked = 0;
  cached.greedy_shape = [&](int p, std::int64_t size_class, int radix_of_call, int root) {
    ++asked;
    EXPECT_EQ(p, 560);
    EXPECT_EQ(size_class, ShapeBlockBytes(blocks));
    EXPECT_EQ(radix_of_call, radix.radix);
    EXPECT_EQ(root, 280);
    return shape;
  };
  ExpectSameNodes(PlannedTree(true, blocks, 280, one, true, cached).link_greedy_tree,
                  chosen.link_greedy_tree, 0, 560);
  EXPECT_EQ(asked, 1);
}

// kNodeAndGreedyTreesToLargerP weighs the two trees on more than kNodeScatterMaxRanks ranks, up to
// kScatterTreesMaxRanks: p = 2048 in nodes of 16, 4 bytes a rank and 160 on every 16th (the first
// of a node), where kNodeAndGreedyTrees keeps the choice without them and the larger rule takes
// the faster of the two, priced at most kNodeScatterMaxRatio of that choice. Above
// kScatterTreesMaxRanks it keeps that choice too.
TEST(NodeScatterTree, LargerPToo) {
  const RadixCosts costs = ClusterClassCosts();
  const LogGPParams one = costs.SmallCallParams(1);
  std::vector<std::int64_t> blocks(2048, 4);
  for (std::size_t r = 0; r < blocks.size(); r += 16) blocks[r] = 160;
  const NodeLinkCosts none = NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNone);
  const NodeLinkCosts larger =
      NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNodeAndGreedyTreesToLargerP);
  const PlannedTreeChoice without = PlannedTree(true, blocks, 1024, one, true, none);
  ASSERT_FALSE(without.link_greedy);
  EXPECT_FALSE(PlannedTree(true, blocks, 1024, one, true,
                           NodeLinkOf(costs, 16, ScatterTreesOnNodes::kNodeAndGreedyTrees))
                   .link_greedy);
  const PlannedTreeChoice chosen = PlannedTree(true, blocks, 1024, one, true, larger);
  ASSERT_TRUE(chosen.link_greedy);
  ExpectFasterTreeOverNodes(chosen, blocks, 1024, without.radix, larger);
  const std::vector<std::int64_t> more(kScatterTreesMaxRanks + 1, 40);
  EXPECT_FALSE(PlannedTree(true, more, 4096, one, true, larger).link_greedy);
}

// FastestNodeScatterTree's wide shapes (leader ranges 16) count on kWideShapesMinNodes nodes and
// more: p = 2048 (128 nodes of 16), 40 bytes a rank, on the cluster class's costs, where one of
// them is priced below the 12 shapes' fastest; on 127 nodes they are not weighed (the same choice).
TEST(NodeScatterTree, WideShapesOnManyNodes) {
  const LogGPParams two_level =
      NodeLinkOf(ClusterClassCosts(), 16, ScatterTreesOnNodes::kNone).TwoLevel();
  const std::vector<std::int64_t> blocks(16 * kWideShapesMinNodes, 40);
  const NodeScatterChoice narrow = FastestNodeScatterTree(blocks, 1024, 16, two_level);
  const NodeScatterChoice wide = FastestNodeScatterTree(blocks, 1024, 16, two_level, true);
  EXPECT_EQ(wide.shape.leader_ranges, 16);
  EXPECT_LT(wide.time, narrow.time);
  EXPECT_EQ(wide.time, PlannedScatterTime(wide.tree, two_level));
  const std::vector<std::int64_t> fewer(16 * (kWideShapesMinNodes - 1), 40);
  const NodeScatterChoice few_narrow = FastestNodeScatterTree(fewer, 1016, 16, two_level);
  const NodeScatterChoice few_wide = FastestNodeScatterTree(fewer, 1016, 16, two_level, true);
  EXPECT_TRUE(few_wide.shape == few_narrow.shape);
  EXPECT_EQ(few_wide.time, few_narrow.time);
}

}  // namespace
}  // namespace tuw::tree
