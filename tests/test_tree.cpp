// Pure tree construction, checked against hand derivations from Lemmas 1-3 (Traeff 2017) and
// against the paper's time bounds evaluated by an independent one-ported cost evaluation.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <tuple>

#include "carried_cubes.hpp"
#include "greedy_tree.hpp"
#include "hypercube_tree.hpp"
#include "scatter_schedule.hpp"

namespace tuw::tree {
namespace {

const ChildEdge& Child(const Tree& t, int rank, std::size_t k) {
  return t.nodes[rank].children.at(k);
}

// p = 11, root 9 (the shape of the paper's Figure 2), m = 3 1 4 1 5 9 2 6 5 3 5 (44 in all).
// Round 0 (pairs; T = M - m_g is 0 for singletons, so ties go to the larger M, full ties right):
//   (0,1): M 3 > 1 -> 1 sends to 0; [0,1] g=0 M=4 T=1.   (2,3): 4 > 1 -> 3 sends to 2; g=2 M=5 T=1.
//   (4,5): 5 < 9 -> 4 sends to 5; g=5 M=14 T=5.          (6,7): 2 < 6 -> 6 sends to 7; g=7 M=8 T=2.
//   (8,9): holds root 9 -> 8 sends to 9; g=9 M=8 T=5.    10 has no partner.
// Round 1: [0,1] T=1 vs [2,3] T=1, M 4 < 5 -> 0 sends to 2; [0..3] g=2 M=9 T=5.
//   [4,5] T=5 > [6,7] T=2 -> 7 sends to 5; [4..7] g=5 M=22 T=13.
//   [8,9] holds the root -> 10 sends to 9; [8..10] g=9 M=13.
// Round 2: [0..3] T=5 < [4..7] T=13 -> 2 sends to 5; [0..7] g=5 M=31. [8..10] has no partner.
// Round 3: [8..10] holds the root -> 5 sends [0..7] (31) to 9.
TEST(AdaptiveTree, HandDerivedElevenProcessesRootNine) {
  const Tree t = BuildTree(TreeKind::kAdaptive, {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}, 9);
  EXPECT_EQ(t.root, 9);
  ASSERT_EQ(t.nodes[9].children.size(), 3u);
  EXPECT_EQ(Child(t, 9, 0), (ChildEdge{8, 0, 8, 8, 5, {}}));
  EXPECT_EQ(Child(t, 9, 1), (ChildEdge{10, 1, 10, 10, 5, {}}));
  EXPECT_EQ(Child(t, 9, 2), (ChildEdge{5, 3, 0, 7, 31, {}}));
  EXPECT_EQ(t.nodes[9].bytes, 44);
  ASSERT_EQ(t.nodes[5].children.size(), 3u);
  EXPECT_EQ(Child(t, 5, 0), (ChildEdge{4, 0, 4, 4, 5, {}}));
  EXPECT_EQ(Child(t, 5, 1), (ChildEdge{7, 1, 6, 7, 8, {}}));
  EXPECT_EQ(Child(t, 5, 2), (ChildEdge{2, 2, 0, 3, 9, {}}));
  EXPECT_EQ(t.nodes[5].parent, 9);
  EXPECT_EQ(t.nodes[5].parent_level, 3);
  EXPECT_EQ(Child(t, 2, 0), (ChildEdge{3, 0, 3, 3, 1, {}}));
  EXPECT_EQ(Child(t, 2, 1), (ChildEdge{0, 1, 0, 1, 4, {}}));
  EXPECT_EQ(Child(t, 0, 0), (ChildEdge{1, 0, 1, 1, 1, {}}));
  EXPECT_EQ(Child(t, 7, 0), (ChildEdge{6, 0, 6, 6, 2, {}}));
  for (int leaf : {1, 3, 4, 6, 8, 10}) EXPECT_TRUE(t.nodes[leaf].children.empty()) << leaf;
  // Node 5's buffer in rank order: [0..3] (9) | 4 (5) | own (9) | [6,7] (8).
  const PieceOffsets offsets = ComputePieceOffsets(t.nodes[5]);
  EXPECT_EQ(offsets.child, (std::vector<std::int64_t>{9, 23, 0}));
  EXPECT_EQ(offsets.own, 14);
}

// p = 5 (not a power of two), root 0, m = 0 0 7 0 0.
// Round 0: (0,1) holds the root -> 1 to 0 (0 bytes). (2,3): T 0 = 0, M 7 > 0 -> 3 to 2. 4 alone.
// Round 1: [0,1] holds the root -> 2 sends [2,3] (7) to 0. [4] has no partner in round 1.
// Round 2: [0..3] holds the root -> 4 sends [4] (0 bytes) to 0.
TEST(AdaptiveTree, HandDerivedZeroBlocksNonPowerOfTwo) {
  const Tree t = BuildTree(TreeKind::kAdaptive, {0, 0, 7, 0, 0}, 0);
  ASSERT_EQ(t.nodes[0].children.size(), 3u);
  EXPECT_EQ(Child(t, 0, 0), (ChildEdge{1, 0, 1, 1, 0, {}}));
  EXPECT_EQ(Child(t, 0, 1), (ChildEdge{2, 1, 2, 3, 7, {}}));
  EXPECT_EQ(Child(t, 0, 2), (ChildEdge{4, 2, 4, 4, 0, {}}));
  EXPECT_EQ(Child(t, 2, 0), (ChildEdge{3, 0, 3, 3, 0, {}}));
}

// Without a given root, a full tie lets the right cube's root survive: Same at p = 2000 ends at
// rank 1023 (the left cube of 1024 has the larger gather time), as the 2018 paper's Table 1 says.
TEST(AdaptiveTree, FreeRootOfSameIs1023AtP2000) {
  const Tree t = BuildTree(TreeKind::kAdaptive, std::vector<std::int64_t>(2000, 1000), -1);
  EXPECT_EQ(t.root, 1023);
}

// Oblivious, p = 6, root 2. Round 0: (0,1) -> 0 to 1; (2,3) holds root -> 3 to 2; (4,5) -> 4 to 5.
// Round 1: [2,3] holds the root -> 1 to 2; [4,5] has no partner. Round 2: 5 to 2.
TEST(ObliviousTree, HandDerivedSixProcessesRootTwo) {
  const Tree t = BuildTree(TreeKind::kOblivious, {1, 2, 3, 4, 5, 6}, 2);
  ASSERT_EQ(t.nodes[2].children.size(), 3u);
  EXPECT_EQ(Child(t, 2, 0), (ChildEdge{3, 0, 3, 3, 4, {}}));
  EXPECT_EQ(Child(t, 2, 1), (ChildEdge{1, 1, 0, 1, 3, {}}));
  EXPECT_EQ(Child(t, 2, 2), (ChildEdge{5, 2, 4, 5, 11, {}}));
  EXPECT_EQ(Child(t, 1, 0), (ChildEdge{0, 0, 0, 0, 1, {}}));
  EXPECT_EQ(Child(t, 5, 0), (ChildEdge{4, 0, 4, 4, 5, {}}));
}

// Radix 3, p = 7, root 5, m = 3 1 4 1 5 9 2 (25 in all). Round 0 (groups of three singletons,
// T = 0 everywhere, so the larger M wins, full ties the rightmost):
//   {0,1,2}: M 3, 1, 4 -> 2 wins; 0 and 1 send to 2; [0..2] g=2 M=8 m_g=4 T=4.
//   {3,4,5}: holds root 5 -> 3 and 4 send to 5; [3..5] g=5 M=15.   {6}: no partner.
// Round 1: {[0..2], [3..5], [6]} holds the root -> 2 ([0..2], 8) and 6 ([6], 2) send to 5.
// Children of one round in ascending bytes (a scatter serves the largest first).
TEST(RadixTree, HandDerivedRadixThreeSevenProcessesRootFive) {
  const Tree t = BuildTree(TreeKind::kAdaptive, {3, 1, 4, 1, 5, 9, 2}, 5, 3);
  EXPECT_EQ(t.root, 5);
  ASSERT_EQ(t.nodes[5].children.size(), 4u);
  EXPECT_EQ(Child(t, 5, 0), (ChildEdge{3, 0, 3, 3, 1, {}}));
  EXPECT_EQ(Child(t, 5, 1), (ChildEdge{4, 0, 4, 4, 5, {}}));
  EXPECT_EQ(Child(t, 5, 2), (ChildEdge{6, 1, 6, 6, 2, {}}));
  EXPECT_EQ(Child(t, 5, 3), (ChildEdge{2, 1, 0, 2, 8, {}}));
  EXPECT_EQ(t.nodes[5].bytes, 25);
  ASSERT_EQ(t.nodes[2].children.size(), 2u);
  EXPECT_EQ(Child(t, 2, 0), (ChildEdge{1, 0, 1, 1, 1, {}}));
  EXPECT_EQ(Child(t, 2, 1), (ChildEdge{0, 0, 0, 0, 3, {}}));
  EXPECT_EQ(t.nodes[2].parent, 5);
  EXPECT_EQ(t.nodes[2].parent_level, 1);
  EXPECT_EQ(CeilLog(7, 3), 2);
  EXPECT_EQ(CeilLog(9, 3), 2);
  EXPECT_EQ(CeilLog(10, 3), 3);
  EXPECT_EQ(CeilLog(1, 3), 0);
  EXPECT_THROW(CeilLog(8, 1), std::invalid_argument);
  EXPECT_THROW(CeilLog(8, 0), std::invalid_argument);
  EXPECT_THROW(CeilLog(8, -1), std::invalid_argument);
}

// Radix 3 without a given root, Same at p = 9: every merge is a full tie, so the rightmost cube
// wins: 2, 5, 8 in round 0, then 8.
TEST(RadixTree, FreeRootOfSameIsTheLastRank) {
  EXPECT_EQ(BuildTree(TreeKind::kAdaptive, std::vector<std::int64_t>(9, 10), -1, 3).root, 8);
}

// Oblivious radix 3, p = 7, root 2: round 0: {0,1,2} holds the root -> 0, 1 to 2; {3,4,5} -> 3,
// 4 to 5; round 1: 5 ([3..5]) and 6 to 2. The local view (no sizes) has the same shape.
TEST(RadixTree, HandDerivedObliviousRadixThree) {
  const Tree t = BuildTree(TreeKind::kOblivious, {1, 1, 1, 1, 1, 1, 1}, 2, 3);
  ASSERT_EQ(t.nodes[2].children.size(), 4u);
  EXPECT_EQ(Child(t, 2, 0), (ChildEdge{0, 0, 0, 0, 1, {}}));
  EXPECT_EQ(Child(t, 2, 1), (ChildEdge{1, 0, 1, 1, 1, {}}));
  EXPECT_EQ(Child(t, 2, 2), (ChildEdge{5, 1, 3, 5, 3, {}}));
  EXPECT_EQ(Child(t, 2, 3), (ChildEdge{6, 1, 6, 6, 1, {}}));
  EXPECT_EQ(Child(t, 5, 0), (ChildEdge{3, 0, 3, 3, 1, {}}));
  EXPECT_EQ(Child(t, 5, 1), (ChildEdge{4, 0, 4, 4, 1, {}}));
  const NodeView five = ObliviousLocalView(5, 7, 2, 3);
  EXPECT_EQ(five.parent, 2);
  EXPECT_EQ(five.parent_level, 1);
  EXPECT_EQ(five.children.size(), 2u);
  EXPECT_THROW(ObliviousLocalView(0, 7, 2, 1), std::invalid_argument);
  EXPECT_THROW(BuildTree(TreeKind::kAdaptive, {1, 2}, 0, kMaxRadix + 1), std::invalid_argument);
}

// One-ported completion time (alpha + beta*bytes per message, children received in round order,
// a child ready only when its own subtree is done), evaluated independently of the construction.
double CompletionTime(const Tree& t, int node, double alpha, double beta) {
  double time = 0;
  for (const ChildEdge& c : t.nodes[node].children) {
    time = std::max(time, CompletionTime(t, c.child, alpha, beta)) + alpha + beta * c.bytes;
  }
  return time;
}

std::vector<std::int64_t> RandomSizes(std::mt19937_64& rng, int p) {
  std::vector<std::int64_t> m(p);
  for (auto& x : m) x = (rng() % 4 == 0) ? 0 : static_cast<std::int64_t>(rng() % 1000);
  if (rng() % 3 == 0) m[rng() % p] = 100000;
  return m;
}

class TreeProperties : public ::testing::TestWithParam<int> {};

TEST_P(TreeProperties, StructureAndPaperBounds) {
  const int p = GetParam();
  std::mt19937_64 rng(p);
  const int levels = CeilLog2(p);
  for (int trial = 0; trial < 20; ++trial) {
    const auto m = RandomSizes(rng, p);
    std::int64_t total = 0;
    for (auto x : m) total += x;
    const int given_root = static_cast<int>(rng() % p);
    for (int radix : {2, 3, 5}) {
      const int rounds = CeilLog(p, radix);
      for (TreeKind kind : {TreeKind::kAdaptive, TreeKind::kOblivious}) {
        const Tree t = BuildTree(kind, m, given_root, radix);
        ASSERT_EQ(t.root, given_root);
        EXPECT_LE(t.nodes[t.root].children.size(), static_cast<std::size_t>(rounds * (radix - 1)));
        for (int i = 0; i < p; ++i) {
          const NodeView& v = t.nodes[i];
          // At most radix - 1 children a round, in ascending rounds, before its own send.
          std::vector<int> per_round(rounds + 1, 0);
          for (const ChildEdge& c : v.children) {
            ASSERT_LT(c.level, rounds);
            EXPECT_LT(++per_round[c.level], radix) << "rank " << i << " radix " << radix;
            if (v.parent != -1) {
              EXPECT_LT(c.level, v.parent_level);
            }
          }
          std::int64_t range_bytes = 0;
          for (int k = v.lo; k <= v.hi; ++k) range_bytes += m[k];
          EXPECT_EQ(v.bytes, range_bytes) << "rank " << i;
          EXPECT_TRUE(v.lo <= i && i <= v.hi);
          std::int64_t pieces = v.own_bytes;
          int ranks = 1;
          for (const ChildEdge& c : v.children) {
            pieces += c.bytes;
            ranks += c.hi - c.lo + 1;
            EXPECT_EQ(t.nodes[c.child].parent, i);
            EXPECT_EQ(t.nodes[c.child].parent_level, c.level);
          }
          EXPECT_EQ(pieces, v.bytes);
          EXPECT_EQ(ranks, v.hi - v.lo + 1);
          if (i != t.root) {
            EXPECT_NE(v.parent, -1);
          }
          if (kind == TreeKind::kOblivious) {
            NodeView local = ObliviousLocalView(i, p, given_root, radix);
            NodeView expected = v;
            expected.bytes = expected.own_bytes = 0;
            for (auto& c : expected.children) c.bytes = 0;
            EXPECT_EQ(local, expected) << "rank " << i;
          }
        }
        // Lemma 2: fixed root costs at most the linear time plus a penalty < beta * sum_{i!=r} m_i.
        const double linear = levels * 100.0 + (total - m[given_root]);
        if (kind == TreeKind::kAdaptive && radix == 2) {
          EXPECT_LE(CompletionTime(t, t.root, 100.0, 1.0), linear + (total - m[given_root]));
        }
      }
    }
    // Lemma 1 / Proposition 1: with the root chosen by the construction no one ever waits:
    // completion time <= ceil(log2 p) alpha + beta * sum_{i != r} m_i.
    const Tree free_tree = BuildTree(TreeKind::kAdaptive, m, -1);
    EXPECT_LE(CompletionTime(free_tree, free_tree.root, 100.0, 1.0),
              levels * 100.0 + (total - m[free_tree.root]) + 1e-9);
  }
}

// TUWk_Scatterv's plan: the root computes only its own node, and every child its node from its
// range's sizes alone (the subtree is the same construction over the range). Both must be
// BuildTree's nodes, or the processes would disagree on who sends to whom.
TEST_P(TreeProperties, EveryNodeFromItsRangeAloneIsBuildTreesNode) {
  const int p = GetParam();
  if (p > 100) GTEST_SKIP() << "quadratic check; p <= 100 covers every shape";
  std::mt19937_64 rng(p + 1);
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<std::int64_t> m = RandomSizes(rng, p);
    if (trial == 0) m.assign(p, 0);  // nothing to send: the tree of an error header
    const int given_root = trial % 2 == 0 ? static_cast<int>(rng() % p) : -1;
    for (int radix : {2, 3, 4, 9}) {
      const Tree t = BuildTree(TreeKind::kAdaptive, m, given_root, radix);
      for (int i = 0; i < p; ++i) {
        EXPECT_EQ(AdaptiveNodeOf(m.data(), p, given_root, radix, i), t.nodes[i])
            << "rank " << i << " radix " << radix;
        const NodeView& v = t.nodes[i];
        if (i == t.root) continue;
        NodeView from_range = AdaptiveNodeOf(m.data() + v.lo, v.hi - v.lo + 1, -1, radix, i - v.lo);
        from_range.rank += v.lo;
        from_range.lo += v.lo;
        from_range.hi += v.lo;
        for (ChildEdge& c : from_range.children) {
          c.child += v.lo;
          c.lo += v.lo;
          c.hi += v.lo;
        }
        NodeView expected = v;
        expected.parent = expected.parent_level = -1;  // the range's own root
        EXPECT_EQ(from_range, expected) << "rank " << i << " radix " << radix;
      }
    }
  }
}

// TUWk_Scatterv's size messages: each size in the fewest of 1, 2, 4, 8 bytes that hold the largest.
TEST(SizeMessage, FewestBytesThatHoldTheLargest) {
  EXPECT_EQ(SizeFieldWidth(0), 1);
  EXPECT_EQ(SizeFieldWidth(255), 1);
  EXPECT_EQ(SizeFieldWidth(256), 2);
  EXPECT_EQ(SizeFieldWidth(65535), 2);
  EXPECT_EQ(SizeFieldWidth(65536), 4);
  EXPECT_EQ(SizeFieldWidth((std::int64_t{1} << 32) - 1), 4);
  EXPECT_EQ(SizeFieldWidth(std::int64_t{1} << 32), 8);
  const std::int64_t sizes[] = {4, 4, 300};
  EXPECT_EQ(SizeMessageBytes(sizes, 3), 32 + 2 * 3);
  EXPECT_EQ(SizeMessageBytes(sizes + 1, 2), 32 + 2 * 2);
  EXPECT_EQ(SizeMessageBytes(sizes, 1), 32 + 1);
  EXPECT_EQ(SizeMessageBytes(sizes, 2), 32 + 1);  // equal sizes: one field for both
  EXPECT_EQ(SizeMessageBytes(sizes, 0), 32);
  EXPECT_TRUE(UniformSizes(sizes, 2));
  EXPECT_FALSE(UniformSizes(sizes, 3));
  EXPECT_FALSE(UniformSizes(sizes, 1));  // one size is one field anyway
}

INSTANTIATE_TEST_SUITE_P(ManyP, TreeProperties,
                         ::testing::Values(1, 2, 3, 5, 7, 8, 11, 16, 17, 31, 64, 100, 1000));

TEST(Tree, RejectsBadInput) {
  EXPECT_THROW(BuildTree(TreeKind::kAdaptive, {}, 0), std::invalid_argument);
  EXPECT_THROW(BuildTree(TreeKind::kAdaptive, {1, 2}, 2), std::invalid_argument);
  EXPECT_THROW(BuildTree(TreeKind::kAdaptive, {1, -2}, 0), std::invalid_argument);
  EXPECT_THROW(BuildTree(TreeKind::kOblivious, {1, 2}, -1), std::invalid_argument);
  const std::int64_t two[] = {1, 2}, negative[] = {1, -2};
  EXPECT_THROW(AdaptiveNodeOf(two, 2, 2, 2, 0), std::invalid_argument);
  EXPECT_THROW(AdaptiveNodeOf(two, 2, 0, 2, 2), std::invalid_argument);
  EXPECT_THROW(AdaptiveNodeOf(negative, 2, 0, 2, 0), std::invalid_argument);
  EXPECT_THROW(AdaptiveNodeOf(two, 2, 0, 1, 0), std::invalid_argument);
}

// A scatter parent, rank 4 of [0, 15], on node {4, 5, 6, 7}; its children in receive order: the
// leaves 5 (10 KB) and 6 (100 B) on its node, 0 holding [0, 3] (50 KB), and 7 holding [7, 15]
// (200 KB: on the node, but it forwards to other nodes). Serial from 8 KiB; by hand, descending
// rounds are indices 3, 2, 1, 0.
TEST(ScatterSchedule, LocalLeavesGoWhileTheFirstSerialSendIsOnTheWire) {
  NodeView v;
  v.rank = 4;
  v.lo = 0;
  v.hi = 15;
  v.children = {{5, 0, 5, 5, 10000, {}},
                {6, 1, 6, 6, 100, {}},
                {0, 2, 0, 3, 50000, {}},
                {7, 3, 7, 15, 200000, {}}};
  const std::vector<int> node = {4, 5, 6, 7};
  // Child 7 (index 3) posted, the node's leaves behind it without waiting for it, then one wait
  // for all three, then child 0 (index 2) alone.
  EXPECT_EQ(ScatterSchedule(v, node, 8192),
            (std::vector<ScatterSend>{
                {3, true, false}, {1, false, false}, {0, false, true}, {2, true, true}}));
  // Nodes unknown: descending rounds, every message of 8 KiB or more waited for on its own.
  EXPECT_EQ(ScatterSchedule(v, {}, 8192),
            (std::vector<ScatterSend>{
                {3, true, true}, {2, true, true}, {1, false, false}, {0, true, true}}));
  // No serial network send (all below 1 MB): nothing to overlap, the old order, nobody waits.
  EXPECT_EQ(ScatterSchedule(v, node, 1 << 20),
            (std::vector<ScatterSend>{
                {3, false, false}, {2, false, false}, {1, false, false}, {0, false, false}}));
  // The first network send small, the second serial: the leaves follow the second.
  v.children[3].bytes = 100;
  EXPECT_EQ(ScatterSchedule(v, node, 8192),
            (std::vector<ScatterSend>{
                {3, false, false}, {2, true, false}, {1, false, false}, {0, false, true}}));
  // A child on the node that holds more than itself forwards: ordered like a network child.
  v.children[0].hi = 6;
  v.children.erase(v.children.begin() + 1);
  EXPECT_EQ(ScatterSchedule(v, node, 8192),
            (std::vector<ScatterSend>{{2, false, false}, {1, true, true}, {0, true, true}}));
  // Into a buffer the model keeps (its old contents replaced): the same schedule.
  std::vector<ScatterSend> kept = {
      {9, true, true}, {8, false, true}, {7, true, false}, {6, false, false}, {5, true, true}};
  ScatterSchedule(v, node, 8192, &kept);
  EXPECT_EQ(kept, (std::vector<ScatterSend>{{2, false, false}, {1, true, true}, {0, true, true}}));
}

// ---- the LogP-greedy tree of a small TUWk_Scatterv call ----

// n = 8, step 2: f(x) = 1, 1, 2, 3, 5, 8 for x = 0..5, so T = 5 and the sender's children hold
// f(3), f(2), f(1), f(0) = 3, 2, 1, 1 ranks. Range [1..3] (T = 3): f(1), f(0) = 1, 1; [4, 5]: 1.
// Times: 0 sends to 1, 4, 6, 7 at 0, 1, 2, 3; 1 (ready at 2) to 2, 3 at 2, 3; 4 (ready at 3) to 5
// at 3: everyone has it by 5 = T.
TEST(GreedyTree, HandDerivedEightRanksStepTwo) {
  EXPECT_EQ(GreedyChildCounts(8, 2), (std::vector<int>{3, 2, 1, 1}));
  EXPECT_EQ(GreedyChildCounts(3, 2), (std::vector<int>{1, 1}));
  EXPECT_EQ(GreedyChildCounts(8, 1), (std::vector<int>{4, 2, 1}));  // step 1: binomial
  EXPECT_TRUE(GreedyChildCounts(1, 3).empty());
  const std::vector<std::int64_t> bytes{1, 2, 3, 4, 5, 6, 7, 8};
  const Tree t = BuildGreedyTree(bytes, 0, 2);
  const auto ranges = [&](int rank) {  // the first sent first
    std::vector<std::pair<int, int>> r;
    for (auto c = t.nodes[rank].children.rbegin(); c != t.nodes[rank].children.rend(); ++c)
      r.push_back({c->lo, c->hi});
    return r;
  };
  using R = std::vector<std::pair<int, int>>;
  EXPECT_EQ(ranges(0), (R{{1, 3}, {4, 5}, {6, 6}, {7, 7}}));
  EXPECT_EQ(ranges(1), (R{{2, 2}, {3, 3}}));
  EXPECT_EQ(ranges(4), (R{{5, 5}}));
  EXPECT_EQ(t.nodes[4].bytes, 11);
  EXPECT_EQ(t.nodes[5].parent, 4);
  // Root 5: the ranges start at 6 and wrap; the first (3 ranks) is split at the end: [6, 7], [0].
  const Tree w = BuildGreedyTree(bytes, 5, 2);
  std::vector<std::pair<int, int>> top;
  for (auto c = w.nodes[5].children.rbegin(); c != w.nodes[5].children.rend(); ++c)
    top.push_back({c->lo, c->hi});
  EXPECT_EQ(top, (R{{6, 7}, {0, 0}, {1, 2}, {3, 3}, {4, 4}}));
  EXPECT_THROW(GreedyChildCounts(8, 0), std::invalid_argument);
  EXPECT_THROW(BuildGreedyTree(bytes, 8, 2), std::invalid_argument);
}

// A node's children's ranges [lo, hi], the first sent first (NodeView holds them the other way).
std::vector<std::pair<int, int>> ChildRangesSentFirstFirst(const Tree& t, int rank) {
  std::vector<std::pair<int, int>> r;
  for (auto c = t.nodes[rank].children.rbegin(); c != t.nodes[rank].children.rend(); ++c)
    r.push_back({c->lo, c->hi});
  return r;
}

// Two levels, by hand (steps 1: binomial counts). n = 8, 4 ranks a node, root 0: the network
// children over the nodes {0, 1}: node 1 = [4, 7]; then the root's own node [0, 3] by the node
// step: [1, 2], [3, 3]. Rank 4's range is one node: [5, 6], [7, 7]. Root 5: node 0 whole, then
// its node's ranges start after it and wrap: [6, 7], [4, 4]. n = 10 (nodes [0, 3], [4, 7],
// [8, 9]), root 0: nodes 1 and 2 to rank 4 ([4, 9], GreedyChildCounts(3, 1) = {2}), which sends
// node 2 ([8, 9]) on, then its node's [5, 6], [7, 7].
TEST(GreedyTree, TwoLevelsByHand) {
  GreedyShape shape;
  shape.step = 1;
  shape.node_step = 1;
  shape.ranks_per_node = 4;
  const int code = ShapeCode(shape);
  using R = std::vector<std::pair<int, int>>;
  const auto ranges = ChildRangesSentFirstFirst;
  const std::vector<std::int64_t> eight(8, 4), ten(10, 4);
  const Tree a = BuildGreedyTree(eight, 0, code);
  EXPECT_EQ(ranges(a, 0), (R{{4, 7}, {1, 2}, {3, 3}}));
  EXPECT_EQ(ranges(a, 4), (R{{5, 6}, {7, 7}}));
  EXPECT_EQ(ranges(a, 1), (R{{2, 2}}));
  const Tree b = BuildGreedyTree(eight, 5, code);
  EXPECT_EQ(ranges(b, 5), (R{{0, 3}, {6, 7}, {4, 4}}));
  EXPECT_EQ(ranges(b, 6), (R{{7, 7}}));
  EXPECT_EQ(ranges(b, 0), (R{{1, 2}, {3, 3}}));
  const Tree c = BuildGreedyTree(ten, 0, code);
  EXPECT_EQ(ranges(c, 0), (R{{4, 9}, {1, 2}, {3, 3}}));
  EXPECT_EQ(ranges(c, 4), (R{{8, 9}, {5, 6}, {7, 7}}));
  EXPECT_EQ(ranges(c, 8), (R{{9, 9}}));
  // A range's node from the range alone, placed in the communicator by its first rank.
  EXPECT_EQ(GreedyNodeOf(ten.data() + 4, 6, -1, code, 0, 4).children.size(), 3u);
  // the first sent is the last child: node 2, [8, 9] - 4
  EXPECT_EQ(GreedyNodeOf(ten.data() + 4, 6, -1, code, 0, 4).children[2].lo, 4);
  EXPECT_EQ(GreedyNodeOf(ten.data() + 4, 6, -1, code, 0, 4).children[2].hi, 5);
  // Codes: one level is the step itself; a two-level code decodes to its shape; others fail.
  GreedyShape decoded;
  EXPECT_TRUE(ShapeOfCode(9, &decoded));
  EXPECT_EQ(decoded.step, 9);
  EXPECT_FALSE(decoded.TwoLevel());
  shape.step = 10;
  shape.node_step = 3;
  shape.ranks_per_node = kMaxShapeRanksPerNode;
  ASSERT_TRUE(ShapeOfCode(ShapeCode(shape), &decoded));
  EXPECT_EQ(decoded.step, 10);
  EXPECT_EQ(decoded.node_step, 3);
  EXPECT_EQ(decoded.ranks_per_node, kMaxShapeRanksPerNode);
  for (int bad : {0, -1, kMaxGreedyStep + 1, 1 | 1 << 14, 1 | 3 << 7, 1 | 3 << 7 | 1 << 14}) {
    EXPECT_FALSE(ShapeOfCode(bad, &decoded)) << bad;
  }
  EXPECT_THROW(BuildGreedyTree(eight, 0, 1 | 3 << 7), std::invalid_argument);
}

// Equal node ranges, by hand: 2 ranks a node, network parts at most 3, node step 1. n = 16
// (nodes 0 ... 7), root 0: the 7 other nodes in parts of 3, 2, 2 (the larger first): [2, 7],
// [8, 11], [12, 15], then its node's [1, 1]; rank 2 holds nodes 1 ... 3: two parts of one node,
// [4, 5], [6, 7], then [3, 3]. Root 6 (node 3): the parts start after its node and wrap, the one
// that crosses the end split in two: nodes 4 ... 6, then 7 and 0 (two children), then 1 ... 2.
// The by-hand trees' shape: 2 ranks a node, at most 3 network parts, node step 1.
GreedyShape ThreeEqualParts(bool by_bytes) {
  GreedyShape shape;
  shape.step = 3;
  shape.node_step = 1;
  shape.ranks_per_node = 2;
  shape.equal_node_ranges = true;
  shape.by_bytes = by_bytes;
  return shape;
}

TEST(GreedyTree, EqualNodeRangesByHand) {
  GreedyShape shape = ThreeEqualParts(false);
  const int code = ShapeCode(shape);
  using R = std::vector<std::pair<int, int>>;
  const auto ranges = ChildRangesSentFirstFirst;
  const std::vector<std::int64_t> sixteen(16, 4);
  const Tree a = BuildGreedyTree(sixteen, 0, code);
  EXPECT_EQ(ranges(a, 0), (R{{2, 7}, {8, 11}, {12, 15}, {1, 1}}));
  EXPECT_EQ(ranges(a, 2), (R{{4, 5}, {6, 7}, {3, 3}}));
  EXPECT_EQ(ranges(a, 8), (R{{10, 11}, {9, 9}}));
  const Tree b = BuildGreedyTree(sixteen, 6, code);
  EXPECT_EQ(ranges(b, 6), (R{{8, 13}, {14, 15}, {0, 1}, {2, 5}, {7, 7}}));
  // rank 8's node from its range alone ([8, 11], first rank 8): node 5, then [9, 9]
  const NodeView eight = GreedyNodeOf(sixteen.data() + 8, 4, -1, code, 0, 8);
  ASSERT_EQ(eight.children.size(), 2u);
  EXPECT_EQ(eight.children[1].lo, 2);  // the first sent is the last child: [10, 11] - 8
  EXPECT_EQ(eight.children[1].hi, 3);
  EXPECT_EQ(eight.children[0].lo, 1);
  // The flag survives its code and is no one-level shape's.
  GreedyShape decoded;
  ASSERT_TRUE(ShapeOfCode(code, &decoded));
  EXPECT_TRUE(decoded.equal_node_ranges);
  EXPECT_EQ(decoded.step, 3);
  shape.equal_node_ranges = false;
  ASSERT_TRUE(ShapeOfCode(ShapeCode(shape), &decoded));
  EXPECT_FALSE(decoded.equal_node_ranges);
  EXPECT_FALSE(ShapeOfCode(3 | 1 << 30, &decoded));
  EXPECT_FALSE(ShapeOfCode(-code, &decoded));
}

// Equal node ranges cut at equal bytes, by hand: 2 ranks a node, at most 3 parts, node step 1,
// n = 16, root 0. Ranks 2, 3 (node 1) hold 30 000 bytes each, every other rank 5000: the other
// nodes' bytes in order are 60 000, then 10 000 six times (120 000: at least 3 parts of
// kByteCutMinPartBytes; a part's share 40 000): node 1 alone reaches it, nodes 2 and 3 bring the
// sum to 80 000, nodes 4 ... 7 are the rest: [2, 3], [4, 7], [8, 15] (equal counts: [2, 7],
// [8, 11], [12, 15]); rank 8 splits nodes 5 ... 7 one a part. Nodes 3 ... 7 empty (shares of
// 23 333): [2, 3], [4, 5], and the last part takes the empty rest, [6, 15]. A thousandth of those
// bytes (parts below kByteCutMinPartBytes), or none: the equal counts.
TEST(GreedyTree, EqualByteRangesByHand) {
  GreedyShape shape = ThreeEqualParts(true);
  const int code = ShapeCode(shape);
  using R = std::vector<std::pair<int, int>>;
  const auto ranges = ChildRangesSentFirstFirst;
  std::vector<std::int64_t> bytes(16, 5000);
  bytes[2] = bytes[3] = 30000;
  const Tree a = BuildGreedyTree(bytes, 0, code);
  EXPECT_EQ(ranges(a, 0), (R{{2, 3}, {4, 7}, {8, 15}, {1, 1}}));
  EXPECT_EQ(ranges(a, 8), (R{{10, 11}, {12, 13}, {14, 15}, {9, 9}}));
  std::vector<std::int64_t> thousandth(16);
  for (int r = 0; r < 16; ++r) thousandth[r] = bytes[r] / 1000;
  for (int r = 6; r < 16; ++r) bytes[r] = 0;
  EXPECT_EQ(ranges(BuildGreedyTree(bytes, 0, code), 0), (R{{2, 3}, {4, 5}, {6, 15}, {1, 1}}));
  const std::vector<std::int64_t> none(16, 0);
  shape.by_bytes = false;
  for (const auto& small : {thousandth, none}) {
    EXPECT_EQ(ranges(BuildGreedyTree(small, 0, code), 0),
              ranges(BuildGreedyTree(small, 0, ShapeCode(shape)), 0));
  }
  // The flag survives its code; without equal ranges it is no shape's.
  GreedyShape decoded;
  ASSERT_TRUE(ShapeOfCode(code, &decoded));
  EXPECT_TRUE(decoded.equal_node_ranges && decoded.by_bytes);
  EXPECT_EQ(code, ShapeCode(shape) | 1 << 29);
  EXPECT_FALSE(ShapeOfCode((ShapeCode(shape) & ~(1 << 30)) | 1 << 29, &decoded));
}

// Every node: its rank and its children's ranges tile its range, each child's node holds the
// edge's range, every process is reached by T (+1 at the top, where a range may be split), every
// node is GreedyNodeOf's, and a child's subtree is the greedy tree of its range alone (what a
// child of TUWk_Scatterv computes from the range it was sent).
TEST(GreedyTree, TilesItsRangesInTimeAndFromTheRangeAlone) {
  std::mt19937 gen(7);
  for (int n : {1, 2, 3, 5, 8, 13, 31, 64, 100, 560}) {
    std::vector<std::int64_t> bytes(n);
    for (auto& b : bytes) b = std::uniform_int_distribution<int>(0, 9)(gen);
    for (int step : {1, 2, 3, 5, 9}) {
      int steps_needed = 0;  // T: the least x with f(x) >= n
      for (std::vector<std::int64_t> f;; ++steps_needed) {
        f.push_back(steps_needed < step ? 1 : f[steps_needed - 1] + f[steps_needed - step]);
        if (f.back() >= n) break;
      }
      for (int root : {-1, 0, n / 2, n - 1}) {
        SCOPED_TRACE("n " + std::to_string(n) + " step " + std::to_string(step) + " root " +
                     std::to_string(root));
        const Tree t = BuildGreedyTree(bytes, root, step);
        std::vector<int> ready(n, -1);
        ready[t.root] = 0;
        std::vector<int> order{t.root};
        for (std::size_t at = 0; at < order.size(); ++at) {
          const NodeView& v = t.nodes[order[at]];
          EXPECT_EQ(v, GreedyNodeOf(bytes.data(), n, root, step, v.rank));
          std::vector<bool> covered(n, false);
          covered[v.rank] = true;
          std::int64_t sum = v.own_bytes;
          int sent = 0;
          for (auto c = v.children.rbegin(); c != v.children.rend(); ++c, ++sent) {
            for (int r = c->lo; r <= c->hi; ++r) {
              EXPECT_FALSE(covered[r]);
              covered[r] = true;
            }
            sum += c->bytes;
            const NodeView& child = t.nodes[c->child];
            EXPECT_EQ(child.parent, v.rank);
            EXPECT_EQ(child.lo, c->lo);
            EXPECT_EQ(child.hi, c->hi);
            EXPECT_EQ(c->child, c->lo);
            ready[c->child] = ready[v.rank] + sent + step;
            order.push_back(c->child);
            // the child's subtree from its range alone
            std::vector<std::int64_t> range(bytes.begin() + c->lo, bytes.begin() + c->hi + 1);
            const NodeView alone = GreedyNodeOf(range.data(), c->hi - c->lo + 1, -1, step, 0);
            ASSERT_EQ(alone.children.size(), child.children.size());
            for (std::size_t k = 0; k < alone.children.size(); ++k) {
              EXPECT_EQ(alone.children[k].lo + c->lo, child.children[k].lo);
              EXPECT_EQ(alone.children[k].hi + c->lo, child.children[k].hi);
            }
          }
          for (int r = 0; r < n; ++r) EXPECT_EQ(covered[r], v.lo <= r && r <= v.hi) << r;
          EXPECT_EQ(sum, v.bytes);
        }
        EXPECT_EQ(static_cast<int>(order.size()), n);
        for (int r = 0; r < n; ++r) EXPECT_LE(ready[r], steps_needed + (root > 0 ? 1 : 0)) << r;
      }
    }
  }
}

// Two levels, at random sizes: every node's children tile its range; a child range is either
// inside its sender's node or whole nodes without the sender's (so it begins at a node's first
// rank, and a node's ranks other than its first are reached inside the node); every node is
// GreedyNodeOf's; and a child's subtree is the same shape over its range alone, placed by its
// first rank (what TUWk_Scatterv's child computes from the message's range).
TEST(GreedyTree, TwoLevelsTileWholeNodesAndFromTheRangeAlone) {
  std::mt19937 gen(11);
  Tree kept;  // one buffer for every tree below, as the model's shape search keeps one
  for (int n : {2, 3, 7, 16, 33, 64, 100, 560, 17}) {
    std::vector<std::int64_t> bytes(n);  // KB-sized: byte cuts (kByteCutMinPartBytes) happen
    for (auto& b : bytes) b = 1000 * std::uniform_int_distribution<int>(0, 9)(gen);
    for (int per : {2, 3, 4, 16}) {
      for (const auto& [step, node_step, equal, by_bytes] :
           {std::tuple{1, 1, false, false}, std::tuple{3, 2, false, false},
            std::tuple{9, 4, false, false}, std::tuple{3, 2, true, false},
            std::tuple{32, 4, true, false}, std::tuple{3, 2, true, true},
            std::tuple{32, 4, true, true}}) {
        GreedyShape shape;
        shape.step = step;
        shape.node_step = node_step;
        shape.ranks_per_node = per;
        shape.equal_node_ranges = equal;
        shape.by_bytes = by_bytes;
        const int code = ShapeCode(shape);
        for (int root : {-1, 0, n / 2, n - 1}) {
          SCOPED_TRACE("n " + std::to_string(n) + " per " + std::to_string(per) + " steps " +
                       (by_bytes ? "b"
                        : equal  ? "e"
                                 : "") +
                       std::to_string(step) + "/" + std::to_string(node_step) + " root " +
                       std::to_string(root));
          const Tree t = BuildGreedyTree(bytes, root, code);
          BuildGreedyTree(bytes, root, code, &kept);  // over the last tree: the same
          EXPECT_EQ(kept.root, t.root);
          EXPECT_TRUE(kept.nodes == t.nodes);
          int placed = 0;
          for (const NodeView& v : t.nodes) {
            ++placed;
            EXPECT_EQ(v, GreedyNodeOf(bytes.data(), n, root, code, v.rank));
            std::vector<bool> covered(n, false);
            covered[v.rank] = true;
            for (const ChildEdge& c : v.children) {
              for (int r = c.lo; r <= c.hi; ++r) {
                EXPECT_FALSE(covered[r]) << r;
                covered[r] = true;
              }
              EXPECT_EQ(c.child, c.lo);
              EXPECT_EQ(t.nodes[c.child].parent, v.rank);
              const bool inside = c.lo / per == v.rank / per && c.hi / per == v.rank / per;
              const bool whole_nodes = c.lo % per == 0 &&
                                       (c.hi % per == per - 1 || c.hi == n - 1) &&
                                       !(c.lo / per <= v.rank / per && v.rank / per <= c.hi / per);
              EXPECT_TRUE(inside || whole_nodes)
                  << v.rank << " -> [" << c.lo << ", " << c.hi << "]";
              std::vector<std::int64_t> range(bytes.begin() + c.lo, bytes.begin() + c.hi + 1);
              const NodeView alone = GreedyNodeOf(range.data(), c.hi - c.lo + 1, -1, code, 0, c.lo);
              const NodeView& child = t.nodes[c.child];
              ASSERT_EQ(alone.children.size(), child.children.size());
              for (std::size_t k = 0; k < alone.children.size(); ++k) {
                EXPECT_EQ(alone.children[k].lo + c.lo, child.children[k].lo);
                EXPECT_EQ(alone.children[k].hi + c.lo, child.children[k].hi);
              }
            }
            for (int r = 0; r < n; ++r) EXPECT_EQ(covered[r], v.lo <= r && r <= v.hi) << r;
          }
          EXPECT_EQ(placed, n);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tuw::tree

// TUWk_Gatherv's carrying rule (carried_cubes.hpp), by hand: a group of three cubes of four ranks.
TEST(CarriedCubes, HandDerivedGroupOfThree) {
  using namespace tuw::tree;
  const std::vector<CubeRange> group = {{0, 3}, {4, 7}, {8, 11}};
  EXPECT_EQ(CarrierCube(group, 5), 1u);   // the root's cube
  EXPECT_EQ(CarrierCube(group, 20), 2u);  // else the last
  const CubeSummary small_at_hi{7, 100, 10};
  EXPECT_TRUE(CarriesData(group[1], small_at_hi, true, 0, 8192));
  EXPECT_FALSE(CarriesData(group[1], small_at_hi, false, 0, 8192));   // data spread
  EXPECT_FALSE(CarriesData(group[1], {6, 100, 10}, true, 0, 8192));   // not at its last rank
  EXPECT_FALSE(CarriesData(group[1], {7, 8193, 10}, true, 0, 8192));  // too large
  EXPECT_TRUE(CarriesData(group[1], {7, 8192, 10}, true, 0, 8192));   // the limit itself
  EXPECT_FALSE(CarriesData(group[1], small_at_hi, true, 5, 8192));    // holds the root
  EXPECT_FALSE(CarriesData(group[1], small_at_hi, true, 0, -1));      // carrying off
  // The root's cube (here the first, large and spread) need not carry; all the others must.
  const std::vector<CubeSummary> cubes = {{1, 50000, 0}, {7, 100, 10}, {11, 0, 0}};
  EXPECT_TRUE(GroupCarried(group, cubes, {false, true, true}, 1, 8192));
  EXPECT_FALSE(GroupCarried(group, cubes, {false, false, true}, 1, 8192));
  EXPECT_FALSE(GroupCarried(group, cubes, {false, true, true}, 20, 8192));  // no root: 1st too
  EXPECT_FALSE(GroupCarried({{0, 3}}, {{3, 0, 0}}, {true}, 20, 8192));      // no partner
  // The root is told by the others itself where it is not its cube's fixed root.
  EXPECT_TRUE(RootToldDirectly(group, 5, 8192));
  EXPECT_FALSE(RootToldDirectly(group, 7, 8192));   // the root is that fixed root
  EXPECT_FALSE(RootToldDirectly(group, 20, 8192));  // not the root's group
  EXPECT_FALSE(RootToldDirectly(group, 5, -1));     // carrying off: TUW's messages
}

// BuildCarriedTree by hand: p = 4, radix 2, root 0, blocks of 4 bytes. At level 0 both pairs carry
// (rank 1 to the root, rank 2 to rank 3, which then holds 8 bytes); at level 1 the pair {2, 3}
// carries to the root where 8 bytes may be carried (no edge at all), and sends in the data phase
// where only 4 may.
TEST(CarriedCubes, HandDerivedFourRanks) {
  using namespace tuw::tree;
  const std::vector<std::int64_t> blocks = {4, 4, 4, 4};
  std::vector<char> done;
  std::vector<CarriedGroup> groups;
  Tree all = BuildCarriedTree(blocks, 0, 2, 8, &groups, &done);
  EXPECT_EQ(done, (std::vector<char>{0, 1, 1, 1}));
  EXPECT_TRUE(all.nodes[0].children.empty());
  EXPECT_EQ(all.nodes[0].bytes, 16);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_TRUE(groups[0].merged && groups[1].merged && groups[2].merged);
  EXPECT_EQ(groups[1].carrier, 1u);  // {2} and {3}: the last
  EXPECT_EQ(groups[2].sends_data, (std::vector<char>{0, 1}));
  EXPECT_FALSE(groups[0].root_told_directly);  // the root is its cube's fixed root
  EXPECT_TRUE(groups[2].root_told_directly);   // {0, 1}'s fixed root is 1
  Tree some = BuildCarriedTree(blocks, 0, 2, 4, nullptr, &done);
  EXPECT_EQ(done, (std::vector<char>{0, 1, 1, 0}));
  ASSERT_EQ(some.nodes[0].children.size(), 1u);
  EXPECT_EQ(some.nodes[0].children[0], (ChildEdge{3, 1, 2, 3, 8, {}}));
  EXPECT_EQ(some.nodes[3].own_bytes, 8);
  EXPECT_EQ(some.nodes[3].parent, 0);
  // No carrying: BuildTree's tree.
  EXPECT_EQ(BuildCarriedTree(blocks, 0, 2, -1).nodes[2],
            BuildTree(TreeKind::kAdaptive, blocks, 0, 2).nodes[2]);
}

// The root's group told only (RootToldOnly), by hand: p = 9, radix 3, root 0, carrying up to 8
// bytes, 16 to the root; rank 7's block is 100 bytes, the others 4. Level 0: {1} and {2} carry to
// the root, {3} and {4} to 5 (12 bytes there); {6, 7, 8} merges as TUW's, at 7 (the heaviest).
// Level 1, the top: {3-5} (12 <= 16, held at 5) carries to the root and is done although {6-8}
// does not (spread), which is the root's child; with the group's exchange (root limit -1) 12 > 8:
// no cube carries and {3-5} is a child as well.
TEST(CarriedCubes, HandDerivedRootToldOnly) {
  using namespace tuw::tree;
  const std::vector<CubeRange> top = {{0, 2}, {3, 5}, {6, 8}};
  EXPECT_TRUE(RootToldOnly(top, 0, 8, 16));
  EXPECT_FALSE(RootToldOnly(top, 0, 8, -1));
  EXPECT_FALSE(RootToldOnly(top, 2, 8, 16));  // the root is its cube's fixed root
  EXPECT_EQ(CarryLimit(top, 0, 8, 16), 16);
  EXPECT_EQ(CarryLimit(top, 0, 8, 4), 8);    // never below the groups' limit
  EXPECT_EQ(CarryLimit(top, 20, 8, 16), 8);  // not the root's group
  // A rank's own block is carried in its first group with another cube: at level 0 the root is its
  // cube of one's fixed root, so only a rank alone until later can carry more than 8.
  EXPECT_EQ(FirstCarryLimit(1, 9, 3, 0, 8, 16), 8);
  EXPECT_EQ(FirstCarryLimit(4, 9, 3, 0, 8, 16), 8);
  EXPECT_EQ(FirstCarryLimit(9, 10, 3, 0, 8, 16), 16);  // {9} alone until {0-8}, {9}
  EXPECT_EQ(FirstCarryLimit(9, 10, 3, 8, 8, 16), 8);   // there the root is {0-8}'s fixed root
  const std::vector<std::int64_t> blocks = {4, 4, 4, 4, 4, 4, 4, 100, 4};
  std::vector<char> done;
  std::vector<CarriedGroup> groups;
  const Tree told_only = BuildCarriedTree(blocks, 0, 3, 8, &groups, &done, 16);
  EXPECT_EQ(done, (std::vector<char>{0, 1, 1, 1, 1, 1, 0, 0, 0}));
  ASSERT_EQ(told_only.nodes[0].children.size(), 1u);
  EXPECT_EQ(told_only.nodes[0].children[0], (ChildEdge{7, 1, 6, 8, 108, {}}));
  EXPECT_EQ(told_only.nodes[7].children.size(), 2u);
  EXPECT_EQ(told_only.nodes[0].bytes, 132);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_FALSE(groups[0].root_told_only);  // {0}, {1}, {2}: the root is {0}'s fixed root
  EXPECT_TRUE(groups[3].root_told_only && groups[3].last_level && !groups[3].merged);
  EXPECT_EQ(groups[3].sends_data, (std::vector<char>{0, 1, 0}));
  const Tree exchanged = BuildCarriedTree(blocks, 0, 3, 8, nullptr, &done, -1);
  EXPECT_EQ(done, (std::vector<char>{0, 1, 1, 1, 1, 0, 0, 0, 0}));
  ASSERT_EQ(exchanged.nodes[0].children.size(), 2u);
  EXPECT_EQ(exchanged.nodes[0].children[0], (ChildEdge{5, 1, 3, 5, 12, {}}));
}
