#include "loggp.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>

#include "scatter_schedule.hpp"

namespace tuw::tree {
namespace {

// A message posted: who, to whom, how much, and when its send overhead ended.
struct Message {
  int from = 0, to = 0;
  std::int64_t bytes = 0;
  double sent = 0;
  int seq = 0;  // the sender's how-many-th message (its node links' floor, NodeLinkFloors)
};

// params.node_links: per sender, per message (Message::seq), the earliest its network message can
// arrive where the nodes' links are shared (Machine::LinkFloors); empty: none yet.
using NodeLinkFloors = std::vector<std::vector<double>>;

// Every process's clock and links while the model runs the protocol.
class Machine {
 public:
  // Every process's clock starts at start[r].
  Machine(const std::vector<double>& start, const LogGPParams& params,
          const NodeLinkFloors* floors = nullptr)
      : params_(params),
        floors_(floors),
        sends_(start.size(), 0),
        cpu_(start),
        last_send_(start.size(), -1e300),
        last_recv_(start.size(), -1e300),
        in_link_(start.size(), 0),
        out_link_(start.size(), 0),
        node_in_link_(start.size(), 0),
        node_out_link_(start.size(), 0) {}

  // Whether m stays inside a node: it goes through shared memory (SimGrid's loopback), not
  // through the process's network link, so neither waits for the other's messages.
  bool Local(const Message& m) const {
    return params_.ranks_per_node > 1 && &params_.Between(m.from, m.to) == &params_.node;
  }
  // Process `from` posts a send of `bytes` to `to` once it is at `ready` (its CPU permitting).
  Message Send(int from, int to, std::int64_t bytes, double ready) {
    const double start = std::max({ready, cpu_[from], last_send_[from] + params_.gap_us});
    cpu_[from] = start + params_.overhead_us;
    last_send_[from] = start;
    return {from, to, bytes, cpu_[from], sends_[from]++};
  }
  // When `m`, its receive posted at `posted`, may leave: an eager message when sent, another
  // when both sides are there.
  double Ready(const Message& m, double posted) const {
    return params_.Eager(m.bytes) ? m.sent : std::max(m.sent, posted);
  }
  // When `m` has fully arrived, its receive posted at `posted` (Ready); the links carry one
  // message at a time.
  double Arrival(const Message& m, double posted) {
    const LogGPLevel& level = params_.Between(m.from, m.to);
    const double wire = params_.Wire(level, m.bytes);
    const double leaves = std::max(Ready(m, posted), OutLink(m));
    OutLink(m) = leaves + wire;
    const double arrives = std::max(leaves + level.latency_us + wire, InLink(m) + wire);
    InLink(m) = arrives;
    if (KeepsFlows() && !Local(m)) {
      const LogGPParams::SharedCost cost = params_.Shared(level, m.bytes);
      flows_.push_back({m, leaves + cost.latency, cost.wire});
    }
    return arrives;
  }
  // Only Timed's runs (given floors) hand their flows on (LinkFloors); the barrier's machine
  // (5600 network messages at p = 560) keeps none.
  bool NodeLinks() const { return params_.SharesNodeLinks(); }
  bool KeepsFlows() const { return NodeLinks() && floors_ != nullptr; }
  // params.node_links: the earliest `m` can arrive through the nodes' shared links (the floors this
  // machine was given; 0 without). The caller applies it to Arrival's time once the process's own
  // link has shared it (ShareBackToBack, ShareInbound), so that the node's delay is added to this
  // message alone, not to the process's chain of them.
  double NodeFloor(const Message& m) const {
    if (!NodeLinks() || Local(m) || floors_ == nullptr || floors_->empty()) return 0;
    const std::vector<double>& of_sender = (*floors_)[m.from];
    return m.seq < static_cast<int>(of_sender.size()) ? of_sender[m.seq] : 0;
  }
  // params.node_links: when each network message that Arrival saw would arrive where the nodes'
  // links are shared: SimGrid's cluster gives every node one link each way, which all its
  // processes' network messages share (a flow holds the sender's up link and the receiver's down
  // link at once, after its latency). Each link is run with processor sharing over the flows that
  // cross it, from the times of this run; a message's floor is the later of its two links' ends.
  // The next run takes these as floors (Timed: kNodeLinkRuns runs in all).
  NodeLinkFloors LinkFloors() {
    NodeLinkFloors floors(sends_.size());
    for (std::size_t r = 0; r < sends_.size(); ++r) floors[r].assign(sends_[r], 0);
    const std::size_t nodes = (sends_.size() + params_.ranks_per_node - 1) / params_.ranks_per_node;
    for (bool down : {true, false}) {
      std::vector<std::vector<std::size_t>> by_node(nodes);
      for (std::size_t k = 0; k < flows_.size(); ++k) {
        by_node[Node(down ? flows_[k].message.to : flows_[k].message.from)].push_back(k);
      }
      for (const std::vector<std::size_t>& link : by_node) {
        if (link.empty()) continue;
        std::vector<double>&starts = starts_, &left = left_, &done = done_;
        starts.resize(link.size());
        left.resize(link.size());
        done.assign(link.size(), 0);
        for (std::size_t i = 0; i < link.size(); ++i) {
          starts[i] = flows_[link[i]].start;
          left[i] = flows_[link[i]].wire;
        }
        ShareLink(starts, &left, &done);
        for (std::size_t i = 0; i < link.size(); ++i) {
          const Message& m = flows_[link[i]].message;
          floors[m.from][m.seq] = std::max(floors[m.from][m.seq], done[i]);
        }
      }
    }
    return floors;
  }
  // The arrivals of messages one process posted together (`posted`: each receive's), where they
  // overlap on its link: the network shares a link among the flows on it (SimGrid's fair
  // sharing), so a message sent first ends when its bytes are through at its share, not before
  // the later ones start; a scatter's largest message, sent first, ends about with the last.
  void ArrivalsShared(const std::vector<Message>& ms, const std::vector<double>& posted,
                      std::vector<double>* arrivals_ptr) {
    const std::size_t n = ms.size();
    // Scratch kept by the machine: a scatter model calls this once per parent.
    std::vector<double>&leaves = leaves_, &left = left_, &done = done_;
    std::vector<LogGPParams::SharedCost>& cost = cost_;
    leaves.resize(n);
    left.resize(n);
    cost.resize(n);
    done.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      leaves[i] = std::max(Ready(ms[i], posted[i]), OutLink(ms[i]));
      cost[i] = params_.Shared(params_.Between(ms[i].from, ms[i].to), ms[i].bytes);
      left[i] = cost[i].wire;
    }
    // One link for all of them, the node's messages too: the scatter models were measured so
    // (with the node's on a link of their own TUWk_Scatterv Random b = 10 at p = 560 left its
    // band, 1.41 of the model, and the small call's choice by size its 5 % lead at b = 10).
    ShareLink(leaves, &left, &done);
    std::vector<double>& arrivals = *arrivals_ptr;
    arrivals.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      arrivals[i] = std::max(done[i] + cost[i].latency, InLink(ms[i]) + cost[i].wire);
      InLink(ms[i]) = arrivals[i];
      OutLink(ms[i]) = std::max(OutLink(ms[i]), done[i]);
      if (KeepsFlows() && !Local(ms[i])) {
        flows_.push_back({ms[i], leaves[i] + cost[i].latency, cost[i].wire});
        arrivals[i] = std::max(arrivals[i], NodeFloor(ms[i]));
      }
    }
  }
  // Messages to one process (its receives posted at `posted`) that arrive over the network
  // together (`arrivals`: Arrival's, one after the other) share its link as a sender's do
  // (ArrivalsShared): they end together, so the receiver takes none of them early. Simulated
  // p = 560, radix 9, a common start: the root's last fan-in (six summaries with 364 bytes of
  // data) took 5.5 us, the model without this 4.3. Shared memory's messages are left as they came.
  void ShareInbound(const std::vector<Message>& ms, double posted, std::vector<double>* arrivals) {
    std::vector<std::size_t>& net = inbound_;  // the network's, by index into ms
    net.clear();
    for (std::size_t i = 0; i < ms.size(); ++i) {
      if (!Local(ms[i])) net.push_back(i);
    }
    if (net.size() < 2) return;
    std::vector<double>&starts = starts_, &left = left_, &done = done_;
    starts.resize(net.size());
    left.resize(net.size());
    done.assign(net.size(), 0);
    for (std::size_t k = 0; k < net.size(); ++k) {
      const Message& m = ms[net[k]];
      const LogGPParams::SharedCost cost = params_.Shared(params_.network, m.bytes);
      starts[k] = Ready(m, posted) + cost.latency;
      left[k] = cost.wire;
    }
    ShareLink(starts, &left, &done);
    for (std::size_t k = 0; k < net.size(); ++k) {
      double& arrival = (*arrivals)[net[k]];
      arrival = std::max(arrival, done[k]);
      InLink(ms[net[k]]) = std::max(InLink(ms[net[k]]), arrival);
    }
  }
  // The same for a small message that goes out while the sender's link waits for a larger one's
  // receive (a link is one-ported in time, not in the order of the calls): it neither waits for
  // nor holds the links.
  double ArrivalAside(const Message& m, double posted) const {
    const LogGPLevel& level = params_.Between(m.from, m.to);
    return Ready(m, posted) + level.latency_us + params_.Wire(level, m.bytes);
  }
  // Process `at` takes a message that arrived at `arrival`, not before `ready`; returns when its
  // CPU is done with it.
  double Receive(int at, double arrival, double ready) {
    const double start = std::max({ready, arrival, cpu_[at], last_recv_[at] + params_.gap_us});
    last_recv_[at] = start;
    cpu_[at] = start + params_.overhead_us;
    return cpu_[at];
  }
  // A receive posted at `posted` (e.g. an MPI_Recv: the process's clock) and taken.
  double Take(const Message& m, double posted) {
    return Receive(m.to, std::max(Arrival(m, posted), NodeFloor(m)), posted);
  }
  double Clock(int rank) const { return cpu_[rank]; }
  double WireTime(const Message& m) const {
    return params_.Wire(params_.Between(m.from, m.to), m.bytes);
  }
  // The buffers of one scatter parent's sends (SharedSends), one set a level of the scatter's
  // recursion, kept for the run: a run at p = 6400 serves thousands of parents, and allocating
  // them anew was a fifth of a scatter root's init (perf, PlannedTree on radix-6400-small-current).
  struct SendBuffers {
    std::vector<Message> messages;
    std::vector<double> posted, arrivals;
    std::vector<char> served;
    std::vector<ScatterSend> schedule;
  };
  SendBuffers& PushSendBuffers() {
    if (send_depth_ == send_buffers_.size()) {
      send_buffers_.push_back(std::make_unique<SendBuffers>());  // (references stay valid)
    }
    SendBuffers& buffers = *send_buffers_[send_depth_++];
    buffers.messages.clear();
    buffers.posted.clear();
    buffers.served.clear();
    return buffers;
  }
  void PopSendBuffers() { --send_depth_; }
  // The slowest process's time since `start` (its own start).
  const LogGPParams& params() const { return params_; }
  double SlowestSince(const std::vector<double>& start) const {
    double slowest = 0;
    for (std::size_t r = 0; r < cpu_.size(); ++r) slowest = std::max(slowest, cpu_[r] - start[r]);
    return slowest;
  }

 private:
  // Processor sharing: message i enters one link at starts[i] with (*left)[i] of time on it at
  // full speed; the active flows share it equally. (*done)[i]: when message i is through.
  void ShareLink(const std::vector<double>& starts, std::vector<double>* left_ptr,
                 std::vector<double>* done_ptr) {
    const std::size_t n = starts.size();
    std::vector<double>&left = *left_ptr, &done = *done_ptr;
    std::vector<std::size_t>& order = order_;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
    // In start order, ties in index order (a stable sort's, without its buffer: this runs once a
    // parent).
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return starts[a] < starts[b] || (!(starts[b] < starts[a]) && a < b);
    });
    std::vector<std::size_t>& active = active_;
    active.clear();
    std::size_t next = 0;
    double now = n > 0 ? starts[order[0]] : 0;
    while (next < n || !active.empty()) {
      while (next < n && starts[order[next]] <= now) active.push_back(order[next++]);
      if (active.empty()) {
        now = starts[order[next]];
        continue;
      }
      const double share = static_cast<double>(active.size());
      double smallest = left[active[0]];
      for (std::size_t a : active) smallest = std::min(smallest, left[a]);
      double step = smallest * share;  // until the smallest is through
      if (next < n) step = std::min(step, starts[order[next]] - now);
      for (std::size_t a : active) left[a] -= step / share;
      now += step;
      for (std::size_t k = active.size(); k-- > 0;) {
        if (left[active[k]] <= 1e-12) {
          done[active[k]] = now;
          active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
        }
      }
    }
  }
  std::size_t Node(int rank) const {
    return static_cast<std::size_t>(rank / params_.ranks_per_node);
  }
  double& OutLink(const Message& m) { return (Local(m) ? node_out_link_ : out_link_)[m.from]; }
  double& InLink(const Message& m) { return (Local(m) ? node_in_link_ : in_link_)[m.to]; }
  const LogGPParams& params_;
  const NodeLinkFloors* floors_;
  std::vector<int> sends_;  // per process, its messages so far (Message::seq)
  // params.node_links: each network message Arrival saw, when it enters the links (after its
  // latency) and its time on them alone.
  struct Flow {
    Message message;
    double start, wire;
  };
  std::vector<Flow> flows_;
  std::vector<double> cpu_, last_send_, last_recv_, in_link_, out_link_;
  std::vector<double> node_in_link_, node_out_link_;   // shared memory's (Local)
  std::vector<double> leaves_, left_, done_, starts_;  // ArrivalsShared's, ShareInbound's scratch
  std::vector<std::size_t> inbound_;
  std::vector<LogGPParams::SharedCost> cost_;
  std::vector<std::size_t> order_, active_;
  std::vector<std::unique_ptr<SendBuffers>> send_buffers_;
  std::size_t send_depth_ = 0;
};

// A message as its receiver meets it: when it arrived (Machine::Arrival: its link takes one
// message at a time), its time on the wire, when the receive was posted, and whether it came
// through the node (Machine::Local), not the network.
struct Arrived {
  double arrival, wire, posted;
  bool local;
  double node_floor;  // Machine::NodeFloor
  bool operator<(const Arrived& o) const {
    return arrival != o.arrival ? arrival < o.arrival : wire < o.wire;
  }
};

// A gather parent's arrivals, sorted; messages that kept one of its links (the network's, the
// node's) busy back to back share it (the network divides a link among its flows): all of them
// end when the last one does, not one after the other. A chain of them ends with its last:
// each is compared with its predecessor's own arrival on the same link, not with the end it was
// given.
void ShareBackToBack(std::vector<Arrived>* arrivals, std::vector<double>* own) {
  std::sort(arrivals->begin(), arrivals->end());
  std::vector<Arrived>& a = *arrivals;
  own->resize(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) (*own)[i] = a[i].arrival;
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t later[2] = {kNone, kNone};  // per link, the next message on it
  for (std::size_t i = a.size(); i-- > 0;) {
    const std::size_t next = later[a[i].local];
    if (next != kNone && a[next].wire > 0 &&
        std::abs((*own)[next] - a[next].wire - (*own)[i]) < 1e-9) {
      a[i].arrival = a[next].arrival;
    }
    later[a[i].local] = i;
  }
}

// TUW's construction (distributed_tree.cpp) on `machine`, merge by merge (BuildCarriedTree's
// records; TUWk_Gatherv's carry small cubes' data to their carrier), every process's clock at its
// end: the fixed roots' exchange (each sends its summary to the others, the carrier's first, with
// its data where it carries it; in the root's group of a carrying construction, where the root is
// not its cube's fixed root, to the root first instead), then the notice to each gather root that
// is another process (with the data carried to the root's cube, where the group merged; none to a
// root told directly). A root's group told only (RootToldOnly) has no exchange and no notice.
void RunConstruction(Machine* machine, const std::vector<CarriedGroup>& groups) {
  std::vector<double> posted, arrival_of, arrivals;
  std::vector<Message> sent, inbound;  // every message of one exchange, those to one process
  std::vector<std::size_t> receiver;   // sent[k]'s: a member, or n for the root told directly
  std::vector<std::size_t> order;
  for (const CarriedGroup& g : groups) {
    const std::size_t n = g.cubes.size();
    // The fixed roots' exchange: receives posted, everybody's sends, then the receives taken.
    posted.resize(n + 1);
    for (std::size_t i = 0; i < n; ++i) posted[i] = machine->Clock(g.cubes[i].hi);
    if (g.root_told_directly) posted[n] = machine->Clock(g.root);
    sent.clear();
    receiver.clear();
    // The root told only: its message (with the data carried) to the root, the summary to the
    // last cube's fixed root where a level follows; nobody else is told.
    const std::size_t last = n - 1;
    for (std::size_t i = 0; g.root_told_only && i < n; ++i) {
      const double ready = machine->Clock(g.cubes[i].hi);
      if (i != g.carrier) {
        const std::int64_t data = g.sends_data[i] ? g.total_bytes[i] : 0;
        sent.push_back(machine->Send(g.cubes[i].hi, g.root, kSummaryBytes + data, ready));
        receiver.push_back(n);
      }
      if (!g.last_level && i != last) {
        sent.push_back(machine->Send(g.cubes[i].hi, g.cubes[last].hi, kSummaryBytes, ready));
        receiver.push_back(last);
      }
    }
    for (std::size_t i = 0; !g.root_told_only && i < n; ++i) {
      const double ready = machine->Clock(g.cubes[i].hi);
      const std::int64_t data = g.sends_data[i] ? g.total_bytes[i] : 0;
      if (g.root_told_directly && i != g.carrier) {
        sent.push_back(machine->Send(g.cubes[i].hi, g.root, kSummaryBytes + data, ready));
        receiver.push_back(n);
      }
      for (std::size_t step = 0; step < n; ++step) {
        const std::size_t j = (g.carrier + step) % n;
        if (j == i) continue;
        const bool with_data = j == g.carrier && !g.root_told_directly;
        sent.push_back(machine->Send(g.cubes[i].hi, g.cubes[j].hi,
                                     kSummaryBytes + (with_data ? data : 0), ready));
        receiver.push_back(j);
      }
    }
    // The links take the messages in the order they were sent (a sender's link is one-ported:
    // taken in receiver order, a message sent first, the carrier's, waited for the later ones).
    order.resize(sent.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sent[a].sent < sent[b].sent; });
    arrival_of.resize(sent.size());
    for (std::size_t k : order) arrival_of[k] = machine->Arrival(sent[k], posted[receiver[k]]);
    for (std::size_t j = 0; j <= n; ++j) {
      if (j == n && !g.root_told_directly) break;
      inbound.clear();
      arrivals.clear();
      for (std::size_t k = 0; k < sent.size(); ++k) {
        if (receiver[k] == j) {
          inbound.push_back(sent[k]);
          arrivals.push_back(arrival_of[k]);
        }
      }
      machine->ShareInbound(inbound, posted[j], &arrivals);
      for (std::size_t k = 0; k < inbound.size(); ++k) {
        arrivals[k] = std::max(arrivals[k], machine->NodeFloor(inbound[k]));
      }
      std::sort(arrivals.begin(), arrivals.end());
      const int at = j == n ? g.root : g.cubes[j].hi;
      for (double a : arrivals) machine->Receive(at, a, posted[j]);
    }
    // The notice to each gather root that is another process (its MPI_Recv, at its clock).
    for (std::size_t i = 0; i < n; ++i) {
      const int gather_root = g.gather_roots[i];
      if (gather_root == g.cubes[i].hi || (g.root_told_directly && i == g.carrier)) continue;
      if (g.root_told_only) continue;  // it knows: the root's child
      std::int64_t bytes = kSummaryBytes * static_cast<std::int64_t>(n - 1);
      for (std::size_t j = 0; g.merged && i == g.carrier && j < n; ++j) {
        if (j != i) bytes += g.total_bytes[j];
      }
      const Message notice =
          machine->Send(g.cubes[i].hi, gather_root, bytes, machine->Clock(g.cubes[i].hi));
      machine->Take(notice, machine->Clock(gather_root));
    }
  }
}

// The gather's data phase after each process's clock (tree_executor.cpp). `probed`: the oblivious
// tree, whose parents take their children in order (MPI_Probe).
class GatherRun {
 public:
  // pieces: TUWk_Gatherv's (PieceRule; nullptr: every edge one message).
  GatherRun(Machine* machine, const Tree& tree, bool probed, bool size_known,
            const PieceRule* pieces = nullptr)
      : machine_(machine),
        tree_(tree),
        probed_(probed),
        size_known_(size_known),
        pieces_(pieces),
        finished_(tree.nodes.size(), 0) {}

  // Children before parents: a process sends once its subtree has arrived. Returns when v has
  // taken its subtree. The scratch vectors are the members: a node uses them only after its
  // children's calls have returned.
  double Done(int v) {
    const NodeView& node = tree_.nodes[v];
    for (const ChildEdge& c : node.children) finished_[c.child] = Done(c.child);
    const double start = machine_->Clock(v);
    std::size_t n = node.children.size();
    messages_.resize(n);
    present_.assign(n, 1);
    for (std::size_t k = 0; k < n; ++k) {
      const ChildEdge& c = node.children[k];
      present_[k] = !(size_known_ && c.bytes == 0);  // no message at all
      if (present_[k]) messages_[k] = machine_->Send(c.child, v, c.bytes, finished_[c.child]);
    }
    if (pieces_ != nullptr && !probed_) n = InPieces(v);
    // When each receive is posted: at once when v's data phase starts (Irecv), or where v probes
    // its children (the oblivious tree; a probe returns once the message is posted, as SimGrid
    // SMPI finds it in the mailbox, with no latency) the root after each child's probe and an
    // inner node after all of them (tree_executor.cpp), so a message starts only then.
    posted_.assign(n, start);
    if (probed_) {
      double probed = start;
      for (std::size_t k = 0; k < n; ++k) {
        if (present_[k]) probed = std::max(probed, messages_[k].sent);
        posted_[k] = probed;
      }
      if (v != tree_.root) std::fill(posted_.begin(), posted_.end(), probed);
    }
    // Taken in arrival order; the link takes them in the order they leave.
    leaves_.resize(n);
    order_.clear();
    for (std::size_t k = 0; k < n; ++k) {
      if (!present_[k]) continue;
      const Message& m = messages_[k];
      leaves_[k] = machine_->Ready(m, posted_[k]);
      order_.push_back(k);
    }
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return leaves_[a] < leaves_[b]; });
    arrivals_.clear();  // (arrival, time on the wire, when its receive was posted)
    for (std::size_t k : order_) {
      const Message& m = messages_[k];
      arrivals_.push_back({machine_->Arrival(m, posted_[k]), machine_->WireTime(m), posted_[k],
                           machine_->Local(m), machine_->NodeFloor(m)});
    }
    ShareBackToBack(&arrivals_, &own_);
    if (machine_->NodeLinks()) {
      for (Arrived& a : arrivals_) a.arrival = std::max(a.arrival, a.node_floor);
      std::sort(arrivals_.begin(), arrivals_.end());
    }
    double finished = start;
    for (const Arrived& a : arrivals_) finished = machine_->Receive(v, a.arrival, a.posted);
    return finished;
  }

 private:
  // The children's transfers in pieces where the rule says (transfer.hpp: the child sends them
  // back to back, the parent has posted them all): messages_ and present_ become one entry per
  // piece. Returns their number.
  std::size_t InPieces(int v) {
    const NodeView& node = tree_.nodes[v];
    pieced_.clear();
    for (std::size_t k = 0; k < node.children.size(); ++k) {
      if (!present_[k]) continue;
      const ChildEdge& c = node.children[k];
      const std::int64_t piece = pieces_->PieceBytes(c.bytes);
      Message m = messages_[k];  // the first piece's send
      if (piece == 0) {
        pieced_.push_back(m);
        continue;
      }
      m.bytes = piece;
      pieced_.push_back(m);
      for (std::int64_t sent = piece; sent < c.bytes; sent += piece) {
        pieced_.push_back(
            machine_->Send(c.child, v, std::min(piece, c.bytes - sent), finished_[c.child]));
      }
    }
    messages_.swap(pieced_);
    present_.assign(messages_.size(), 1);
    return messages_.size();
  }

  Machine* machine_;
  const Tree& tree_;
  const bool probed_, size_known_;
  const PieceRule* pieces_;
  std::vector<double> finished_;  // per rank: when it has taken its subtree
  std::vector<Message> messages_, pieced_;
  std::vector<char> present_;
  std::vector<std::size_t> order_;
  std::vector<double> posted_, leaves_;
  std::vector<Arrived> arrivals_;
  std::vector<double> own_;
};

void RunGather(Machine* machine, const Tree& tree, bool probed, bool size_known) {
  GatherRun(machine, tree, probed, size_known).Done(tree.root);
}
// TUWk_Gatherv's data phase: the same, its edges in pieces where params.gather_pieces says.
void RunPiecedGather(Machine* machine, const Tree& tree, bool probed, bool size_known) {
  const PieceRule& pieces = machine->params().gather_pieces;
  GatherRun(machine, tree, probed, size_known, pieces.piece > 0 ? &pieces : nullptr)
      .Done(tree.root);
}

// A scatter parent's sends up to a wait: posted one after the other (its CPU and gap), sharing
// its link (Machine::ArrivalsShared); Flush lets each child, whose receive was posted at its
// start, take its message and serve its subtree, and the next sends wait for the last arrival.
class SharedSends {
 public:
  SharedSends(Machine* machine, int sender, double ready)
      : machine_(machine), buffers_(machine->PushSendBuffers()), sender_(sender), ready_(ready) {}
  ~SharedSends() { machine_->PopSendBuffers(); }
  SharedSends(const SharedSends&) = delete;
  SharedSends& operator=(const SharedSends&) = delete;
  // The parent's ScatterSchedule (no node ranks), valid while this object lives.
  const std::vector<ScatterSend>& Schedule(const NodeView& node, std::int64_t serial_min_bytes) {
    ScatterSchedule(node, {}, serial_min_bytes, &buffers_.schedule);
    return buffers_.schedule;
  }
  // A send to `child`, whose receive was posted at `posted` (-1: at its clock, its start).
  void Post(int child, std::int64_t bytes, double posted = -1) {
    buffers_.messages.push_back(machine_->Send(sender_, child, bytes, ready_));
    buffers_.posted.push_back(posted >= 0 ? posted : machine_->Clock(child));
    buffers_.served.push_back(1);
  }
  // A message sent already and taken by its receiver elsewhere, whose bytes share the link.
  void Share(const Message& m, double posted) {
    buffers_.messages.push_back(m);
    buffers_.posted.push_back(posted);
    buffers_.served.push_back(0);
  }
  double Ready() const { return ready_; }
  // (Each child serves its subtree with SharedSends of its own, a level deeper: these buffers stay
  // as they are until the loop ends.)
  template <typename Serve>
  void Flush(const Serve& serve) {
    std::vector<double>& arrivals = buffers_.arrivals;
    machine_->ArrivalsShared(buffers_.messages, buffers_.posted, &arrivals);
    if (!arrivals.empty()) ready_ = arrivals.back();
    const std::vector<Message>& messages = buffers_.messages;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (!buffers_.served[i]) continue;
      serve(messages[i].to, machine_->Receive(messages[i].to, arrivals[i], buffers_.posted[i]));
    }
    buffers_.messages.clear();
    buffers_.posted.clear();
    buffers_.served.clear();
  }

 private:
  Machine* machine_;
  Machine::SendBuffers& buffers_;
  int sender_;
  double ready_;
};

// The scatter's data phase: a parent's sends up to a wait share its link; the oblivious tree's
// (headers) each send its inner children their sizes first.
void RunScatter(Machine* machine, const Tree& tree, bool headers, bool size_known) {
  std::function<void(int, double)> serve = [&](int v, double have) {
    const NodeView& node = tree.nodes[v];
    if (node.children.empty()) return;  // a leaf sends nothing (most of the ranks)
    if (!headers) {
      SharedSends sends(machine, v, have);
      for (const ScatterSend& s : sends.Schedule(node, kSerialSendMinBytes)) {
        const ChildEdge& c = node.children[s.child];
        if (size_known && c.bytes == 0) continue;
        sends.Post(c.child, c.bytes);
        if (s.wait) sends.Flush(serve);  // the next send waits for this one to be received
      }
      sends.Flush(serve);
      return;
    }
    // Each inner child takes its sizes first, then posts its data's receive; the data up to a
    // wait share the parent's link, each leaving when its receive is posted. The sizes message
    // (8 bytes a rank of the subtree) does not hold the link until its receive: the child takes
    // it as if it were alone there. But its bytes are on the link, a flow that shares it with
    // the data (SimGrid's flows do), and on the child's link ahead of its data. Aside, the 5.8
    // KB of sizes each child of a radix-9 root gets at p = 6400, twice its data at b = 1, cost
    // the root's link nothing, and the k-nomial scatter measured 1.44-1.72 of the model there.
    SharedSends sends(machine, v, have);
    for (const ScatterSend& s : sends.Schedule(node, kSerialSendMinBytesAfterHeader)) {
      const ChildEdge& c = node.children[s.child];
      if (size_known && c.bytes == 0) continue;
      double child_has = machine->Clock(c.child);
      if (c.hi > c.lo) {
        const Message sizes = machine->Send(v, c.child, 8 * (c.hi - c.lo + 1), sends.Ready());
        const double posted = child_has;
        child_has = machine->Receive(c.child, machine->ArrivalAside(sizes, posted), posted);
        sends.Share(sizes, posted);
      }
      sends.Post(c.child, c.bytes, child_has);
      if (s.wait) sends.Flush(serve);
    }
    sends.Flush(serve);
  };
  serve(tree.root, machine->Clock(tree.root));
}

// TUWk_Scatterv's (root_planned_scatter.cpp). A small call (one_message_max_bytes): each child
// gets its subtree's sizes and data in one message, which it takes as it probes from its start;
// it serves its children the same way, in the scatter's schedule. A larger one: the root sends
// each child its subtree's sizes right before its data; a child takes them from a receive posted
// at its start, posts its data receive and passes its children their sizes at once (a wave ahead
// of the data), then serves them their data as the scatter's data phase does.
void RunRootPlannedScatter(Machine* machine, const Tree& tree) {
  std::vector<double> data_posted(tree.nodes.size(), 0);
  std::vector<std::int64_t> blocks(tree.nodes.size());
  for (const NodeView& node : tree.nodes) blocks[node.rank] = node.own_bytes;
  const auto sizes_bytes = [&](const ChildEdge& c) {
    return SizeMessageBytes(blocks.data() + c.lo, c.hi - c.lo + 1);
  };
  if (OneMessageCall(blocks.data(), static_cast<int>(blocks.size()),
                     machine->params().one_message_max_bytes)) {
    std::function<void(int, double)> serve_with_sizes = [&](int v, double have) {
      const NodeView& node = tree.nodes[v];
      if (node.children.empty()) return;  // a leaf sends nothing
      SharedSends sends(machine, v, have);
      for (const ScatterSend& s : sends.Schedule(node, kSmallCallSerialSendMinBytes)) {
        const ChildEdge& c = node.children[s.child];
        sends.Post(c.child, sizes_bytes(c) + c.bytes);
        if (s.wait) sends.Flush(serve_with_sizes);
      }
      sends.Flush(serve_with_sizes);
    };
    serve_with_sizes(tree.root, machine->Clock(tree.root));
    return;
  }
  const auto send_sizes = [&](int v, const ChildEdge& c, double ready) {
    const Message m = machine->Send(v, c.child, sizes_bytes(c), ready);
    const double posted = machine->Clock(c.child);  // at its start
    data_posted[c.child] = machine->Receive(c.child, machine->ArrivalAside(m, posted), posted);
  };
  std::function<void(int)> pass_sizes = [&](int v) {  // v has just taken its sizes
    const NodeView& node = tree.nodes[v];
    for (auto c = node.children.rbegin(); c != node.children.rend(); ++c) {
      send_sizes(v, *c, machine->Clock(v));
      pass_sizes(c->child);
    }
  };
  std::function<void(int, double)> serve = [&](int v, double have) {
    const NodeView& node = tree.nodes[v];
    if (node.children.empty()) return;  // a leaf sends nothing
    SharedSends sends(machine, v, have);
    for (const ScatterSend& s : sends.Schedule(node, kSerialSendMinBytes)) {
      const ChildEdge& c = node.children[s.child];
      if (v == tree.root) {
        send_sizes(v, c, sends.Ready());
        pass_sizes(c.child);
      }
      if (c.bytes == 0) continue;
      sends.Post(c.child, c.bytes, data_posted[c.child]);
      if (s.wait) sends.Flush(serve);
    }
    sends.Flush(serve);
  };
  serve(tree.root, machine->Clock(tree.root));
}

void RootPlanned(Machine* machine, const Tree& tree, bool, bool) {
  RunRootPlannedScatter(machine, tree);
}

Tree LinearTree(const std::vector<std::int64_t>& block_bytes, int root) {
  const int p = static_cast<int>(block_bytes.size());
  Tree tree;
  tree.root = root;
  tree.nodes.resize(p);
  std::int64_t total = 0;
  for (int i = 0; i < p; ++i) {
    tree.nodes[i].rank = i;
    tree.nodes[i].own_bytes = block_bytes[i];
    total += block_bytes[i];
    if (i == root) continue;
    tree.nodes[i].parent = root;
    tree.nodes[i].lo = tree.nodes[i].hi = i;
    tree.nodes[i].bytes = block_bytes[i];
    tree.nodes[root].children.push_back({i, 0, i, i, block_bytes[i], {}});
  }
  tree.nodes[root].lo = 0;
  tree.nodes[root].hi = p - 1;
  tree.nodes[root].bytes = total;
  return tree;
}

Tree ModelTreeOf(ModelTree kind, const std::vector<std::int64_t>& block_bytes, int root,
                 int radix) {
  switch (kind) {
    case ModelTree::kAdaptive:
    case ModelTree::kCarried:
    case ModelTree::kPlanned:
    case ModelTree::kRootPlanned:
      return BuildTree(TreeKind::kAdaptive, block_bytes, root, radix);
    case ModelTree::kOblivious:
      return BuildTree(TreeKind::kOblivious, block_bytes, root, radix);
    case ModelTree::kLinear:
      break;
  }
  return LinearTree(block_bytes, root);
}

// When each process leaves the harness's barrier (the dissemination barrier: in round k every
// process sends an empty message to rank + 2^k and receives one from rank - 2^k, MPI_Sendrecv).
std::vector<double> BarrierExits(int p, const LogGPParams& params) {
  std::vector<double> start(p, 0);
  Machine machine(start, params);
  for (std::int64_t distance = 1; distance < p; distance *= 2) {
    std::vector<double> posted(p);
    std::vector<Message> sent(p);
    for (int r = 0; r < p; ++r) {
      posted[r] = machine.Clock(r);
      sent[r] = machine.Send(r, static_cast<int>((r + distance) % p), 0, posted[r]);
    }
    for (int r = 0; r < p; ++r) machine.Take(sent[(r - distance % p + p) % p], posted[r]);
  }
  for (int r = 0; r < p; ++r) start[r] = machine.Clock(r);
  return start;
}
// What BarrierExits reads of p and the parameters (its empty messages, no floors): a chooser
// prices a hundred trees on one machine, and each ran the barrier again (with the flows above, a
// scatter root's choice on nodes at p = 560 took 23.1 ms, now 11.3: BM_InitScatterOnNodes).
struct BarrierInputs {
  int p = 0, ranks_per_node = 0;
  bool eager = false;
  double overhead_us = 0, gap_us = 0, latency_us[2] = {0, 0}, empty_wire_us[2] = {0, 0};
  explicit BarrierInputs(int processes, const LogGPParams& params)
      : p(processes),
        ranks_per_node(params.ranks_per_node),
        eager(params.Eager(0)),
        overhead_us(params.overhead_us),
        gap_us(params.gap_us),
        latency_us{params.network.latency_us, params.node.latency_us},
        empty_wire_us{params.Wire(params.network, 0), params.Wire(params.node, 0)} {}
  bool operator==(const BarrierInputs& o) const {
    return p == o.p && ranks_per_node == o.ranks_per_node && eager == o.eager &&
           overhead_us == o.overhead_us && gap_us == o.gap_us && latency_us[0] == o.latency_us[0] &&
           latency_us[1] == o.latency_us[1] && empty_wire_us[0] == o.empty_wire_us[0] &&
           empty_wire_us[1] == o.empty_wire_us[1];
  }
};
// BarrierExits, or 0 for all without barrier_start.
std::vector<double> StartTimes(int p, const LogGPParams& params) {
  if (!params.barrier_start) return std::vector<double>(p, 0);
  thread_local std::optional<BarrierInputs> last_inputs;
  thread_local std::vector<double> last_exits;
  const BarrierInputs inputs(p, params);
  if (!last_inputs || !(*last_inputs == inputs)) {
    last_exits = BarrierExits(p, params);
    last_inputs = inputs;
  }
  return last_exits;
}

}  // namespace

namespace {

// LogGPParams::Wire with this o (PieceRule keeps a level and o, not the whole parameters).
double WireAt(const LogGPLevel& level, double overhead_us, std::int64_t bytes) {
  if (level.one_way.empty()) return static_cast<double>(bytes) * level.us_per_byte;
  const double one_way = level.one_way.Comm(static_cast<double>(bytes));
  return std::max(0.0, one_way - level.latency_us - 2 * overhead_us);
}

}  // namespace

double LogGPParams::Wire(const LogGPLevel& level, std::int64_t bytes) const {
  return WireAt(level, overhead_us, bytes);
}

LogGPParams::SharedCost LogGPParams::Shared(const LogGPLevel& level, std::int64_t bytes) const {
  double per_byte = 0;
  if (!latency_by_size || level.one_way.empty() ||
      !level.one_way.SteadySlopeAt(static_cast<double>(bytes), &per_byte)) {
    return {Wire(level, bytes), level.latency_us};
  }
  const double wire = static_cast<double>(bytes) * per_byte;
  // An empty message costs what the smallest does (the curve's own 0 means "no message").
  const double one_way = level.one_way.Comm(static_cast<double>(std::max<std::int64_t>(bytes, 1)));
  return {wire, std::max(0.0, one_way - 2 * overhead_us - wire)};
}

double LogGPParams::LeastWire(const LogGPLevel& level, std::int64_t bytes) const {
  const double per_byte =
      level.one_way.empty() ? level.us_per_byte : level.one_way.LeastSteadySlope();
  return static_cast<double>(bytes) * per_byte;
}

LogGPParams LogGPFromLinear(double alpha_us, double beta_us_per_byte, double alpha_local_us,
                            double beta_local_us_per_byte, int ranks_per_node, double overhead_us,
                            double burst_us) {
  LogGPParams params;
  params.overhead_us = overhead_us;
  const bool waits_for_receive = burst_us >= alpha_us / 2;
  params.gap_us = waits_for_receive ? overhead_us : burst_us;
  params.eager_limit_bytes = waits_for_receive ? 0 : kEagerLimitBytes;
  params.network = {std::max(0.0, alpha_us - 2 * overhead_us), beta_us_per_byte};
  params.node = {std::max(0.0, alpha_local_us - 2 * overhead_us), beta_local_us_per_byte};
  params.ranks_per_node = ranks_per_node;
  return params;
}

double ConstructionTime(int p, const std::vector<std::int64_t>& block_bytes, int root, int radix,
                        const LogGPParams& params) {
  if (static_cast<int>(block_bytes.size()) != p) {
    throw std::invalid_argument("ConstructionTime: " + std::to_string(block_bytes.size()) +
                                " blocks for p = " + std::to_string(p));
  }
  const std::vector<double> start(p, 0);
  Machine machine(start, params);
  std::vector<CarriedGroup> groups;
  BuildCarriedTree(block_bytes, root, radix, -1, &groups);
  RunConstruction(&machine, groups);
  return machine.SlowestSince(start);
}

namespace {

// One operation on the model: every process from its start (the barrier's exit, or 0), TUW's
// construction where `construction` (its merges), then `run`'s data phase over `tree`
// (`oblivious`: probed children and size headers, as the oblivious executors); with
// params.node_links kNodeLinkRuns times, each with the node links' floors of the run before.
constexpr int kNodeLinkRuns = 3;
template <typename Run>
double Timed(const Tree& tree, const std::vector<CarriedGroup>* construction, bool oblivious,
             const LogGPParams& params, Run run) {
  const std::vector<double> start = StartTimes(static_cast<int>(tree.nodes.size()), params);
  NodeLinkFloors floors;
  double time = 0;
  const int runs = params.SharesNodeLinks() ? kNodeLinkRuns : 1;
  for (int k = 0; k < runs; ++k) {
    Machine machine(start, params, &floors);
    if (construction) RunConstruction(&machine, *construction);
    run(&machine, tree, oblivious, !oblivious);
    time = machine.SlowestSince(start);
    if (k + 1 < runs) {
      NodeLinkFloors next = machine.LinkFloors();
      if (next == floors) break;  // settled: the next run would repeat this one to the bit
      floors = std::move(next);
    }
  }
  return time;
}

template <typename Run>
double TimedKind(ModelTree kind, const std::vector<std::int64_t>& block_bytes, int root, int radix,
                 const LogGPParams& params, Run run) {
  if (kind == ModelTree::kAdaptive || kind == ModelTree::kCarried) {
    std::vector<CarriedGroup> groups;
    const std::int64_t carry = kind == ModelTree::kCarried ? params.carry_max_bytes : -1;
    const Tree tree = BuildCarriedTree(block_bytes, root, radix, carry, &groups, nullptr,
                                       kind == ModelTree::kCarried && params.root_told_directly
                                           ? params.carry_to_root_max_bytes
                                           : -1);
    if (!params.root_told_directly) {
      for (CarriedGroup& g : groups) g.root_told_directly = false;
    }
    return Timed(tree, &groups, false, params, run);
  }
  return Timed(ModelTreeOf(kind, block_bytes, root, radix), nullptr, kind == ModelTree::kOblivious,
               params, run);
}

// The network's hop (2o + L) in send steps (max(g, o)), within 1 ... 16.
int HopSteps(const LogGPParams& params) {
  const double send_step = std::max(params.gap_us, params.overhead_us);
  if (send_step <= 0) return 16;
  const double hop = (2 * params.overhead_us + params.network.latency_us) / send_step;
  return static_cast<int>(std::clamp(std::round(hop), 1.0, 16.0));
}

}  // namespace

double GatherTime(ModelTree kind, const std::vector<std::int64_t>& block_bytes, int root, int radix,
                  const LogGPParams& params) {
  if (kind == ModelTree::kRootPlanned) {
    throw std::invalid_argument("GatherTime: a gather's root cannot plan its tree");
  }
  // TUWk_Gatherv and TUWk_Gatherv_init's starts move their data in pieces (params.gather_pieces).
  if (kind == ModelTree::kCarried || kind == ModelTree::kPlanned) {
    return TimedKind(kind, block_bytes, root, radix, params, RunPiecedGather);
  }
  return TimedKind(kind, block_bytes, root, radix, params, RunGather);
}

double ScatterTime(ModelTree kind, const std::vector<std::int64_t>& block_bytes, int root,
                   int radix, const LogGPParams& params, int small_call_step) {
  if (kind == ModelTree::kCarried) {
    throw std::invalid_argument("ScatterTime: a scatter's construction carries no data");
  }
  if (kind == ModelTree::kRootPlanned) {
    const int p = static_cast<int>(block_bytes.size());
    GreedyShape shape;
    if (small_call_step < kModelsStep ||
        (small_call_step > 0 && !ShapeOfCode(small_call_step, &shape))) {
      throw std::invalid_argument("ScatterTime: small_call_step " +
                                  std::to_string(small_call_step) +
                                  " is not -1, 0 or a greedy shape's code (1..64: a step)");
    }
    int step = 0;
    if (OneMessageCall(block_bytes.data(), p, params.one_message_max_bytes)) {
      step = small_call_step != kModelsStep
                 ? small_call_step
                 : SmallScatterShape(p, ShapeBlockBytes(block_bytes), radix, params, root);
    }
    const Tree tree = step > 0 ? BuildGreedyTree(block_bytes, root, step)
                               : ModelTreeOf(kind, block_bytes, root, radix);
    return Timed(tree, nullptr, false, params, RootPlanned);
  }
  return TimedKind(kind, block_bytes, root, radix, params, RunScatter);
}

LogGPParams RadixCosts::SmallCallParams(int ranks_per_node) const {
  LogGPParams params = Params(ranks_per_node);
  params.network.one_way = one_way;
  // One level: every hop the network's; two: a node's own curve where irrfit measured it.
  const bool two = params.ranks_per_node > 1;
  params.node.one_way = !two ? one_way : one_way_local;
  return params;
}

int SizeClassBits(SmallCallRule rule) {
  switch (rule) {
    case SmallCallRule::kGreedy:
      return 1;
    case SmallCallRule::kEqualNodeRangesByCoarseSize:
      return 2;
    case SmallCallRule::kEqualNodeRangesBySize:
    case SmallCallRule::kEqualNodeRangesAtSizeRates:
    case SmallCallRule::kHeavyBlocksOnRadixTree:
      break;
  }
  return 3;
}

SmallCallRule SmallCallRuleOfRecord(int record) {
  if (record >= 5) return SmallCallRule::kHeavyBlocksOnRadixTree;
  if (record == 4) return SmallCallRule::kEqualNodeRangesAtSizeRates;
  if (record == 3) return SmallCallRule::kEqualNodeRangesBySize;
  if (record == 2) return SmallCallRule::kEqualNodeRangesByCoarseSize;
  return SmallCallRule::kGreedy;
}

bool SmallCallOnRadixTree(const std::vector<std::int64_t>& block_bytes, SmallCallRule rule) {
  if (rule != SmallCallRule::kHeavyBlocksOnRadixTree) return false;
  return std::any_of(block_bytes.begin(), block_bytes.end(),
                     [](std::int64_t bytes) { return bytes > kHeavyBlockBytes; });
}

std::int64_t ShapeBlockBytes(const std::vector<std::int64_t>& block_bytes, SmallCallRule rule) {
  std::int64_t total = 0;
  for (std::int64_t b : block_bytes) total += b;
  const std::int64_t mean =
      block_bytes.empty() ? 0 : total / static_cast<std::int64_t>(block_bytes.size());
  if (mean == 0) return 0;
  std::int64_t power = 1;
  while (power * 2 <= mean) power *= 2;
  // The mean's leading significant bits: the power of two, then each lower bit the mean holds.
  const int bits = SizeClassBits(rule);
  std::int64_t rounded = power;
  for (int bit = 1; bit < bits && (power >> bit) > 0; ++bit) {
    if (rounded + (power >> bit) <= mean) rounded += power >> bit;
  }
  return rounded;
}

int SmallScatterShape(int p, std::int64_t block_bytes, int radix, const LogGPParams& costs,
                      int root, SmallCallRule rule) {
  LogGPParams params = costs;  // the rule says how shared sends are priced
  params.latency_by_size = rule == SmallCallRule::kEqualNodeRangesAtSizeRates ||
                           rule == SmallCallRule::kHeavyBlocksOnRadixTree;
  const std::vector<std::int64_t> blocks(p, block_bytes);
  if (p <= 2 || !OneMessageCall(blocks.data(), p, params.one_message_max_bytes)) return 0;
  Tree candidate;  // (one buffer for every candidate: dozens of trees of p ranks)
  const auto greedy = [&](const std::vector<std::int64_t>& b, int code) {
    BuildGreedyTree(b, root, code, &candidate);
    return Timed(candidate, nullptr, false, params, RootPlanned);
  };
  // The steps: the latency-bound case's (4-byte blocks), as the radix is chosen.
  const std::vector<std::int64_t> latency_bound(p, 4);
  // The s in first ... last whose tree code_of(s) models fastest on `b` (the first of equals).
  const auto best_of = [&](int first, int last, const std::function<int(int)>& code_of,
                           const std::vector<std::int64_t>& b) {
    int best = first;
    double best_time = greedy(b, code_of(first));
    for (int s = first + 1; s <= last; ++s) {
      const double time = greedy(b, code_of(s));
      if (time < best_time) {
        best = s;
        best_time = time;
      }
    }
    return best;
  };
  const int ranks_per_node = params.ranks_per_node;
  const int nodes = (p + ranks_per_node - 1) / std::max(1, ranks_per_node);
  const bool two_levels = ranks_per_node > 1 && ranks_per_node <= kMaxShapeRanksPerNode;
  // The two-level greedy tree's node step at the network's hop (the step one level would take
  // there), then its network step at that node step: 24 trees, not the 16 x 8 of both (which
  // find the same at p = 6400).
  GreedyShape shape{HopSteps(params), 1, ranks_per_node};
  const auto varying = [&shape](int GreedyShape::*field) {  // shape with one field set to s
    return [&shape, field](int s) {
      GreedyShape t = shape;
      t.*field = s;
      return ShapeCode(t);
    };
  };
  const bool equal_ranges = rule != SmallCallRule::kGreedy && two_levels && nodes >= 3;
  if (TwoLevelSmallScatter(p, params) || equal_ranges) {
    shape.node_step = best_of(1, 8, varying(&GreedyShape::node_step), latency_bound);
  }
  int choice = 0;
  double choice_time = -1;  // the choice's at this size, where already priced
  if (TwoLevelSmallScatter(p, params)) {
    // Not held against the radix tree: the model, without the node's shared link, prices it
    // faster at p = 6400, b = 10, where the simulation measured the two-level tree 11 % faster.
    shape.step = best_of(1, 16, varying(&GreedyShape::step), latency_bound);
    choice = ShapeCode(shape);
  } else {
    const int code = best_of(
        1, 16, [](int s) { return s; }, latency_bound);
    const double code_time = greedy(blocks, code);
    const double radix_time = Timed(ModelTreeOf(ModelTree::kRootPlanned, blocks, root, radix),
                                    nullptr, false, params, RootPlanned);
    choice = code_time < radix_time ? code : 0;
    choice_time = std::min(code_time, radix_time);
  }
  if (!equal_ranges) return choice;
  // Equal node ranges at this size, against the choice at this size: cut at equal bytes, which
  // for the uniform blocks priced here are about equal node counts, and for an irregular call
  // keep its messages alike.
  shape.equal_node_ranges = true;
  shape.by_bytes = true;
  shape.step = best_of(2, std::min(kMaxGreedyStep, nodes - 1), varying(&GreedyShape::step), blocks);
  if (choice_time < 0) choice_time = greedy(blocks, choice);  // the two-level tree's
  return greedy(blocks, ShapeCode(shape)) < (1 - kEqualRangesMinGain) * choice_time
             ? ShapeCode(shape)
             : choice;
}

bool TwoLevelSmallScatter(int p, const LogGPParams& params) {
  return params.ranks_per_node > 1 && params.ranks_per_node <= kMaxShapeRanksPerNode &&
         p / params.ranks_per_node >= kTwoLevelMinNodes;
}

double PlannedGatherTime(const Tree& tree, const LogGPParams& params, bool in_pieces) {
  return in_pieces ? Timed(tree, nullptr, false, params, RunPiecedGather)
                   : Timed(tree, nullptr, false, params, RunGather);
}

double PlannedScatterTime(const Tree& tree, const LogGPParams& params) {
  return Timed(tree, nullptr, false, params, RunScatter);
}

namespace {

// The times at which a single-item broadcast informs its first `count` processes (the source at
// 0): Karp et al.'s greedy schedule, every informed process sending a new message every `step`.
std::vector<double> InformedTimes(int count, double step, double hop) {
  std::vector<double> informed;
  std::priority_queue<double, std::vector<double>, std::greater<double>> next_send;
  next_send.push(0);
  if (count > 0) informed.push_back(0);
  while (static_cast<int>(informed.size()) < count) {
    const double send = next_send.top();
    next_send.pop();
    informed.push_back(send + hop);
    next_send.push(send + step);      // the sender goes on
    next_send.push(informed.back());  // the new process starts sending
  }
  return informed;
}

// One of the root's links in a gather that must end by `deadline` (RunLinkBackwards): a message
// sent at s carries no more than one process can hold by s: the largest blocks of the processes
// a broadcast from it informs by s (`informed`, `largest_first`: their prefix sums). Taking the
// most each message can carry, latest first, is optimal: a byte more in a later message costs an
// earlier one at most that byte (it starts its wire no later than before, so it holds no less).
// Returns true where the messages can carry `bytes`.
bool LinkCarriesBy(double deadline, double bytes, const std::vector<double>& informed,
                   const std::vector<double>& largest_first, double step, double overhead,
                   double latency, double per_byte) {
  const int count = static_cast<int>(informed.size());
  // The most one message can carry with its wire ending at wire_end: k processes' blocks need its
  // sender to hold them (informed[k-1]) before its o and L.
  const auto most = [&](double wire_end, double wanted) {
    const double sendable = wire_end - overhead - latency;
    const auto fits = [&](int k) {  // k blocks leave in time: the min of their two limits
      const double by_time = sendable - informed[k - 1];
      if (by_time < 0) return -1.0;
      return per_byte > 0 ? std::min(largest_first[k], by_time / per_byte) : largest_first[k];
    };
    // largest_first rises with k, the time left falls: the best k is where they cross.
    int lo = 1, hi = count;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      const double by_time = sendable - informed[mid - 1];
      const bool whole =
          by_time >= 0 && (per_byte <= 0 || largest_first[mid] <= by_time / per_byte);
      if (whole)
        lo = mid;
      else
        hi = mid - 1;
    }
    double best = std::max(0.0, fits(lo));
    if (lo < count) best = std::max(best, fits(lo + 1));
    best = std::min(best, wanted);
    return LinkMessage{best, best * per_byte};
  };
  return RunLinkBackwards(deadline, step, overhead, bytes, most, [](double, double) {}) >= bytes;
}

// The least deadline by which LinkCarriesBy holds, from `at_least` (which the caller knows to be
// a bound) up, to a relative 1e-12.
double LeastLinkDeadline(double at_least, double bytes, const std::vector<double>& informed,
                         const std::vector<double>& largest_first, double step, double overhead,
                         double latency, double per_byte) {
  const auto carries = [&](double deadline) {
    return LinkCarriesBy(deadline, bytes, informed, largest_first, step, overhead, latency,
                         per_byte);
  };
  if (carries(at_least)) return at_least;
  double lo = at_least, hi = std::max(2 * at_least, 1.0);
  while (!carries(hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1e-12 * hi) {
    const double mid = (lo + hi) / 2;
    (carries(mid) ? hi : lo) = mid;
  }
  return hi;
}

// A bound's L at a level: the fit's, or less where a measured message took less than 2o + L plus
// its bytes at LeastWire's rate (a ping-pong line's alpha lies above the smallest messages' one-way
// time on SimGrid's curve: 2.65 against 2.58 us).
double BoundLatency(const LogGPParams& params, const LogGPLevel& level) {
  if (level.one_way.empty()) return level.latency_us;
  const double floor = level.one_way.InterceptBelow(params.LeastWire(level, 1));
  return std::max(0.0, std::min(level.latency_us, floor - 2 * params.overhead_us));
}

}  // namespace

double LogPLowerBound(const std::vector<std::int64_t>& block_bytes, int root,
                      const LogGPParams& params, const LogGPLevel& latency) {
  const int p = static_cast<int>(block_bytes.size());
  const double step = std::max(params.gap_us, params.overhead_us);
  const double hop = 2 * params.overhead_us + BoundLatency(params, latency);
  // Only the processes with a block take part (a process without one need not be reached).
  std::vector<double> largest_first{0};
  {
    std::vector<std::int64_t> others;
    for (int i = 0; i < p; ++i) {
      if (i != root && block_bytes[i] > 0) others.push_back(block_bytes[i]);
    }
    std::sort(others.begin(), others.end(), std::greater<std::int64_t>());
    for (const std::int64_t bytes : others) {
      largest_first.push_back(largest_first.back() + static_cast<double>(bytes));
    }
  }
  const int others = static_cast<int>(largest_first.size()) - 1;
  // A gather that combines messages is a broadcast run backwards: the root's own broadcast to
  // the others bounds it.
  std::vector<double> informed = InformedTimes(others + 1, step, hop);
  const double informed_last = informed.back();
  // What a sender can hold: a broadcast from it among the others (the same greedy schedule, one
  // process fewer).
  informed.pop_back();
  // The root's links: every other block crosses the one of its level (the root's node's ranks
  // through the node, the others through the network), in messages that the root takes one at a
  // time and whose senders gathered their bytes first.
  std::int64_t off_node = 0, on_node = 0;
  for (int i = 0; i < p; ++i) {
    if (i == root) continue;
    (&params.Between(i, root) == &params.node ? on_node : off_node) += block_bytes[i];
  }
  double bound = informed_last;
  const auto link = [&](const LogGPLevel& level, std::int64_t bytes) {
    const double level_latency = BoundLatency(params, level);
    const double all_bytes =
        2 * params.overhead_us + level_latency + params.LeastWire(level, bytes);
    // Without a cost per message (o = g = 0) the root takes any number at once: the bytes alone.
    bound = std::max(
        bound, step <= 0 ? all_bytes
                         : LeastLinkDeadline(std::max(all_bytes, bound), static_cast<double>(bytes),
                                             informed, largest_first, step, params.overhead_us,
                                             level_latency, params.LeastWire(level, 1)));
  };
  if (off_node > 0) link(params.network, off_node);
  if (on_node > 0) link(params.node, on_node);
  return bound;
}

std::vector<int> RadixCandidates(int p) {
  std::vector<int> radixes{2};
  // For each number of rounds, the smallest radix that needs no more: a larger one adds
  // messages to every round without saving one.
  for (int rounds = CeilLog2(std::max(p, 2)) - 1; rounds >= 1; --rounds) {
    int radix = 2;
    while (CeilLog(p, radix) > rounds) ++radix;
    if (radix > kMaxRadix) break;
    if (radix != radixes.back()) radixes.push_back(radix);  // rounds no radix needs: its own
  }
  return radixes;
}

namespace {

// The candidate with the least time(radix); ties go to the smaller radix.
template <typename Time>
int FastestRadix(int p, Time time) {
  int best = 2;
  double best_time = -1;
  for (const int radix : RadixCandidates(p)) {
    const double t = time(radix);
    if (best_time < 0 || t < best_time) {
      best = radix;
      best_time = t;
    }
  }
  return best;
}

}  // namespace

int ModelRadix(ModelTree kind, int p, const LogGPParams& params) {
  if (p <= 2) return 2;
  // TUWk_Scatterv: TUWk's radix (the construction's); TUWk_Gatherv's carried tree its own.
  if (kind == ModelTree::kRootPlanned) kind = ModelTree::kAdaptive;
  const std::vector<std::int64_t> blocks(p, 4);
  return FastestRadix(p, [&](int radix) { return GatherTime(kind, blocks, 0, radix, params); });
}

int LargeScatterRadix(int p, std::int64_t block_bytes, const LogGPParams& costs, int root) {
  if (p <= 2) return 2;
  LogGPParams params = costs;
  params.one_message_max_bytes = 0;  // the call's size class may be small where the call is not
  const std::vector<std::int64_t> blocks(p, std::max<std::int64_t>(block_bytes, 1));
  return FastestRadix(p, [&](int radix) {
    return Timed(ModelTreeOf(ModelTree::kRootPlanned, blocks, root, radix), nullptr, false, params,
                 RootPlanned);
  });
}

int PlannedRadix(bool scatter, const std::vector<std::int64_t>& block_bytes, int root,
                 const LogGPParams& params) {
  const int p = static_cast<int>(block_bytes.size());
  if (p <= 2) return 2;
  return FastestRadix(p, [&](int radix) {
    return scatter ? ScatterTime(ModelTree::kPlanned, block_bytes, root, radix, params, 0)
                   : GatherTime(ModelTree::kPlanned, block_bytes, root, radix, params);
  });
}

PieceRule GatherPieceRule(const LogGPParams& params) {
  PieceRule rule;
  if (params.network.one_way.empty()) return rule;
  rule.piece = static_cast<std::int64_t>(params.network.one_way.LeastSteadySlopeEnd());
  rule.extra_piece_us = std::max(params.overhead_us, params.gap_us) + params.overhead_us;
  rule.level = params.network;
  rule.overhead_us = params.overhead_us;
  return rule;
}

PieceRule FixedPieceRule(std::int64_t piece) {
  PieceRule rule;
  rule.piece = std::max<std::int64_t>(piece, 0);
  return rule;
}

std::int64_t PieceRule::PieceBytes(std::int64_t bytes) const {
  if (piece <= 0 || bytes <= piece) return 0;
  if (level.one_way.empty()) return piece;  // fixed
  if (bytes > piece * kMaxModelPieces) return 0;
  const std::int64_t full = bytes / piece, rest = bytes % piece;
  const double in_pieces = static_cast<double>(full) * WireAt(level, overhead_us, piece) +
                           (rest > 0 ? WireAt(level, overhead_us, rest) : 0) +
                           static_cast<double>(full + (rest > 0) - 1) * extra_piece_us;
  return in_pieces < WireAt(level, overhead_us, bytes) ? piece : 0;
}

}  // namespace tuw::tree
