// Lemma 3 of Traeff 2017: the adaptive gather tree built with ceil(log2 p) rounds of
// constant-size messages. Invariants (per level-d cube):
//  - its fixed root (the cube's last rank) knows the cube's summary: gather root, total bytes,
//    the gather root's own bytes, and whether any process in it reported bad arguments;
//  - its gather root knows that it is the gather root, the cube's total bytes and error flag.
// In round d the fixed roots of sibling cubes exchange summaries; each then tells its cube's
// gather root (if that is another process) the sibling's summary, so that both gather roots
// apply the same tree::LeftCubeWins decision and know whom they receive from or send to, and
// how many bytes.
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

// Runs an MPI call; if it fails (and so did nothing), notes the failure and runs it once more, so
// that the peer still gets its message and the tree stays complete.
template <typename Call>
void WithRetry(int* failure, Call call) {
  int rc = call();
  if (rc == MPI_SUCCESS) return;
  if (*failure == MPI_SUCCESS) *failure = rc;
  call();
}

Summary Merge(const Summary& winner, const Summary& loser) {
  Summary merged = winner;
  merged.cube.total_bytes += loser.cube.total_bytes;
  if (merged.error == MPI_SUCCESS) merged.error = loser.error;
  return merged;
}

}  // namespace

int BuildAdaptiveView(MPI_Comm private_comm, int rank, int p, int root, std::int64_t own_bytes,
                      int local_error, tree::NodeView* view, int* error_in_tree) {
  *view = tree::NodeView{};
  view->rank = rank;
  view->own_bytes = own_bytes;

  const Summary own{{rank, own_bytes, own_bytes}, local_error};
  Summary as_fixed_root = own;   // valid while this rank is the last rank of its cube
  Summary as_gather_root = own;  // valid while gathering
  bool gathering = true;

  int failure = MPI_SUCCESS;
  const int levels = tree::CeilLog2(p);
  for (int level = 0; level < levels; ++level) {
    tree::CubeRange sibling{};
    if (!tree::SiblingCube(rank, level, p, &sibling)) continue;
    const tree::CubeRange mine = tree::CubeOf(rank, level, p);
    const bool mine_is_left = mine.lo < sibling.lo;
    const tree::CubeRange& left = mine_is_left ? mine : sibling;
    const tree::CubeRange& right = mine_is_left ? sibling : mine;

    Summary sibling_summary;
    const bool fixed_root = rank == mine.hi;
    if (fixed_root) {
      Wire out = ToWire(as_fixed_root), in{};
      WithRetry(&failure, [&] {
        return MPI_Sendrecv(out.data(), 4, MPI_INT64_T, sibling.hi, TUWCOLL_TAG_CONSTRUCT,
                            in.data(), 4, MPI_INT64_T, sibling.hi, TUWCOLL_TAG_CONSTRUCT,
                            private_comm, MPI_STATUS_IGNORE);
      });
      sibling_summary = FromWire(in);
      if (as_fixed_root.cube.gather_root != rank) {
        WithRetry(&failure, [&] {
          return MPI_Send(in.data(), 4, MPI_INT64_T, as_fixed_root.cube.gather_root,
                          TUWCOLL_TAG_INFORM, private_comm);
        });
      }
      const Summary& l = mine_is_left ? as_fixed_root : sibling_summary;
      const Summary& r = mine_is_left ? sibling_summary : as_fixed_root;
      const bool left_wins =
          tree::LeftCubeWins(tree::TreeKind::kAdaptive, left, l.cube, right, r.cube, root);
      as_fixed_root = left_wins ? Merge(l, r) : Merge(r, l);
    }

    if (!gathering) continue;
    if (!fixed_root) {
      Wire in{};
      WithRetry(&failure, [&] {
        return MPI_Recv(in.data(), 4, MPI_INT64_T, mine.hi, TUWCOLL_TAG_INFORM, private_comm,
                        MPI_STATUS_IGNORE);
      });
      sibling_summary = FromWire(in);
    }
    const Summary& l = mine_is_left ? as_gather_root : sibling_summary;
    const Summary& r = mine_is_left ? sibling_summary : as_gather_root;
    const bool left_wins =
        tree::LeftCubeWins(tree::TreeKind::kAdaptive, left, l.cube, right, r.cube, root);
    if (left_wins == mine_is_left) {
      view->children.push_back({sibling_summary.cube.gather_root,
                                level,
                                sibling.lo,
                                sibling.hi,
                                sibling_summary.cube.total_bytes,
                                {}});
      as_gather_root = Merge(as_gather_root, sibling_summary);
    } else {
      view->parent = sibling_summary.cube.gather_root;
      view->parent_level = level;
      view->lo = mine.lo;
      view->hi = mine.hi;
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
