#include "node_tree.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

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

}  // namespace tuw::tree
