// What would a gather at p = 6400, b = 10 gain if the root's children forwarded their
// children's messages as they come, instead of storing their whole subtree first, or if they sent
// their subtree in pieces (issue 37; results/simulated/gather-6400-pieces/README.md)? A probe
// outside the library, on SimGrid: the k-nomial tree of radix K rooted at p / 2 (relative ranks,
// a child r + j K^l of r for each level l below r's lowest nonzero digit), B ints a rank (Same),
// every receive posted at once:
//   store: each rank takes its children's subtrees, then sends its own subtree in one message
//          (the data phase of a radix-K tree: TUWk_Gatherv without its construction);
//   fwdD:  the same, but a rank at depth 1 ... D (the root's children are depth 1) sends its own
//          block first, then each message it receives as it arrives, to its parent, unchanged
//          (tag: the relative rank its bytes start at); the root takes every message into place;
//   pieceS: store, but the root's children send their subtree as messages of at most S bytes
//          (whole blocks), one after the other once all of it is there: fwd1's message sizes
//          without its overlap.
// The time of a repetition: MPI_Barrier, then each rank's own time to its end; the largest.
// usage: probe MODE K B NREP   (prints: mode K B rep us)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Message {  // relative ranks [first, first + n); its tag is `first`
  int first, n;
};

struct Tree {
  int p, k;
  // children of relative rank r, in order of level then j (smallest subtrees first)
  std::vector<int> Children(int r) const {
    std::vector<int> out;
    for (long long span = 1; span < p; span *= k) {
      if (r % (span * k) != 0) break;
      for (int j = 1; j < k; ++j) {
        const long long c = r + j * span;
        if (c < p) out.push_back(static_cast<int>(c));
      }
    }
    return out;
  }
  int SubtreeEnd(int r) const {  // one past r's subtree
    long long span = 1;
    while (span < p && r % (span * k) == 0) span *= k;
    return static_cast<int>(std::min<long long>(r + span, p));
  }
  int Depth(int r) const {
    int d = 0;
    for (long long span = 1; span < p; span *= k) {
      if ((r / span) % k != 0) ++d;
    }
    return d;
  }
  int Parent(int r) const {  // clear r's lowest nonzero digit
    long long span = 1;
    while (r % (span * k) == 0) span *= k;
    return static_cast<int>(r - (r / span) % k * span);
  }
};

// The messages relative rank r sends its parent.
std::vector<Message> Sends(const Tree& t, int r, int forward_depth, int piece_ranks) {
  const int depth = t.Depth(r);
  if (depth == 1 && piece_ranks > 0) {
    std::vector<Message> out;
    for (int first = r; first < t.SubtreeEnd(r); first += piece_ranks) {
      out.push_back({first, std::min(piece_ranks, t.SubtreeEnd(r) - first)});
    }
    return out;
  }
  if (depth == 0 || depth > forward_depth) return {{r, t.SubtreeEnd(r) - r}};
  std::vector<Message> out = {{r, 1}};
  for (int c : t.Children(r)) {
    for (const Message& m : Sends(t, c, forward_depth, piece_ranks)) out.push_back(m);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc != 5) {
    if (rank == 0) std::fprintf(stderr, "usage: probe store|fwdD|pieceS K B NREP\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string mode = argv[1];
  const int k = std::atoi(argv[2]), b = std::atoi(argv[3]), nrep = std::atoi(argv[4]);
  const bool pieces = mode.rfind("piece", 0) == 0;
  const int forward_depth = mode == "store" || pieces ? 0 : std::atoi(mode.c_str() + 3);
  const int piece_ranks = pieces ? std::max(1, std::atoi(mode.c_str() + 5) / (4 * b)) : 0;
  const int root = p / 2;
  const Tree tree{p, k};
  const int r = (rank - root + p) % p;
  auto world = [&](int rel) { return (rel + root) % p; };
  const int end = tree.SubtreeEnd(r);
  std::vector<int> data(static_cast<std::size_t>(end - r) * b, rank);
  struct Expected {
    int source;
    Message m;
  };
  std::vector<Expected> expected;
  for (int c : tree.Children(r)) {
    for (const Message& m : Sends(tree, c, forward_depth, piece_ranks)) {
      expected.push_back({world(c), m});
    }
  }
  const std::vector<Message> own_sends = Sends(tree, r, forward_depth, piece_ranks);
  const bool forwards = r != 0 && own_sends.size() > 1 && !pieces;
  for (int rep = 0; rep < nrep; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    std::vector<MPI_Request> recvs(expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const Message& m = expected[i].m;
      MPI_Irecv(&data[static_cast<std::size_t>(m.first - r) * b], m.n * b, MPI_INT,
                expected[i].source, m.first, MPI_COMM_WORLD, &recvs[i]);
    }
    if (r != 0 && forwards) {
      std::vector<MPI_Request> sends;
      sends.emplace_back();
      MPI_Isend(&data[0], b, MPI_INT, world(tree.Parent(r)), r, MPI_COMM_WORLD, &sends.back());
      for (std::size_t done = 0; done < recvs.size(); ++done) {
        int i = 0;
        MPI_Waitany(static_cast<int>(recvs.size()), recvs.data(), &i, MPI_STATUS_IGNORE);
        const Message& m = expected[i].m;
        sends.emplace_back();
        MPI_Isend(&data[static_cast<std::size_t>(m.first - r) * b], m.n * b, MPI_INT,
                  world(tree.Parent(r)), m.first, MPI_COMM_WORLD, &sends.back());
      }
      MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    } else {
      MPI_Waitall(static_cast<int>(recvs.size()), recvs.data(), MPI_STATUSES_IGNORE);
      for (const Message& m : r != 0 ? own_sends : std::vector<Message>{}) {
        MPI_Send(&data[static_cast<std::size_t>(m.first - r) * b], m.n * b, MPI_INT,
                 world(tree.Parent(r)), m.first, MPI_COMM_WORLD);
      }
    }
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%s\t%d\t%d\t%d\t%.3f\n", mode.c_str(), k, b, rep, slowest * 1e6);
  }
  MPI_Finalize();
  return 0;
}
