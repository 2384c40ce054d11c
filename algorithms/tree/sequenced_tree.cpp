#include "sequenced_tree.hpp"

#include <stdexcept>

namespace tuw::tree {
namespace {

std::string Node(int v) { return "SequencedTree: node " + std::to_string(v); }

}  // namespace

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
      node.children.push_back({step, position, child.lo, child.hi, child.bytes});
    }
    if (covered != node.hi - node.lo + 1) {  // ranges overlap or leave a gap: not ordered
      throw std::invalid_argument(Node(v) + "'s subtree is not the contiguous range [" +
                                  std::to_string(node.lo) + ", " + std::to_string(node.hi) + "]");
    }
  }
  return out;
}

}  // namespace tuw::tree
