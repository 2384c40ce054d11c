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
//   ackJ:  data, a parent waiting for an empty acknowledgement from each of its first J children
//          (the largest first) before it sends to the next; rootackJ: the root alone waits.
//   pieceS: data, every edge's bytes as messages of at most S bytes that a rank forwards as they
//          come (its data: its children's subtrees in send order, then its own block), a child's
//          pieces before the next child's; rrpieceS: one piece a child in turn.
//   evenK_J: data on equal node ranges (16 ranks a node): a node's first rank (the root on its
//          node) splits the other nodes of its range into at most K (the root; J below) ranges
//          of equal node counts, sends each its data to its first rank, all at once, then serves
//          its node by the greedy node step SHAPE; evenK_Jb the same with 4-byte messages;
//          evenK_0 TABLE: below the root, a range of n nodes in the number of parts TABLE's line
//          "n parts" gives (flows.py --table).
//   tailK_J_T_W: evenK_J with the last T nodes of the root's last range each a range of its own,
//          sent after the others, and the root's sends synchronous (MPI_Issend: SMPI detaches an
//          MPI_Isend below 64 KiB, which completes at once), at most W of them in flight (W = 0:
//          MPI_Isend, all at once): the deep ranges served first, one after the other, so that
//          their subtrees run while the root still sends, and the last ranges short.
// Also `mpi-bcast`: MPI_Bcast of 4 bytes (SMPI's algorithm, --cfg=smpi/bcast).
// The time of a repetition: MPI_Barrier, then each rank's own time to its end; the largest. Also
// how much earlier than the root the earliest and the latest rank left the barrier (SimGrid's
// clock is global): the time a leaf waits for a root that starts late.
// usage: probe MODE SHAPE B NREP [TABLE] (SHAPE and B ignored by mpi-bcast)
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// The evenK_J tree's node of `rank` (see above; k_of_nodes: J by the range's node count),
// nodes of `per_node` ranks, p a multiple. At the root, the other nodes on either side get parts
// in proportion to their number.
tuw::tree::NodeView EvenNodeOf(const std::vector<std::int64_t>& blocks, int root, int per_node,
                               int node_step, int top_k, int k, int rank,
                               const std::vector<int>* k_of_nodes = nullptr, int tail = 0) {
  const int p = static_cast<int>(blocks.size());
  if (per_node < 1 || p % per_node != 0 || top_k < 1 || k < 1) {
    throw std::invalid_argument("evenK_J: 16 ranks a node divide p, K, J >= 1");
  }
  const int nodes = p / per_node, my_node = rank / per_node;
  const std::int64_t node_bytes = blocks[0] * per_node;  // Same: equal blocks
  tuw::tree::NodeView view;
  // Walk down from the root to my node's sender, recording my node's parent sender.
  int sender_node = root / per_node, parent_rank = -1;
  std::vector<std::pair<int, int>> ranges;  // the sender's ranges beside its own node
  if (sender_node > 0) ranges.push_back({0, sender_node - 1});
  if (sender_node < nodes - 1) ranges.push_back({sender_node + 1, nodes - 1});
  int parts = top_k;
  while (true) {
    std::vector<std::pair<int, int>> pieces;
    long total = 0;
    for (const auto& r : ranges) total += r.second - r.first + 1;
    // each range gets parts in proportion to its nodes (at least one if it has any)
    int given = 0;
    // tail: at the root, the last `tail` nodes of its last range each a range of their own
    std::vector<std::pair<int, int>> singles;
    if (sender_node == root / per_node && tail > 0) {
      auto& last = ranges.back();
      if (last.second - last.first + 1 <= tail) throw std::invalid_argument("tail too long");
      for (int t = last.second - tail + 1; t <= last.second; ++t) singles.push_back({t, t});
      last.second -= tail;
      total -= tail;
    }
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      const long n = ranges[i].second - ranges[i].first + 1;
      int share = i + 1 == ranges.size()
                      ? parts - given
                      : std::max(1, static_cast<int>((parts * n + total / 2) / total));
      share = std::max(1, std::min<int>(share, static_cast<int>(n)));
      given += share;
      for (int j = 0; j < share; ++j) {
        const int lo = ranges[i].first + static_cast<int>(n * j / share);
        const int hi = ranges[i].first + static_cast<int>(n * (j + 1) / share) - 1;
        if (lo <= hi) pieces.push_back({lo, hi});
      }
    }
    const std::size_t equal_pieces = pieces.size();
    pieces.insert(pieces.end(), singles.begin(), singles.end());
    if (my_node == sender_node) {
      // my node: its greedy node tree rooted at its first rank
      const int lo = sender_node * per_node;
      const int fixed = sender_node == root / per_node ? root - lo : -1;
      view = tuw::tree::GreedyNodeOf(blocks.data() + lo, per_node, fixed, node_step, rank - lo, lo);
      for (auto& c : view.children) c.child += lo;
      if (view.parent >= 0) {
        view.parent += lo;
      } else {
        view.parent = parent_rank;
        // the network children are sent first: the last in NodeView's order
        // the tail's singles sent last (NodeView's first), then the rest smallest last
        std::sort(pieces.begin(), pieces.begin() + equal_pieces, [](const auto& x, const auto& y) {
          return x.second - x.first < y.second - y.first;
        });
        std::rotate(pieces.begin(), pieces.begin() + equal_pieces, pieces.end());
        for (const auto& [lo_node, hi_node] : pieces) {
          tuw::tree::ChildEdge e;
          e.child = e.lo = lo_node * per_node;  // (my node's sender: the root on its node)
          e.hi = (hi_node + 1) * per_node - 1;
          e.bytes = node_bytes * (hi_node - lo_node + 1);
          view.children.push_back(e);
        }
        view.bytes = node_bytes;
        for (const auto& r : ranges) view.bytes += node_bytes * (r.second - r.first + 1);
        view.bytes += node_bytes * static_cast<std::int64_t>(singles.size());
      }
      return view;
    }
    bool found = false;
    for (const auto& [lo_node, hi_node] : pieces) {
      if (my_node < lo_node || my_node > hi_node) continue;
      parent_rank = sender_node == root / per_node ? root : sender_node * per_node;
      sender_node = lo_node;
      ranges.clear();
      if (lo_node < hi_node) ranges.push_back({lo_node + 1, hi_node});
      if (k_of_nodes) k = (*k_of_nodes)[hi_node - lo_node + 1];
      found = true;
      break;
    }
    if (!found) throw std::logic_error("evenK_J: a node in no range");
    parts = std::max(1, k);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc != 5 && argc != 6) {
    if (rank == 0) {
      std::fprintf(stderr,
                   "usage: probe bcast|data|root|fifo|topkK|ackJ|rootackJ|pieceS|rrpieceS|"
                   "evenK_J[b]|evenK_0|tailK_J_T_W|mpi-bcast SHAPE B NREP [TABLE]\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string mode = argv[1];
  const int shape = std::atoi(argv[2]), b = std::atoi(argv[3]), nrep = std::atoi(argv[4]);
  const int root = p / 2;
  const std::vector<std::int64_t> blocks(p, 4 * static_cast<std::int64_t>(b));
  const bool top_ranges = mode.rfind("topk", 0) == 0;
  const bool acked = mode.rfind("ack", 0) == 0 || mode.rfind("rootack", 0) == 0;
  const bool root_only_ack = mode.rfind("rootack", 0) == 0;
  const int ack_first = acked ? std::atoi(mode.c_str() + (root_only_ack ? 7 : 3)) : 0;
  const bool tailed = mode.rfind("tail", 0) == 0;  // tailK_J_T_W
  int tail = 0, window = 0, tail_k = 0, tail_j = 0;
  if (tailed &&
      std::sscanf(mode.c_str(), "tail%d_%d_%d_%d", &tail_k, &tail_j, &tail, &window) != 4) {
    tail_k = 0;  // rejected below with the other bad modes
  }
  const bool even = mode.rfind("even", 0) == 0 || tailed;
  const bool round_robin = mode.rfind("rrpiece", 0) == 0;
  const bool pieces = round_robin || mode.rfind("piece", 0) == 0;
  const long piece_bytes = pieces ? std::atol(mode.c_str() + (round_robin ? 7 : 5)) : 0;
  const bool known = (pieces && piece_bytes > 0) || even || top_ranges || acked ||
                     mode == "bcast" || mode == "data" || mode == "root" || mode == "fifo" ||
                     mode == "mpi-bcast";
  tuw::tree::NodeView node;
  try {
    if (!known || b < 1 || nrep < 1 || (acked && ack_first < 1) ||
        (tailed && (tail_k < 1 || tail_j < 1 || tail < 0 || window < 0))) {
      throw std::invalid_argument("bad MODE (its J, K or S >= 1), B or NREP");
    }
    if (even) {  // evenK_J, SHAPE the node step, 16 ranks a node
      const int top_k = std::atoi(mode.c_str() + 4);
      const char* under = std::strchr(mode.c_str(), '_');
      static std::vector<int> table;  // evenK_0 TABLE: the parts of a range of n nodes
      if (under && std::atoi(under + 1) == 0) {
        FILE* f = argc == 6 ? std::fopen(argv[5], "r") : nullptr;
        if (f == nullptr) throw std::invalid_argument("evenK_0 needs a readable TABLE");
        table.assign(p + 1, 1);
        int n = 0, parts = 0;
        while (std::fscanf(f, "%d %d", &n, &parts) == 2) {
          if (n >= 0 && n <= p) table[n] = parts;
        }
        std::fclose(f);
      }
      if (tailed) {
        node = EvenNodeOf(blocks, root, 16, shape, tail_k, tail_j, rank, nullptr, tail);
      } else {
        node = EvenNodeOf(blocks, root, 16, shape, top_k,
                          under ? std::max(1, std::atoi(under + 1)) : top_k, rank,
                          table.empty() ? nullptr : &table);
      }
    } else if (top_ranges) {
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
  // ackJ: does my parent wait for my acknowledgement (I am among its first J)?
  bool send_ack = false;
  if (acked && node.parent >= 0 && (!root_only_ack || node.parent == root)) {
    const tuw::tree::NodeView parent =
        tuw::tree::GreedyNodeOf(blocks.data(), p, root, shape, node.parent);
    const int n = static_cast<int>(parent.children.size());
    for (int c = n - 1; c >= 0 && c >= n - ack_first; --c) {
      if (parent.children[c].child == rank) send_ack = true;
    }
  }
  const bool parent_waits = acked && (!root_only_ack || rank == root);
  const bool even_bcast = even && mode.back() == 'b';  // evenK_Jb: 4-byte messages
  const bool data = pieces || acked || (even && !even_bcast) || mode == "data" || mode == "fifo" ||
                    mode == "root" || top_ranges;
  if (mode == "root" && node.parent >= 0) {  // the root's children receive, nobody else
    node.children.clear();
    if (node.parent != root) node.parent = -1;
  }
  std::vector<char> buffer(data ? std::max<std::int64_t>(node.bytes, 4) : 4);
  std::vector<MPI_Request> requests(node.children.size());
  for (int rep = 0; rep < nrep; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (pieces) {
      const int n = static_cast<int>(node.children.size());
      std::vector<std::int64_t> first(n), next(n, 0);  // a child's section, its next piece
      std::int64_t offset = 0;
      for (int c = n - 1; c >= 0; --c) {
        first[c] = offset;
        offset += node.children[c].bytes;
      }
      const long incoming = node.parent >= 0 ? (node.bytes + piece_bytes - 1) / piece_bytes : 0;
      std::vector<MPI_Request> receives(incoming), sends;
      for (long k = 0; k < incoming; ++k) {
        MPI_Irecv(
            buffer.data() + k * piece_bytes,
            static_cast<int>(std::min<std::int64_t>(piece_bytes, node.bytes - k * piece_bytes)),
            MPI_CHAR, node.parent, 0, MPI_COMM_WORLD, &receives[k]);
      }
      std::int64_t have = node.parent >= 0 ? 0 : node.bytes;
      for (long k = 0; k <= incoming; ++k) {
        bool sent = true;
        while (sent) {
          sent = false;
          for (int c = n - 1; c >= 0; --c) {
            const std::int64_t size = node.children[c].bytes;
            while (next[c] < size && first[c] + std::min(next[c] + piece_bytes, size) <= have) {
              const int len = static_cast<int>(std::min(piece_bytes, size - next[c]));
              sends.emplace_back();
              MPI_Isend(buffer.data() + first[c] + next[c], len, MPI_CHAR, node.children[c].child,
                        0, MPI_COMM_WORLD, &sends.back());
              next[c] += len;
              sent = true;
              if (round_robin) break;
            }
          }
          if (!round_robin) break;
        }
        if (k < incoming) {
          MPI_Wait(&receives[k], MPI_STATUS_IGNORE);
          have = std::min<std::int64_t>(node.bytes, (k + 1) * piece_bytes);
        }
      }
      MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    } else if (mode == "mpi-bcast") {
      MPI_Bcast(buffer.data(), 4, MPI_CHAR, root, MPI_COMM_WORLD);
    } else {
      if (node.parent >= 0) {
        MPI_Status status;
        MPI_Recv(buffer.data(), data ? static_cast<int>(node.bytes) : 4, MPI_CHAR, node.parent, 0,
                 MPI_COMM_WORLD, &status);
        int got = 0;
        MPI_Get_count(&status, MPI_CHAR, &got);
        if (data && got != node.bytes) {
          std::fprintf(stderr, "probe: rank %d got %d bytes, its subtree has %lld\n", rank, got,
                       static_cast<long long>(node.bytes));
          MPI_Abort(MPI_COMM_WORLD, 3);
        }
        if (send_ack) MPI_Send(nullptr, 0, MPI_CHAR, node.parent, 1, MPI_COMM_WORLD);
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
        const int index = n - 1 - c;
        if (window > 0 && rank == root && index >= window) {
          MPI_Wait(&requests[index - window], MPI_STATUS_IGNORE);
        }
        if (window > 0 && rank == root) {  // completes when delivered (SMPI detaches Isend)
          MPI_Issend(buffer.data(), static_cast<int>(child.bytes), MPI_CHAR, child.child, 0,
                     MPI_COMM_WORLD, &requests[index]);
        } else {
          MPI_Isend(buffer.data(), data ? static_cast<int>(child.bytes) : 4, MPI_CHAR, child.child,
                    0, MPI_COMM_WORLD, &requests[n - 1 - c]);
        }
        if (parent_waits && n - 1 - c < ack_first) {
          MPI_Recv(nullptr, 0, MPI_CHAR, child.child, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      }
      MPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE);
    }
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double root_start = start;  // how much earlier than the root a rank left the barrier
    MPI_Bcast(&root_start, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
    const double early = root_start - start;
    double earliest = 0, latest = 0;
    MPI_Reduce(&early, &earliest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&early, &latest, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\n", mode.c_str(), shape, b, rep, slowest * 1e6,
                  earliest * 1e6, latest * 1e6);
  }
  MPI_Finalize();
  return 0;
}
