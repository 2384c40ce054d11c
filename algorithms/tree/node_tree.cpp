#include "node_tree.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace tuw::tree {

bool ContiguousNodes(const std::vector<int>& node_first) {
  for (std::size_t i = 0; i < node_first.size(); ++i) {
    const int first = node_first[i];
    if (first != static_cast<int>(i) && (i == 0 || first != node_first[i - 1])) return false;
  }
  return true;
}

std::vector<int> BlockPlacement(int p, int ranks_per_node) {
  std::vector<int> node_first(std::max(p, 0));
  for (int i = 0; i < p; ++i) node_first[i] = i - i % ranks_per_node;
  return node_first;
}

int CountNodes(const std::vector<int>& node_first) {
  int nodes = 0;
  for (std::size_t i = 0; i < node_first.size(); ++i) nodes += node_first[i] == static_cast<int>(i);
  return nodes;
}

NodeTree BuildNodeTree(const std::vector<std::int64_t>& blocks, const std::vector<int>& node_first,
                       const CostParams& c, int root, DpMethod method) {
  const int p = static_cast<int>(blocks.size());
  if (static_cast<int>(node_first.size()) != p || !ContiguousNodes(node_first)) {
    throw std::invalid_argument("BuildNodeTree: nodes are not contiguous rank ranges of " +
                                std::to_string(p) + " ranks");
  }
  if (root < 0 || root >= p) {
    throw std::invalid_argument("BuildNodeTree: root " + std::to_string(root) + " of " +
                                std::to_string(p));
  }
  // Nodes in rank order: [first[k], first[k + 1]).
  std::vector<int> first;
  for (int i = 0; i < p; ++i) {
    if (node_first[i] == i) first.push_back(i);
  }
  const int nodes = static_cast<int>(first.size());
  first.push_back(p);
  NodeTree out;
  out.node_bytes.assign(nodes, 0);
  std::vector<int> leader(nodes);
  int root_node = 0;
  for (int k = 0; k < nodes; ++k) {
    leader[k] = first[k];
    for (int v = first[k]; v < first[k + 1]; ++v) {
      out.node_bytes[k] += blocks[v];
      if (blocks[v] > blocks[leader[k]]) leader[k] = v;
    }
    if (root >= first[k] && root < first[k + 1]) {
      root_node = k;
      leader[k] = root;
    }
  }
  out.time = OptimalCost(out.node_bytes, c, root_node, method, &out.node_tree).time;
  // Each leader: its own block and its node's other ranks (shared memory) where the node DP
  // copies its own block - first where the DP's node is a leaf - then its child nodes' leaders.
  out.tree.root = root;
  out.tree.steps.assign(p, {});
  for (int k = 0; k < nodes; ++k) {
    std::vector<int> local{SequencedTree::kCopy};
    for (int v = first[k]; v < first[k + 1]; ++v) {
      if (v != leader[k]) local.push_back(v);
    }
    const std::vector<int>& node_steps = out.node_tree.steps[k];
    std::vector<int>& steps = out.tree.steps[leader[k]];
    if (std::find(node_steps.begin(), node_steps.end(), SequencedTree::kCopy) == node_steps.end()) {
      steps = local;
    }
    for (int step : node_steps) {
      if (step == SequencedTree::kCopy) {
        steps.insert(steps.end(), local.begin(), local.end());
      } else {
        steps.push_back(leader[step]);
      }
    }
  }
  return out;
}

bool PreferNodeTree(const std::vector<std::int64_t>& blocks, const std::vector<int>& node_first,
                    const CostParams& c) {
  const int p = static_cast<int>(blocks.size());
  if (static_cast<int>(node_first.size()) != p || !ContiguousNodes(node_first)) return false;
  const int nodes = CountNodes(node_first);
  if (nodes < 2 || nodes == p) return false;
  const double total =
      static_cast<double>(std::accumulate(blocks.begin(), blocks.end(), std::int64_t{0}));
  return c.beta * total / nodes >= c.alpha;
}

namespace {

std::int64_t RangeBytes(const Tree& tree, RankRange range) {
  std::int64_t bytes = 0;
  for (int i = range.lo; i <= range.hi; ++i) bytes += tree.nodes[i].own_bytes;
  return bytes;
}

// The parts of `ranges` (in send order) with bytes, or none where that layout is not possible.
// `first_any_size`: ranges[0] is the sender's own block, exempt from the size rule.
std::vector<EdgePart> Layout(const Tree& tree, const NodeView& v,
                             const std::vector<RankRange>& ranges, std::int64_t min_part_bytes,
                             bool first_any_size) {
  std::vector<EdgePart> parts;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const std::int64_t bytes = RangeBytes(tree, ranges[k]);
    if (bytes == 0) continue;
    const bool exempt = first_any_size && k == 0;
    if (!exempt && bytes < min_part_bytes && bytes > kTinyPartBytes) return {};
    parts.push_back({ranges[k].lo, ranges[k].hi, bytes});
  }
  if (parts.size() < 2) return {};
  for (const ChildEdge& c : v.children) {
    const auto holds = [&](const EdgePart& e) { return e.lo <= c.lo && c.hi <= e.hi; };
    if (c.bytes > 0 && std::none_of(parts.begin(), parts.end(), holds)) return {};
  }
  return parts;
}

}  // namespace

std::vector<EdgePart> EdgeParts(const Tree& tree, int rank, RankRange node,
                                std::int64_t min_part_bytes) {
  const NodeView& v = tree.nodes[rank];
  if (v.parent < 0 || node.lo < v.lo || node.hi > v.hi || rank < node.lo || rank > node.hi) {
    return {};
  }
  // The own block is there when the call starts, before anything else the edge carries, so it
  // goes while the parent's link would idle, whatever its size.
  const std::vector<EdgePart> own_first =
      v.own_bytes > 0 ? Layout(tree, v, {{rank, rank}, {v.lo, rank - 1}, {rank + 1, v.hi}},
                               min_part_bytes, true)
                      : std::vector<EdgePart>{};
  const std::int64_t node_others = RangeBytes(tree, node) - v.own_bytes;
  if (!own_first.empty() && node_others < min_part_bytes) return own_first;
  const std::vector<EdgePart> node_first =
      Layout(tree, v, {node, {v.lo, node.lo - 1}, {node.hi + 1, v.hi}}, min_part_bytes, false);
  return node_first.empty() ? own_first : node_first;
}

std::vector<RankRange> ChooseNodeParts(const Tree& tree, const std::vector<int>& node_first,
                                       std::int64_t min_part_bytes) {
  const int p = static_cast<int>(tree.nodes.size());
  if (static_cast<int>(node_first.size()) != p || !ContiguousNodes(node_first)) {
    throw std::invalid_argument("ChooseNodeParts: nodes are not contiguous rank ranges of " +
                                std::to_string(p) + " ranks");
  }
  std::vector<int> node_last(p);
  for (int i = p - 1; i >= 0; --i) {
    node_last[i] = i + 1 < p && node_first[i + 1] == node_first[i] ? node_last[i + 1] : i;
  }
  std::vector<RankRange> chosen(p);
  for (const NodeView& v : tree.nodes) {
    const RankRange node{std::max(v.lo, node_first[v.rank]), std::min(v.hi, node_last[v.rank])};
    if (!EdgeParts(tree, v.rank, node, min_part_bytes).empty()) chosen[v.rank] = node;
  }
  return chosen;
}

void ApplyNodeParts(const std::vector<RankRange>& node_parts, Tree* tree,
                    std::int64_t min_part_bytes) {
  if (node_parts.size() != tree->nodes.size()) {
    throw std::invalid_argument("ApplyNodeParts: " + std::to_string(node_parts.size()) +
                                " parts for " + std::to_string(tree->nodes.size()) + " ranks");
  }
  for (NodeView& v : tree->nodes) {
    if (node_parts[v.rank].empty()) continue;
    std::vector<EdgePart> parts = EdgeParts(*tree, v.rank, node_parts[v.rank], min_part_bytes);
    if (parts.empty()) {
      throw std::invalid_argument("ApplyNodeParts: rank " + std::to_string(v.rank) +
                                  "'s edge cannot go in parts");
    }
    for (ChildEdge& edge : tree->nodes[v.parent].children) {
      if (edge.child == v.rank) edge.parts = parts;
    }
    v.parent_parts = std::move(parts);
  }
}

}  // namespace tuw::tree
