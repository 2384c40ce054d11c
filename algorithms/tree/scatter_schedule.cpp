#include "scatter_schedule.hpp"

#include <algorithm>

namespace tuw::tree {

void ScatterSchedule(const NodeView& view, const std::vector<int>& node_ranks,
                     std::int64_t serial_min_bytes, std::vector<ScatterSend>* schedule) {
  // The network's sends straight into *schedule (a model run's buffer, kept between calls).
  std::vector<ScatterSend>& network = *schedule;
  std::vector<ScatterSend> local;  // (none where node_ranks is empty: no allocation)
  network.clear();
  for (std::size_t k = view.children.size(); k-- > 0;) {
    const ChildEdge& c = view.children[k];
    if (c.lo == c.hi && std::binary_search(node_ranks.begin(), node_ranks.end(), c.child)) {
      local.push_back({k, false, false});
    } else {
      const bool serial = c.bytes >= serial_min_bytes;
      network.push_back({k, serial, serial});
    }
  }
  if (local.empty()) return;
  const auto first_wait =
      std::find_if(network.begin(), network.end(), [](const ScatterSend& s) { return s.wait; });
  if (first_wait == network.end()) {  // nothing to overlap
    network.insert(network.end(), local.begin(), local.end());
    return;
  }
  first_wait->wait = false;
  local.back().wait = true;
  network.insert(first_wait + 1, local.begin(), local.end());
}

std::vector<ScatterSend> ScatterSchedule(const NodeView& view, const std::vector<int>& node_ranks,
                                         std::int64_t serial_min_bytes) {
  std::vector<ScatterSend> schedule;
  ScatterSchedule(view, node_ranks, serial_min_bytes, &schedule);
  return schedule;
}

}  // namespace tuw::tree
