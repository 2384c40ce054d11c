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

// Offers the first k in [lo, hi) with the smallest term(k), as one case: the same choice as
// offering every k in order, but the terms are computed in a loop the compiler vectorizes (the
// binary DP is O(p^3): at p = 2000 this is what a model test waits for). `scratch` holds hi - lo.
template <class Term>
void OfferSmallest(BinaryChoice* best, int which, int lo, int hi, std::vector<double>* scratch,
                   Term term) {
  if (lo >= hi) return;
  double* values = scratch->data();
  double smallest = kInf;
#pragma omp simd reduction(min : smallest)
  for (int k = lo; k < hi; ++k) {
    values[k - lo] = term(k);
    smallest = std::min(smallest, values[k - lo]);
  }
  if (!(smallest < best->value)) return;
  int k = lo;
  while (values[k - lo] != smallest) ++k;
  best->Offer(smallest, which, k);
}

// The five cases of Figure 7 for range [i..j]; `root` restricts the root (-1: any).
BinaryChoice BinaryCases(const Problem& pr, const BinaryTables& t, int i, int j, int root,
                         std::vector<double>* scratch) {
  BinaryChoice best;
  const auto any = [&](int r) { return root < 0 || root == r; };
  const double* prefix = pr.prefix.data();
  const double alpha = pr.c.alpha, beta = pr.c.beta;
  // CostParams::Comm, spelled out so that it vectorizes: a message of 0 units costs nothing.
  const auto comm = [alpha, beta](double units) { return units == 0 ? 0 : alpha + beta * units; };
  if (any(i)) {  // 1: root i; children [i+1..k], then [k+1..j]
    const double copy = pr.Copy(i);
    const double* from_next = t.Row(i + 1);  // C(i+1, k)
    const double* to_j = t.Column(j);        // C(k+1, j)
    OfferSmallest(&best, 1, i + 1, j, scratch, [=](int k) {
      return std::max(std::max(copy, from_next[k]) + comm(prefix[k + 1] - prefix[i + 1]),
                      to_j[k + 1]) +
             comm(prefix[j + 1] - prefix[k + 1]);
    });
    best.Offer(std::max(pr.Copy(i), t.C(i + 1, j)) + pr.Comm(pr.Size(i + 1, j)), 4, i);
  }
  {  // 2: root k; [i..k-1], copy, then [k+1..j]
    const int lo = root < 0 ? i + 1 : std::max(i + 1, root);
    const int hi = root < 0 ? j : std::min(j, root + 1);
    const double* from_i = t.Row(i);   // C(i, k-1)
    const double* to_j = t.Column(j);  // C(k+1, j)
    const double gamma = pr.c.gamma;
    const double* m = pr.m.data();
    OfferSmallest(&best, 2, lo, hi, scratch, [=](int k) {
      return std::max(from_i[k - 1] + comm(prefix[k] - prefix[i]) + gamma * m[k], to_j[k + 1]) +
             comm(prefix[j + 1] - prefix[k + 1]);
    });
  }
  if (any(j)) {  // 3: root j; [i..k], then [k+1..j-1], then copy
    const double copy = pr.Copy(j);
    const double* from_i = t.Row(i);              // C(i, k)
    const double* to_before_j = t.Column(j - 1);  // C(k+1, j-1)
    OfferSmallest(&best, 3, i, j - 1, scratch, [=](int k) {
      return std::max(from_i[k] + comm(prefix[k + 1] - prefix[i]), to_before_j[k + 1]) +
             comm(prefix[j] - prefix[k + 1]) + copy;
    });
    best.Offer(t.C(i, j - 1) + pr.Comm(pr.Size(i, j - 1)) + pr.Copy(j), 5, j);
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
      std::vector<double> scratch(len);
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
  std::vector<double> scratch(p);
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
  std::vector<double> scratch(p);
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
