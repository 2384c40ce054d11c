// Distributions against the formulas of Traeff 2017/2018, hand-computed values, and the m / m'
// columns of the 2017 paper's Table 1 (p = 560).
#include <gtest/gtest.h>

#include <stdexcept>

#include "distributions.hpp"

namespace irr::dist {
namespace {

using V = std::vector<std::int64_t>;

TEST(Distributions, HandComputedSmallCases) {
  Params prm;
  prm.b = 10;
  EXPECT_EQ(Generate("same", 4, prm), (V{10, 10, 10, 10}));
  // decreasing: floor(2b(p-i)/p)+1 with p=4, b=10: 80/4+1=21, 60/4+1=16, 40/4+1=11, 20/4+1=6.
  EXPECT_EQ(Generate("decreasing", 4, prm), (V{21, 16, 11, 6}));
  // increasing: floor(2b(i+1)/p)+1: 20/4+1=6, 11, 16, 21.
  EXPECT_EQ(Generate("increasing", 4, prm), (V{6, 11, 16, 21}));
  // alternating: b + floor(b/2) = 15 on even ranks, b - floor(b/2) = 5 on odd ones.
  EXPECT_EQ(Generate("alternating", 5, prm), (V{15, 5, 15, 5, 15}));
  EXPECT_EQ(Generate("two_blocks", 4, prm), (V{10, 0, 0, 10}));
  EXPECT_EQ(Generate("two_blocks", 1, prm), (V{10}));
  // skewed, rho = 5, p = 8: the first 5 hold floor(8*10/5) = 16, the others 1.
  EXPECT_EQ(Generate("skewed", 8, prm), (V{16, 16, 16, 16, 16, 1, 1, 1}));
  prm.b = 7;  // odd b: alternating 7+3=10 / 7-3=4
  EXPECT_EQ(Generate("alternating", 2, prm), (V{10, 4}));
}

TEST(Distributions, RandomOnesStayInRangeAndAreReproducible) {
  Params prm;
  prm.b = 100;
  prm.seed = 42;
  const V r = Generate("random", 1000, prm);
  for (auto x : r) EXPECT_TRUE(1 <= x && x <= 200);
  EXPECT_EQ(r, Generate("random", 1000, prm));
  prm.seed = 43;
  EXPECT_NE(r, Generate("random", 1000, prm));
  const V s = Generate("spikes", 5000, prm);
  int spikes = 0;
  for (auto x : s) {
    EXPECT_TRUE(x == 1 || x == 500);
    spikes += x == 500;
  }
  EXPECT_NEAR(spikes / 5000.0, 0.2, 0.03);  // probability 1/rho
  const V inc = Generate("random_increasing", 300, prm);
  EXPECT_TRUE(std::is_sorted(inc.begin(), inc.end()));
  const V dec = Generate("random_decreasing", 300, prm);
  EXPECT_TRUE(std::is_sorted(dec.rbegin(), dec.rend()));
  for (auto x : Generate("bucket", 300, prm)) EXPECT_TRUE(50 + 1 <= x && x <= 50 + 100);
}

// Table 1 of Traeff 2017 (p = 560): the m and m' columns of the deterministic rows.
TEST(Distributions, PaperTableOneTotals) {
  struct Row {
    const char* name;
    std::int64_t b, m, m_padded;
  };
  const Row rows[] = {
      {"same", 1, 560, 560},
      {"same", 10000, 5600000, 5600000},
      {"decreasing", 1, 842, 1680},
      {"decreasing", 10, 5900, 11760},
      {"decreasing", 1000, 561320, 1120560},
      {"alternating", 1, 560, 560},
      {"alternating", 10, 5600, 8400},
      {"two_blocks", 1, 2, 560},
      {"two_blocks", 10000, 20000, 5600000},
  };
  for (const Row& row : rows) {
    Params prm;
    prm.b = row.b;
    const Totals t = Summarize(Generate(row.name, 560, prm));
    EXPECT_EQ(t.m, row.m) << row.name << " b=" << row.b;
    EXPECT_EQ(t.m_padded, row.m_padded) << row.name << " b=" << row.b;
  }
}

TEST(Distributions, RejectsBadInput) {
  Params prm;
  EXPECT_THROW(Generate("gaussian", 4, prm), std::invalid_argument);
  EXPECT_THROW(Generate("same", 0, prm), std::invalid_argument);
  prm.b = 0;
  EXPECT_THROW(Generate("same", 4, prm), std::invalid_argument);
  prm.b = 1;
  prm.rho = 1.0;
  EXPECT_THROW(Generate("spikes", 4, prm), std::invalid_argument);
}

}  // namespace
}  // namespace irr::dist
