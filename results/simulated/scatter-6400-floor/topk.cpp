// A scatter tree whose root sends few, large messages (results/simulated/scatter-6400-floor,
// README): the nodes other than the root's split into K contiguous ranges (K/2 after the root's
// node, the rest before it, equal node counts); the root sends each range's data to its first
// rank, the largest first, then serves its own node as the greedy tree of shape code SHAPE does;
// each range is the greedy tree of SHAPE from its first rank (tree::GreedyNodeOf on the range).
// Same distribution, B ints a rank, no sizes or header; the slowest rank's time after a barrier.
// usage: topk SHAPE B NREP K RANKS_PER_NODE (p a multiple of it, the root p / 2 a node's first)
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "greedy_tree.hpp"
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc != 6) {
    if (rank == 0) std::fprintf(stderr, "usage: topk SHAPE B NREP K RANKS_PER_NODE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int shape = std::atoi(argv[1]), b = std::atoi(argv[2]), nrep = std::atoi(argv[3]),
            k = std::atoi(argv[4]), rpn = std::atoi(argv[5]);
  const int root = p / 2;
  const std::vector<std::int64_t> blocks(p, 4 * static_cast<std::int64_t>(b));
  const int nodes = p / rpn, root_node = root / rpn;
  // node ranges: after the root's node and before it, each side split into k/2 pieces
  std::vector<std::pair<int, int>> pieces;  // node ranges [a, b]
  auto split = [&](int a, int z, int parts) {
    const int n = z - a + 1;
    for (int i = 0; i < parts; ++i) {
      const int lo = a + (int)((long)n * i / parts), hi = a + (int)((long)n * (i + 1) / parts) - 1;
      if (lo <= hi) pieces.push_back({lo, hi});
    }
  };
  split(root_node + 1, nodes - 1, k / 2);
  split(0, root_node - 1, k - k / 2);
  tuw::tree::NodeView node;
  const int my_node = rank / rpn;
  if (my_node == root_node) {
    node = tuw::tree::GreedyNodeOf(blocks.data(), p, root, shape, rank);
    if (rank == root) {
      std::vector<tuw::tree::ChildEdge> kids;
      for (auto& c : node.children)
        if (c.child / rpn == root_node) kids.push_back(c);
      // network pieces, sent first (children vector: first sent is last)
      std::vector<tuw::tree::ChildEdge> net;
      for (auto& pc : pieces) {
        tuw::tree::ChildEdge e;
        e.child = e.lo = pc.first * rpn;
        e.hi = (pc.second + 1) * rpn - 1;
        e.bytes = (std::int64_t)(e.hi - e.lo + 1) * 4 * b;
        net.push_back(e);
      }
      std::sort(net.begin(), net.end(), [](auto& x, auto& y) { return x.bytes < y.bytes; });
      for (auto& e : net) kids.push_back(e);
      node.children = kids;
    }
  } else {
    for (auto& pc : pieces) {
      if (pc.first <= my_node && my_node <= pc.second) {
        const int lo = pc.first * rpn, hi = (pc.second + 1) * rpn - 1;
        node = tuw::tree::GreedyNodeOf(blocks.data() + lo, hi - lo + 1, -1, shape, rank - lo, lo);
        node.rank += lo;
        node.parent = node.parent < 0 ? root : node.parent + lo;
        for (auto& c : node.children) c.child += lo;
      }
    }
  }
  std::vector<char> buffer(std::max<std::int64_t>(node.bytes, (std::int64_t)p * 4 * b));
  std::vector<MPI_Request> requests(node.children.size());
  for (int rep = 0; rep < nrep; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (rank != root) {
      MPI_Status st;
      MPI_Recv(buffer.data(), (int)buffer.size(), MPI_CHAR, node.parent, 0, MPI_COMM_WORLD, &st);
    }
    const int n = static_cast<int>(node.children.size());
    for (int c = n - 1; c >= 0; --c)
      MPI_Isend(buffer.data(), (int)node.children[c].bytes, MPI_CHAR, node.children[c].child, 0,
                MPI_COMM_WORLD, &requests[n - 1 - c]);
    MPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE);
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) std::printf("topk%d\t%d\t%d\t%d\t%.3f\n", k, shape, b, rep, slowest * 1e6);
  }
  MPI_Finalize();
}
