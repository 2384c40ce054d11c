#include "optimal_tree.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "dp_problem.hpp"
#include "node_tree.hpp"

namespace tuw::tree {
namespace {

using dp::CheckArguments;
using dp::kInf;
using dp::Problem;

// How the best tree over a range was formed (reconstruction codes).
constexpr int kRootFirst = -1;  // Equation 5 / one child to the right of the root
constexpr int kRootLast = -2;   // Equation 6 / one child to the left of the root
// Splits: 2k + 0: [i..k]'s root receives [k+1..j]; 2k + 1: [k+1..j]'s root receives [i..k].

// A split's time: the later of the two parts' completions, then one message of `sent` units.
// Written branch-free (and used by both the vectorized min and the argmin search, so that the
// two compute bit-identical values).
inline double SplitTime(double a, double b, double sent, double alpha, double beta) {
  return std::max(a, b) + (sent != 0 ? alpha : 0.0) + beta * sent;
}

// The least split time over k in [lo, hi): SplitTime(first[k], second[k + 1], sent(k)), and the
// first k of the block of kSplitBlock splits that holds it, so that finding its k (FindSplit)
// scans one block, not the range (it rescanned the range). Compiled for AVX2 too, one version a
// split kind (TUW_DP_SPLIT_LOOP). Both: BM_OptimalDp at p = 2000 1.58-1.62 -> 1.21-1.28 s.
constexpr int kSplitBlock = 64;
struct SplitMin {
  double value = kInf;
  int block = 0;
};
template <typename Sent>
TUW_DP_SPLIT_LOOP SplitMin BlockedSplitMin(const double* first, const double* second, int lo,
                                           int hi, Sent sent, double alpha, double beta) {
  SplitMin best;
  for (int start = lo; start < hi; start += kSplitBlock) {
    const int end = std::min(start + kSplitBlock, hi);
    double smallest = kInf;
#pragma omp simd reduction(min : smallest)
    for (int k = start; k < end; ++k)
      smallest = std::min(smallest, SplitTime(first[k], second[k + 1], sent(k), alpha, beta));
    if (smallest < best.value) best.value = smallest, best.block = start;
  }
  return best;
}
template <typename Sent>
int FindSplit(const double* first, const double* second, const SplitMin& found, int hi, Sent sent,
              double alpha, double beta) {
  int k = found.block;
  while (k < hi - 1 && SplitTime(first[k], second[k + 1], sent(k), alpha, beta) != found.value) ++k;
  return k;
}
// The units a split sends: the smaller part (inner splits of the best-root table), the part
// after k, or the part up to k, of range [i..j].
struct SmallerPart {
  const double* prefix;
  int i;
  double total;
  double operator()(int k) const {
    const double left = prefix[k + 1] - prefix[i];
    return std::min(left, total - left);
  }
};
struct PartAfter {
  const double* prefix;
  int j;
  double operator()(int k) const { return prefix[j + 1] - prefix[k + 1]; }
};
struct PartUpTo {
  const double* prefix;
  int i;
  double operator()(int k) const { return prefix[k + 1] - prefix[i]; }
};

}  // namespace

struct OptimalTables {
  int p = 0;
  std::vector<double> best;       // [i * p + j]: C[i][j]
  std::vector<double> best_t;     // [j * p + i]: C[i][j] (fast method: columns contiguous)
  std::vector<std::int32_t> how;  // [i * p + j]
  double C(int i, int j) const { return best[static_cast<std::size_t>(i) * p + j]; }
  void Set(int i, int j, double value, int choice) {
    best[static_cast<std::size_t>(i) * p + j] = value;
    if (!best_t.empty()) best_t[static_cast<std::size_t>(j) * p + i] = value;
    how[static_cast<std::size_t>(i) * p + j] = choice;
  }
};

namespace {

// The candidates for range [i..j] other than splits (Equations 5 and 6).
inline void EdgeRoots(const Problem& pr, const OptimalTables& t, int i, int j, double* value,
                      int* how) {
  *value = std::max(pr.Copy(i), t.C(i + 1, j)) + pr.Comm(pr.Size(i + 1, j));
  *how = kRootFirst;
  const double last = t.C(i, j - 1) + pr.Comm(pr.Size(i, j - 1)) + pr.Copy(j);
  if (last < *value) {
    *value = last;
    *how = kRootLast;
  }
}

// The split points k (part [i..k] and part [k+1..j]) a range tries: sorted disjoint intervals.
struct SplitWindows {
  static constexpr int kMax = 8;
  int count = 0;
  int lo[kMax], hi[kMax];
  void Add(int a, int b, int i, int j) {  // clipped to [i, j-1]
    a = std::max(a, i), b = std::min(b, j - 1);
    if (a <= b && count < kMax) lo[count] = a, hi[count] = b, ++count;
  }
  void Merge() {
    for (int x = 1; x < count; ++x) {  // insertion sort by lo (at most kMax entries)
      for (int y = x; y > 0 && lo[y] < lo[y - 1]; --y)
        std::swap(lo[y], lo[y - 1]), std::swap(hi[y], hi[y - 1]);
    }
    int merged = 0;
    for (int x = 0; x < count; ++x) {
      if (merged > 0 && lo[x] <= hi[merged - 1] + 1) {
        hi[merged - 1] = std::max(hi[merged - 1], hi[x]);
      } else {
        lo[merged] = lo[x], hi[merged] = hi[x], ++merged;
      }
    }
    count = merged;
  }
};

SplitWindows AllSplits(int i, int j) {
  SplitWindows w;
  w.Add(i, j - 1, i, j);
  return w;
}

// kWindowed's candidates: where the exact DP's best splits are found on the paper's
// distributions - next to either end (a lone or nearly lone part: linear-like trees), around the
// middle rank and the power-of-two split (binomial-like trees), around the data midpoint (a
// large block as a part's root), and around a fixed root (fixed_root >= 0).
SplitWindows CandidateSplits(const Problem& pr, int i, int j, int fixed_root) {
  constexpr int w = kDpWindow;
  SplitWindows windows;
  windows.Add(i, i + w, i, j);
  windows.Add(j - 1 - w, j - 1, i, j);
  const int middle = i + (j - i) / 2;
  windows.Add(middle - w, middle + w, i, j);
  int half = 1;
  while (2 * half < j - i + 1) half *= 2;
  windows.Add(i + half - 1 - w, i + half - 1 + w, i, j);
  windows.Add(j - half - w, j - half + w, i, j);
  const double target = pr.prefix[i] + pr.Size(i, j) / 2;
  const int data_middle = static_cast<int>(
      std::lower_bound(pr.prefix.begin() + i + 1, pr.prefix.begin() + j + 1, target) -
      pr.prefix.begin() - 1);
  windows.Add(data_middle - w - 1, data_middle + w, i, j);
  if (fixed_root >= 0) windows.Add(fixed_root - 1 - w, fixed_root + w, i, j);
  windows.Merge();
  return windows;
}

// The straightforward loops; windowed: only CandidateSplits' splits.
void OptimalReference(const Problem& pr, OptimalTables& t, bool windowed) {
  const int p = pr.p;
  for (int len = 2; len <= p; ++len) {
    for (int i = 0; i + len - 1 < p; ++i) {
      const int j = i + len - 1;
      double value;
      int how;
      EdgeRoots(pr, t, i, j, &value, &how);
      const SplitWindows splits = windowed ? CandidateSplits(pr, i, j, -1) : AllSplits(i, j);
      for (int n = 0; n < splits.count; ++n) {
        for (int k = splits.lo[n]; k <= splits.hi[n]; ++k) {
          const double both = std::max(t.C(i, k), t.C(k + 1, j));
          if (k > i) {  // [i..k] has >= 2 processors: its root may receive [k+1..j]
            const double v = both + pr.Comm(pr.Size(k + 1, j));
            if (v < value) value = v, how = 2 * k;
          }
          if (k + 1 < j) {  // [k+1..j]'s root may receive [i..k]
            const double v = both + pr.Comm(pr.Size(i, k));
            if (v < value) value = v, how = 2 * k + 1;
          }
        }
      }
      t.Set(i, j, value, how);
    }
  }
}

void OptimalFast(const Problem& pr, OptimalTables& t) {
  const int p = pr.p;
  const double alpha = pr.c.alpha, beta = pr.c.beta;
  const double* prefix = pr.prefix.data();
  for (int len = 2; len <= p; ++len) {
    const int count = p - len + 1;
#pragma omp parallel for schedule(dynamic, 8) if (static_cast <long>(count) * len > 50000)
    for (int i = 0; i < count; ++i) {
      const int j = i + len - 1;
      const double* row = t.best.data() + static_cast<std::size_t>(i) * p;    // row[k] = C[i][k]
      const double* col = t.best_t.data() + static_cast<std::size_t>(j) * p;  // col[k] = C[k][j]
      const double total = prefix[j + 1] - prefix[i];
      double value;
      int how;
      EdgeRoots(pr, t, i, j, &value, &how);
      // Inner splits i < k < j-1: both parts have >= 2 processors, so the part with less data
      // sends (comm is nondecreasing). Branch-free so that the compiler vectorizes it.
      const SmallerPart smaller{prefix, i, total};
      const SplitMin inner = BlockedSplitMin(row, col, i + 1, j - 1, smaller, alpha, beta);
      // k = i: only [i+1..j] can receive; k = j-1: only [i..j-1] can receive.
      if (j - i >= 2) {
        const double first = std::max(row[i], col[i + 1]) + pr.Comm(pr.Size(i, i));
        const double last = std::max(row[j - 1], col[j]) + pr.Comm(pr.Size(j, j));
        if (first < value) value = first, how = 2 * i + 1;
        if (last < value) value = last, how = 2 * (j - 1);
      }
      if (inner.value < value) {
        const int k = FindSplit(row, col, inner, j - 1, smaller, alpha, beta);
        const double left = prefix[k + 1] - prefix[i];
        value = inner.value;
        how = 2 * k + (left <= total - left ? 1 : 0);
      }
      t.best[static_cast<std::size_t>(i) * p + j] = value;
      t.best_t[static_cast<std::size_t>(j) * p + i] = value;
      t.how[static_cast<std::size_t>(i) * p + j] = how;
    }
  }
}

// Fixed root r: F over ranges [i..j] with i <= r <= j, stored at [(i) * width + (j - r)].
struct FixedTables {
  int r = 0, width = 0;
  std::vector<double> value;
  std::vector<std::int32_t> how;
  std::size_t At(int i, int j) const { return static_cast<std::size_t>(i) * width + (j - r); }
};

void OptimalFixed(const Problem& pr, const OptimalTables& t, FixedTables& f, bool windowed) {
  const int p = pr.p, r = f.r;
  for (int len = 2; len <= p; ++len) {
    for (int i = std::max(0, r - len + 1); i <= r && i + len - 1 < p; ++i) {
      const int j = i + len - 1;
      double value = kInf;
      int how = 0;
      if (i == r)
        value = std::max(pr.Copy(r), t.C(r + 1, j)) + pr.Comm(pr.Size(r + 1, j)), how = kRootFirst;
      if (j == r) {
        const double v = t.C(i, r - 1) + pr.Comm(pr.Size(i, r - 1)) + pr.Copy(r);
        if (v < value) value = v, how = kRootLast;
      }
      const SplitWindows splits = windowed ? CandidateSplits(pr, i, j, r) : AllSplits(i, j);
      for (int n = 0; n < splits.count; ++n) {
        for (int k = splits.lo[n]; k <= splits.hi[n]; ++k) {
          if (k >= r) {            // r in [i..k], which receives [k+1..j]
            if (k == i) continue;  // a lone root: Equation 5 above
            const double v =
                std::max(f.value[f.At(i, k)], t.C(k + 1, j)) + pr.Comm(pr.Size(k + 1, j));
            if (v < value) value = v, how = 2 * k;
          } else {                     // r in [k+1..j], which receives [i..k]
            if (k + 1 == j) continue;  // a lone root: Equation 6 above
            const double v = std::max(t.C(i, k), f.value[f.At(k + 1, j)]) + pr.Comm(pr.Size(i, k));
            if (v < value) value = v, how = 2 * k + 1;
          }
        }
      }
      f.value[f.At(i, j)] = value;
      f.how[f.At(i, j)] = how;
    }
  }
}

// The fixed-root table with the fast method's layout: F's columns transposed, C's columns from
// best_t, the inner loops branch-free and vectorized, ranges of one length in parallel.
void OptimalFixedFast(const Problem& pr, const OptimalTables& t, FixedTables& f) {
  const int p = pr.p, r = f.r, height = r + 1;
  const double alpha = pr.c.alpha, beta = pr.c.beta;
  const double* prefix = pr.prefix.data();
  std::vector<double> f_t(f.value.size(), 0.0);  // [(j - r) * height + i] = F[i][j]
  for (int len = 2; len <= p; ++len) {
    const int first = std::max(0, r - len + 1), last = std::min(r, p - len);
#pragma omp parallel for schedule(dynamic, \
                                  8) if (static_cast <long>(last - first + 1) * len > 50000)
    for (int i = first; i <= last; ++i) {
      const int j = i + len - 1;
      double value = kInf;
      int how = 0;
      if (i == r) {
        value = std::max(pr.Copy(r), t.C(r + 1, j)) + pr.Comm(pr.Size(r + 1, j));
        how = kRootFirst;
      }
      if (j == r) {
        const double v = t.C(i, r - 1) + pr.Comm(pr.Size(i, r - 1)) + pr.Copy(r);
        if (v < value) value = v, how = kRootLast;
      }
      // r in [i..k] (k >= max(r, i+1)), which receives [k+1..j]
      const double* f_row = f.value.data() + f.At(i, r) - r;  // f_row[k] = F[i][k]
      const double* c_col = t.best_t.data() + static_cast<std::size_t>(j) * p;  // C[k][j]
      const int k0 = std::max(r, i + 1);
      const PartAfter after{prefix, j};
      const SplitMin right = BlockedSplitMin(f_row, c_col, k0, j, after, alpha, beta);
      // r in [k+1..j] (k <= min(r-1, j-2)), which receives [i..k]
      const double* c_row = t.best.data() + static_cast<std::size_t>(i) * p;        // C[i][k]
      const double* f_col = f_t.data() + static_cast<std::size_t>(j - r) * height;  // F[k][j]
      const int k1 = std::min(r - 1, j - 2);
      const PartUpTo up_to{prefix, i};
      const SplitMin left = BlockedSplitMin(c_row, f_col, i, k1 + 1, up_to, alpha, beta);
      if (right.value < value) {
        value = right.value;
        how = 2 * FindSplit(f_row, c_col, right, j, after, alpha, beta);
      }
      if (left.value < value) {
        value = left.value;
        how = 2 * FindSplit(c_row, f_col, left, k1 + 1, up_to, alpha, beta) + 1;
      }
      f.value[f.At(i, j)] = value;
      f.how[f.At(i, j)] = how;
      f_t[static_cast<std::size_t>(j - r) * height + i] = value;
    }
  }
}

// Rebuilds the tree over [i..j] from the choices, appending to the steps in time order; returns
// the root. `fixed` (may be null) is used for ranges that hold its root.
int RebuildOptimal(const OptimalTables& t, const FixedTables* fixed, int i, int j,
                   SequencedTree* tree) {
  if (i == j) return i;
  const bool use_fixed = fixed != nullptr && i <= fixed->r && fixed->r <= j;
  const int how =
      use_fixed ? fixed->how[fixed->At(i, j)] : t.how[static_cast<std::size_t>(i) * t.p + j];
  if (how == kRootFirst) {
    const int child = RebuildOptimal(t, fixed, i + 1, j, tree);
    tree->steps[i].push_back(SequencedTree::kCopy);
    tree->steps[i].push_back(child);
    return i;
  }
  if (how == kRootLast) {
    const int child = RebuildOptimal(t, fixed, i, j - 1, tree);
    tree->steps[j].push_back(child);
    tree->steps[j].push_back(SequencedTree::kCopy);
    return j;
  }
  const int k = how / 2;
  if (how % 2 == 0) {
    const int root = RebuildOptimal(t, fixed, i, k, tree);
    tree->steps[root].push_back(RebuildOptimal(t, fixed, k + 1, j, tree));
    return root;
  }
  const int root = RebuildOptimal(t, fixed, k + 1, j, tree);
  tree->steps[root].push_back(RebuildOptimal(t, fixed, i, k, tree));
  return root;
}

int RootOfOptimal(const OptimalTables& t, int i, int j) {
  while (i < j) {
    const int how = t.how[static_cast<std::size_t>(i) * t.p + j];
    if (how == kRootFirst) return i;
    if (how == kRootLast) return j;
    const int k = how / 2;
    if (how % 2 == 0)
      j = k;
    else
      i = k + 1;
  }
  return i;
}

}  // namespace

std::uint64_t DpBytes(int p) {
  const auto n = static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(p);
  return n * (2 * sizeof(double) + sizeof(std::int32_t)) + n / 4 * (sizeof(double) + 4);
}

OptimalDp::OptimalDp(const std::vector<std::int64_t>& blocks, const CostParams& c, DpMethod method)
    : blocks_(blocks), cost_(c), method_(method), tables_(std::make_unique<OptimalTables>()) {
  const int p = static_cast<int>(blocks.size());
  CheckArguments(p, -1);
  const Problem pr(blocks, c);
  OptimalTables& t = *tables_;
  t.p = p;
  const std::size_t n = static_cast<std::size_t>(p) * p;
  t.best.assign(n, 0.0);
  t.how.assign(n, 0);
  if (method == DpMethod::kFast) {
    t.best_t.assign(n, 0.0);
    OptimalFast(pr, t);
  } else {
    OptimalReference(pr, t, method == DpMethod::kWindowed);
  }
}

OptimalDp::~OptimalDp() = default;
OptimalDp::OptimalDp(OptimalDp&&) noexcept = default;

Result OptimalDp::Best() const {
  const int p = tables_->p;
  return {tables_->C(0, p - 1), RootOfOptimal(*tables_, 0, p - 1)};
}

namespace {
FixedTables ComputeFixed(const std::vector<std::int64_t>& blocks, const CostParams& c,
                         DpMethod method, const OptimalTables& t, int root) {
  const int p = t.p;
  CheckArguments(p, root);
  const Problem pr(blocks, c);
  FixedTables fixed;
  fixed.r = root;
  fixed.width = p - root;
  fixed.value.assign(static_cast<std::size_t>(root + 1) * fixed.width, 0.0);
  fixed.how.assign(fixed.value.size(), 0);
  if (method == DpMethod::kFast) {
    OptimalFixedFast(pr, t, fixed);
  } else {
    OptimalFixed(pr, t, fixed, method == DpMethod::kWindowed);
  }
  return fixed;
}
}  // namespace

Result OptimalDp::Fixed(int root) const {
  if (root < 0) return Best();
  if (tables_->p == 1) return {0.0, 0};
  const FixedTables f = ComputeFixed(blocks_, cost_, method_, *tables_, root);
  return {f.value[f.At(0, tables_->p - 1)], root};
}

SequencedTree OptimalDp::Tree(int root) const {
  const int p = tables_->p;
  SequencedTree tree;
  tree.steps.assign(p, {});
  if (root >= 0 && p > 1) {
    const FixedTables f = ComputeFixed(blocks_, cost_, method_, *tables_, root);
    tree.root = RebuildOptimal(*tables_, &f, 0, p - 1, &tree);
  } else {
    tree.root = RebuildOptimal(*tables_, nullptr, 0, p - 1, &tree);
  }
  return tree;
}

ExecutedTree ExecutedNodeTree(const std::vector<std::int64_t>& blocks,
                              const std::vector<int>& node_first, const CostParams& c, int root) {
  // The DP over the nodes: exact up to kExactDpMaxP nodes, whatever the DP is for p ranks.
  NodeTree node =
      BuildNodeTree(blocks, node_first, c, root, ExecutedDpMethod(CountNodes(node_first)));
  ExecutedTree executed;
  executed.tree = std::move(node.tree);
  executed.time = node.time;
  executed.scatter_time = ScatterTime(node.node_tree, node.node_bytes, c);
  executed.nodes = true;
  return executed;
}

ExecutedTree OptimalInitTree(const std::vector<std::int64_t>& blocks, const CostParams& c, int root,
                             DpMethod method, const std::vector<int>& node_first) {
  if (PreferNodeTree(blocks, node_first, c)) return ExecutedNodeTree(blocks, node_first, c, root);
  ExecutedTree executed;
  const double optimal = OptimalCost(blocks, c, root, method, &executed.tree).time;
  SequencedTree adaptive = FromHypercube(BuildTree(TreeKind::kAdaptive, blocks, root));
  const double adaptive_time = GatherTime(adaptive, blocks, c);
  executed.optimal = optimal < (1 - kOptimalMinGain) * adaptive_time;
  if (executed.optimal) {
    executed.time = optimal;
  } else {
    executed.tree = std::move(adaptive);
    executed.time = adaptive_time;
  }
  executed.scatter_time = ScatterTime(executed.tree, blocks, c);
  return executed;
}

Result OptimalCost(const std::vector<std::int64_t>& blocks, const CostParams& c, int root,
                   DpMethod method, SequencedTree* tree) {
  const OptimalDp dp(blocks, c, method);
  if (tree != nullptr) *tree = dp.Tree(root);
  return root >= 0 ? dp.Fixed(root) : dp.Best();
}

}  // namespace tuw::tree
