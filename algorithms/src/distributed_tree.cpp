// Lemma 3 of Traeff 2017: the adaptive gather tree built with ceil(log_k p) rounds of
// constant-size messages (radix k = 2 is the paper's; larger radixes merge k cubes a round).
// Invariants (per level-d cube):
//  - its fixed root (the cube's last rank) knows the cube's summary: gather root, total bytes,
//    the gather root's own bytes, and whether any process in it reported bad arguments;
//  - its gather root knows that it is the gather root, the cube's total bytes and error flag.
// In round d the fixed roots of the cubes of one group exchange summaries (each sends its own to
// every other: one latency); each then tells its cube's gather root (if that is another process)
// the others' summaries, so that all gather roots of the group apply the same
// tree::WinningCube decision and know whom they receive from or send to, and how many bytes.
// For k = 2 these are the paper's messages: one exchange with the sibling, one summary told.
#include <algorithm>
#include <array>

#include "internal.hpp"

namespace tuw::detail {
namespace {

struct Summary {
  tree::CubeSummary cube;
  int error = MPI_SUCCESS;  // the first bad-argument error class reported in the cube
};

using Wire = std::array<std::int64_t, 4>;

Wire ToWire(const Summary& s) {
  return {s.cube.gather_root, s.cube.total_bytes, s.cube.root_bytes, s.error};
}

Summary FromWire(const Wire& w) {
  Summary s;
  s.cube.gather_root = static_cast<int>(w[0]);
  s.cube.total_bytes = w[1];
  s.cube.root_bytes = w[2];
  s.error = static_cast<int>(w[3]);
  return s;
}

// The group's cubes merged into the winner's: its gather root, everybody's bytes, the first
// error (the winner's, then the others' in rank order).
Summary MergeGroup(const std::vector<Summary>& members, std::size_t winner) {
  Summary merged = members[winner];
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (i == winner) continue;
    merged.cube.total_bytes += members[i].cube.total_bytes;
    if (merged.error == MPI_SUCCESS) merged.error = members[i].error;
  }
  return merged;
}

std::size_t Winner(const std::vector<tree::CubeRange>& group, const std::vector<Summary>& members,
                   int root) {
  std::vector<tree::CubeSummary> cubes;
  for (const Summary& m : members) cubes.push_back(m.cube);
  return tree::WinningCube(tree::TreeKind::kAdaptive, group, cubes, root);
}

// The fixed roots' exchange: this cube's summary to every other cube's fixed root, theirs from
// them (all at once, one latency). *others: one Wire per other cube, in group order.
void ExchangeSummaries(MPI_Comm comm, const std::vector<tree::CubeRange>& group, std::size_t mine,
                       const Wire& out, std::vector<Wire>* others, int* failure) {
  others->assign(group.size() - 1, Wire{});
  std::vector<MPI_Request> requests;
  std::size_t k = 0;
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (i == mine) continue;
    MPI_Request& r = requests.emplace_back(MPI_REQUEST_NULL);
    Wire& in = (*others)[k++];
    WithRetry(failure, [&] {
      return MPI_Irecv(in.data(), 4, MPI_INT64_T, group[i].hi, TUWCOLL_TAG_CONSTRUCT, comm, &r);
    });
  }
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (i == mine) continue;
    MPI_Request& r = requests.emplace_back(MPI_REQUEST_NULL);
    WithRetry(failure, [&] {
      return MPI_Isend(out.data(), 4, MPI_INT64_T, group[i].hi, TUWCOLL_TAG_CONSTRUCT, comm, &r);
    });
  }
  WithRetry(failure, [&] {
    return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  });
}

// The group's summaries with this cube's own in its place.
std::vector<Summary> Members(const std::vector<Wire>& others, std::size_t mine,
                             const Summary& own) {
  std::vector<Summary> members;
  std::size_t k = 0;
  for (std::size_t i = 0; i <= others.size(); ++i) {
    members.push_back(i == mine ? own : FromWire(others[k++]));
  }
  return members;
}

}  // namespace

int BuildAdaptiveView(MPI_Comm private_comm, int rank, int p, int root, int radix,
                      std::int64_t own_bytes, int local_error, tree::NodeView* view,
                      int* error_in_tree) {
  *view = tree::NodeView{};
  view->rank = rank;
  view->own_bytes = own_bytes;

  const Summary own{{rank, own_bytes, own_bytes}, local_error};
  Summary as_fixed_root = own;   // valid while this rank is the last rank of its cube
  Summary as_gather_root = own;  // valid while gathering
  bool gathering = true;

  int failure = MPI_SUCCESS;
  const int levels = tree::CeilLog(p, radix);
  for (int level = 0; level < levels; ++level) {
    const std::vector<tree::CubeRange> group = tree::GroupOf(rank, level, p, radix);
    if (group.size() == 1) continue;
    const tree::CubeRange mine_range = tree::CubeOf(rank, level, p, radix);
    const std::size_t mine = static_cast<std::size_t>(
        std::find_if(group.begin(), group.end(),
                     [&](const tree::CubeRange& c) { return c.lo == mine_range.lo; }) -
        group.begin());

    std::vector<Wire> others;  // the other cubes' summaries, in group order
    const bool fixed_root = rank == mine_range.hi;
    if (fixed_root) {
      ExchangeSummaries(private_comm, group, mine, ToWire(as_fixed_root), &others, &failure);
      if (as_fixed_root.cube.gather_root != rank) {
        WithRetry(&failure, [&] {
          return MPI_Send(others.data(), static_cast<int>(4 * others.size()), MPI_INT64_T,
                          as_fixed_root.cube.gather_root, TUWCOLL_TAG_INFORM, private_comm);
        });
      }
      const std::vector<Summary> members = Members(others, mine, as_fixed_root);
      as_fixed_root = MergeGroup(members, Winner(group, members, root));
    }

    if (!gathering) continue;
    if (!fixed_root) {
      others.assign(group.size() - 1, Wire{});
      WithRetry(&failure, [&] {
        return MPI_Recv(others.data(), static_cast<int>(4 * others.size()), MPI_INT64_T,
                        mine_range.hi, TUWCOLL_TAG_INFORM, private_comm, MPI_STATUS_IGNORE);
      });
    }
    const std::vector<Summary> members = Members(others, mine, as_gather_root);
    const std::size_t winner = Winner(group, members, root);
    if (winner == mine) {
      const std::size_t first_child = view->children.size();
      for (std::size_t i = 0; i < group.size(); ++i) {
        if (i == mine) continue;
        view->children.push_back({members[i].cube.gather_root,
                                  level,
                                  group[i].lo,
                                  group[i].hi,
                                  members[i].cube.total_bytes,
                                  {}});
      }
      tree::OrderRound(view->children.begin() + first_child, view->children.end());
      as_gather_root = MergeGroup(members, winner);
    } else {
      view->parent = members[winner].cube.gather_root;
      view->parent_level = level;
      view->lo = mine_range.lo;
      view->hi = mine_range.hi;
      view->bytes = as_gather_root.cube.total_bytes;
      gathering = false;
    }
  }
  if (gathering) {  // this rank gathered everything: it is the root
    view->lo = 0;
    view->hi = p - 1;
    view->bytes = as_gather_root.cube.total_bytes;
  }
  *error_in_tree = as_gather_root.error;
  return failure;
}

}  // namespace tuw::detail
