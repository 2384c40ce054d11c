#include "carried_cubes.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tuw::tree {

std::size_t CarrierCube(const std::vector<CubeRange>& group, int root) {
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (group[i].Contains(root)) return i;
  }
  return group.size() - 1;
}

bool CarriesData(const CubeRange& cube, const CubeSummary& summary, bool held, int root,
                 std::int64_t max_bytes) {
  return max_bytes >= 0 && !cube.Contains(root) && held && summary.gather_root == cube.hi &&
         summary.total_bytes <= max_bytes;
}

bool RootToldDirectly(const std::vector<CubeRange>& group, int root, std::int64_t max_bytes) {
  if (max_bytes < 0 || root < 0 || group.size() < 2) return false;
  const CubeRange& cube = group[CarrierCube(group, root)];
  return cube.Contains(root) && cube.hi != root;
}

std::int64_t CarryLimit(const std::vector<CubeRange>& group, int root, std::int64_t max_bytes,
                        std::int64_t root_max_bytes) {
  if (!RootToldOnly(group, root, max_bytes, root_max_bytes)) return max_bytes;
  return std::max(max_bytes, root_max_bytes);
}

std::int64_t FirstCarryLimit(int rank, int p, int radix, int root, std::int64_t max_bytes,
                             std::int64_t root_max_bytes) {
  const int levels = CeilLog(p, radix);
  for (int level = 0; level < levels; ++level) {
    const std::vector<CubeRange> group = GroupOf(rank, level, p, radix);
    if (group.size() > 1) return CarryLimit(group, root, max_bytes, root_max_bytes);
  }
  return max_bytes;
}

bool GroupCarried(const std::vector<CubeRange>& group, const std::vector<CubeSummary>& summaries,
                  const std::vector<bool>& held, int root, std::int64_t max_bytes) {
  if (max_bytes < 0 || group.size() < 2) return false;
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (group[i].Contains(root)) continue;
    if (!CarriesData(group[i], summaries[i], held[i], root, max_bytes)) return false;
  }
  return true;
}

Tree BuildCarriedTree(const std::vector<std::int64_t>& block_bytes, int root, int radix,
                      std::int64_t max_bytes, std::vector<CarriedGroup>* groups,
                      std::vector<char>* done, std::int64_t root_max_bytes) {
  const int p = static_cast<int>(block_bytes.size());
  if (root < -1 || root >= p || (root == -1 && max_bytes >= 0)) {
    throw std::invalid_argument("BuildCarriedTree: root " + std::to_string(root) +
                                " is not in [0, " + std::to_string(p) + ")");
  }
  // The tree without carrying checks the rest and gives every node its rank and own bytes.
  Tree tree = BuildTree(TreeKind::kAdaptive, block_bytes, root, radix);
  for (NodeView& node : tree.nodes) {
    node = NodeView{node.rank, -1, -1, 0, -1, 0, node.own_bytes, {}, {}};
  }
  if (groups) groups->clear();
  if (done) done->assign(p, 0);
  struct Cube {
    CubeSummary summary;
    bool held = true;
  };
  std::vector<Cube> cubes(p);
  for (int i = 0; i < p; ++i) cubes[i].summary = {i, block_bytes[i], block_bytes[i]};
  const int levels = CeilLog(p, radix);
  std::vector<CubeRange> group;
  std::vector<CubeSummary> summaries;
  std::vector<bool> held;
  for (int level = 0; level < levels; ++level) {
    std::int64_t size = 1;
    for (int d = 0; d < level; ++d) size *= radix;
    const int count = static_cast<int>((p + size - 1) / size);
    int merged = 0;
    for (int c = 0; c < count; c += radix, ++merged) {
      GroupOf(static_cast<int>(c * size), level, p, radix, &group);
      if (group.size() == 1) {
        cubes[merged] = cubes[c];
        continue;
      }
      summaries.clear();
      held.clear();
      for (std::size_t i = 0; i < group.size(); ++i) {
        summaries.push_back(cubes[c + i].summary);
        held.push_back(cubes[c + i].held);
      }
      const std::size_t carrier = CarrierCube(group, root);
      const bool told_only = RootToldOnly(group, root, max_bytes, root_max_bytes);
      const std::int64_t limit = CarryLimit(group, root, max_bytes, root_max_bytes);
      const bool carried = GroupCarried(group, summaries, held, root, limit);
      if (groups) {
        CarriedGroup record;
        record.level = level;
        record.cubes = group;
        for (std::size_t i = 0; i < group.size(); ++i) {
          record.gather_roots.push_back(summaries[i].gather_root);
          record.total_bytes.push_back(summaries[i].total_bytes);
          record.sends_data.push_back(
              CarriesData(group[i], summaries[i], held[i], root, limit) ? 1 : 0);
        }
        record.carrier = carrier;
        record.merged = carried;
        record.root = root;
        record.root_told_directly = RootToldDirectly(group, root, max_bytes);
        record.root_told_only = told_only;
        record.last_level = level + 1 == levels;
        groups->push_back(std::move(record));
      }
      const std::size_t w =
          carried ? carrier : WinningCube(TreeKind::kAdaptive, group, summaries, root);
      Cube next{summaries[w], false};
      NodeView& receiver = tree.nodes[summaries[w].gather_root];
      const std::size_t first_child = receiver.children.size();
      for (std::size_t i = 0; i < group.size(); ++i) {
        if (i == w) continue;
        next.summary.total_bytes += summaries[i].total_bytes;
        // (told only: a carried cube is done at the root, whatever the others did)
        if (carried || (told_only && CarriesData(group[i], summaries[i], held[i], root, limit))) {
          if (done) (*done)[summaries[i].gather_root] = 1;
          continue;
        }
        NodeView& sender = tree.nodes[summaries[i].gather_root];
        sender.parent = summaries[w].gather_root;
        sender.parent_level = level;
        sender.lo = group[i].lo;
        sender.hi = group[i].hi;
        sender.bytes = summaries[i].total_bytes;
        receiver.children.push_back({summaries[i].gather_root,
                                     level,
                                     group[i].lo,
                                     group[i].hi,
                                     summaries[i].total_bytes,
                                     {}});
      }
      if (carried) {
        next.held = !group[w].Contains(root);
        if (summaries[w].gather_root != root) receiver.own_bytes = next.summary.total_bytes;
      } else {
        OrderRound(receiver.children.begin() + first_child, receiver.children.end());
      }
      cubes[merged] = next;
    }
  }
  tree.root = cubes[0].summary.gather_root;
  NodeView& top = tree.nodes[tree.root];
  top.lo = 0;
  top.hi = p - 1;
  top.bytes = cubes[0].summary.total_bytes;
  return tree;
}

}  // namespace tuw::tree
