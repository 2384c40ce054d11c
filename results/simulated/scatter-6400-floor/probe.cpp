// What a small scatter at p = 6400 can cost in the simulation, apart from TUWk_Scatterv's own
// protocol (issue 37; results/simulated/scatter-6400-floor/README.md). On the greedy tree of
// shape code SHAPE rooted at p / 2 (tree::GreedyNodeOf, as TUWk_Scatterv builds it), each rank
// receives from its parent, then sends to its children, the first sent the one that serves the
// most (a scatter's order: NodeView's children from the last), every send nonblocking:
//   bcast: every message 4 bytes (the shape's latency alone: any scatter on it sends at least
//          as much on every edge),
//   data:  every message the bytes of the subtree it serves (B ints a rank, no sizes, no header),
//   fifo:  data, each send synchronous and waited for before the next (MPI_Ssend: one message at
//          a time on a sender's link, the first sent the largest, as a NIC's queue sends them).
//   root:  data, but only the root's own sends (its children forward nothing): the root's part,
//   topkK: data on another tree: the nodes other than the root's as K contiguous ranges (K / 2
//          after the root's node, the rest before it, equal node counts), to each range's first
//          rank, the largest first, then the root's own node as SHAPE serves it; each range the
//          greedy tree of SHAPE from its first rank (SHAPE two-level: its ranks a node).
// Also `mpi-bcast`: MPI_Bcast of 4 bytes (SMPI's algorithm, --cfg=smpi/bcast).
// The time of a repetition: MPI_Barrier, then each rank's own time to its end; the largest.
// usage: probe MODE SHAPE B NREP (SHAPE and B ignored by mpi-bcast)
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "greedy_tree.hpp"

namespace {

// The topkK tree's node of `rank` (see above).
tuw::tree::NodeView TopRangesNodeOf(const std::vector<std::int64_t>& blocks, int root, int shape,
                                    int ranges, int rank) {
  const int p = static_cast<int>(blocks.size());
  tuw::tree::GreedyShape layout;
  if (!tuw::tree::ShapeOfCode(shape, &layout) || !layout.TwoLevel() ||
      p % layout.ranks_per_node != 0 || ranges < 2) {
    throw std::invalid_argument("topkK: a two-level SHAPE whose ranks a node divide p, K >= 2");
  }
  const int per_node = layout.ranks_per_node, nodes = p / per_node, root_node = root / per_node;
  std::vector<std::pair<int, int>> pieces;  // node ranges [first, last]
  const auto split = [&](int first, int last, int parts) {
    const long n = last - first + 1;
    for (int i = 0; i < parts; ++i) {
      const int lo = first + static_cast<int>(n * i / parts);
      const int hi = first + static_cast<int>(n * (i + 1) / parts) - 1;
      if (lo <= hi) pieces.push_back({lo, hi});
    }
  };
  split(root_node + 1, nodes - 1, ranges / 2);
  split(0, root_node - 1, ranges - ranges / 2);
  const int my_node = rank / per_node;
  if (my_node == root_node) {  // the root's node as the greedy tree serves it
    tuw::tree::NodeView node = tuw::tree::GreedyNodeOf(blocks.data(), p, root, shape, rank);
    if (rank != root) return node;
    std::vector<tuw::tree::ChildEdge> children;  // the first sent last
    for (const auto& c : node.children) {
      if (c.child / per_node == root_node) children.push_back(c);
    }
    std::vector<tuw::tree::ChildEdge> network;
    for (const auto& [first, last] : pieces) {
      tuw::tree::ChildEdge e;
      e.child = e.lo = first * per_node;
      e.hi = (last + 1) * per_node - 1;
      e.bytes = blocks[0] * (e.hi - e.lo + 1);  // Same: equal blocks
      network.push_back(e);
    }
    std::sort(network.begin(), network.end(),
              [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    children.insert(children.end(), network.begin(), network.end());
    node.children = children;
    return node;
  }
  for (const auto& [first, last] : pieces) {
    if (my_node < first || my_node > last) continue;
    const int lo = first * per_node, hi = (last + 1) * per_node - 1;
    tuw::tree::NodeView node =
        tuw::tree::GreedyNodeOf(blocks.data() + lo, hi - lo + 1, -1, shape, rank - lo, lo);
    node.parent = node.parent < 0 ? root : node.parent + lo;
    for (auto& c : node.children) c.child += lo;
    return node;
  }
  throw std::logic_error("topkK: a rank in no range");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc != 5) {
    if (rank == 0) {
      std::fprintf(stderr, "usage: probe bcast|data|root|fifo|topkK|mpi-bcast SHAPE B NREP\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string mode = argv[1];
  const int shape = std::atoi(argv[2]), b = std::atoi(argv[3]), nrep = std::atoi(argv[4]);
  const int root = p / 2;
  const std::vector<std::int64_t> blocks(p, 4 * static_cast<std::int64_t>(b));
  const bool top_ranges = mode.rfind("topk", 0) == 0;
  const bool known = top_ranges || mode == "bcast" || mode == "data" || mode == "root" ||
                     mode == "fifo" || mode == "mpi-bcast";
  tuw::tree::NodeView node;
  try {
    if (!known || b < 1 || nrep < 1) throw std::invalid_argument("bad MODE, B or NREP");
    if (top_ranges) {
      node = TopRangesNodeOf(blocks, root, shape, std::atoi(mode.c_str() + 4), rank);
    } else if (mode != "mpi-bcast") {
      node = tuw::tree::GreedyNodeOf(blocks.data(), p, root, shape, rank);
    }
  } catch (const std::exception& e) {  // a bad shape code, K, mode, b or count
    if (rank == 0) {
      std::fprintf(stderr, "probe: %s (mode %s, shape %d, b %d, nrep %d)\n", e.what(), mode.c_str(),
                   shape, b, nrep);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const bool data = mode == "data" || mode == "fifo" || mode == "root" || top_ranges;
  if (mode == "root" && node.parent >= 0) {  // the root's children receive, nobody else
    node.children.clear();
    if (node.parent != root) node.parent = -1;
  }
  std::vector<char> buffer(data ? std::max<std::int64_t>(node.bytes, 4) : 4);
  std::vector<MPI_Request> requests(node.children.size());
  for (int rep = 0; rep < nrep; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (mode == "mpi-bcast") {
      MPI_Bcast(buffer.data(), 4, MPI_CHAR, root, MPI_COMM_WORLD);
    } else {
      if (node.parent >= 0) {
        MPI_Recv(buffer.data(), data ? static_cast<int>(node.bytes) : 4, MPI_CHAR, node.parent, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      const int n = static_cast<int>(node.children.size());
      for (int c = n - 1; c >= 0; --c) {
        const auto& child = node.children[c];
        if (mode == "fifo") {
          MPI_Ssend(buffer.data(), static_cast<int>(child.bytes), MPI_CHAR, child.child, 0,
                    MPI_COMM_WORLD);
          requests[n - 1 - c] = MPI_REQUEST_NULL;
          continue;
        }
        MPI_Isend(buffer.data(), data ? static_cast<int>(child.bytes) : 4, MPI_CHAR, child.child, 0,
                  MPI_COMM_WORLD, &requests[n - 1 - c]);
      }
      MPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE);
    }
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("%s\t%d\t%d\t%d\t%.3f\n", mode.c_str(), shape, b, rep, slowest * 1e6);
  }
  MPI_Finalize();
  return 0;
}
