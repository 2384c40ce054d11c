// The cost model against the 2018 paper's Table 1, hand-computed trees, brute force over all
// ordered trees for small p, and the identities the paper states (scatter = gather, bounds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "distributions.hpp"
#include "hypercube_tree.hpp"
#include "tree_costs.hpp"

// The DPs own large tables: copying one would be a bug (and was a double free once).
static_assert(!std::is_copy_constructible_v<irr::model::OptimalDp>);
static_assert(!std::is_copy_constructible_v<irr::model::BinaryDp>);
static_assert(std::is_move_constructible_v<irr::model::OptimalDp>);

namespace {

using irr::model::CostParams;
using irr::model::GatherTime;
using irr::model::OptimalCost;
using irr::model::ScatterTime;
using irr::model::TreeCost;
using irr::model::TreeType;
using V = std::vector<std::int64_t>;

V Problem2018(const std::string& dist, int p = 2000, std::int64_t b = 1000) {
  irr::dist::Params params;
  params.b = b;
  params.rho = 5;
  params.two_blocks_2018 = true;
  return irr::dist::Generate(dist, p, params);
}

// Table 1 of Traeff 2018 (p = 2000, b = 1000, r = 1000, rho = 5, alpha = 100, beta = 1):
// per tree (linear, binary, oblivious, adaptive, optimal) the fixed-root time, the best-root
// time and the best root the paper printed.
struct Published {
  const char* dist;
  double gamma;
  long long m;
  double fixed[5];
  double best[5];
};
const Published kTable1[] = {
    {"same",
     1,
     2000000,
     {2199900, 3611600, 2001100, 2001100, 2001100},
     {2199900, 3227500, 2001100, 2001100, 2001100}},
    {"decreasing",
     1,
     2003000,
     {2202900, 4416588, 2353624, 2266244, 2004200},
     {2202900, 3224561, 2004100, 2004100, 2004000}},
    {"increasing",
     1,
     2003000,
     {2202900, 3917085, 3048580, 2955452, 2004200},
     {2202900, 3233477, 2097228, 2004100, 2004000}},
    {"alternating",
     1,
     2000000,
     {2199900, 3610600, 2001100, 2001100, 2001100},
     {2199900, 3227500, 2001100, 2001100, 2001100}},
    {"skewed",
     1,
     2001995,
     {2201895, 4403490, 17203057, 4003090, 2003495},
     {2201895, 2402295, 2003095, 2003095, 2002295}},
    {"two_blocks",
     1,
     2000000,
     {2000200, 3000200, 11001100, 3000200, 2000200},
     {2000100, 2000100, 2000100, 2000100, 2000100}},
    {"same",
     0,
     2000000,
     {2198900, 3609600, 2000100, 2000100, 2000100},
     {2198900, 3226500, 2000100, 2000100, 2000100}},
    {"decreasing",
     0,
     2003000,
     {2201899, 4413708, 2351624, 2264243, 2003199},
     {2200899, 3223075, 2002099, 2002099, 2001999}},
    {"increasing",
     0,
     2003000,
     {2201898, 3912715, 3046595, 2953659, 2003198},
     {2200899, 3227925, 2095243, 2002307, 2002000}},
    {"alternating",
     0,
     2000000,
     {2198400, 3604600, 2000600, 1999600, 1999600},
     {2198400, 3223000, 2000600, 1999600, 1999600}},
    {"skewed",
     0,
     2001995,
     {2201894, 4003489, 16803057, 3603090, 2003294},
     {1801895, 2002295, 1603095, 1603095, 1602295}},
    {"two_blocks",
     0,
     2000000,
     {2000200, 2000200, 11001100, 2000200, 2000200},
     {1000100, 1000100, 1000100, 1000100, 1000100}},
};

// Readable test names in ctest instead of the parameter's bytes.
void PrintTo(const Published& row, std::ostream* os) {
  *os << row.dist << ", gamma = " << row.gamma;
}

class Table1 : public ::testing::TestWithParam<Published> {};

TEST_P(Table1, ReproducesThePublishedTimes) {
  const Published& row = GetParam();
  const V blocks = Problem2018(row.dist);
  long long m = 0;
  for (auto x : blocks) m += x;
  ASSERT_EQ(m, row.m);
  const CostParams c{100, 1, row.gamma};
  irr::model::TreeOptions paper;
  paper.oblivious_roots = irr::model::ObliviousRoots::kPaper;
  const irr::model::OptimalDp optimal(blocks, c);
  const irr::model::BinaryDp binary(blocks, c);
  for (int t = 0; t < 5; ++t) {
    const auto type = static_cast<TreeType>(t);
    SCOPED_TRACE(irr::model::TreeNames()[t]);
    const double fixed = type == TreeType::kOptimal  ? optimal.Fixed(1000).time
                         : type == TreeType::kBinary ? binary.Fixed(1000).time
                                                     : TreeCost(type, blocks, c, 1000).time;
    const double best = type == TreeType::kOptimal  ? optimal.Best().time
                        : type == TreeType::kBinary ? binary.Best().time
                                                    : TreeCost(type, blocks, c, -1, paper).time;
    if (type == TreeType::kOptimal) {  // the paper's DP differs by one unit in one cell
      EXPECT_NEAR(fixed, row.fixed[t], 1e-5 * row.fixed[t]);
      EXPECT_NEAR(best, row.best[t], 1e-5 * row.best[t]);
    } else {
      EXPECT_EQ(fixed, row.fixed[t]);
      EXPECT_EQ(best, row.best[t]);
    }
  }
  // Searching every root can only do better than the paper's oblivious candidates.
  EXPECT_LE(TreeCost(TreeType::kOblivious, blocks, c, -1).time, row.best[2]);
}

INSTANTIATE_TEST_SUITE_P(Traeff2018, Table1, ::testing::ValuesIn(kTable1), [](const auto& info) {
  return std::string(info.param.dist) + "_gamma" +
         std::to_string(static_cast<int>(info.param.gamma));
});

// ---- hand-computed trees ----

TEST(HandComputed, LinearStar) {
  // root 1 copies 2, then receives 1 and 3: 2 + (10 + 1) + (10 + 3)
  EXPECT_EQ(TreeCost(TreeType::kLinear, {1, 2, 3}, {10, 1, 1}, 1).time, 26);
  // a zero block costs no message
  EXPECT_EQ(TreeCost(TreeType::kLinear, {1, 0, 3}, {10, 1, 1}, 0).time, 1 + 13);
}

TEST(HandComputed, BinomialOnFourProcessors) {
  // root 0: 1 -> 0 and 3 -> 2 in round 0 (each: copy 1, then 10 + 1 = 12), 2 -> 0 in round 1:
  // max(12, 12) + 10 + 2 = 24 = 2 alpha + m (Proposition 1)
  const V blocks{1, 1, 1, 1};
  EXPECT_EQ(TreeCost(TreeType::kOblivious, blocks, {10, 1, 1}, 0).time, 24);
  EXPECT_EQ(TreeCost(TreeType::kAdaptive, blocks, {10, 1, 1}, 0).time, 24);
  // gamma = 0, root 3: 2 -> 3 (10 + 1), 1 -> 3 after 0 -> 1 (11, then 10 + 2): max(11, 11) + 12
  EXPECT_EQ(TreeCost(TreeType::kOblivious, blocks, {10, 1, 0}, 3).time, 23);
}

TEST(HandComputed, TwoLevelBinomialOnFourProcessors) {
  // Nodes {0, 1} and {2, 3}, root 0; inside a node alpha 2, across 10, beta 1, gamma 1.
  // Rank 2: copy 1, then 3 -> 2 inside its node: max(1, 0) + 2 + 1 = 4. Rank 0: copy 1,
  // 1 -> 0 inside: 4, then 2 -> 0 across with 2 units: max(4, 4) + 10 + 2 = 16 (one level: 24).
  const V blocks{1, 1, 1, 1};
  const CostParams network{10, 1, 1};
  const irr::model::TwoLevelCosts two{network, {2, 1, 1}, {0, 0, 2, 2}};
  const auto tree = irr::model::BuildSequencedTree(TreeType::kOblivious, blocks, network, 0);
  EXPECT_EQ(GatherTime(tree, blocks, two), 16);
  // Scatter: 0 -> 2 (12), 0 -> 1 (15), copy (16); 2 -> 3 at 12 + 3 = 15, copy 16.
  EXPECT_EQ(ScatterTime(tree, blocks, two), 16);
  // Ranks 0 and 1 on one node with the root 3 across: the star pays 1 + 11 + 11 + 11 = 34,
  // and with everything on one node 1 + 3 * 3 = 10.
  const auto star = irr::model::BuildSequencedTree(TreeType::kLinear, blocks, network, 3);
  EXPECT_EQ(GatherTime(star, blocks, irr::model::TwoLevelCosts{network, {2, 1, 1}, {0, 0, 2, 3}}),
            34);
  EXPECT_EQ(GatherTime(star, blocks, irr::model::TwoLevelCosts{network, {2, 1, 1}, {0, 0, 0, 0}}),
            10);
  EXPECT_THROW(GatherTime(tree, blocks, irr::model::TwoLevelCosts{network, network, {0, 0, 2}}),
               std::invalid_argument);
}

TEST(HandComputed, MeasuredCurveInterpolates) {
  // Measured at 4, 8, 16 units: 2, 2.5, 4. Between: linear; beyond: the end segments' slopes
  // (0.125 below 4, 0.1875 above 16), never below 0; nothing for 0 units.
  const irr::model::MeasuredCurve curve({4, 8, 16}, {2, 2.5, 4});
  EXPECT_DOUBLE_EQ(curve.Comm(6), 2.25);
  EXPECT_DOUBLE_EQ(curve.Comm(8), 2.5);
  EXPECT_DOUBLE_EQ(curve.Comm(12), 3.25);
  EXPECT_DOUBLE_EQ(curve.Comm(16), 4);
  EXPECT_DOUBLE_EQ(curve.Comm(32), 7);
  EXPECT_DOUBLE_EQ(curve.Comm(2), 1.75);
  EXPECT_DOUBLE_EQ(curve.Comm(0), 0);
  EXPECT_DOUBLE_EQ(irr::model::MeasuredCurve({4, 8}, {1, 5}).Comm(1), 0);  // 1 - 3, clamped
  EXPECT_THROW(irr::model::MeasuredCurve({4}, {1}), std::invalid_argument);
  EXPECT_THROW(irr::model::MeasuredCurve({8, 4}, {1, 2}), std::invalid_argument);
  EXPECT_THROW(irr::model::MeasuredCurve({4, 8}, {1, -2}), std::invalid_argument);
  EXPECT_THROW(irr::model::MeasuredCurve({4, 8}, {1}), std::invalid_argument);
}

// A protocol switch at 300-400 units drops the time: the segment across it has slope 0.005, the
// steady stretches 0.1 (100-300) and 0.04 (400-700). Without two agreeing segments: the least
// positive slope (0.125 of 0.125, 0.1875), and 0 where no slope is positive.
TEST(HandComputed, LeastSteadySlopeSkipsAProtocolSwitch) {
  const irr::model::MeasuredCurve curve({100, 200, 300, 400, 500, 600, 700},
                                        {10, 20, 30, 30.5, 34.5, 38.5, 42.5});
  EXPECT_DOUBLE_EQ(curve.LeastSteadySlope(), 0.04);
  EXPECT_DOUBLE_EQ(irr::model::MeasuredCurve({4, 8, 16}, {2, 2.5, 4}).LeastSteadySlope(), 0.125);
  EXPECT_DOUBLE_EQ(irr::model::MeasuredCurve({4, 8}, {5, 1}).LeastSteadySlope(), 0);
}

// A message's per-unit rate at its size: its segment's slope where a neighbour agrees, else the
// nearer neighbour's where that one is steady (the curve's drop at 300-400 straddled), else none.
TEST(HandComputed, SteadySlopeAtASizeSkipsTheSwitch) {
  const irr::model::MeasuredCurve curve({100, 200, 300, 400, 500, 600},
                                        {1.0, 1.1, 1.2, 0.9, 1.0, 1.1});
  double slope = 0;
  ASSERT_TRUE(curve.SteadySlopeAt(150, &slope));
  EXPECT_NEAR(slope, 0.001, 1e-12);
  slope = 0;
  ASSERT_TRUE(curve.SteadySlopeAt(320, &slope));  // the left half: 200-300's
  EXPECT_NEAR(slope, 0.001, 1e-12);
  slope = 0;
  ASSERT_TRUE(curve.SteadySlopeAt(380, &slope));  // the right half: 400-500's
  EXPECT_NEAR(slope, 0.001, 1e-12);
  slope = 0;
  ASSERT_TRUE(curve.SteadySlopeAt(900, &slope));  // beyond the end: the last segment's
  EXPECT_NEAR(slope, 0.001, 1e-12);
  // Powers of two: 1, 0.25, 0.625 a unit, no two agree.
  EXPECT_FALSE(irr::model::MeasuredCurve({1, 2, 4, 8}, {1, 2, 2.5, 5}).SteadySlopeAt(3, &slope));
  EXPECT_FALSE(irr::model::MeasuredCurve({4, 8}, {2, 3}).SteadySlopeAt(6, &slope));
}

TEST(HandComputed, MeasuredCostsOnFourProcessors) {
  // Blocks of 4 units, gamma 0.25 (a copy: 1); root 0 copies, receives 1, then 2, which has
  // copied and received 3. Across nodes the curve above (4 units: 2, 8 units: 2.5).
  // One level (every rank its own node): rank 2 at max(1, 1) + 2 = 3; the root at
  // max(1, 1) + 2 = 3, then max(3, 3) + 2.5 = 5.5. Scatter: 0 -> 2 at 2.5, 0 -> 1 at 4.5,
  // copy 5.5; 2 -> 3 at 4.5, copies 5.5.
  const V blocks{4, 4, 4, 4};
  const CostParams line{100, 100, 0.25};  // the line is not used where the curve is given
  const irr::model::MeasuredCurve network({4, 8, 16}, {2, 2.5, 4});
  tuw::tree::SequencedTree tree;
  tree.root = 0;
  tree.steps = {{tuw::tree::SequencedTree::kCopy, 1, 2},
                {tuw::tree::SequencedTree::kCopy},
                {tuw::tree::SequencedTree::kCopy, 3},
                {tuw::tree::SequencedTree::kCopy}};
  const irr::model::TwoLevelCosts one{line, line, {0, 1, 2, 3}, network, network};
  EXPECT_DOUBLE_EQ(GatherTime(tree, blocks, one), 5.5);
  EXPECT_DOUBLE_EQ(ScatterTime(tree, blocks, one), 5.5);
  // Nodes {0, 1} and {2, 3}, inside a node 1 per 4 units: rank 2 at 1 + 1 = 2, the root at
  // 1 + 1 = 2, then 2 + 2.5 = 4.5; scatter 2.5 + 1 + 1 = 4.5 on every path.
  const irr::model::TwoLevelCosts two{
      line, line, {0, 0, 2, 2}, network, irr::model::MeasuredCurve({4, 8}, {1, 1.5})};
  EXPECT_DOUBLE_EQ(GatherTime(tree, blocks, two), 4.5);
  EXPECT_DOUBLE_EQ(ScatterTime(tree, blocks, two), 4.5);
  // Only the network measured: inside a node the local line, 0.5 + 0.25 * 4 = 1.5.
  const irr::model::TwoLevelCosts mixed{line, {0.5, 0.25, 0.25}, {0, 0, 2, 2}, network};
  EXPECT_DOUBLE_EQ(GatherTime(tree, blocks, mixed), 2.5 + 2.5);
}

TEST(HandComputed, OptimalOnTwoAndThree) {
  // p = 2, blocks 5 and 1: root 0 copies 5 while nothing else runs, then receives 1: 5 + 11;
  // root 1 receives 5 (15) then copies 1: 16. gamma = 0: root 0, 11.
  EXPECT_EQ(OptimalCost({5, 1}, {10, 1, 1}, -1).time, 16);
  EXPECT_EQ(OptimalCost({5, 1}, {10, 1, 0}, -1).time, 11);
  EXPECT_EQ(OptimalCost({5, 1}, {10, 1, 0}, -1).root, 0);
  // p = 3, blocks 1, 100, 1, alpha = 10, gamma = 1, root 1: receive [0] (11), copy 100 (111),
  // receive [2] (122); or copy while [2] is sent (max(100, 0) + 11 = 111), then [0]: 122.
  EXPECT_EQ(OptimalCost({1, 100, 1}, {10, 1, 1}, 1).time, 122);
  // alpha = 0: the bound beta * sum_{i != r} m_i + gamma * m_r = 9 + 3 is reached.
  EXPECT_EQ(OptimalCost({3, 3, 3, 3}, {0, 1, 1}, -1).time, 12);
}

// ---- brute force over all ordered trees, p <= 7 ----

struct BruteForce {
  V m;
  CostParams c;
  bool binary;
  std::map<std::tuple<int, int, int>, double> memo;

  double Size(int i, int j) const {
    double s = 0;
    for (int k = i; k <= j; ++k) s += static_cast<double>(m[k]);
    return s;
  }

  // The least time of a tree over [i..j] rooted at r, over every way of splitting the other
  // processors into child ranges, every child root, and every order the model allows.
  double Best(int i, int j, int r) {
    if (i == j) return 0;
    const auto key = std::make_tuple(i, j, r);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    double best = std::numeric_limits<double>::infinity();
    // child ranges: a composition of [i..r-1] and of [r+1..j] into consecutive intervals
    std::vector<std::pair<int, int>> left, right;
    std::function<void(int, int, std::vector<std::pair<int, int>>&, const std::function<void()>&)>
        compose = [&](int from, int to, std::vector<std::pair<int, int>>& parts,
                      const std::function<void()>& done) {
          if (from > to) return done();
          for (int end = from; end <= to; ++end) {
            parts.push_back({from, end});
            compose(end + 1, to, parts, done);
            parts.pop_back();
          }
        };
    compose(i, r - 1, left, [&] {
      compose(r + 1, j, right, [&] {
        std::vector<std::pair<int, int>> kids(left);
        kids.insert(kids.end(), right.begin(), right.end());
        if (binary && kids.size() > 2) return;
        // each child: its best subtree over any root of its range
        std::vector<double> kid_time, kid_size;
        for (auto [a, b] : kids) {
          double t = std::numeric_limits<double>::infinity();
          for (int root = a; root <= b; ++root) t = std::min(t, Best(a, b, root));
          kid_time.push_back(t);
          kid_size.push_back(Size(a, b));
        }
        std::vector<int> order(kids.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
        do {
          // binary trees are strongly ordered: rank order, copy in its rank position.
          // variable degree (Proposition 3): every received range extends the interval
          // gathered so far; the copy comes first, or second when the first range is the
          // one just left of the root.
          int lo = r, hi = r;
          bool valid = true;
          for (int k : order) {
            if (kids[k].second == lo - 1)
              lo = kids[k].first;
            else if (kids[k].first == hi + 1)
              hi = kids[k].second;
            else
              valid = false;
          }
          if (binary) valid = std::is_sorted(order.begin(), order.end());
          if (!valid) continue;
          int copy_at = 0;
          if (binary)
            copy_at = static_cast<int>(left.size());
          else if (!order.empty() && kids[order[0]].second == r - 1)
            copy_at = 1;
          double t = 0;
          for (std::size_t s = 0; s <= order.size(); ++s) {
            if (static_cast<int>(s) == copy_at) t += c.gamma * static_cast<double>(m[r]);
            if (s < order.size()) {
              t = std::max(t, kid_time[order[s]]) + c.Comm(kid_size[order[s]]);
            }
          }
          best = std::min(best, t);
        } while (std::next_permutation(order.begin(), order.end()));
      });
    });
    memo[key] = best;
    return best;
  }
};

TEST(BruteForce, OptimalAndBinaryDpAreOptimalForSmallP) {
  std::mt19937 rng(20181128);
  int checked = 0;
  for (int p = 1; p <= 7; ++p) {
    for (int trial = 0; trial < 6; ++trial) {
      V m(p);
      for (auto& x : m) x = rng() % 4 == 0 ? 0 : 1 + rng() % 30;
      for (const CostParams c : {CostParams{0, 1, 1}, CostParams{5, 1, 1}, CostParams{40, 1, 0},
                                 CostParams{7, 2, 0.5}}) {
        BruteForce opt{m, c, false, {}}, bin{m, c, true, {}};
        const irr::model::OptimalDp fast(m, c, irr::model::DpMethod::kFast);
        const irr::model::OptimalDp reference(m, c, irr::model::DpMethod::kReference);
        const irr::model::BinaryDp binary(m, c);
        double best_opt = std::numeric_limits<double>::infinity(), best_bin = best_opt;
        for (int r = 0; r < p; ++r) {
          SCOPED_TRACE("p=" + std::to_string(p) + " r=" + std::to_string(r));
          EXPECT_DOUBLE_EQ(fast.Fixed(r).time, opt.Best(0, p - 1, r));
          EXPECT_DOUBLE_EQ(reference.Fixed(r).time, opt.Best(0, p - 1, r));
          EXPECT_DOUBLE_EQ(binary.Fixed(r).time, bin.Best(0, p - 1, r));
          best_opt = std::min(best_opt, opt.Best(0, p - 1, r));
          best_bin = std::min(best_bin, bin.Best(0, p - 1, r));
          ++checked;
        }
        EXPECT_DOUBLE_EQ(fast.Best().time, best_opt);
        EXPECT_DOUBLE_EQ(reference.Best().time, best_opt);
        EXPECT_DOUBLE_EQ(binary.Best().time, best_bin);
      }
    }
  }
  EXPECT_GT(checked, 500);
}

// ---- identities and bounds on random problems ----

TEST(Identities, TreesReconstructedScatterEqualsGatherAndBoundsHold) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    const int p = 1 + static_cast<int>(rng() % 70);
    V m(p);
    for (auto& x : m) x = rng() % 5 == 0 ? 0 : rng() % 1000;
    const CostParams c{static_cast<double>(rng() % 200), 1, static_cast<double>(rng() % 2)};
    const int root = static_cast<int>(rng() % p);
    for (int t = 0; t < 5; ++t) {
      const auto type = static_cast<TreeType>(t);
      for (int r : {root, -1}) {
        SCOPED_TRACE(irr::model::TreeNames()[t] + " p=" + std::to_string(p) +
                     " r=" + std::to_string(r));
        const auto tree = irr::model::BuildSequencedTree(type, m, c, r);
        const auto cost = TreeCost(type, m, c, r);
        EXPECT_DOUBLE_EQ(GatherTime(tree, m, c), cost.time);   // the tree has the DP's time
        EXPECT_DOUBLE_EQ(ScatterTime(tree, m, c), cost.time);  // scatter costs the same
        // Two levels with equal costs inside and across nodes are the one-level model.
        std::vector<int> node_first(p);
        for (int i = 0; i < p; ++i)
          node_first[i] = i == 0 || rng() % 3 == 0 ? i : node_first[i - 1];
        const irr::model::TwoLevelCosts same{c, c, node_first};
        EXPECT_DOUBLE_EQ(GatherTime(tree, m, same), cost.time);
        EXPECT_DOUBLE_EQ(ScatterTime(tree, m, same), cost.time);
        // Costs measured on the line itself (sizes 1 .. 2^20) are the line.
        std::vector<double> sizes, times;
        for (double s = 1; s <= 1 << 20; s *= 4) sizes.push_back(s), times.push_back(c.Comm(s));
        const irr::model::MeasuredCurve on_line(sizes, times);
        const irr::model::TwoLevelCosts measured{c, c, node_first, on_line, on_line};
        EXPECT_NEAR(GatherTime(tree, m, measured), cost.time, 1e-9 * cost.time);
        EXPECT_NEAR(ScatterTime(tree, m, measured), cost.time, 1e-9 * cost.time);
        EXPECT_EQ(tree.root, cost.root);
        EXPECT_GE(cost.time, irr::model::LowerBound(m, c, cost.root).time - 1e-9);
        if (r >= 0) {
          EXPECT_LE(TreeCost(TreeType::kOptimal, m, c, r).time, cost.time + 1e-9);
        }
      }
    }
  }
}

TEST(Identities, ModelTreesAreTheAlgorithmsTrees) {
  // The model evaluates exactly the trees libtuwcoll executes: BuildTree for TUW_Gatherv and,
  // per rank, ObliviousLocalView for Binomial_Gatherv.
  const V m = Problem2018("random", 37, 50);
  for (int root : {0, 18, 36}) {
    const auto tree = tuw::tree::BuildTree(tuw::tree::TreeKind::kOblivious, m, root);
    const auto seq = irr::model::FromHypercube(tree);
    for (int rank = 0; rank < 37; ++rank) {
      const auto local = tuw::tree::ObliviousLocalView(rank, 37, root);
      EXPECT_EQ(local.parent, tree.nodes[rank].parent);
      std::vector<int> kids;
      for (const auto& edge : local.children) kids.push_back(edge.child);
      std::vector<int> steps(seq.steps[rank].begin(), seq.steps[rank].end());
      if (!steps.empty()) steps.erase(steps.begin());  // the copy
      EXPECT_EQ(steps, kids) << "rank " << rank;
    }
  }
  const auto adaptive = tuw::tree::BuildTree(tuw::tree::TreeKind::kAdaptive, m, -1);
  EXPECT_EQ(TreeCost(TreeType::kAdaptive, m, {100, 1, 1}, -1).root, adaptive.root);
}

TEST(Qualitative, RandomDistributionsAtPaperScale) {
  // The paper's findings for the distributions whose generator we cannot match.
  for (const std::string dist :
       {"random", "random_increasing", "random_decreasing", "bucket", "spikes"}) {
    for (double alpha : {1.0, 100.0, 1000.0}) {
      SCOPED_TRACE(dist + " alpha=" + std::to_string(alpha));
      const V m = Problem2018(dist, 1000);
      const CostParams c{alpha, 1, 1};
      const double optimal = OptimalCost(m, c, -1).time;
      const auto adaptive = TreeCost(TreeType::kAdaptive, m, c, -1);
      const double oblivious = TreeCost(TreeType::kOblivious, m, c, -1).time;
      EXPECT_LE(optimal, adaptive.time);
      EXPECT_LE(adaptive.time, oblivious);
      double total = 0;
      for (auto x : m) total += static_cast<double>(x);
      // Proposition 1: with gamma = beta and no empty block, exactly ceil(log2 p) alpha + m
      EXPECT_EQ(adaptive.time, tuw::tree::CeilLog2(1000) * alpha + total);
    }
  }
}

}  // namespace
