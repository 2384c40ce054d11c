#include "dp_binary.hpp"

#include <algorithm>

#include "dp_problem.hpp"

namespace irr::model {

using tuw::tree::dp::CheckArguments;
using tuw::tree::dp::kInf;
using tuw::tree::dp::Problem;

struct BinaryTables {
  int p = 0;
  std::vector<double> best;    // best[i * p + j]: range [i..j]
  std::vector<double> by_end;  // the same at [j * p + i]: the loops over k read [k+1..j] in order
  std::vector<std::int32_t> how;  // EncodeBinary(case, k)
  double C(int i, int j) const { return i > j ? 0.0 : best[static_cast<std::size_t>(i) * p + j]; }
  const double* Row(int i) const { return &best[static_cast<std::size_t>(i) * p]; }
  const double* Column(int j) const { return &by_end[static_cast<std::size_t>(j) * p]; }
};

namespace {
// Binary choices: case in 1..5 (Figure 7's order) and k.
inline std::int32_t EncodeBinary(int which, int k) { return k * 8 + which; }

struct BinaryChoice {
  double value = kInf;
  std::int32_t how = 0;
  void Offer(double v, int which, int k) {
    if (v < value) value = v, how = EncodeBinary(which, k);
  }
};

// The split loop's arithmetic, spelled out so that GCC 12 vectorizes it: with std::max/std::min
// (reference results) or with units == 0 ? 0 : alpha + beta * units it left the loop scalar,
// though -fopt-info reported it vectorized. The same comparisons and the same bits.
inline double Larger(double a, double b) { return a < b ? b : a; }
inline double Smaller(double a, double b) { return b < a ? b : a; }
// CostParams::Comm: a message of 0 units costs nothing.
struct VectorComm {
  double alpha, beta;
  double operator()(double units) const { return (units != 0 ? alpha : 0.0) + beta * units; }
};

// The first x in [0, n) with values[x] == value (the first k of the case that won).
int FirstAt(const double* values, int n, double value) {
  int x = 0;
  while (x < n - 1 && values[x] != value) ++x;
  return x;
}

// The five cases of Figure 7 for range [i..j]; `root` restricts the root (-1: any). The binary DP
// is O(p^3) in the three split cases (1-3), so they share one loop over k that the compiler
// vectorizes: cases 1 and 2 at k send [k+1..j] last, cases 2 at k and 3 at k-1 both complete
// [i..k-1] and send it. At p = 2000 this is what a model test waits for. `scratch` holds 3 p.
// Compiled for AVX2 too (TUW_DP_SPLIT_LOOP): BM_BinaryDp at p = 2000 3.2 -> 2.1-2.3 s.
TUW_DP_SPLIT_LOOP BinaryChoice BinaryCases(const Problem& pr, const BinaryTables& t, int i, int j,
                                           int root, std::vector<double>* scratch) {
  BinaryChoice best;
  const auto any = [&](int r) { return root < 0 || root == r; };
  const double* prefix = pr.prefix.data();
  const double* m = pr.m.data();
  const VectorComm comm{pr.c.alpha, pr.c.beta};
  const double gamma = pr.c.gamma, copy_i = pr.Copy(i), copy_j = pr.Copy(j);
  const double* from_next = t.Row(i + 1);       // C(i+1, k)
  const double* from_i = t.Row(i);              // C(i, k)
  const double* to_j = t.Column(j);             // C(k+1, j)
  const double* to_before_j = t.Column(j - 1);  // C(k+1, j-1)
  // k in [lo, hi): case 1 (root i) and case 2 (root k) at k, case 3 (root j) at k - 1; a fixed
  // root keeps the k of case 2 that is the root.
  const bool every_k = root < 0 || root == i || root == j;
  const int lo = every_k ? i + 1 : root;
  const int hi = every_k ? j : root + 1;
  const int n = hi - lo;
  double* root_i = scratch->data();
  double* root_k = root_i + pr.p;
  double* root_j = root_k + pr.p;
  double smallest_i = kInf, smallest_k = kInf, smallest_j = kInf;
#pragma omp simd reduction(min : smallest_i, smallest_k, smallest_j)
  for (int k = lo; k < hi; ++k) {
    const double last = comm(prefix[j + 1] - prefix[k + 1]);  // [k+1..j], cases 1 and 2
    const double by_i =
        Larger(Larger(copy_i, from_next[k]) + comm(prefix[k + 1] - prefix[i + 1]), to_j[k + 1]) +
        last;
    const double before_k = from_i[k - 1] + comm(prefix[k] - prefix[i]);  // [i..k-1] received
    const double by_k = Larger(before_k + gamma * m[k], to_j[k + 1]) + last;
    const double by_j = Larger(before_k, to_before_j[k]) + comm(prefix[j] - prefix[k]) + copy_j;
    root_i[k - lo] = by_i, root_k[k - lo] = by_k, root_j[k - lo] = by_j;
    smallest_i = Smaller(smallest_i, by_i);
    smallest_k = Smaller(smallest_k, by_k);
    smallest_j = Smaller(smallest_j, by_j);
  }
  // The cases in Figure 7's order, the first of equal times winning; a split case's k is looked
  // up only if it won. EncodeBinary's k is filled in below.
  if (n > 0 && any(i)) best.Offer(smallest_i, 1, 0);  // 1: root i; [i+1..k], then [k+1..j]
  if (any(i)) best.Offer(std::max(copy_i, t.C(i + 1, j)) + pr.Comm(pr.Size(i + 1, j)), 4, i);
  if (n > 0 && (root < 0 || (root > i && root < j))) {  // 2: root k; [i..k-1], copy, [k+1..j]
    best.Offer(smallest_k, 2, 0);
  }
  if (n > 0 && any(j)) best.Offer(smallest_j, 3, 0);  // 3: root j; [i..k], [k+1..j-1], copy
  if (any(j)) best.Offer(t.C(i, j - 1) + pr.Comm(pr.Size(i, j - 1)) + copy_j, 5, j);
  switch (best.how % 8) {
    case 1:
      best.how = EncodeBinary(1, lo + FirstAt(root_i, n, best.value));
      break;
    case 2:
      best.how = EncodeBinary(2, lo + FirstAt(root_k, n, best.value));
      break;
    case 3:
      best.how = EncodeBinary(3, lo - 1 + FirstAt(root_j, n, best.value));
      break;
  }
  return best;
}

int RebuildBinary(const BinaryTables& t, std::int32_t top_how, int i, int j, SequencedTree* tree,
                  bool top) {
  if (i == j) return i;
  const std::int32_t how = top ? top_how : t.how[static_cast<std::size_t>(i) * t.p + j];
  const int which = how % 8, k = how / 8;
  auto& steps = tree->steps;
  switch (which) {
    case 1: {
      const int a = RebuildBinary(t, 0, i + 1, k, tree, false);
      const int b = RebuildBinary(t, 0, k + 1, j, tree, false);
      steps[i] = {SequencedTree::kCopy, a, b};
      return i;
    }
    case 2: {
      const int a = RebuildBinary(t, 0, i, k - 1, tree, false);
      const int b = RebuildBinary(t, 0, k + 1, j, tree, false);
      steps[k] = {a, SequencedTree::kCopy, b};
      return k;
    }
    case 3: {
      const int a = RebuildBinary(t, 0, i, k, tree, false);
      const int b = RebuildBinary(t, 0, k + 1, j - 1, tree, false);
      steps[j] = {a, b, SequencedTree::kCopy};
      return j;
    }
    case 4:
      steps[i] = {SequencedTree::kCopy, RebuildBinary(t, 0, i + 1, j, tree, false)};
      return i;
    default:
      steps[j] = {RebuildBinary(t, 0, i, j - 1, tree, false), SequencedTree::kCopy};
      return j;
  }
}

}  // namespace

BinaryDp::BinaryDp(const std::vector<std::int64_t>& blocks, const CostParams& c)
    : blocks_(blocks), cost_(c), tables_(std::make_unique<BinaryTables>()) {
  const int p = static_cast<int>(blocks.size());
  CheckArguments(p, -1);
  const Problem pr(blocks, c);
  BinaryTables& t = *tables_;
  t.p = p;
  t.best.assign(static_cast<std::size_t>(p) * p, 0.0);
  t.by_end.assign(t.best.size(), 0.0);
  t.how.assign(t.best.size(), 0);
  for (int len = 2; len <= p; ++len) {
    const int count = p - len + 1;
#pragma omp parallel if (static_cast <long>(count) * len > 50000)
    {
      std::vector<double> scratch(3 * static_cast<std::size_t>(p));
#pragma omp for schedule(dynamic, 8)
      for (int i = 0; i < count; ++i) {
        const int j = i + len - 1;
        const BinaryChoice best = BinaryCases(pr, t, i, j, -1, &scratch);
        t.best[static_cast<std::size_t>(i) * p + j] = best.value;
        t.by_end[static_cast<std::size_t>(j) * p + i] = best.value;
        t.how[static_cast<std::size_t>(i) * p + j] = best.how;
      }
    }
  }
}

BinaryDp::~BinaryDp() = default;
BinaryDp::BinaryDp(BinaryDp&&) noexcept = default;

Result BinaryDp::Fixed(int root) const {
  const int p = tables_->p;
  CheckArguments(p, root);
  if (p == 1) return {0.0, 0};
  std::vector<double> scratch(3 * static_cast<std::size_t>(p));
  const BinaryChoice top = BinaryCases(Problem(blocks_, cost_), *tables_, 0, p - 1, root, &scratch);
  const int which = top.how % 8, k = top.how / 8;
  return {top.value, which == 1 || which == 4 ? 0 : which == 2 ? k : p - 1};
}

SequencedTree BinaryDp::Tree(int root) const {
  const int p = tables_->p;
  SequencedTree tree;
  tree.steps.assign(p, {});
  if (p == 1) {
    tree.root = 0;
    return tree;
  }
  std::vector<double> scratch(3 * static_cast<std::size_t>(p));
  const BinaryChoice top = BinaryCases(Problem(blocks_, cost_), *tables_, 0, p - 1, root, &scratch);
  tree.root = RebuildBinary(*tables_, top.how, 0, p - 1, &tree, true);
  return tree;
}

Result BinaryCost(const std::vector<std::int64_t>& blocks, const CostParams& c, int root,
                  SequencedTree* tree) {
  const BinaryDp dp(blocks, c);
  if (tree != nullptr) *tree = dp.Tree(root);
  return dp.Fixed(root);
}

}  // namespace irr::model
