#include "cost_model.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace irr::model {
namespace {

// Nodes in an order where every child comes after its parent (breadth first from the root).
std::vector<int> TopDownOrder(const SequencedTree& tree) {
  const int p = static_cast<int>(tree.steps.size());
  std::vector<int> order;
  order.reserve(p);
  order.push_back(tree.root);
  for (std::size_t next = 0; next < order.size(); ++next) {
    for (int step : tree.steps[order[next]]) {
      if (step != SequencedTree::kCopy) order.push_back(step);
    }
  }
  if (static_cast<int>(order.size()) != p) {
    throw std::invalid_argument("SequencedTree: not a tree spanning all processors");
  }
  return order;
}

std::vector<double> SubtreeSizes(const SequencedTree& tree, const std::vector<int>& order,
                                 const std::vector<std::int64_t>& blocks) {
  std::vector<double> size(blocks.begin(), blocks.end());
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    for (int step : tree.steps[*it]) {
      if (step != SequencedTree::kCopy) size[*it] += size[step];
    }
  }
  return size;
}

}  // namespace

double GatherTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                  const CostParams& c) {
  const std::vector<int> order = TopDownOrder(tree);
  const std::vector<double> size = SubtreeSizes(tree, order, blocks);
  std::vector<double> time(blocks.size(), 0.0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    double t = 0;
    for (int step : tree.steps[*it]) {
      t = step == SequencedTree::kCopy ? t + c.gamma * static_cast<double>(blocks[*it])
                                       : std::max(t, time[step]) + c.Comm(size[step]);
    }
    time[*it] = t;
  }
  return time[tree.root];
}

double ScatterTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                   const CostParams& c) {
  const std::vector<int> order = TopDownOrder(tree);
  const std::vector<double> size = SubtreeSizes(tree, order, blocks);
  std::vector<double> ready(blocks.size(), 0.0);
  double finish = 0;
  for (int v : order) {  // parents before children: a node's ready time is known when visited
    double t = ready[v];
    const auto& steps = tree.steps[v];
    for (auto step = steps.rbegin(); step != steps.rend(); ++step) {
      if (*step == SequencedTree::kCopy) {
        t += c.gamma * static_cast<double>(blocks[v]);
      } else {
        t += c.Comm(size[*step]);
        ready[*step] = t;
      }
    }
    finish = std::max(finish, t);
  }
  return finish;
}

SequencedTree FromHypercube(const tuw::tree::Tree& tree) {
  SequencedTree s;
  s.root = tree.root;
  s.steps.resize(tree.nodes.size());
  for (const auto& node : tree.nodes) {
    if (node.children.empty()) continue;  // a leaf sends straight from its own buffer
    auto& steps = s.steps[node.rank];
    steps.push_back(SequencedTree::kCopy);
    for (const auto& child : node.children) steps.push_back(child.child);
  }
  return s;
}

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
