#include "dp_binary.hpp"

#include <algorithm>

#include "dp_problem.hpp"

namespace irr::model {

using tuw::tree::dp::CheckArguments;
using tuw::tree::dp::kInf;
using tuw::tree::dp::Problem;

struct BinaryTables {
  int p = 0;
  std::vector<double> best;
  std::vector<std::int32_t> how;  // EncodeBinary(case, k)
  double C(int i, int j) const { return i > j ? 0.0 : best[static_cast<std::size_t>(i) * p + j]; }
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

// The five cases of Figure 7 for range [i..j]; `roots` restricts the root (-1: any).
BinaryChoice BinaryCases(const Problem& pr, const BinaryTables& t, int i, int j, int root) {
  BinaryChoice best;
  const auto any = [&](int r) { return root < 0 || root == r; };
  if (any(i)) {
    for (int k = i + 1; k < j; ++k) {  // 1: root i; children [i+1..k], then [k+1..j]
      best.Offer(std::max(std::max(pr.Copy(i), t.C(i + 1, k)) + pr.Comm(pr.Size(i + 1, k)),
                          t.C(k + 1, j)) +
                     pr.Comm(pr.Size(k + 1, j)),
                 1, k);
    }
    best.Offer(std::max(pr.Copy(i), t.C(i + 1, j)) + pr.Comm(pr.Size(i + 1, j)), 4, i);
  }
  for (int k = i + 1; k < j; ++k) {  // 2: root k; [i..k-1], copy, then [k+1..j]
    if (!any(k)) continue;
    best.Offer(std::max(t.C(i, k - 1) + pr.Comm(pr.Size(i, k - 1)) + pr.Copy(k), t.C(k + 1, j)) +
                   pr.Comm(pr.Size(k + 1, j)),
               2, k);
  }
  if (any(j)) {
    for (int k = i; k < j - 1; ++k) {  // 3: root j; [i..k], then [k+1..j-1], then copy
      best.Offer(std::max(t.C(i, k) + pr.Comm(pr.Size(i, k)), t.C(k + 1, j - 1)) +
                     pr.Comm(pr.Size(k + 1, j - 1)) + pr.Copy(j),
                 3, k);
    }
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
  t.how.assign(t.best.size(), 0);
  for (int len = 2; len <= p; ++len) {
    const int count = p - len + 1;
#pragma omp parallel for schedule(dynamic, 8) if (static_cast <long>(count) * len > 50000)
    for (int i = 0; i < count; ++i) {
      const int j = i + len - 1;
      const BinaryChoice best = BinaryCases(pr, t, i, j, -1);
      t.best[static_cast<std::size_t>(i) * p + j] = best.value;
      t.how[static_cast<std::size_t>(i) * p + j] = best.how;
    }
  }
}

BinaryDp::~BinaryDp() = default;
BinaryDp::BinaryDp(BinaryDp&&) noexcept = default;

Result BinaryDp::Fixed(int root) const {
  const int p = tables_->p;
  CheckArguments(p, root);
  if (p == 1) return {0.0, 0};
  const BinaryChoice top = BinaryCases(Problem(blocks_, cost_), *tables_, 0, p - 1, root);
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
  const BinaryChoice top = BinaryCases(Problem(blocks_, cost_), *tables_, 0, p - 1, root);
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
