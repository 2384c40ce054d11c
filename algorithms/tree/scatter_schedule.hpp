// The order in which a scatter parent sends to its children (pure, no MPI; executed by
// tree_executor.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "hypercube_tree.hpp"

namespace tuw::tree {

// A scatter parent sends a message of this size or more only when the previous one has been
// received: synchronously (MPI_Issend in tree_executor.cpp; an eager send would complete at
// once) and waited for. Sent at once, the messages share the parent's link and the largest
// subtree, which has the most forwarding ahead of it, gets its data last instead of first; one
// after the other is the one-ported schedule the cost model assumes. Smaller messages go out
// together: below about 8 KiB a QDR-class link moves a message in less time (2.6 us at
// 3.2 GB/s) than the synchronous send's acknowledgement adds (a latency, 1-2 us), so ordering
// them costs more than it gains. Simulated p = 560 (results/simulated/README.md): from 64 KiB
// on, TUW_Scatterv 1.4-1.7x faster at b >= 1000; from 8 KiB on, 0.80-0.97x again at b = 10 and
// 100. An oblivious tree (Binomial_Scatterv) keeps 64 KiB: there the child receives a header of
// block sizes before it can take the data, so the synchronous send's acknowledgement comes a
// latency later; from 8 KiB on it measured 1.11-1.13x slower at b = 100 (decreasing 0.91x),
// and from 64 KiB on 0.98x of that over b = 10 ... 1000 (same sweep).
constexpr std::int64_t kSerialSendMinBytes = 8 * 1024;
constexpr std::int64_t kSerialSendMinBytesAfterHeader = 64 * 1024;
// A small TUWk_Scatterv call (each child's sizes and data in one message, tree::OneMessageCall:
// kOneMessageMaxBytes at most in all) sends every message at once: there a serial send costs more
// than the order gains. Simulated p = 6400, b = 10, Same: 167.3 -> 158.7 us on the two-level greedy
// tree, 131.4 -> 95.5 on equal node ranges; b = 1 and p = 560, b = 10 unchanged
// (results/simulated/scatter-6400-floor/README.md).
constexpr std::int64_t kSmallCallSerialSendMinBytes = std::numeric_limits<std::int64_t>::max();

// One send: to view.children[child], synchronously or not (serial: the next send waits until
// this one has been received), and whether the parent waits for everything it has posted so far
// once this one is posted.
struct ScatterSend {
  std::size_t child = 0;
  bool serial = false;
  bool wait = false;
  bool operator==(const ScatterSend& o) const {
    return child == o.child && serial == o.serial && wait == o.wait;
  }
};

// Children in descending round, the largest subtree first; a message of serial_min_bytes or more
// is serial and waited for before the next (one after the other: the one-ported schedule of the
// cost model). Except the leaves on the parent's own node (node_ranks, ascending; empty where
// unknown): their messages go through shared memory, not the network link the serial sends are
// ordered for, and have no forwarding ahead, so they are never serial, and where the parent
// waits for a network send they are posted while the first such send is on the wire, the wait
// coming after them. Served after the network sends instead (gather's reverse puts a node tree's
// ranks last), they added their shared-memory time to the end: Optimal_Scatterv_init on the
// node-aware tree, simulated p = 560, b = 10^4, was 2-6 % slower (results/simulated/README.md).
std::vector<ScatterSend> ScatterSchedule(const NodeView& view, const std::vector<int>& node_ranks,
                                         std::int64_t serial_min_bytes);
// The same into *schedule (its old contents replaced), for the model's runs, which call it once a
// parent and keep the buffer.
void ScatterSchedule(const NodeView& view, const std::vector<int>& node_ranks,
                     std::int64_t serial_min_bytes, std::vector<ScatterSend>* schedule);

}  // namespace tuw::tree
