#include "node_scatter_tree.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace tuw::tree {
namespace {

struct UnitRange {
  int lo = 0;
  int hi = -1;  // inclusive
};

// [x, y] in at most `count` contiguous ranges (at least one unit each), a boundary where the
// running weight first passes the next equal share.
void SplitSide(int x, int y, int count, const std::vector<std::int64_t>& weight,
               std::vector<UnitRange>* out) {
  count = std::min(count, y - x + 1);
  double total = 0;
  for (int i = x; i <= y; ++i) total += static_cast<double>(weight[i]);
  int start = x;
  double running = 0;
  for (int j = 0; j < count; ++j) {
    int end = y;
    if (j < count - 1) {
      const double share = total * (j + 1) / count;
      end = start;
      running += static_cast<double>(weight[start]);
      while (end < y - (count - 1 - j) && running + static_cast<double>(weight[end + 1]) <= share) {
        ++end;
        running += static_cast<double>(weight[end]);
      }
    }
    out->push_back({start, end});
    start = end + 1;
  }
}

// [lo, hi] less `own`, in about `count` ranges that do not cross own: each side its share of
// count by its units, at least one where it has any.
std::vector<UnitRange> SplitAround(int lo, int hi, int own, int count,
                                   const std::vector<std::int64_t>& weight) {
  std::vector<UnitRange> out;
  const int left = own - lo, right = hi - own;
  if (left + right == 0) return out;
  const int left_count =
      left == 0 ? 0
                : std::max(1, static_cast<int>(
                                  std::lround(static_cast<double>(count) * left / (left + right))));
  const int right_count = right == 0 ? 0 : std::max(1, count - left_count);
  if (left_count > 0) SplitSide(lo, own - 1, left_count, weight, &out);
  if (right_count > 0) SplitSide(own + 1, hi, right_count, weight, &out);
  return out;
}

class Builder {
 public:
  Builder(const std::vector<std::int64_t>& block_bytes, int ranks_per_node,
          const NodeScatterShape& shape)
      : blocks_(block_bytes),
        per_node_(ranks_per_node),
        shape_(shape),
        p_(static_cast<int>(block_bytes.size())) {
    const int nodes = (p_ + per_node_ - 1) / per_node_;
    node_bytes_.assign(nodes, 0);
    for (int i = 0; i < p_; ++i) node_bytes_[i / per_node_] += block_bytes[i];
    tree_.steps.assign(p_, {});
  }

  SequencedTree Build(int root) {
    tree_.root = root;
    Nodes(root, 0, static_cast<int>(node_bytes_.size()) - 1, shape_.root_ranges);
    return std::move(tree_);
  }

 private:
  int First(int node) const { return node * per_node_; }
  int Last(int node) const { return std::min(p_ - 1, node * per_node_ + per_node_ - 1); }

  // v holds the nodes [lo, hi] (its own among them): their other nodes in ranges, each to a
  // leader, then its own node's other ranks.
  void Nodes(int v, int lo, int hi, int count) {
    const int own = v / per_node_;
    std::vector<std::pair<std::int64_t, int>> network;  // (bytes, leader)
    for (const UnitRange& range : SplitAround(lo, hi, own, count, node_bytes_)) {
      const int node = shape_.middle_leader ? (range.lo + range.hi) / 2
                       : range.hi < own     ? range.hi
                                            : range.lo;
      const int leader = node < own ? Last(node) : First(node);
      Nodes(leader, range.lo, range.hi, shape_.leader_ranges);
      std::int64_t bytes = 0;
      for (int n = range.lo; n <= range.hi; ++n) bytes += node_bytes_[n];
      network.emplace_back(bytes, leader);
    }
    Finish(v, Ranks(v, First(own), Last(own)), std::move(network));
  }

  // v's children inside its node's [lo, hi], each holding a range of it.
  std::vector<std::pair<std::int64_t, int>> Ranks(int v, int lo, int hi) {
    std::vector<std::pair<std::int64_t, int>> children;
    for (const UnitRange& range : SplitAround(lo, hi, v, shape_.rank_ranges, blocks_)) {
      const int child = range.hi < v ? range.hi : range.lo;
      Finish(child, Ranks(child, range.lo, range.hi), {});
      std::int64_t bytes = 0;
      for (int r = range.lo; r <= range.hi; ++r) bytes += blocks_[r];
      children.emplace_back(bytes, child);
    }
    return children;
  }

  // v's steps in gather order (a scatter serves them from the last): its own block, its node's
  // ranges, then the other nodes' ranges, each group by ascending bytes, so that a scatter sends
  // the largest range of other nodes first and its node's ranks last.
  void Finish(int v, std::vector<std::pair<std::int64_t, int>> node,
              std::vector<std::pair<std::int64_t, int>> network) {
    std::sort(node.begin(), node.end());
    std::sort(network.begin(), network.end());
    std::vector<int>& steps = tree_.steps[v];
    steps.push_back(SequencedTree::kCopy);
    for (const auto& child : node) steps.push_back(child.second);
    for (const auto& child : network) steps.push_back(child.second);
  }

  const std::vector<std::int64_t>& blocks_;
  int per_node_;
  NodeScatterShape shape_;
  int p_;
  std::vector<std::int64_t> node_bytes_;
  SequencedTree tree_;
};

// The shapes FastestNodeScatterTree weighs (node_scatter_tree.hpp).
std::vector<NodeScatterShape> WeighedShapes(bool wide) {
  std::vector<NodeScatterShape> shapes;
  for (bool middle : {false, true}) {
    for (const auto& ranges : {std::pair{4, 8}, std::pair{6, 6}, std::pair{8, 4}}) {
      for (int rank_ranges : {4, 8}) {
        shapes.push_back({ranges.first, ranges.second, rank_ranges, middle});
      }
    }
  }
  if (wide) {
    for (bool middle : {false, true}) {
      for (int root_ranges : {4, 6, 8}) shapes.push_back({root_ranges, 16, 4, middle});
    }
  }
  return shapes;
}

}  // namespace

SequencedTree BuildNodeScatterTree(const std::vector<std::int64_t>& block_bytes, int root,
                                   int ranks_per_node, const NodeScatterShape& shape) {
  const int p = static_cast<int>(block_bytes.size());
  if (root < 0 || root >= p) {
    throw std::invalid_argument("BuildNodeScatterTree: root " + std::to_string(root) +
                                " is not in [0, " + std::to_string(p) + ")");
  }
  if (ranks_per_node < 1 || shape.root_ranges < 1 || shape.leader_ranges < 1 ||
      shape.rank_ranges < 1) {
    throw std::invalid_argument("BuildNodeScatterTree: ranks_per_node " +
                                std::to_string(ranks_per_node) + " and the range counts " +
                                std::to_string(shape.root_ranges) + ", " +
                                std::to_string(shape.leader_ranges) + ", " +
                                std::to_string(shape.rank_ranges) + " must each be at least 1");
  }
  return Builder(block_bytes, ranks_per_node, shape).Build(root);
}

NodeScatterChoice FastestNodeScatterTree(const std::vector<std::int64_t>& block_bytes, int root,
                                         int ranks_per_node, const LogGPParams& params,
                                         bool wide_shapes) {
  NodeScatterChoice best;
  bool first = true;
  const int p = static_cast<int>(block_bytes.size()), per_node = std::max(ranks_per_node, 1);
  const bool wide = wide_shapes && (p + per_node - 1) / per_node >= kWideShapesMinNodes;
  for (const NodeScatterShape& shape : WeighedShapes(wide)) {
    Tree tree =
        ToNodeViews(BuildNodeScatterTree(block_bytes, root, ranks_per_node, shape), block_bytes);
    const double time = PlannedScatterTime(tree, params);
    if (first || time < best.time) {  // a tie keeps the earlier shape
      best = {std::move(tree), time, shape};
      first = false;
    }
  }
  return best;
}

}  // namespace tuw::tree
