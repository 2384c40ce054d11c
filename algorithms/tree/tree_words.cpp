#include "tree_words.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace tuw::tree {
namespace {
constexpr std::int64_t kLowHalf = 0xFFFFFFFF;
}  // namespace

std::vector<std::int64_t> EncodeTree(const Tree& tree, const std::vector<std::int64_t>& block_bytes,
                                     const std::vector<RankRange>& node_parts) {
  const std::size_t p = block_bytes.size();
  if (tree.nodes.size() != p || node_parts.size() != p) {
    throw std::invalid_argument("EncodeTree: tree, blocks and parts of different sizes");
  }
  std::vector<std::int64_t> words(kTreeWords * p, -1);
  std::copy(block_bytes.begin(), block_bytes.end(), words.begin());
  for (const NodeView& node : tree.nodes) {
    for (std::size_t k = 0; k < node.children.size(); ++k) {
      const int child = node.children[k].child;
      const RankRange& part = node_parts[child];
      const std::int64_t lo = part.empty() ? 0 : part.lo + std::int64_t{1};
      const std::int64_t hi = part.empty() ? 0 : part.hi + std::int64_t{1};
      words[p + child] = (lo << 32) | node.rank;
      words[2 * p + child] = (hi << 32) | static_cast<std::int64_t>(k);
    }
  }
  return words;
}

NodeView DecodeNode(const std::int64_t* words, int p, int root, int rank) {
  if (root < 0 || root >= p || rank < 0 || rank >= p) {
    throw std::invalid_argument("DecodeNode: root or rank out of range");
  }
  const std::vector<std::int64_t> block_bytes(words, words + p);
  SequencedTree sequenced;
  sequenced.root = root;
  sequenced.steps.assign(p, {});
  std::vector<std::vector<std::pair<std::int64_t, int>>> children(p);
  std::vector<RankRange> node_parts(p);
  for (int v = 0; v < p; ++v) {
    if (v == root) continue;
    const std::int64_t parent_word = words[p + v], place_word = words[2 * p + v];
    const std::int64_t parent = parent_word & kLowHalf;
    if (parent_word < 0 || place_word < 0 || parent >= p) {
      throw std::invalid_argument("DecodeNode: rank " + std::to_string(v) + " has no parent");
    }
    children[parent].push_back({place_word & kLowHalf, v});
    const std::int64_t lo = parent_word >> 32, hi = place_word >> 32;
    if (lo > 0) node_parts[v] = {static_cast<int>(lo - 1), static_cast<int>(hi - 1)};
  }
  for (int v = 0; v < p; ++v) {
    std::sort(children[v].begin(), children[v].end());
    for (const auto& child : children[v]) sequenced.steps[v].push_back(child.second);
  }
  Tree views = ToNodeViews(sequenced, block_bytes);
  ApplyNodeParts(node_parts, &views);
  return std::move(views.nodes[rank]);
}

}  // namespace tuw::tree
