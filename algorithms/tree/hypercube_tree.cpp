#include "hypercube_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tuw::tree {

namespace {

void CheckRadix(const char* who, int radix) {
  if (radix < 2 || radix > kMaxRadix) {
    throw std::invalid_argument(std::string(who) + ": radix " + std::to_string(radix) +
                                " is not in [2, " + std::to_string(kMaxRadix) + "]");
  }
}

// radix^level: at most p * radix for the levels a tree has, so no overflow.
std::int64_t CubeSize(int level, int radix) {
  std::int64_t size = 1;
  for (int d = 0; d < level; ++d) size *= radix;
  return size;
}

}  // namespace

int CeilLog(int p, int radix) {
  // A radix below 2 never reaches p: an error, not an endless loop (a radix lost in transit once
  // made every process spin here).
  if (radix < 2) {
    throw std::invalid_argument("CeilLog: radix " + std::to_string(radix) + " is below 2");
  }
  int d = 0;
  for (std::int64_t reach = 1; reach < p; reach *= radix) ++d;
  return d;
}

CubeRange CubeOf(int rank, int level, int p, int radix) {
  const std::int64_t size = CubeSize(level, radix);
  const std::int64_t lo = (rank / size) * size;
  const std::int64_t hi = std::min<std::int64_t>(lo + size, p) - 1;
  return {static_cast<int>(lo), static_cast<int>(hi)};
}

std::vector<CubeRange> GroupOf(int rank, int level, int p, int radix) {
  std::vector<CubeRange> cubes;
  GroupOf(rank, level, p, radix, &cubes);
  return cubes;
}

void GroupOf(int rank, int level, int p, int radix, std::vector<CubeRange>* cubes) {
  const std::int64_t size = CubeSize(level, radix);
  const CubeRange group = CubeOf(rank, level + 1, p, radix);
  cubes->clear();
  for (std::int64_t lo = group.lo; lo <= group.hi; lo += size) {
    cubes->push_back(
        {static_cast<int>(lo), static_cast<int>(std::min<std::int64_t>(lo + size, p) - 1)});
  }
}

std::size_t WinningCube(TreeKind kind, const std::vector<CubeRange>& cubes,
                        const std::vector<CubeSummary>& summaries, int fixed_root) {
  return WinningCube(kind, cubes.data(), summaries.data(), cubes.size(), fixed_root);
}

std::size_t WinningCube(TreeKind kind, const CubeRange* cubes, const CubeSummary* summaries,
                        std::size_t n, int fixed_root) {
  if (fixed_root >= 0) {
    for (std::size_t i = 0; i < n; ++i) {
      if (cubes[i].Contains(fixed_root)) return i;
    }
  }
  std::size_t winner = n - 1;  // oblivious: the rightmost cube's root
  if (kind == TreeKind::kOblivious) return winner;
  // Lemma 1: the roots with the smaller gather time send; ties: the smaller cubes send, and of
  // full ties the rightmost cube wins (the scan keeps a later cube on equality).
  for (std::size_t i = n - 1; i-- > 0;) {
    const CubeSummary& a = summaries[i];
    const CubeSummary& w = summaries[winner];
    const std::int64_t ta = a.GatherTimeEstimate(), tw = w.GatherTimeEstimate();
    if (ta > tw || (ta == tw && a.total_bytes > w.total_bytes)) winner = i;
  }
  return winner;
}

void OrderRound(std::vector<ChildEdge>::iterator first, std::vector<ChildEdge>::iterator last) {
  std::sort(first, last, [](const ChildEdge& a, const ChildEdge& b) {
    return a.bytes != b.bytes ? a.bytes < b.bytes : a.lo < b.lo;
  });
}

Tree BuildTree(TreeKind kind, const std::vector<std::int64_t>& block_bytes, int fixed_root,
               int radix) {
  const int p = static_cast<int>(block_bytes.size());
  if (p < 1) throw std::invalid_argument("BuildTree: p must be >= 1, got " + std::to_string(p));
  if (fixed_root < -1 || fixed_root >= p) {
    throw std::invalid_argument("BuildTree: root " + std::to_string(fixed_root) +
                                " is not in [0, " + std::to_string(p) + ")");
  }
  if (fixed_root == -1 && kind == TreeKind::kOblivious) {
    throw std::invalid_argument("BuildTree: the oblivious tree needs a fixed root");
  }
  CheckRadix("BuildTree", radix);
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
  const int levels = CeilLog(p, radix);
  std::vector<CubeRange> group;
  for (int level = 0; level < levels; ++level) {
    const std::int64_t size = CubeSize(level, radix);
    const int count = static_cast<int>((p + size - 1) / size);
    int merged = 0;
    for (int c = 0; c < count; c += radix, ++merged) {
      GroupOf(static_cast<int>(c * size), level, p, radix, &group);
      // The group's summaries, read in place: cubes[merged] (merged <= c) is written after them.
      const CubeSummary* members = cubes.data() + c;
      if (group.size() == 1) {  // no partner: the cube is carried into the next round unchanged
        cubes[merged] = members[0];
        continue;
      }
      const std::size_t w = WinningCube(kind, group.data(), members, group.size(), fixed_root);
      const CubeSummary winner = members[w];
      NodeView& receiver = tree.nodes[winner.gather_root];
      const std::size_t first_child = receiver.children.size();
      CubeSummary merged_cube = winner;
      for (std::size_t i = 0; i < group.size(); ++i) {
        if (i == w) continue;
        const CubeSummary& loser = members[i];
        NodeView& sender = tree.nodes[loser.gather_root];
        sender.parent = winner.gather_root;
        sender.parent_level = level;
        sender.lo = group[i].lo;
        sender.hi = group[i].hi;
        sender.bytes = loser.total_bytes;
        receiver.children.push_back(
            {loser.gather_root, level, group[i].lo, group[i].hi, loser.total_bytes, {}});
        merged_cube.total_bytes += loser.total_bytes;
      }
      if (kind == TreeKind::kAdaptive) {
        OrderRound(receiver.children.begin() + first_child, receiver.children.end());
      }
      cubes[merged] = merged_cube;
    }
  }
  tree.root = cubes[0].gather_root;
  NodeView& root = tree.nodes[tree.root];
  root.lo = 0;
  root.hi = p - 1;
  root.bytes = cubes[0].total_bytes;
  return tree;
}

NodeView AdaptiveNodeOf(const std::int64_t* block_bytes, int n, int fixed_root, int radix,
                        int rank) {
  if (n < 1)
    throw std::invalid_argument("AdaptiveNodeOf: n must be >= 1, got " + std::to_string(n));
  if (fixed_root < -1 || fixed_root >= n || rank < 0 || rank >= n) {
    throw std::invalid_argument("AdaptiveNodeOf: root " + std::to_string(fixed_root) + " or rank " +
                                std::to_string(rank) + " is not in [0, " + std::to_string(n) + ")");
  }
  CheckRadix("AdaptiveNodeOf", radix);
  NodeView node;
  node.rank = rank;
  node.own_bytes = block_bytes[rank];
  // BuildTree's merges, keeping only the summaries: cubes[c] is the c-th cube of the level.
  std::vector<CubeSummary> cubes(n);
  for (int i = 0; i < n; ++i) {
    if (block_bytes[i] < 0) {
      throw std::invalid_argument("AdaptiveNodeOf: block " + std::to_string(i) +
                                  " has negative size " + std::to_string(block_bytes[i]));
    }
    cubes[i] = {i, block_bytes[i], block_bytes[i]};
  }
  std::vector<CubeRange> group;
  group.reserve(radix);
  const int levels = CeilLog(n, radix);
  std::int64_t size = 1;
  for (int level = 0; level < levels; ++level, size *= radix) {
    const int count = static_cast<int>((n + size - 1) / size);
    int merged = 0;
    for (int c = 0; c < count; c += radix, ++merged) {
      const int members = std::min(radix, count - c);
      group.clear();
      for (int j = 0; j < members; ++j) {
        const std::int64_t lo = (c + j) * size;
        group.push_back(
            {static_cast<int>(lo), static_cast<int>(std::min<std::int64_t>(lo + size, n) - 1)});
      }
      const CubeSummary* summaries = cubes.data() + c;
      const std::size_t w = members == 1 ? 0
                                         : WinningCube(TreeKind::kAdaptive, group.data(), summaries,
                                                       members, fixed_root);
      CubeSummary merged_cube = summaries[w];
      const bool receives = merged_cube.gather_root == rank;
      const std::size_t first_child = node.children.size();
      for (int j = 0; j < members; ++j) {
        if (static_cast<std::size_t>(j) == w) continue;
        const CubeSummary& loser = summaries[j];
        merged_cube.total_bytes += loser.total_bytes;
        if (receives) {
          node.children.push_back(
              {loser.gather_root, level, group[j].lo, group[j].hi, loser.total_bytes, {}});
        } else if (loser.gather_root == rank) {  // this node sends: it is complete
          node.parent = merged_cube.gather_root;
          node.parent_level = level;
          node.lo = group[j].lo;
          node.hi = group[j].hi;
          node.bytes = loser.total_bytes;
          return node;
        }
      }
      if (receives) OrderRound(node.children.begin() + first_child, node.children.end());
      cubes[merged] = merged_cube;
    }
  }
  node.lo = 0;
  node.hi = n - 1;
  node.bytes = cubes[0].total_bytes;
  return node;
}

int SizeFieldWidth(std::int64_t largest) {
  int width = 1;
  while (width < 8 && (largest >> (8 * width)) != 0) width *= 2;
  return width;
}

bool UniformSizes(const std::int64_t* sizes, int n) {
  return n > 1 && std::all_of(sizes + 1, sizes + n, [&](std::int64_t s) { return s == sizes[0]; });
}

SizeLayout SizeMessageLayout(const std::int64_t* sizes, int n) {
  SizeLayout layout;
  layout.width = SizeFieldWidth(n > 0 ? *std::max_element(sizes, sizes + n) : 0);
  layout.uniform = UniformSizes(sizes, n);
  layout.fields = layout.uniform ? 1 : n;
  layout.bytes = kSizeHeaderBytes + static_cast<std::int64_t>(layout.width) * layout.fields;
  return layout;
}

std::int64_t SizeMessageBytes(const std::int64_t* sizes, int n) {
  return SizeMessageLayout(sizes, n).bytes;
}

bool OneMessageCall(const std::int64_t* sizes, int n, std::int64_t max_message_bytes) {
  std::int64_t total = SizeMessageBytes(sizes, n);
  for (int i = 0; i < n; ++i) total += sizes[i];
  return total <= std::min(kOneMessageMaxBytes, max_message_bytes);
}

NodeView ObliviousLocalView(int rank, int p, int fixed_root, int radix) {
  CheckRadix("ObliviousLocalView", radix);
  // A cube's root in the oblivious tree: the given root if the cube holds it, else its last rank.
  auto gather_root_of = [&](const CubeRange& c) {
    return c.Contains(fixed_root) ? fixed_root : c.hi;
  };
  NodeView view;
  view.rank = rank;
  const int levels = CeilLog(p, radix);
  for (int level = 0; level < levels; ++level) {
    const std::vector<CubeRange> group = GroupOf(rank, level, p, radix);
    if (group.size() == 1) continue;
    const std::vector<CubeSummary> none(group.size());
    const std::size_t w = WinningCube(TreeKind::kOblivious, group, none, fixed_root);
    if (group[w].Contains(rank)) {
      for (std::size_t i = 0; i < group.size(); ++i) {
        if (i != w) {
          view.children.push_back(
              {gather_root_of(group[i]), level, group[i].lo, group[i].hi, 0, {}});
        }
      }
    } else {
      const CubeRange mine = CubeOf(rank, level, p, radix);
      view.parent = gather_root_of(group[w]);
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
