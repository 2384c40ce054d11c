#include "cost_model.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace irr::model {

SequencedTree LinearTree(int p, int root) {
  SequencedTree s;
  s.root = root;
  s.steps.resize(p);
  if (p == 1) return s;
  s.steps[root].push_back(SequencedTree::kCopy);
  for (int i = 0; i < p; ++i) {
    if (i != root) s.steps[root].push_back(i);
  }
  return s;
}

Result LowerBound(const std::vector<std::int64_t>& blocks, const CostParams& c, int root) {
  double total = 0;
  for (std::int64_t x : blocks) total += static_cast<double>(x);
  auto bound = [&](int r) {
    if (blocks.size() == 1) return 0.0;  // one processor: the trees' convention, no copy
    const double others = total - static_cast<double>(blocks[r]);
    return c.Comm(others) + c.gamma * static_cast<double>(blocks[r]);
  };
  if (root >= 0) return {bound(root), root};
  Result best{std::numeric_limits<double>::infinity(), -1};
  for (int r = 0; r < static_cast<int>(blocks.size()); ++r) {
    const double t = bound(r);
    if (t < best.time) best = {t, r};
  }
  return best;
}

}  // namespace irr::model
