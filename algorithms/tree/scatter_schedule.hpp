// The order in which a scatter parent sends to its children (pure, no MPI; executed by
// tree_executor.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hypercube_tree.hpp"

namespace tuw::tree {

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

}  // namespace tuw::tree
