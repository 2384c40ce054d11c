#include "sequenced_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace tuw::tree {
namespace {

std::string Node(int v) { return "SequencedTree: node " + std::to_string(v); }

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

// Figure 1's recursions with a message cost per edge: comm(from, to, units).
template <typename MessageCost>
double GatherTimeWith(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                      double gamma, const MessageCost& comm) {
  const std::vector<int> order = TopDownOrder(tree);
  const std::vector<double> size = SubtreeSizes(tree, order, blocks);
  std::vector<double> time(blocks.size(), 0.0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    double t = 0;
    for (int step : tree.steps[*it]) {
      t = step == SequencedTree::kCopy ? t + gamma * static_cast<double>(blocks[*it])
                                       : std::max(t, time[step]) + comm(step, *it, size[step]);
    }
    time[*it] = t;
  }
  return time[tree.root];
}

template <typename MessageCost>
double ScatterTimeWith(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                       double gamma, const MessageCost& comm) {
  const std::vector<int> order = TopDownOrder(tree);
  const std::vector<double> size = SubtreeSizes(tree, order, blocks);
  std::vector<double> ready(blocks.size(), 0.0);
  double finish = 0;
  for (int v : order) {  // parents before children: a node's ready time is known when visited
    double t = ready[v];
    const auto& steps = tree.steps[v];
    for (auto step = steps.rbegin(); step != steps.rend(); ++step) {
      if (*step == SequencedTree::kCopy) {
        t += gamma * static_cast<double>(blocks[v]);
      } else {
        t += comm(v, *step, size[*step]);
        ready[*step] = t;
      }
    }
    finish = std::max(finish, t);
  }
  return finish;
}

void CheckNodes(const std::vector<std::int64_t>& blocks, const TwoLevelCosts& c) {
  if (c.node_first.size() != blocks.size()) {
    throw std::invalid_argument("TwoLevelCosts: nodes for " + std::to_string(c.node_first.size()) +
                                " ranks, " + std::to_string(blocks.size()) + " blocks");
  }
}

}  // namespace

MeasuredCurve::MeasuredCurve(std::vector<double> units, std::vector<double> times)
    : units_(std::move(units)), times_(std::move(times)) {
  bool valid = units_.size() >= 2 && units_.size() == times_.size();
  for (std::size_t k = 0; valid && k < units_.size(); ++k) {
    valid = times_[k] >= 0 && (k == 0 || units_[k] > units_[k - 1]);
  }
  if (!valid) {
    throw std::invalid_argument("MeasuredCurve: " + std::to_string(units_.size()) + " sizes and " +
                                std::to_string(times_.size()) +
                                " times; need at least two points, sizes rising, times >= 0");
  }
  slopes_.assign(units_.size(), 0);
  for (std::size_t k = 1; k < units_.size(); ++k) {
    slopes_[k] = (times_[k] - times_[k - 1]) / (units_[k] - units_[k - 1]);
  }
  agrees_.assign(units_.size(), 0);
  for (std::size_t k = 2; k < units_.size(); ++k) {
    agrees_[k] = slopes_[k] > 0 && std::abs(slopes_[k] - slopes_[k - 1]) <= 0.01 * slopes_[k];
  }
}

double MeasuredCurve::Comm(double units) const {
  if (units == 0) return 0;
  // The segment [k - 1, k] that holds units, or the first or last one beyond the ends.
  const std::size_t k = std::clamp<std::size_t>(
      std::upper_bound(units_.begin(), units_.end(), units) - units_.begin(), 1, units_.size() - 1);
  return std::max(0.0, times_[k - 1] + slopes_[k] * (units - units_[k - 1]));
}

double MeasuredCurve::Slope(std::size_t k) const { return slopes_[k]; }

bool MeasuredCurve::AgreesWithPrevious(std::size_t k) const {
  return k < agrees_.size() && agrees_[k];
}

double MeasuredCurve::InterceptBelow(double slope) const {
  double intercept = 0;
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const double at_k = times_[k] - slope * units_[k];
    if (k == 0 || at_k < intercept) intercept = at_k;
  }
  return intercept;
}

double MeasuredCurve::LeastSteadySlope() const {
  double steady = std::numeric_limits<double>::infinity();
  double positive = steady;
  for (std::size_t k = 1; k < units_.size(); ++k) {
    if (Slope(k) > 0) positive = std::min(positive, Slope(k));
    if (AgreesWithPrevious(k)) steady = std::min(steady, Slope(k));
  }
  if (std::isfinite(steady)) return steady;
  return std::isfinite(positive) ? positive : 0;
}

double MeasuredCurve::LeastSteadySlopeEnd() const {
  double least = std::numeric_limits<double>::infinity();
  std::size_t end = 0;
  for (std::size_t k = 1; k < units_.size(); ++k) {
    if (!AgreesWithPrevious(k)) continue;
    if (Slope(k) < least) {
      least = Slope(k);
      end = k;
    }
    // The stretch goes on while its segments agree (the least's own, not a later equal one).
    if (end == k - 1 && std::abs(Slope(k) - least) <= 0.01 * least) end = k;
  }
  return end == 0 ? 0 : units_[end];
}

bool MeasuredCurve::SteadySlopeAt(double units, double* slope) const {
  const std::size_t n = units_.size();
  if (n < 3) return false;
  // Segment k (1 ... n - 1) is steady where it agrees with a neighbour.
  const auto steady = [&](std::size_t k) {
    return k >= 1 && k < n && (AgreesWithPrevious(k) || AgreesWithPrevious(k + 1));
  };
  const std::size_t k = std::clamp<std::size_t>(
      std::upper_bound(units_.begin(), units_.end(), units) - units_.begin(), 1, n - 1);
  const bool left_half = units - units_[k - 1] < (units_[k] - units_[k - 1]) / 2;
  for (const std::size_t candidate : {k, left_half ? k - 1 : k + 1}) {
    if (steady(candidate)) {
      *slope = Slope(candidate);
      return true;
    }
  }
  return false;
}

double GatherTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                  const CostParams& c) {
  return GatherTimeWith(tree, blocks, c.gamma, [&c](int, int, double s) { return c.Comm(s); });
}

double ScatterTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                   const CostParams& c) {
  return ScatterTimeWith(tree, blocks, c.gamma, [&c](int, int, double s) { return c.Comm(s); });
}

double GatherTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                  const TwoLevelCosts& c) {
  CheckNodes(blocks, c);
  return GatherTimeWith(tree, blocks, c.network.gamma,
                        [&c](int from, int to, double s) { return c.Comm(from, to, s); });
}

double ScatterTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                   const TwoLevelCosts& c) {
  CheckNodes(blocks, c);
  return ScatterTimeWith(tree, blocks, c.network.gamma,
                         [&c](int from, int to, double s) { return c.Comm(from, to, s); });
}

SequencedTree FromHypercube(const Tree& tree) {
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

Tree ToNodeViews(const SequencedTree& tree, const std::vector<std::int64_t>& block_bytes) {
  const int p = static_cast<int>(block_bytes.size());
  if (static_cast<int>(tree.steps.size()) != p || tree.root < 0 || tree.root >= p) {
    throw std::invalid_argument("SequencedTree: " + std::to_string(tree.steps.size()) +
                                " nodes and root " + std::to_string(tree.root) + " for " +
                                std::to_string(p) + " blocks");
  }
  Tree out;
  out.root = tree.root;
  out.nodes.resize(p);
  // Parents before children (breadth first), then subtree ranges bottom-up.
  std::vector<int> order{tree.root};
  std::vector<bool> seen(p, false);
  seen[tree.root] = true;
  for (std::size_t next = 0; next < order.size(); ++next) {
    const int v = order[next];
    for (int step : tree.steps[v]) {
      if (step == SequencedTree::kCopy) continue;
      if (step < 0 || step >= p || seen[step]) {
        throw std::invalid_argument(Node(v) + " receives from " + std::to_string(step) +
                                    ", which is not a rank or has a parent already");
      }
      seen[step] = true;
      out.nodes[step].parent = v;
      order.push_back(step);
    }
  }
  if (static_cast<int>(order.size()) != p) {
    throw std::invalid_argument("SequencedTree: reaches " + std::to_string(order.size()) + " of " +
                                std::to_string(p) + " ranks from root " +
                                std::to_string(tree.root));
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int v = *it;
    NodeView& node = out.nodes[v];
    node.rank = v;
    node.own_bytes = block_bytes[v];
    node.lo = node.hi = v;
    node.bytes = node.own_bytes;
    std::int64_t covered = 1;
    for (int step : tree.steps[v]) {
      if (step == SequencedTree::kCopy) continue;
      const NodeView& child = out.nodes[step];
      node.lo = std::min(node.lo, child.lo);
      node.hi = std::max(node.hi, child.hi);
      node.bytes += child.bytes;
      covered += child.hi - child.lo + 1;
      const int position = static_cast<int>(node.children.size());
      out.nodes[step].parent_level = position;  // its place in the parent's receive order
      node.children.push_back({step, position, child.lo, child.hi, child.bytes, {}});
    }
    if (covered != node.hi - node.lo + 1) {  // ranges overlap or leave a gap: not ordered
      throw std::invalid_argument(Node(v) + "'s subtree is not the contiguous range [" +
                                  std::to_string(node.lo) + ", " + std::to_string(node.hi) + "]");
    }
  }
  return out;
}

}  // namespace tuw::tree
