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
// TUWk_Gatherv (carried != nullptr): a small cube's data rides on its summary to the group's
// carrier, and a group of such cubes merges here; in the root's group the root is told only
// (tree::RootToldOnly: no exchange), with up to tree::CarryLimit's data (tree/carried_cubes.hpp).
#include <algorithm>
#include <array>
#include <cstring>

#include "../tree/carried_cubes.hpp"
#include "internal.hpp"

namespace tuw::detail {
namespace {

struct Summary {
  tree::CubeSummary cube;
  int error = MPI_SUCCESS;  // the first bad-argument error class reported in the cube
  bool held = true;         // all the cube's data is at its gather root (one rank, or carried)
};

using Wire = std::array<std::int64_t, 5>;
constexpr int kWireBytes = static_cast<int>(sizeof(Wire));
static_assert(kWireBytes == tree::kSummaryBytes, "the model prices the summary it sends");

Wire ToWire(const Summary& s) {
  return {s.cube.gather_root, s.cube.total_bytes, s.cube.root_bytes, s.error, s.held ? 1 : 0};
}

Summary FromWire(const Wire& w) {
  Summary s;
  s.cube.gather_root = static_cast<int>(w[0]);
  s.cube.total_bytes = w[1];
  s.cube.root_bytes = w[2];
  s.error = static_cast<int>(w[3]);
  s.held = w[4] != 0;
  return s;
}

// One message of the construction: a summary, then the data carried with it (if any).
struct Message {
  Wire wire{};
  std::vector<char> data;
};

// A received message's bytes (capacity: kWireBytes + what may be carried) split up.
Message Parse(const std::vector<char>& bytes, int received) {
  Message m;
  std::memcpy(m.wire.data(), bytes.data(), kWireBytes);
  m.data.assign(bytes.begin() + kWireBytes, bytes.begin() + std::max(received, kWireBytes));
  return m;
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
  merged.held = false;  // (MergeCarried keeps it where the group merged at its carrier)
  return merged;
}

bool GroupCarried(const std::vector<tree::CubeRange>& group, const std::vector<Summary>& members,
                  int root, std::int64_t max_bytes) {
  std::vector<tree::CubeSummary> cubes;
  std::vector<bool> held;
  for (const Summary& m : members) {
    cubes.push_back(m.cube);
    held.push_back(m.held);
  }
  return tree::GroupCarried(group, cubes, held, root, max_bytes);
}

// A carried group merged at its carrier: held there, unless that is the root's cube (whose data
// is spread over the root's subtree, and which is never carried).
Summary MergeCarried(const std::vector<tree::CubeRange>& group, const std::vector<Summary>& members,
                     std::size_t carrier, int root) {
  Summary merged = MergeGroup(members, carrier);
  merged.held = !group[carrier].Contains(root);
  return merged;
}

std::size_t Winner(const std::vector<tree::CubeRange>& group, const std::vector<Summary>& members,
                   int root) {
  std::vector<tree::CubeSummary> cubes;
  for (const Summary& m : members) cubes.push_back(m.cube);
  return tree::WinningCube(tree::TreeKind::kAdaptive, group, cubes, root);
}

// Receives one message from every other cube's fixed root of the group (`tag`, up to kWireBytes
// + capacity bytes each): posts them into *in, appending to *requests (the first n entries).
void PostGroupReceives(MPI_Comm comm, const std::vector<tree::CubeRange>& group, std::size_t mine,
                       int tag, std::int64_t capacity, std::vector<std::vector<char>>* in,
                       std::vector<MPI_Request>* requests, int* failure) {
  in->assign(group.size() - 1, std::vector<char>(kWireBytes + capacity));
  std::size_t k = 0;
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (i == mine) continue;
    MPI_Request& r = requests->emplace_back(MPI_REQUEST_NULL);
    std::vector<char>& buffer = (*in)[k++];
    WithRetry(failure, [&] {
      return MPI_Irecv(buffer.data(), static_cast<int>(buffer.size()), MPI_BYTE, group[i].hi, tag,
                       comm, &r);
    });
  }
}

// The messages PostGroupReceives took, in group order (statuses: theirs, first).
void ParseReceived(const std::vector<std::vector<char>>& in,
                   const std::vector<MPI_Status>& statuses, std::vector<Message>* others) {
  others->clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    int received = kWireBytes;
    MPI_Get_count(&statuses[i], MPI_BYTE, &received);
    others->push_back(Parse(in[i], received));
  }
}

// The root keeps a cube's carried data (its ranks' blocks in rank order) as one range to unpack.
void KeepAtRoot(const tree::CubeRange& cube, const std::vector<char>& data, CarriedData* carried) {
  carried->ranges.push_back({cube.lo, cube.hi, static_cast<std::int64_t>(carried->bytes.size()),
                             static_cast<std::int64_t>(data.size())});
  carried->bytes.insert(carried->bytes.end(), data.begin(), data.end());
}

// A fixed root's messages: its summary alone (*plain), and with `carry` (*with_data, if any).
void Outgoing(const Wire& out, const std::vector<char>* carry, std::vector<char>* plain,
              std::vector<char>* with_data) {
  plain->assign(kWireBytes, 0);
  std::memcpy(plain->data(), out.data(), kWireBytes);
  if (carry == nullptr) return;
  *with_data = *plain;
  with_data->insert(with_data->end(), carry->begin(), carry->end());
}

// The fixed roots' exchange: this cube's summary to every other cube's fixed root, theirs from
// them (all at once, one latency); `carry` (if any) goes with the summary to the group's cube
// `carrier`, and this fixed root takes up to `capacity` carried bytes from each. *others: one
// message per other cube, in group order.
void ExchangeSummaries(MPI_Comm comm, const std::vector<tree::CubeRange>& group, std::size_t mine,
                       const Wire& out, std::size_t carrier, const std::vector<char>* carry,
                       std::int64_t capacity, std::vector<Message>* others, int* failure) {
  std::vector<char> plain, with_data;
  Outgoing(out, carry, &plain, &with_data);
  std::vector<std::vector<char>> in;
  std::vector<MPI_Request> requests;
  PostGroupReceives(comm, group, mine, TUWCOLL_TAG_CONSTRUCT, capacity, &in, &requests, failure);
  // The carrier's message first: its data is on the critical path of a carried group.
  for (std::size_t step = 0; step < group.size(); ++step) {
    const std::size_t i = (carrier + step) % group.size();
    if (i == mine) continue;
    MPI_Request& r = requests.emplace_back(MPI_REQUEST_NULL);
    const std::vector<char>& message = carry != nullptr && i == carrier ? with_data : plain;
    WithRetry(failure, [&] {
      return MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE, group[i].hi,
                       TUWCOLL_TAG_CONSTRUCT, comm, &r);
    });
  }
  std::vector<MPI_Status> statuses(requests.size());
  WithRetry(failure, [&] {
    return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), statuses.data());
  });
  ParseReceived(in, statuses, others);
}

// The group's summaries with this cube's own in its place.
std::vector<Summary> Members(const std::vector<Message>& others, std::size_t mine,
                             const Summary& own) {
  std::vector<Summary> members;
  std::size_t k = 0;
  for (std::size_t i = 0; i <= others.size(); ++i) {
    members.push_back(i == mine ? own : FromWire(others[k++].wire));
  }
  return members;
}

// The carried data of a carried group's other cubes (in group order), from the messages of the
// exchange; false where one does not have its summary's size.
bool CarriedParts(const std::vector<Message>& others, std::vector<const Message*>* parts) {
  parts->clear();
  for (const Message& m : others) {
    if (static_cast<std::int64_t>(m.data.size()) != m.wire[1]) return false;
    parts->push_back(&m);
  }
  return true;
}

// A fixed root's part in the root's group told only (tree::CarryLimit): its message to the root
// (its summary, with `carry` if any), its summary to the last cube's fixed root where a level
// follows (`onward`), and that process's receives of every other cube's summary (*others, group
// order; empty elsewhere). The root's cube sends nothing to the root, which holds it.
void TellRootOnly(MPI_Comm comm, const std::vector<tree::CubeRange>& group, std::size_t mine,
                  std::size_t carrier, int root, bool onward, const Wire& out,
                  const std::vector<char>* carry, std::vector<Message>* others, int* failure) {
  const std::size_t last = group.size() - 1;
  std::vector<char> plain, with_data;
  Outgoing(out, carry, &plain, &with_data);
  std::vector<std::vector<char>> in;
  std::vector<MPI_Request> requests;
  if (onward && mine == last) {
    PostGroupReceives(comm, group, mine, TUWCOLL_TAG_CONSTRUCT, 0, &in, &requests, failure);
  }
  const std::size_t received = requests.size();
  if (mine != carrier) {
    const std::vector<char>& message = carry != nullptr ? with_data : plain;
    MPI_Request& r = requests.emplace_back(MPI_REQUEST_NULL);
    WithRetry(failure, [&] {
      return MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE, root,
                       TUWCOLL_TAG_INFORM, comm, &r);
    });
  }
  if (onward && mine != last) {
    MPI_Request& r = requests.emplace_back(MPI_REQUEST_NULL);
    WithRetry(failure, [&] {
      return MPI_Isend(plain.data(), kWireBytes, MPI_BYTE, group[last].hi, TUWCOLL_TAG_CONSTRUCT,
                       comm, &r);
    });
  }
  std::vector<MPI_Status> statuses(requests.size());
  WithRetry(failure, [&] {
    return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), statuses.data());
  });
  others->clear();
  if (received > 0) ParseReceived(in, statuses, others);
}

}  // namespace

int BuildAdaptiveView(MPI_Comm private_comm, int rank, int p, int root, int radix,
                      std::int64_t own_bytes, int local_error, tree::NodeView* view,
                      int* error_in_tree, CarriedData* carried) {
  *view = tree::NodeView{};
  view->rank = rank;
  view->own_bytes = own_bytes;
  const std::int64_t carry_max = carried != nullptr ? carried->max_bytes : -1;

  const Summary own{{rank, own_bytes, own_bytes}, local_error, true};
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
    const std::size_t carrier = tree::CarrierCube(group, root);
    // TUWk_Gatherv: in the root's group, where the root is not its cube's fixed root, the other
    // cubes' fixed roots tell the root themselves (their data included), and the last cube's
    // fixed root where a level follows; no exchange, no notice (tree::RootToldOnly).
    const std::int64_t root_max =
        carried != nullptr ? std::max(carried->root_max_bytes, carry_max) : -1;
    const bool told_only = tree::RootToldOnly(group, root, carry_max, root_max);
    const std::int64_t limit = tree::CarryLimit(group, root, carry_max, root_max);

    std::vector<Message> others;  // the other cubes' summaries (and carried data), group order
    const bool fixed_root = rank == mine_range.hi;
    bool carries = false;  // (told only: this cube's data went to the root)
    if (fixed_root && told_only) {
      carries = tree::CarriesData(mine_range, as_fixed_root.cube, as_fixed_root.held, root, limit);
      const bool onward = level + 1 < levels;
      TellRootOnly(private_comm, group, mine, carrier, root, onward, ToWire(as_fixed_root),
                   carries ? &carried->bytes : nullptr, &others, &failure);
      if (onward && mine == group.size() - 1) {  // the merged cube's fixed root: the root's
        as_fixed_root = MergeGroup(Members(others, mine, as_fixed_root), carrier);
      }
      others.clear();
    } else if (fixed_root) {
      // A carried cube's data is at its fixed root, this rank: carried->bytes.
      carries =
          tree::CarriesData(mine_range, as_fixed_root.cube, as_fixed_root.held, root, carry_max);
      const std::int64_t capacity = mine == carrier ? std::max<std::int64_t>(carry_max, 0) : 0;
      ExchangeSummaries(private_comm, group, mine, ToWire(as_fixed_root), carrier,
                        carries ? &carried->bytes : nullptr, capacity, &others, &failure);
      std::vector<Summary> members = Members(others, mine, as_fixed_root);
      const bool merged_here = GroupCarried(group, members, root, carry_max);
      if (as_fixed_root.cube.gather_root != rank) {
        // tell the gather root (with the data)
        std::vector<char> inform;
        for (const Message& m : others) {
          inform.insert(inform.end(), reinterpret_cast<const char*>(m.wire.data()),
                        reinterpret_cast<const char*>(m.wire.data()) + kWireBytes);
        }
        if (merged_here) {
          for (const Message& m : others) inform.insert(inform.end(), m.data.begin(), m.data.end());
        }
        WithRetry(&failure, [&] {
          return MPI_Send(inform.data(), static_cast<int>(inform.size()), MPI_BYTE,
                          as_fixed_root.cube.gather_root, TUWCOLL_TAG_INFORM, private_comm);
        });
      }
      as_fixed_root = merged_here ? MergeCarried(group, members, carrier, root)
                                  : MergeGroup(members, Winner(group, members, root));
    }

    if (!gathering) continue;
    if (told_only && rank != root) {  // this cube's data went to the root, or it is its child
      gathering = false;
      if (carries) {
        carried->done = true;
      } else {
        view->parent = root;
        view->parent_level = level;
        view->lo = mine_range.lo;
        view->hi = mine_range.hi;
        view->bytes = as_gather_root.cube.total_bytes;
      }
      continue;
    }
    if (told_only) {  // the root: each other cube's data, or a child
      std::vector<std::vector<char>> in;
      std::vector<MPI_Request> requests;
      PostGroupReceives(private_comm, group, mine, TUWCOLL_TAG_INFORM,
                        std::max<std::int64_t>(limit, 0), &in, &requests, &failure);
      std::vector<MPI_Status> statuses(requests.size());
      WithRetry(&failure, [&] {
        return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), statuses.data());
      });
      ParseReceived(in, statuses, &others);
      const std::vector<Summary> members = Members(others, mine, as_gather_root);
      const std::size_t first_child = view->children.size();
      std::size_t k = 0;
      for (std::size_t i = 0; i < group.size(); ++i) {
        if (i == mine) continue;
        const Message& m = others[k++];
        const Summary& s = members[i];
        if (tree::CarriesData(group[i], s.cube, s.held, root, limit)) {
          if (static_cast<std::int64_t>(m.data.size()) != s.cube.total_bytes) {
            if (failure == MPI_SUCCESS) failure = MPI_ERR_INTERN;
            continue;
          }
          KeepAtRoot(group[i], m.data, carried);
        } else {
          view->children.push_back(
              {s.cube.gather_root, level, group[i].lo, group[i].hi, s.cube.total_bytes, {}});
        }
      }
      tree::OrderRound(view->children.begin() + first_child, view->children.end());
      as_gather_root = MergeGroup(members, mine);
      continue;
    }
    if (!fixed_root) {  // told by the fixed root: its summaries, then any data carried
      const std::size_t n = group.size() - 1;
      std::vector<char> inform(n * (kWireBytes + std::max<std::int64_t>(carry_max, 0)));
      MPI_Status status;
      WithRetry(&failure, [&] {
        return MPI_Recv(inform.data(), static_cast<int>(inform.size()), MPI_BYTE, mine_range.hi,
                        TUWCOLL_TAG_INFORM, private_comm, &status);
      });
      int received = static_cast<int>(n) * kWireBytes;
      MPI_Get_count(&status, MPI_BYTE, &received);
      others.assign(n, Message{});
      std::size_t at = n * kWireBytes;
      for (std::size_t i = 0; i < n; ++i) {
        std::memcpy(others[i].wire.data(), inform.data() + i * kWireBytes, kWireBytes);
      }
      if (received > static_cast<int>(at)) {  // carried: each cube's data, its summary's size
        for (Message& m : others) {
          const std::int64_t left = received - static_cast<std::int64_t>(at);
          const std::size_t size =
              static_cast<std::size_t>(std::clamp<std::int64_t>(m.wire[1], 0, left));
          m.data.assign(inform.begin() + at, inform.begin() + at + size);
          at += size;
        }
      }
    }
    const std::vector<Summary> members = Members(others, mine, as_gather_root);
    if (GroupCarried(group, members, root, carry_max)) {
      if (mine != carrier) {  // this cube's data went to the carrier: nothing more to do here
        gathering = false;
        carried->done = true;
        continue;
      }
      std::vector<const Message*> parts;  // (the carrier's messages all carry data)
      if (!CarriedParts(others, &parts) && failure == MPI_SUCCESS) failure = MPI_ERR_INTERN;
      if (rank == root) {  // each other cube's data: one range to unpack
        std::size_t k = 0;
        for (std::size_t i = 0; i < group.size(); ++i) {
          if (i == mine) continue;
          const Message* m = k < parts.size() ? parts[k] : nullptr;
          ++k;
          if (m == nullptr) continue;
          KeepAtRoot(group[i], m->data, carried);
        }
      } else {  // the last cube's fixed root: the group's data in rank order, its own last
        std::vector<char> merged;
        for (const Message* m : parts) merged.insert(merged.end(), m->data.begin(), m->data.end());
        merged.insert(merged.end(), carried->bytes.begin(), carried->bytes.end());
        carried->bytes.swap(merged);
        const std::int64_t size = static_cast<std::int64_t>(carried->bytes.size());
        carried->ranges.assign(1, {group.front().lo, group.back().hi, 0, size});
      }
      as_gather_root = MergeCarried(group, members, carrier, root);
      view->own_bytes = rank == root ? own_bytes : as_gather_root.cube.total_bytes;
      continue;
    }
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
