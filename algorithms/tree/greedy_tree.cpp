#include "greedy_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace tuw::tree {
namespace {

void CheckStep(int step) {
  if (step < 1 || step > kMaxGreedyStep) {
    throw std::invalid_argument("greedy tree: step " + std::to_string(step) + " is not in 1.." +
                                std::to_string(kMaxGreedyStep));
  }
}

GreedyShape CheckedShape(int code) {
  GreedyShape shape;
  if (!ShapeOfCode(code, &shape)) {
    throw std::invalid_argument("greedy tree: " + std::to_string(code) +
                                " is not a shape code (a step 1.." +
                                std::to_string(kMaxGreedyStep) + ", or two levels' code)");
  }
  return shape;
}

// f(x), the most ranks a subtree holds with x steps left, for one step: computed once for a
// whole tree (every node's counts read it), grown as far as the largest range asks. With
// `equal`, the counts are instead at most `step` equal parts (GreedyShape::equal_node_ranges),
// of equal bytes where ChildCounts is given the units' bytes (GreedyShape::by_bytes).
class SubtreeLimits {
 public:
  explicit SubtreeLimits(int step, bool equal = false) : step_(step), equal_(equal) {}
  // The number of ranks of each child of the sender of a range of n ranks, into *counts; with
  // `bytes` (equal parts only), the n - 1 units after the sender in the order they are handed
  // out, cut where each part's bytes reach an equal share (at least one unit a part) where the
  // parts hold kByteCutMinPartBytes on average; else the equal counts.
  void ChildCounts(int n, std::vector<int>* counts,
                   const std::vector<std::int64_t>* bytes = nullptr) {
    counts->clear();
    if (equal_ && bytes != nullptr && n > 1) {
      const std::int64_t others = n - 1, parts = std::min<std::int64_t>(step_, others);
      std::int64_t total = 0;
      for (std::int64_t b : *bytes) total += b;
      if (total >= parts * kByteCutMinPartBytes) {
        std::int64_t at = 0, sum = 0;  // units handed out, their bytes
        for (std::int64_t i = 0; i < parts; ++i) {
          // Enough units for (i + 1) / parts of the bytes, leaving one for each later part;
          // the last part takes the rest.
          const std::int64_t last = others - (parts - 1 - i);
          std::int64_t end = i + 1 == parts ? others : at + 1;
          if (i + 1 < parts) sum += (*bytes)[at];
          while (end < last && sum * parts < total * (i + 1)) sum += (*bytes)[end++];
          counts->push_back(static_cast<int>(end - at));
          at = end;
        }
        return;
      }
    }
    if (equal_) {
      const std::int64_t others = n - 1, parts = std::min<std::int64_t>(step_, others);
      for (std::int64_t i = parts - 1; i >= 0; --i) {  // the larger parts first
        counts->push_back(static_cast<int>(others * (i + 1) / parts - others * i / parts));
      }
      return;
    }
    int t = 0;
    while (At(t) < n) ++t;
    std::int64_t left = n - 1;
    for (int i = 0; left > 0; ++i) {
      const int x = t - step_ - i;  // >= 0 while ranks are left: f(t) - 1 = sum of f(t - step - i)
      const std::int64_t count = std::min(f_[x], left);
      counts->push_back(static_cast<int>(count));
      left -= count;
    }
  }

 private:
  std::int64_t At(int x) {
    while (static_cast<int>(f_.size()) <= x) {
      const int y = static_cast<int>(f_.size());
      f_.push_back(y < step_ ? 1 : f_[y - 1] + f_[y - step_]);
    }
    return f_[x];
  }
  int step_;
  bool equal_;
  std::vector<std::int64_t> f_;
};

// The ranges [first, last] of the children of `sender`, which holds [lo, hi]; the first sent
// first. Below the top sender == lo; at the top the ranges wrap round past hi to lo.
// Appended to *ranges.
void ChildRanges(int lo, int hi, int sender, SubtreeLimits* limits, std::vector<int>* counts,
                 std::vector<std::pair<int, int>>* ranges,
                 const std::vector<std::int64_t>* bytes = nullptr) {
  int at = sender + 1;
  limits->ChildCounts(hi - lo + 1, counts, bytes);
  for (int count : *counts) {
    if (at > hi) at = lo;
    const int room = (at > sender ? hi : sender - 1) - at + 1;
    if (count > room) {  // it would cross the end (at the top only): two children
      ranges->push_back({at, at + room - 1});
      count -= room;
      at = lo;
    }
    ranges->push_back({at, at + count - 1});
    at += count;
  }
}

// A shape's child ranges, its limits kept for a whole tree. Ranks are relative to the range
// being built, whose first rank is `first` in the communicator; prefix: its byte prefix sums.
class Splitter {
 public:
  Splitter(const GreedyShape& shape, int first, const std::vector<std::int64_t>& prefix)
      : shape_(shape),
        first_(first),
        prefix_(prefix),
        network_(shape.step, shape.equal_node_ranges),
        node_(shape.node_step > 0 ? shape.node_step : 1) {}
  // Into *ranges (its old contents replaced): BuildGreedyTree keeps one buffer for a whole tree.
  void ChildRanges(int lo, int hi, int sender, std::vector<std::pair<int, int>>* ranges) {
    ranges->clear();
    if (!shape_.TwoLevel()) {
      tree::ChildRanges(lo, hi, sender, &network_, &counts_, ranges);
      return;
    }
    const std::int64_t per = shape_.ranks_per_node;
    const auto node_of = [&](int r) { return static_cast<int>((first_ + std::int64_t{r}) / per); };
    const int first_node = node_of(lo), last_node = node_of(hi), own = node_of(sender);
    if (first_node == last_node) {
      tree::ChildRanges(lo, hi, sender, &node_, &counts_, ranges);
      return;
    }
    // nodes a ... b within [lo, hi], in the range's ranks (64 bits: a node may end past INT_MAX)
    const auto ranks_of = [&](std::int64_t a, std::int64_t b) {
      return std::pair<int, int>(
          static_cast<int>(std::max<std::int64_t>(lo, a * per - first_)),
          static_cast<int>(std::min<std::int64_t>(hi, (b + 1) * per - first_ - 1)));
    };
    const std::vector<std::int64_t>* node_bytes = nullptr;
    if (shape_.by_bytes) {  // the other nodes' bytes within [lo, hi], in the order handed out
      node_bytes_.clear();
      for (int v = own + 1; v <= last_node; ++v) node_bytes_.push_back(BytesOf(ranks_of(v, v)));
      for (int v = first_node; v < own; ++v) node_bytes_.push_back(BytesOf(ranks_of(v, v)));
      node_bytes = &node_bytes_;
    }
    node_ranges_.clear();
    tree::ChildRanges(first_node, last_node, own, &network_, &counts_, &node_ranges_, node_bytes);
    for (const auto& [a, b] : node_ranges_) ranges->push_back(ranks_of(a, b));
    const auto [own_lo, own_hi] = ranks_of(own, own);
    tree::ChildRanges(own_lo, own_hi, sender, &node_, &counts_, ranges);
  }

 private:
  std::int64_t BytesOf(std::pair<int, int> range) const {
    return prefix_[range.second + 1] - prefix_[range.first];
  }
  GreedyShape shape_;
  int first_;
  const std::vector<std::int64_t>& prefix_;
  SubtreeLimits network_, node_;
  std::vector<int> counts_;
  std::vector<std::int64_t> node_bytes_;
  std::vector<std::pair<int, int>> node_ranges_;  // the other nodes' ranges, in nodes
};

// The node of `sender` holding [lo, hi] with these children's ranges (prefix: byte prefix sums).
// Into *view_ptr, every field set (its children's capacity kept).
void MakeNode(int sender, int lo, int hi, const std::vector<std::pair<int, int>>& ranges,
              const std::vector<std::int64_t>& prefix, NodeView* view_ptr) {
  NodeView& view = *view_ptr;
  view.parent = -1;
  view.parent_level = -1;
  view.parent_parts.clear();
  view.children.clear();
  view.rank = sender;
  view.lo = lo;
  view.hi = hi;
  view.bytes = prefix[hi + 1] - prefix[lo];
  view.own_bytes = prefix[sender + 1] - prefix[sender];
  const int k = static_cast<int>(ranges.size());
  view.children.reserve(k);
  for (int i = k - 1; i >= 0; --i) {  // ascending round: the first sent last
    ChildEdge e;
    e.child = e.lo = ranges[i].first;
    e.hi = ranges[i].second;
    e.level = k - 1 - i;
    e.bytes = prefix[e.hi + 1] - prefix[e.lo];
    view.children.push_back(e);
  }
}

std::vector<std::int64_t> Prefix(const std::int64_t* block_bytes, int n) {
  std::vector<std::int64_t> prefix(n + 1, 0);
  for (int i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + block_bytes[i];
  return prefix;
}

void CheckTree(int n, int root) {
  if (n < 1 || root < -1 || root >= n) {
    throw std::invalid_argument("greedy tree: root " + std::to_string(root) + " not in -1.." +
                                std::to_string(n - 1) + " (n = " + std::to_string(n) + ")");
  }
}

}  // namespace

std::vector<int> GreedyChildCounts(int n, int step) {
  CheckStep(step);
  SubtreeLimits limits(step);
  std::vector<int> counts;
  limits.ChildCounts(n, &counts);
  return counts;
}

constexpr int kEqualNodeRangesBit = 1 << 30;
constexpr int kByBytesBit = 1 << 29;

int ShapeCode(const GreedyShape& shape) {
  if (!shape.TwoLevel()) return shape.step;
  return shape.step | shape.node_step << 7 | shape.ranks_per_node << 14 |
         (shape.equal_node_ranges ? kEqualNodeRangesBit : 0) |
         (shape.equal_node_ranges && shape.by_bytes ? kByBytesBit : 0);
}

bool ShapeOfCode(int code, GreedyShape* shape) {
  const auto step_ok = [](int s) { return s >= 1 && s <= kMaxGreedyStep; };
  GreedyShape s;
  s.equal_node_ranges = (code & kEqualNodeRangesBit) != 0;
  s.by_bytes = (code & kByBytesBit) != 0;
  if (s.by_bytes && !s.equal_node_ranges) return false;  // bytes cut equal ranges only
  code &= ~(kEqualNodeRangesBit | kByBytesBit);
  s.step = code & 127;
  s.node_step = (code >> 7) & 127;
  s.ranks_per_node = code >> 14;
  if (code < 0 || !step_ok(s.step)) return false;
  if (s.node_step == 0 && s.ranks_per_node == 0) {
    if (s.equal_node_ranges) return false;  // equal node ranges need nodes
    s.ranks_per_node = 1;
  } else if (!step_ok(s.node_step) || s.ranks_per_node < 2 ||
             s.ranks_per_node > kMaxShapeRanksPerNode) {
    return false;
  }
  *shape = s;
  return true;
}

NodeView GreedyNodeOf(const std::int64_t* block_bytes, int n, int fixed_root, int shape, int rank,
                      int first) {
  CheckTree(n, fixed_root);
  if (rank < 0 || rank >= n) throw std::invalid_argument("GreedyNodeOf: rank out of range");
  const std::vector<std::int64_t> prefix = Prefix(block_bytes, n);
  Splitter splitter(CheckedShape(shape), first, prefix);
  int lo = 0, hi = n - 1, sender = fixed_root < 0 ? 0 : fixed_root;
  int parent = -1, parent_level = -1;
  std::vector<std::pair<int, int>> ranges;
  for (;;) {
    splitter.ChildRanges(lo, hi, sender, &ranges);
    if (sender == rank) {
      NodeView view;
      MakeNode(sender, lo, hi, ranges, prefix, &view);
      view.parent = parent;
      view.parent_level = parent_level;
      return view;
    }
    std::size_t i = 0;
    while (!(ranges[i].first <= rank && rank <= ranges[i].second)) ++i;
    parent = sender;
    parent_level = static_cast<int>(ranges.size() - 1 - i);
    lo = sender = ranges[i].first;
    hi = ranges[i].second;
  }
}

void BuildGreedyTree(const std::vector<std::int64_t>& block_bytes, int root, int shape,
                     Tree* tree_ptr) {
  const int n = static_cast<int>(block_bytes.size());
  CheckTree(n, root);
  const std::vector<std::int64_t> prefix = Prefix(block_bytes.data(), n);
  Splitter splitter(CheckedShape(shape), 0, prefix);
  Tree& tree = *tree_ptr;
  tree.root = root < 0 ? 0 : root;
  tree.nodes.resize(n);
  // (sender, lo, hi, parent, parent_level) still to place; each rank is a sender once.
  struct Pending {
    int sender, lo, hi, parent, parent_level;
  };
  std::vector<Pending> pending{{tree.root, 0, n - 1, -1, -1}};
  std::vector<std::pair<int, int>> ranges;
  while (!pending.empty()) {
    const Pending at = pending.back();
    pending.pop_back();
    splitter.ChildRanges(at.lo, at.hi, at.sender, &ranges);
    NodeView& view = tree.nodes[at.sender];
    MakeNode(at.sender, at.lo, at.hi, ranges, prefix, &view);
    view.parent = at.parent;
    view.parent_level = at.parent_level;
    for (const ChildEdge& c : view.children) {
      pending.push_back({c.child, c.lo, c.hi, at.sender, c.level});
    }
  }
}

Tree BuildGreedyTree(const std::vector<std::int64_t>& block_bytes, int root, int shape) {
  Tree tree;
  BuildGreedyTree(block_bytes, root, shape, &tree);
  return tree;
}

}  // namespace tuw::tree
