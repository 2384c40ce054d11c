#include "link_greedy_tree.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "greedy_tree.hpp"
#include "node_scatter_tree.hpp"

namespace tuw::tree {
namespace {

// A message of k blocks: from its send to its last byte at the receiver, and how long its bytes
// hold the receiver's link.
struct MessageCost {
  double to_wire_end = 0;
  double link = 0;
};

class Schedule {
 public:
  Schedule(int p, std::int64_t block_bytes, const LogGPParams& params)
      : p_(p), overhead_(params.overhead_us), step_(std::max(params.gap_us, params.overhead_us)) {
    const LogGPLevel& level = params.network;
    costs_.resize(static_cast<std::size_t>(p) + 1);
    const double least = level.one_way.empty() ? 0 : level.one_way.InterceptBelow(0);
    double highest = 0;
    for (int k = 1; k <= p; ++k) {
      const std::int64_t bytes = block_bytes * k;
      if (level.one_way.empty()) {
        const double wire = params.Wire(level, bytes);
        costs_[k] = {overhead_ + level.latency_us + wire, wire};
      } else {
        // Never cheaper than a smaller message (SimGrid's factors drop at some sizes).
        highest = std::max(
            highest, level.one_way.Comm(static_cast<double>(std::max<std::int64_t>(bytes, 1))));
        costs_[k] = {highest - overhead_, std::max(0.0, highest - least)};
      }
    }
  }

  // The most ranks one process can hold by t (its own included); 0 before the start.
  int Held(double t) const {
    if (t < 0) return 0;
    const std::size_t k = static_cast<std::size_t>(t / kLinkGreedyGridUs + 1e-9);
    return held_[std::min(k, held_.size() - 1)];
  }

  // The messages (blocks, send time) a process with this deadline takes, latest first, up to
  // `need` blocks in all (RunLinkBackwards): each the most its sender can hold when it must leave.
  std::vector<std::pair<int, double>> Messages(double deadline, int need) const {
    std::vector<std::pair<int, double>> out;
    const auto most = [&](double wire_end, double wanted) {
      int lo = 0, hi = std::min(static_cast<int>(wanted), p_);
      while (lo < hi) {  // feasible sizes are those up to a largest one
        const int mid = (lo + hi + 1) / 2;
        if (mid <= Held(wire_end - costs_[mid].to_wire_end)) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      return LinkMessage{static_cast<double>(lo), costs_[lo].link};
    };
    const auto take = [&](double blocks, double wire_end) {
      const int k = static_cast<int>(blocks);
      out.emplace_back(k, wire_end - costs_[k].to_wire_end);
    };
    RunLinkBackwards(deadline, step_, overhead_, need, most, take);
    return out;
  }

  int Ranks() const { return p_; }
  // The grid point at or below t at which Deadline computed A (the same double).
  double GridPointBelow(double t) const {
    const std::size_t k = static_cast<std::size_t>(t / kLinkGreedyGridUs + 1e-9);
    return grid_t_[std::min(k, grid_t_.size() - 1)];
  }

  // A(t) on the grid until it reaches p; the least such t.
  double Deadline() {
    held_.assign(1, 1);
    grid_t_.assign(1, 0);
    double t = 0;
    constexpr int kMaxGridPoints = 100000000;
    while (held_.back() < p_) {
      if (static_cast<int>(held_.size()) >= kMaxGridPoints) {
        throw std::invalid_argument(
            "BuildLinkGreedyTree: no schedule for p = " + std::to_string(p_) + " within " +
            std::to_string(kMaxGridPoints * kLinkGreedyGridUs) + " us");
      }
      t += kLinkGreedyGridUs;
      int total = 0;
      for (const auto& message : Messages(t, p_ - 1)) total += message.first;
      held_.push_back(1 + total);
      grid_t_.push_back(t);
    }
    return static_cast<double>(held_.size() - 1) * kLinkGreedyGridUs;
  }

 private:
  int p_;
  double overhead_, step_;
  std::vector<MessageCost> costs_;
  std::vector<int> held_;
  std::vector<double> grid_t_;  // the time at which each grid point's A was computed
};

// The messages of a range of n ranks (its sender and n - 1 more) by its deadline, earliest
// first, trimmed to n - 1 blocks: the earliest (smallest) give up what is too much.
std::vector<std::pair<int, double>> Trimmed(const Schedule& schedule, double deadline, int n) {
  std::vector<std::pair<int, double>> latest_first = schedule.Messages(deadline, n - 1);
  const auto excess_of = [&] {
    int excess = -(n - 1);
    for (const auto& message : latest_first) excess += message.first;
    return excess;
  };
  int excess = excess_of();
  if (excess < 0) {
    // The walk is not monotone in its deadline where the measured curve steps (one block more
    // can cost the link more than the later deadline gains): take the walk that set A at the
    // grid point below the deadline, which carries A - 1 >= n - 1 blocks (p = 560, 64-byte
    // blocks on radix-560-current's fit: a range of 202 ranks fell short).
    latest_first = schedule.Messages(schedule.GridPointBelow(deadline), schedule.Ranks() - 1);
    excess = excess_of();
  }
  if (excess < 0) {
    throw std::logic_error("BuildLinkGreedyTree: a range of " + std::to_string(n) +
                           " ranks does not fit its deadline");
  }
  std::vector<std::pair<int, double>> earliest_first;
  for (auto it = latest_first.rbegin(); it != latest_first.rend(); ++it) {
    int blocks = it->first;
    const int cut = std::min(excess, blocks);
    excess -= cut;
    blocks -= cut;
    if (blocks > 0) earliest_first.emplace_back(blocks, it->second);
  }
  return earliest_first;
}

// The range [first, first + n) with its sender at `first`, children after it in rank order; or,
// mirrored, with its sender at its last rank and children below it.
void BuildRange(const Schedule& schedule, int first, int n, double deadline, bool mirrored,
                SequencedTree* tree) {
  const int sender = mirrored ? first + n - 1 : first;
  tree->steps[sender] = {SequencedTree::kCopy};
  if (n == 1) return;
  int next = mirrored ? first + n - 1 : first + 1;  // mirrored: one past the next child's range
  for (const auto& [blocks, send] : Trimmed(schedule, deadline, n)) {
    const int child_first = mirrored ? next - blocks : next;
    BuildRange(schedule, child_first, blocks, send, mirrored, tree);
    tree->steps[sender].push_back(mirrored ? next - 1 : next);
    next += mirrored ? -blocks : blocks;
  }
}

// The tree of a schedule in one layout.
SequencedTree Assemble(const Schedule& schedule, int root, double deadline,
                       LinkGreedyLayout layout) {
  const int p = schedule.Ranks();
  SequencedTree tree;
  tree.root = root;
  tree.steps.assign(p, {});
  // The root's children, largest first, to the side with more room left: the left side is
  // [0, root), the right (root, p); a child that does not fit shrinks, a side left with room
  // takes single ranks (messages at the start).
  std::vector<std::pair<int, double>> children = Trimmed(schedule, deadline, p);
  std::stable_sort(children.begin(), children.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  int room[2] = {root, p - 1 - root};
  std::vector<std::pair<int, double>> side[2];
  for (auto [blocks, send] : children) {
    const int s = room[0] >= room[1] ? 0 : 1;
    blocks = std::min(blocks, room[s]);
    if (blocks <= 0) continue;
    side[s].emplace_back(blocks, send);
    room[s] -= blocks;
  }
  for (int s = 0; s < 2; ++s) {
    for (; room[s] > 0; --room[s]) side[s].emplace_back(1, 0.0);
  }
  std::vector<std::pair<double, int>> arrivals;  // (send time, child)
  const bool mirrored = layout == LinkGreedyLayout::kLeftMirrored;
  int next = mirrored ? root : 0;
  for (const auto& [blocks, send] : side[0]) {
    const int first = mirrored ? next - blocks : next;
    BuildRange(schedule, first, blocks, send, mirrored, &tree);
    arrivals.emplace_back(send, mirrored ? next - 1 : next);
    next += mirrored ? -blocks : blocks;
  }
  next = root + 1;
  const bool outward = layout == LinkGreedyLayout::kRightMirrored;
  for (const auto& [blocks, send] : side[1]) {
    BuildRange(schedule, next, blocks, send, outward, &tree);
    arrivals.emplace_back(send, outward ? next + blocks - 1 : next);
    next += blocks;
  }
  std::stable_sort(arrivals.begin(), arrivals.end());
  tree.steps[root] = {SequencedTree::kCopy};
  for (const auto& arrival : arrivals) tree.steps[root].push_back(arrival.second);
  return tree;
}

// The schedule of p blocks of block_bytes, computed once, and its tree in any layout, built when
// asked (PlannedTree builds only the layouts it weighs).
class LayoutBuilder {
 public:
  LayoutBuilder(int p, std::int64_t block_bytes, int root, const LogGPParams& params)
      : p_(p), block_bytes_(block_bytes), root_(root), params_(params) {
    if (p < 1 || root < 0 || root >= p || block_bytes < 0) {
      throw std::invalid_argument("BuildLinkGreedyTree: p = " + std::to_string(p) + ", root " +
                                  std::to_string(root) + ", " + std::to_string(block_bytes) +
                                  " bytes a block (need p >= 1, 0 <= root < p, bytes >= 0)");
    }
    if (std::max(params.gap_us, params.overhead_us) > 0) {
      schedule_.emplace(p, block_bytes, params);
      deadline_ = schedule_->Deadline();
    }
  }
  // Of the mean of these blocks (the shape is for equal blocks).
  LayoutBuilder(const std::vector<std::int64_t>& block_bytes, int root, const LogGPParams& params)
      : LayoutBuilder(static_cast<int>(block_bytes.size()), MeanBlock(block_bytes), root, params) {}

  LinkGreedyTree Build(LinkGreedyLayout layout) const {
    LinkGreedyTree out;
    if (schedule_) {
      out.tree = Assemble(*schedule_, root_, deadline_, layout);
      out.deadline_us = deadline_;
      return out;
    }
    // No cost per message: the root takes every rank's block at once, straight from it.
    out.tree.root = root_;
    out.tree.steps.assign(p_, {SequencedTree::kCopy});
    for (int rank = 0; rank < p_; ++rank) {
      if (rank != root_) out.tree.steps[root_].push_back(rank);
    }
    if (p_ > 1) {
      out.deadline_us =
          params_.network.latency_us + params_.Wire(params_.network, block_bytes_ * (p_ - 1));
    }
    return out;
  }
  // Build's tree as the executors run it, over these blocks.
  Tree Views(LinkGreedyLayout layout, const std::vector<std::int64_t>& block_bytes) const {
    return ToNodeViews(Build(layout).tree, block_bytes);
  }

 private:
  static std::int64_t MeanBlock(const std::vector<std::int64_t>& block_bytes) {
    const std::int64_t total =
        std::accumulate(block_bytes.begin(), block_bytes.end(), std::int64_t{0});
    return block_bytes.empty() ? 0 : total / static_cast<std::int64_t>(block_bytes.size());
  }

  int p_;
  std::int64_t block_bytes_;
  int root_;
  LogGPParams params_;
  std::optional<Schedule> schedule_;
  double deadline_ = 0;
};

}  // namespace

LinkGreedyTree BuildLinkGreedyTree(int p, std::int64_t block_bytes, int root,
                                   const LogGPParams& params, LinkGreedyLayout layout) {
  return LayoutBuilder(p, block_bytes, root, params).Build(layout);
}

Tree LinkGreedyViews(const std::vector<std::int64_t>& block_bytes, int root,
                     const LogGPParams& params, LinkGreedyLayout layout) {
  return LayoutBuilder(block_bytes, root, params).Views(layout, block_bytes);
}

bool OutwardOnNodeLink(const Tree& first_layout, const std::vector<std::int64_t>& block_bytes,
                       const NodeLinkCosts& node_link) {
  const int per_node = node_link.ranks_per_node;
  if (per_node <= 1 || node_link.hop_saved_us <= 0 || first_layout.root < 0) return false;
  const int root = first_layout.root;
  std::int64_t pulled = 0;  // bytes from other nodes into the root's
  for (const ChildEdge& edge : first_layout.nodes[root].children) {
    if (edge.child < root || edge.child / per_node != root / per_node) continue;
    for (int rank = edge.lo; rank <= edge.hi; ++rank) {
      if (rank / per_node != root / per_node) pulled += block_bytes[rank];
    }
  }
  return node_link.us_per_byte * static_cast<double>(pulled) > node_link.hop_saved_us;
}

NodeLinkCosts NodeLinkOf(const RadixCosts& costs, int ranks_per_node,
                         ScatterTreesOnNodes scatter_trees) {
  if (!costs.has_local || ranks_per_node <= 1) return {};
  NodeLinkCosts out;
  out.ranks_per_node = ranks_per_node;
  out.hop_saved_us = costs.alpha_us - costs.alpha_local_us;
  out.us_per_byte = costs.beta_us_per_byte;
  out.scatter_trees = scatter_trees;
  out.small_call = costs.SmallCallParams(ranks_per_node);
  return out;
}

LogGPParams NodeLinkCosts::TwoLevel() const {
  LogGPParams two_level = small_call;
  two_level.barrier_start = true;
  two_level.latency_by_size = true;
  two_level.node_links = true;
  return two_level;
}

namespace {

// PlannedRadix's radix tree or the link-greedy tree (PlannedTree's first part); *weighed: whether
// the blocks were within the link-greedy tree's limits and it was priced.
PlannedTreeChoice LinkGreedyChoice(bool scatter, const std::vector<std::int64_t>& block_bytes,
                                   int root, const LogGPParams& params, bool weigh_layouts,
                                   const NodeLinkCosts& node_link, bool* weighed) {
  *weighed = false;
  PlannedTreeChoice chosen;
  chosen.radix = PlannedRadix(scatter, block_bytes, root, params);
  if (block_bytes.size() <= 2) return chosen;
  const bool equal = std::adjacent_find(block_bytes.begin(), block_bytes.end(),
                                        std::not_equal_to<std::int64_t>()) == block_bytes.end();
  if (block_bytes.size() > static_cast<std::size_t>(kLinkGreedyUnevenMaxRanks) && !equal) {
    return chosen;
  }
  const std::int64_t total =
      std::accumulate(block_bytes.begin(), block_bytes.end(), std::int64_t{0});
  if (total / static_cast<std::int64_t>(block_bytes.size()) > kLinkGreedyMaxMeanBytes ||
      LogPLowerBound(block_bytes, root, params, params.network) > kLinkGreedyMaxBoundUs) {
    return chosen;
  }
  try {
    const LayoutBuilder builder(block_bytes, root, params);
    std::vector<Tree> trees = {builder.Views(LinkGreedyLayout::kLeftAscending, block_bytes)};
    if (!scatter && node_link.ranks_per_node > 1 &&
        OutwardOnNodeLink(trees[0], block_bytes, node_link)) {  // the node link decides
      trees = {builder.Views(LinkGreedyLayout::kRightMirrored, block_bytes)};
    } else if (weigh_layouts) {
      trees.push_back(builder.Views(LinkGreedyLayout::kLeftMirrored, block_bytes));
    }
    const auto price = [&](const Tree& tree) {
      return scatter ? PlannedScatterTime(tree, params) : PlannedGatherTime(tree, params, true);
    };
    std::size_t best = 0;  // the faster layout; a tie keeps the first
    double best_time = price(trees[0]);
    for (std::size_t i = 1; i < trees.size(); ++i) {
      const double time = price(trees[i]);
      if (time < best_time) {
        best = i;
        best_time = time;
      }
    }
    chosen.link_greedy =
        scatter
            ? best_time <=
                  kScatterLinkGreedyMaxRatio *
                      ScatterTime(ModelTree::kPlanned, block_bytes, root, chosen.radix, params, 0)
            : best_time < GatherTime(ModelTree::kPlanned, block_bytes, root, chosen.radix, params);
    if (chosen.link_greedy) chosen.link_greedy_tree = std::move(trees[best]);
    *weighed = true;
  } catch (const std::logic_error&) {  // no schedule found (not seen since Trimmed's fallback):
    chosen.link_greedy = false;        // the radix tree, never a library call that stops here
  }
  return chosen;
}

// What each ScatterTreesOnNodes weighs (link_greedy_tree.hpp), one row each.
struct ScatterTreesRule {
  bool any = false;                      // any tree over nodes
  bool only_where_link_greedy = false;   // only where the link-greedy tree was weighed
  bool greedy_too = false;               // the plain call's greedy tree beside the node tree
  int max_ranks = kNodeScatterMaxRanks;  // on at most this many ranks
  bool wide_shapes = false;              // FastestNodeScatterTree's wide shapes
};
ScatterTreesRule RuleOf(ScatterTreesOnNodes trees) {
  switch (trees) {
    case ScatterTreesOnNodes::kNone:
      break;
    case ScatterTreesOnNodes::kNodeTree:
      return {true, true, false, kNodeScatterMaxRanks, false};
    case ScatterTreesOnNodes::kNodeAndGreedyTrees:
      return {true, false, true, kNodeScatterMaxRanks, false};
    case ScatterTreesOnNodes::kNodeAndGreedyTreesToLargerP:
      return {true, false, true, kScatterTreesMaxRanks, false};
    case ScatterTreesOnNodes::kNodeAndGreedyTreesWide:
      return {true, false, true, kScatterTreesMaxRanks, true};
  }
  return {};
}

// A scatter's trees over nodes (NodeLinkCosts::scatter_trees), each priced on the two-level model
// with node links: the node scatter tree, and with rule.greedy_too the greedy tree of the plain
// call's rule (SmallScatterShape on the node's two-level costs, where it picks one). The fastest
// replaces the choice so far where priced at most kNodeScatterMaxRatio of it.
void WeighScatterTreesOnNodes(const std::vector<std::int64_t>& block_bytes, int root,
                              const NodeLinkCosts& node_link, const ScatterTreesRule& rule,
                              PlannedTreeChoice* chosen) {
  const LogGPParams two_level = node_link.TwoLevel();
  const double so_far =
      chosen->link_greedy
          ? PlannedScatterTime(chosen->link_greedy_tree, two_level)
          : ScatterTime(ModelTree::kPlanned, block_bytes, root, chosen->radix, two_level, 0);
  NodeScatterChoice best = FastestNodeScatterTree(block_bytes, root, node_link.ranks_per_node,
                                                  two_level, rule.wide_shapes);
  if (rule.greedy_too && !SmallCallOnRadixTree(block_bytes)) {
    const int p = static_cast<int>(block_bytes.size());
    const std::int64_t size_class = ShapeBlockBytes(block_bytes);
    const int shape =
        node_link.greedy_shape
            ? node_link.greedy_shape(p, size_class, chosen->radix, root)
            : SmallScatterShape(p, size_class, chosen->radix, node_link.small_call, root);
    if (shape > 0) {
      Tree greedy = BuildGreedyTree(block_bytes, root, shape);
      const double time = PlannedScatterTime(greedy, two_level);
      if (time < best.time) {
        best.tree = std::move(greedy);
        best.time = time;
      }
    }
  }
  if (best.time <= kNodeScatterMaxRatio * so_far) {
    chosen->link_greedy = true;
    chosen->link_greedy_tree = std::move(best.tree);
  }
}

}  // namespace

PlannedTreeChoice PlannedTree(bool scatter, const std::vector<std::int64_t>& block_bytes, int root,
                              const LogGPParams& params, bool weigh_layouts,
                              const NodeLinkCosts& node_link) {
  bool link_greedy_weighed = false;
  PlannedTreeChoice chosen = LinkGreedyChoice(scatter, block_bytes, root, params, weigh_layouts,
                                              node_link, &link_greedy_weighed);
  const ScatterTreesRule rule = RuleOf(node_link.scatter_trees);
  const bool on_nodes = scatter && node_link.ranks_per_node > 1 && block_bytes.size() > 2 &&
                        block_bytes.size() <= static_cast<std::size_t>(rule.max_ranks);
  if (on_nodes && rule.any && (!rule.only_where_link_greedy || link_greedy_weighed)) {
    try {  // (it changes the choice only once everything is priced)
      WeighScatterTreesOnNodes(block_bytes, root, node_link, rule, &chosen);
    } catch (const std::exception&) {  // (not seen): the choice so far, never a library call
    }                                  // that stops here
  }
  return chosen;
}

}  // namespace tuw::tree
