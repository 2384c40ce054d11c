#include "scatter_schedule.hpp"

#include <algorithm>

namespace tuw::tree {

std::vector<ScatterSend> ScatterSchedule(const NodeView& view, const std::vector<int>& node_ranks,
                                         std::int64_t serial_min_bytes) {
  std::vector<ScatterSend> network, local;
  for (std::size_t k = view.children.size(); k-- > 0;) {
    const ChildEdge& c = view.children[k];
    if (c.lo == c.hi && std::binary_search(node_ranks.begin(), node_ranks.end(), c.child)) {
      local.push_back({k, false, false});
    } else {
      const bool serial = c.bytes >= serial_min_bytes;
      network.push_back({k, serial, serial});
    }
  }
  const auto first_wait =
      std::find_if(network.begin(), network.end(), [](const ScatterSend& s) { return s.wait; });
  std::vector<ScatterSend> schedule;
  if (first_wait == network.end() || local.empty()) {  // nothing to overlap
    schedule = network;
    schedule.insert(schedule.end(), local.begin(), local.end());
    return schedule;
  }
  schedule.assign(network.begin(), first_wait + 1);
  schedule.back().wait = false;
  schedule.insert(schedule.end(), local.begin(), local.end());
  schedule.back().wait = true;
  schedule.insert(schedule.end(), first_wait + 1, network.end());
  return schedule;
}

}  // namespace tuw::tree
