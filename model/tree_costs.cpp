#include "tree_costs.hpp"

#include <limits>
#include <stdexcept>

namespace irr::model {
namespace {

using tuw::tree::BuildTree;
using tuw::tree::TreeKind;

std::vector<int> CandidateRoots(int p, TreeType type, ObliviousRoots which) {
  std::vector<int> roots;
  if (type == TreeType::kOblivious && which == ObliviousRoots::kPaper) {
    roots.push_back(0);
    for (long r = 1; r < p; r = 2 * r + 1) roots.push_back(static_cast<int>(r));
    if (roots.back() != p - 1) roots.push_back(p - 1);
  } else {
    for (int r = 0; r < p; ++r) roots.push_back(r);
  }
  return roots;
}

double LinearTime(const std::vector<std::int64_t>& blocks, const CostParams& c, int root) {
  if (blocks.size() == 1) return 0;  // one processor: nothing to gather, as in every tree's DP
  double t = c.gamma * static_cast<double>(blocks[root]);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (static_cast<int>(i) != root) t += c.Comm(static_cast<double>(blocks[i]));
  }
  return t;
}

}  // namespace

const std::vector<std::string>& TreeNames() {
  static const std::vector<std::string> names = {"linear", "binary", "oblivious", "adaptive",
                                                 "optimal"};
  return names;
}

TreeType TreeFromName(const std::string& name) {
  const auto& names = TreeNames();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<TreeType>(i);
  }
  throw std::invalid_argument("unknown tree '" + name + "'");
}

Result TreeCost(TreeType type, const std::vector<std::int64_t>& blocks, const CostParams& c,
                int root, const TreeOptions& options) {
  const int p = static_cast<int>(blocks.size());
  if (p < 1) throw std::invalid_argument("p must be >= 1");
  if (root < -1 || root >= p) throw std::invalid_argument("root out of range");
  switch (type) {
    case TreeType::kOptimal:
      return OptimalCost(blocks, c, root, options.dp);
    case TreeType::kBinary:
      return BinaryCost(blocks, c, root);
    case TreeType::kAdaptive: {
      const tuw::tree::Tree tree = BuildTree(TreeKind::kAdaptive, blocks, root);
      return {GatherTime(FromHypercube(tree), blocks, c), tree.root};
    }
    case TreeType::kLinear:
    case TreeType::kOblivious: {
      auto time = [&](int r) {
        return type == TreeType::kLinear
                   ? LinearTime(blocks, c, r)
                   : GatherTime(FromHypercube(BuildTree(TreeKind::kOblivious, blocks, r)), blocks,
                                c);
      };
      if (root >= 0) return {time(root), root};
      Result best{std::numeric_limits<double>::infinity(), -1};
      for (int r : CandidateRoots(p, type, options.oblivious_roots)) {
        const double t = time(r);
        if (t < best.time) best = {t, r};
      }
      return best;
    }
  }
  throw std::invalid_argument("unknown tree type");
}

SequencedTree BuildSequencedTree(TreeType type, const std::vector<std::int64_t>& blocks,
                                 const CostParams& c, int root, const TreeOptions& options) {
  SequencedTree tree;
  switch (type) {
    case TreeType::kOptimal:
      OptimalCost(blocks, c, root, options.dp, &tree);
      return tree;
    case TreeType::kBinary:
      BinaryCost(blocks, c, root, &tree);
      return tree;
    case TreeType::kAdaptive:
      return FromHypercube(BuildTree(TreeKind::kAdaptive, blocks, root));
    case TreeType::kLinear:
    case TreeType::kOblivious: {
      const int r = root >= 0 ? root : TreeCost(type, blocks, c, -1, options).root;
      return type == TreeType::kLinear ? LinearTree(static_cast<int>(blocks.size()), r)
                                       : FromHypercube(BuildTree(TreeKind::kOblivious, blocks, r));
    }
  }
  return tree;
}

}  // namespace irr::model
