#include "hypercube_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tuw::tree {

int CeilLog2(int p) {
  int d = 0;
  while ((std::int64_t{1} << d) < p) ++d;
  return d;
}

CubeRange CubeOf(int rank, int level, int p) {
  const std::int64_t size = std::int64_t{1} << level;
  const std::int64_t lo = (rank / size) * size;
  const std::int64_t hi = std::min<std::int64_t>(lo + size, p) - 1;
  return {static_cast<int>(lo), static_cast<int>(hi)};
}

bool SiblingCube(int rank, int level, int p, CubeRange* sibling) {
  const std::int64_t size = std::int64_t{1} << level;
  const std::int64_t index = rank / size;
  const std::int64_t lo = (index ^ 1) * size;
  if (lo >= p) return false;
  sibling->lo = static_cast<int>(lo);
  sibling->hi = static_cast<int>(std::min<std::int64_t>(lo + size, p) - 1);
  return true;
}

bool LeftCubeWins(TreeKind kind, const CubeRange& left, const CubeSummary& left_summary,
                  const CubeRange& right, const CubeSummary& right_summary, int fixed_root) {
  if (fixed_root >= 0) {
    if (left.Contains(fixed_root)) return true;
    if (right.Contains(fixed_root)) return false;
  }
  if (kind == TreeKind::kOblivious) return false;
  // Lemma 1: the root with the smaller gather time sends; ties: the smaller cube sends.
  const std::int64_t t_left = left_summary.GatherTimeEstimate();
  const std::int64_t t_right = right_summary.GatherTimeEstimate();
  if (t_left != t_right) return t_left > t_right;
  return left_summary.total_bytes > right_summary.total_bytes;
}

Tree BuildTree(TreeKind kind, const std::vector<std::int64_t>& block_bytes, int fixed_root) {
  const int p = static_cast<int>(block_bytes.size());
  if (p < 1) throw std::invalid_argument("BuildTree: p must be >= 1, got " + std::to_string(p));
  if (fixed_root < -1 || fixed_root >= p) {
    throw std::invalid_argument("BuildTree: root " + std::to_string(fixed_root) +
                                " is not in [0, " + std::to_string(p) + ")");
  }
  if (fixed_root == -1 && kind == TreeKind::kOblivious) {
    throw std::invalid_argument("BuildTree: the oblivious tree needs a fixed root");
  }
  Tree tree;
  tree.nodes.resize(p);
  std::vector<CubeSummary> cubes(p);
  for (int i = 0; i < p; ++i) {
    if (block_bytes[i] < 0) {
      throw std::invalid_argument("BuildTree: block " + std::to_string(i) + " has negative size " +
                                  std::to_string(block_bytes[i]));
    }
    cubes[i] = {i, block_bytes[i], block_bytes[i]};
    NodeView& node = tree.nodes[i];
    node.rank = i;
    node.own_bytes = block_bytes[i];
  }
  const int levels = CeilLog2(p);
  for (int level = 0; level < levels; ++level) {
    const std::int64_t size = std::int64_t{1} << level;
    const int count = static_cast<int>((p + size - 1) / size);
    int merged = 0;
    for (int c = 0; c < count; c += 2, ++merged) {
      if (c + 1 >= count) {  // no partner: the cube is carried into the next round unchanged
        cubes[merged] = cubes[c];
        continue;
      }
      const CubeRange left = CubeOf(static_cast<int>(c * size), level, p);
      const CubeRange right = CubeOf(static_cast<int>((c + 1) * size), level, p);
      const bool left_wins = LeftCubeWins(kind, left, cubes[c], right, cubes[c + 1], fixed_root);
      const CubeSummary& winner = left_wins ? cubes[c] : cubes[c + 1];
      const CubeSummary& loser = left_wins ? cubes[c + 1] : cubes[c];
      const CubeRange& loser_range = left_wins ? right : left;
      NodeView& sender = tree.nodes[loser.gather_root];
      sender.parent = winner.gather_root;
      sender.parent_level = level;
      sender.lo = loser_range.lo;
      sender.hi = loser_range.hi;
      sender.bytes = loser.total_bytes;
      tree.nodes[winner.gather_root].children.push_back(
          {loser.gather_root, level, loser_range.lo, loser_range.hi, loser.total_bytes, {}});
      cubes[merged] = {winner.gather_root, winner.total_bytes + loser.total_bytes,
                       winner.root_bytes};
    }
  }
  tree.root = cubes[0].gather_root;
  NodeView& root = tree.nodes[tree.root];
  root.lo = 0;
  root.hi = p - 1;
  root.bytes = cubes[0].total_bytes;
  return tree;
}

NodeView ObliviousLocalView(int rank, int p, int fixed_root) {
  // A cube's root in the oblivious tree: the given root if the cube holds it, else its last rank.
  auto gather_root_of = [&](const CubeRange& c) {
    return c.Contains(fixed_root) ? fixed_root : c.hi;
  };
  NodeView view;
  view.rank = rank;
  const int levels = CeilLog2(p);
  for (int level = 0; level < levels; ++level) {
    CubeRange sibling{};
    if (!SiblingCube(rank, level, p, &sibling)) continue;
    const CubeRange mine = CubeOf(rank, level, p);
    const bool mine_is_left = mine.lo < sibling.lo;
    const CubeSummary none;
    const bool left_wins = LeftCubeWins(TreeKind::kOblivious, mine_is_left ? mine : sibling, none,
                                        mine_is_left ? sibling : mine, none, fixed_root);
    if (left_wins == mine_is_left) {
      view.children.push_back({gather_root_of(sibling), level, sibling.lo, sibling.hi, 0, {}});
    } else {
      view.parent = gather_root_of(sibling);
      view.parent_level = level;
      view.lo = mine.lo;
      view.hi = mine.hi;
      return view;
    }
  }
  view.lo = 0;
  view.hi = p - 1;
  return view;
}

PieceOffsets ComputePieceOffsets(const NodeView& node) {
  // The node's own rank and its children's ranges tile [lo, hi]; order them by rank.
  const std::size_t n = node.children.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return node.children[a].lo < node.children[b].lo;
  });
  PieceOffsets offsets;
  offsets.child.assign(n, 0);
  std::int64_t position = 0;
  bool own_placed = false;
  for (std::size_t k : order) {
    if (!own_placed && node.rank < node.children[k].lo) {
      offsets.own = position;
      position += node.own_bytes;
      own_placed = true;
    }
    offsets.child[k] = position;
    position += node.children[k].bytes;
  }
  if (!own_placed) offsets.own = position;
  return offsets;
}

}  // namespace tuw::tree
