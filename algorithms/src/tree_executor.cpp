// Executes a gather or scatter tree (tree::NodeView) over Transfers (transfer.hpp): any size,
// failures passed on as poison. Blocks always travel in rank order (an edge sent in parts sends
// rank ranges, each landing at its place), so a contiguous buffer per node suffices and no block
// is ever reordered; at the root, indexed datatypes put data straight into the user's buffer
// (transfers above MaxMessageBytes() go through a staging buffer there).
#include <algorithm>
#include <deque>
#include <memory>

#include "../tree/loggp.hpp"
#include "../tree/scatter_schedule.hpp"
#include "internal.hpp"

namespace tuw::detail {
namespace {

std::int64_t RangeBytes(const std::vector<std::int64_t>& block_bytes, int lo, int hi) {
  std::int64_t sum = 0;
  for (int i = lo; i <= hi; ++i) sum += block_bytes[i];
  return sum;
}

// A non-root's subtree buffer: the plan's kept one (a persistent request's starts), else the
// communicator's (kept between calls: CallBuffers), else the call's own in *own.
char* SubtreeBuffer(const ExecuteOptions& options, const CallContext& ctx, std::int64_t bytes,
                    ByteBuffer* own) {
  if (options.scratch) return options.scratch->Get(bytes);
  if (ctx.buffers) return ctx.buffers->subtree.Get(bytes, own);
  *own = TryByteBuffer(bytes);
  return own->get();
}

// A scatter parent's sends in order (tree::ScatterSchedule: the leaves on its node go while its
// first serial network send is on the wire).
std::vector<tree::ScatterSend> ScatterSchedule(const tree::NodeView& view,
                                               const ExecuteOptions& options) {
  return tree::ScatterSchedule(
      view, options.node_ranks,
      options.headers ? tree::kSerialSendMinBytesAfterHeader : tree::kSerialSendMinBytes);
}

// Whether an edge goes in the parts the plan gives it (tree::EdgeParts: its node or its own
// block first). Only where each part is one message: the parent posts all their receives
// at once, and the pieces of a longer transfer would match the next part's receive. Never on
// self-describing edges (the size is probed per transfer). Both ends decide alike
// (MaxMessageBytes() is the same everywhere).
bool SendsInParts(const std::vector<tree::EdgePart>& parts, const ExecuteOptions& options) {
  if (parts.empty() || options.framing == Framing::kSelfDescribing) return false;
  return std::all_of(parts.begin(), parts.end(),
                     [](const tree::EdgePart& part) { return part.bytes <= MaxMessageBytes(); });
}

// The messages of a child's transfer, in the order it sends them: its edge's parts, or the whole
// range in one.
std::vector<tree::EdgePart> Messages(const tree::ChildEdge& c, std::int64_t bytes,
                                     const ExecuteOptions& options) {
  if (!SendsInParts(c.parts, options)) return {{c.lo, c.hi, bytes}};
  return c.parts;
}

static_assert(tree::kMaxModelPieces == Transfers::kPiecesAhead,
              "the model's pieces of a transfer are what a receiver posts ahead");

// The piece size of an edge's transfer of `bytes` (options.pieces; 0: the default pieces). Both
// ends ask it for the same bytes: the child for what it sends, the parent for what it expects.
std::int64_t PieceBytes(const ExecuteOptions& options, std::int64_t bytes) {
  return options.pieces != nullptr ? options.pieces->PieceBytes(bytes) : 0;
}
// The same for a child's edge as its parent receives it: an edge in parts sends each part as
// one message, never cut.
std::int64_t ChildPieceBytes(const tree::ChildEdge& c, std::int64_t bytes,
                             const ExecuteOptions& options) {
  return SendsInParts(c.parts, options) ? 0 : PieceBytes(options, bytes);
}

// Where `part` starts within the rank-ordered bytes of `parts` (which tile one range).
std::int64_t PartOffset(const std::vector<tree::EdgePart>& parts, const tree::EdgePart& part) {
  std::int64_t offset = 0;
  for (const tree::EdgePart& other : parts) {
    if (other.lo < part.lo) offset += other.bytes;
  }
  return offset;
}

// Indexed datatypes and staging buffers of the root, freed when the call ends.
class RootResources {
 public:
  ~RootResources() {
    for (MPI_Datatype& t : types_) MPI_Type_free(&t);
  }
  int RangeType(const Count* counts, const Count* displs, MPI_Datatype type, int lo, int hi,
                MPI_Datatype* range_type) {
    int rc = MakeRangeType(counts, displs, type, lo, hi, range_type);
    if (rc == MPI_SUCCESS) types_.push_back(*range_type);
    return rc;
  }
  char* Staging(std::int64_t bytes) {
    staging_.push_back(TryByteBuffer(bytes));
    return staging_.back().get();
  }

 private:
  std::vector<MPI_Datatype> types_;
  std::vector<ByteBuffer> staging_;
};

struct StagedRange {
  const char* packed;
  int lo, hi;
};

// block_bytes == nullptr: the root's own arguments are bad; it only drains its children.
int GatherAtRoot(const tree::NodeView& view, const GatherArgs& a, const CallContext& ctx,
                 const std::vector<std::int64_t>* block_bytes, const ExecuteOptions& options) {
  Transfers transfers(ctx.private_comm, options.framing);
  transfers.Fail(options.prior_failure);
  RootResources resources;
  std::vector<StagedRange> staged;
  int mismatch = MPI_SUCCESS;
  if (options.carried != nullptr) {  // ranges the construction carried here
    for (const CarriedData::Range& r : options.carried->ranges) {
      if (block_bytes == nullptr) continue;
      if (r.bytes != RangeBytes(*block_bytes, r.lo, r.hi)) {
        mismatch = MPI_ERR_TRUNCATE;
        continue;
      }
      const char* data = options.carried->bytes.data() + r.offset;
      if (char* direct = PackedInPlace(a.recvbuf, a.recvcounts, a.displs, a.recvtype, r.lo, r.hi)) {
        std::copy(data, data + r.bytes, direct);  // (no MPI_Unpack where it lies packed)
      } else {
        staged.push_back({data, r.lo, r.hi});
      }
    }
  }
  const bool probed = options.framing == Framing::kSelfDescribing;
  // A transfer of ranks [lo, hi]: one message straight into recvbuf through an indexed type, or
  // in pieces (above the message limit, or cut by options.pieces) into recvbuf where the range
  // lies packed there, else through staging.
  const auto receive_range = [&](int child, int lo, int hi, std::int64_t bytes,
                                 std::int64_t piece) {
    if (bytes <= MaxMessageBytes() && piece == 0) {
      MPI_Datatype range_type;
      int rc = resources.RangeType(a.recvcounts, a.displs, a.recvtype, lo, hi, &range_type);
      if (rc == MPI_SUCCESS) {
        transfers.ReceiveTyped(child, a.recvbuf, 1, range_type, bytes);
      } else {
        transfers.Fail(rc);
        transfers.Receive(child, nullptr, bytes);
      }
    } else if (char* direct =
                   PackedInPlace(a.recvbuf, a.recvcounts, a.displs, a.recvtype, lo, hi)) {
      transfers.Receive(child, direct, bytes, piece);
    } else {
      char* staging = resources.Staging(bytes);
      if (staging == nullptr) transfers.Fail(MPI_ERR_NO_MEM);
      transfers.Receive(child, staging, bytes, piece);
      if (staging != nullptr) staged.push_back({staging, lo, hi});
    }
  };
  for (const tree::ChildEdge& c : view.children) {
    const std::int64_t bytes = probed ? transfers.Probe(c.child) : c.bytes;
    if (bytes < 0) continue;  // poisoned: nothing follows
    // The processes' counts may disagree with the root's recvcounts: then take the data anyway
    // so that nobody waits, and report it.
    const bool matches = block_bytes != nullptr && bytes == RangeBytes(*block_bytes, c.lo, c.hi);
    if (!matches && block_bytes != nullptr) mismatch = MPI_ERR_TRUNCATE;
    const std::int64_t piece = ChildPieceBytes(c, bytes, options);
    for (const tree::EdgePart& m : Messages(c, bytes, options)) {
      if (!matches) {
        transfers.Receive(c.child, nullptr, m.bytes, piece);
      } else if (m.bytes > 0 || probed) {  // (size-known framing: no message without bytes)
        receive_range(c.child, m.lo, m.hi, m.bytes, piece);
      }
    }
  }
  int local = MPI_SUCCESS;
  if (block_bytes != nullptr && a.sendbuf != MPI_IN_PLACE) {
    local = LocalCopy(a.sendbuf, a.sendcount, a.sendtype,
                      OffsetBy(a.recvbuf, a.displs[ctx.rank], a.recvtype), a.recvcounts[ctx.rank],
                      a.recvtype, ctx.private_comm, ctx.rank);
  }
  transfers.Fail(local);
  if (transfers.Finish() != MPI_SUCCESS) return transfers.error();
  for (const StagedRange& s : staged) {
    transfers.Fail(UnpackBlocks(s.packed, a.recvcounts, a.displs, a.recvtype, s.lo, s.hi, a.recvbuf,
                                ctx.private_comm));
  }
  return transfers.error() != MPI_SUCCESS ? transfers.error() : mismatch;
}

// The edge to the parent: over the tree's communicator, or, for a relay (the local root of an
// intercommunicator's group), a self-describing hand-over over options.parent_comm.
Transfers ParentEdge(const CallContext& ctx, const ExecuteOptions& options) {
  if (options.parent_comm != MPI_COMM_NULL) {
    return Transfers(options.parent_comm, Framing::kSelfDescribing);
  }
  return Transfers(ctx.private_comm, options.framing);
}

int GatherAtNonRoot(tree::NodeView view, const GatherArgs& a, const CallContext& ctx,
                    const ExecuteOptions& options) {
  Transfers up = ParentEdge(ctx, options);
  up.Fail(options.prior_failure);
  // The construction carried its range's data here: that is its own piece.
  const char* carried = options.carried != nullptr && !options.carried->ranges.empty()
                            ? options.carried->bytes.data()
                            : nullptr;
  const std::int64_t own_piece = PieceBytes(options, view.own_bytes);
  if (carried != nullptr && view.children.empty()) {
    up.Send(view.parent, carried, view.own_bytes, false, own_piece);
    return up.Finish();
  }
  if (carried == nullptr && view.children.empty() && view.own_bytes <= MaxMessageBytes() &&
      own_piece == 0 && a.sendcount <= kMaxInt) {  // straight from sendbuf
    up.SendTyped(view.parent, a.sendbuf, IntCount(a.sendcount), a.sendtype, view.own_bytes);
    return up.Finish();
  }
  const char* own_packed = view.children.empty() && carried == nullptr
                               ? PackedInPlace(a.sendbuf, a.sendcount, a.sendtype)
                               : nullptr;
  if (own_packed != nullptr) {  // a leaf's block in pieces, straight from sendbuf
    up.Send(view.parent, own_packed, view.own_bytes, false, own_piece);
    return up.Finish();
  }
  std::deque<Transfers> inflow;  // per message to the parent: the receives it waits for
  Transfers& down = inflow.emplace_back(ctx.private_comm, options.framing);
  down.Fail(options.prior_failure);
  // Oblivious tree: learn the children's sizes from their messages (a poisoned child counts 0).
  if (options.framing == Framing::kSelfDescribing) {
    view.bytes = view.own_bytes;
    for (tree::ChildEdge& c : view.children) {
      c.bytes = std::max<std::int64_t>(down.Probe(c.child), 0);
      view.bytes += c.bytes;
    }
  }
  const tree::PieceOffsets offsets = tree::ComputePieceOffsets(view);
  ByteBuffer own_buffer;
  char* buffer = SubtreeBuffer(options, ctx, view.bytes, &own_buffer);
  if (!buffer) down.Fail(MPI_ERR_NO_MEM);
  if (buffer && view.own_bytes > 0 && carried != nullptr) {
    std::copy(carried, carried + view.own_bytes, buffer + offsets.own);
  } else if (buffer && view.own_bytes > 0) {
    down.Fail(
        PackElements(a.sendbuf, a.sendcount, a.sendtype, buffer + offsets.own, ctx.private_comm));
  }
  // Where this node's edge goes in parts, each message waits only for the children whose
  // ranks it holds (a failure poisons that message and those after it).
  const bool split =
      options.parent_comm == MPI_COMM_NULL && SendsInParts(view.parent_parts, options);
  const std::vector<tree::EdgePart> outgoing =
      split ? view.parent_parts : std::vector<tree::EdgePart>{{view.lo, view.hi, view.bytes}};
  while (inflow.size() < outgoing.size()) {
    inflow.emplace_back(ctx.private_comm, options.framing).Fail(down.error());
  }
  for (std::size_t k = 0; k < view.children.size(); ++k) {
    const tree::ChildEdge& c = view.children[k];
    const std::vector<tree::EdgePart> messages = Messages(c, c.bytes, options);
    const std::int64_t piece = ChildPieceBytes(c, c.bytes, options);
    for (const tree::EdgePart& m : messages) {
      const auto holds = [&](const tree::EdgePart& out) {
        return out.lo <= m.lo && m.hi <= out.hi;
      };
      const auto out = std::find_if(outgoing.begin(), outgoing.end(), holds);
      if (out == outgoing.end()) {  // ranks without bytes, or a plan this process cannot follow
        if (m.bytes > 0) down.Fail(MPI_ERR_INTERN);
        down.Receive(c.child, nullptr, m.bytes, piece);
        continue;
      }
      char* dest = buffer ? buffer + offsets.child[k] + PartOffset(messages, m) : nullptr;
      inflow[out - outgoing.begin()].Receive(c.child, dest, m.bytes, piece);
    }
  }
  for (std::size_t i = 0; i < outgoing.size(); ++i) {
    up.Fail(inflow[i].Finish());
    char* data = buffer ? buffer + PartOffset(outgoing, outgoing[i]) : nullptr;
    up.Send(view.parent, data, outgoing[i].bytes, false,  // poisoned if anything failed
            split ? 0 : PieceBytes(options, outgoing[i].bytes));
  }
  return up.Finish();
}

// block_bytes == nullptr: the root's own arguments (error class root_error) are bad; its
// children get poison instead of data.
int ScatterAtRoot(const tree::NodeView& view, const ScatterArgs& a, const CallContext& ctx,
                  const std::vector<std::int64_t>* block_bytes, int root_error,
                  const ExecuteOptions& options) {
  Transfers transfers(ctx.private_comm, options.framing);
  transfers.Fail(options.prior_failure);
  if (block_bytes == nullptr) transfers.Fail(root_error);
  RootResources resources;
  const bool self_describing = options.framing == Framing::kSelfDescribing;
  int mismatch = MPI_SUCCESS;
  // Serves one child; a child that gets no data still counts for the schedule's waits.
  const auto serve = [&](const tree::ScatterSend& send) {
    const tree::ChildEdge& c = view.children[send.child];
    if (options.send_ahead) transfers.Fail(options.send_ahead(c));
    if (!self_describing && c.bytes == 0) {  // the subtree expects no message, not even a poison
      if (block_bytes != nullptr && RangeBytes(*block_bytes, c.lo, c.hi) != 0) {
        mismatch = MPI_ERR_TRUNCATE;
      }
      return;
    }
    if (options.headers && c.hi > c.lo) {  // an inner node of an oblivious tree needs the sizes
      const std::int64_t* sizes = block_bytes ? block_bytes->data() + c.lo : nullptr;
      transfers.SendTyped(c.child, sizes, c.hi - c.lo + 1, MPI_INT64_T, 8 * (c.hi - c.lo + 1));
    }
    if (transfers.failed()) {
      transfers.SendPoison(c.child, transfers.error(), c.bytes);
      return;
    }
    const std::int64_t bytes = RangeBytes(*block_bytes, c.lo, c.hi);
    if (!self_describing && c.bytes != bytes) {
      // The processes expect other sizes than sendcounts say: poison their data and report it.
      mismatch = MPI_ERR_TRUNCATE;
      transfers.SendPoison(c.child, MPI_ERR_TRUNCATE, c.bytes);
    } else if (bytes <= MaxMessageBytes()) {
      MPI_Datatype range_type;
      int rc = resources.RangeType(a.sendcounts, a.displs, a.sendtype, c.lo, c.hi, &range_type);
      transfers.Fail(rc);
      transfers.SendTyped(c.child, a.sendbuf, 1, range_type, bytes, send.serial);
    } else if (const char* direct =
                   PackedInPlace(a.sendbuf, a.sendcounts, a.displs, a.sendtype, c.lo, c.hi)) {
      transfers.Send(c.child, direct, bytes, send.serial);
    } else {
      char* staging = resources.Staging(bytes);
      transfers.Fail(staging == nullptr ? MPI_ERR_NO_MEM
                                        : PackBlocks(a.sendbuf, a.sendcounts, a.displs, a.sendtype,
                                                     c.lo, c.hi, staging, ctx.private_comm));
      transfers.Send(c.child, staging, bytes, send.serial);
    }
  };
  for (const tree::ScatterSend& send : ScatterSchedule(view, options)) {
    serve(send);
    if (send.wait) transfers.Finish();
  }
  int local = MPI_SUCCESS;
  if (block_bytes != nullptr && a.recvbuf != MPI_IN_PLACE) {
    local = LocalCopy(OffsetBy(a.sendbuf, a.displs[ctx.rank], a.sendtype), a.sendcounts[ctx.rank],
                      a.sendtype, a.recvbuf, a.recvcount, a.recvtype, ctx.private_comm, ctx.rank);
  }
  transfers.Finish();
  if (block_bytes == nullptr) return root_error;
  if (local != MPI_SUCCESS) return local;
  return transfers.error() != MPI_SUCCESS ? transfers.error() : mismatch;
}

int ScatterAtNonRoot(tree::NodeView view, const ScatterArgs& a, const CallContext& ctx,
                     const ExecuteOptions& options) {
  Transfers from_parent = ParentEdge(ctx, options);
  from_parent.Fail(options.prior_failure);
  const bool probe_parent =
      options.parent_comm != MPI_COMM_NULL || options.framing == Framing::kSelfDescribing;
  std::vector<std::int64_t> header;
  if (view.children.empty()) view.bytes = view.own_bytes;  // (oblivious views carry no sizes)
  if (options.headers && !view.children.empty()) {         // the parent sends the block sizes first
    header.assign(view.hi - view.lo + 1, 0);
    const std::int64_t announced = from_parent.Probe(view.parent);
    const std::int64_t expected = static_cast<std::int64_t>(8 * header.size());
    if (announced >= 0 && announced != expected) from_parent.Fail(MPI_ERR_TRUNCATE);
    char* dest = announced == expected ? reinterpret_cast<char*>(header.data()) : nullptr;
    from_parent.Receive(view.parent, dest, std::max<std::int64_t>(announced, 0));
    from_parent.Finish();
    if (!from_parent.failed()) {
      if (header[view.rank - view.lo] != view.own_bytes) from_parent.Fail(MPI_ERR_TRUNCATE);
      view.bytes = RangeBytes(header, 0, static_cast<int>(header.size()) - 1);
      for (tree::ChildEdge& c : view.children) {
        c.bytes = RangeBytes(header, c.lo - view.lo, c.hi - view.lo);
      }
    } else {
      std::fill(header.begin(), header.end(), 0);
      view.bytes = 0;
      view.own_bytes = 0;
      for (tree::ChildEdge& c : view.children) c.bytes = 0;
    }
  }
  // What arrives from the parent: where it is self-describing, whatever it announces.
  std::int64_t incoming = view.bytes;
  if (probe_parent) {
    incoming = from_parent.Probe(view.parent);
    if (incoming >= 0 && incoming != view.bytes) from_parent.Fail(MPI_ERR_TRUNCATE);
    incoming = std::max<std::int64_t>(incoming, 0);
  }
  if (view.children.empty() && view.own_bytes <= MaxMessageBytes() &&
      a.recvcount <= kMaxInt) {                                 // straight into recvbuf
    if (incoming == view.own_bytes && !from_parent.failed()) {  // (failed: drain, unchecked args)
      from_parent.ReceiveTyped(view.parent, a.recvbuf, IntCount(a.recvcount), a.recvtype, incoming);
    } else {
      from_parent.Receive(view.parent, nullptr, incoming);
    }
    return from_parent.Finish();
  }
  char* own_place =
      view.children.empty() ? PackedInPlace(a.recvbuf, a.recvcount, a.recvtype) : nullptr;
  if (own_place != nullptr) {  // a leaf's block above the message limit: in pieces into recvbuf
    const bool fits = !from_parent.failed() && incoming == view.own_bytes;
    from_parent.Receive(view.parent, fits ? own_place : nullptr, incoming);
    return from_parent.Finish();
  }
  ByteBuffer own_buffer;
  char* buffer = SubtreeBuffer(options, ctx, incoming, &own_buffer);
  if (!buffer) from_parent.Fail(MPI_ERR_NO_MEM);
  const bool fits = !from_parent.failed() && incoming == view.bytes;
  from_parent.Receive(view.parent, fits ? buffer : nullptr, incoming);
  int ahead_failure = MPI_SUCCESS;  // the deepest subtrees first
  for (auto c = view.children.rbegin(); options.send_ahead && c != view.children.rend(); ++c) {
    const int rc = options.send_ahead(*c);
    if (ahead_failure == MPI_SUCCESS) ahead_failure = rc;
  }
  Transfers down(ctx.private_comm, options.framing);
  down.Fail(from_parent.Finish());
  down.Fail(ahead_failure);
  const tree::PieceOffsets offsets = tree::ComputePieceOffsets(view);
  for (const tree::ScatterSend& send : ScatterSchedule(view, options)) {
    const tree::ChildEdge& c = view.children[send.child];
    if (options.headers && c.hi > c.lo) {
      down.SendTyped(c.child, header.data() + (c.lo - view.lo), c.hi - c.lo + 1, MPI_INT64_T,
                     8 * (c.hi - c.lo + 1));
    }
    // poisoned on failure
    down.Send(c.child, buffer + offsets.child[send.child], c.bytes, send.serial);
    if (send.wait) down.Finish();
  }
  if (!down.failed() && view.own_bytes > 0) {
    down.Fail(
        UnpackElements(buffer + offsets.own, a.recvcount, a.recvtype, a.recvbuf, ctx.private_comm));
  }
  return down.Finish();
}

}  // namespace

int ExecuteGather(const tree::NodeView& view, const GatherArgs& args, const CallContext& ctx,
                  const std::vector<std::int64_t>* root_block_bytes,
                  const ExecuteOptions& options) {
  const bool relay = options.parent_comm != MPI_COMM_NULL;
  if (ctx.rank == args.root && !relay) {
    return GatherAtRoot(view, args, ctx, root_block_bytes, options);
  }
  return GatherAtNonRoot(view, args, ctx, options);
}

int ExecuteScatter(const tree::NodeView& view, const ScatterArgs& args, const CallContext& ctx,
                   const std::vector<std::int64_t>* root_block_bytes, int root_error,
                   const ExecuteOptions& options) {
  const bool relay = options.parent_comm != MPI_COMM_NULL;
  if (ctx.rank == args.root && !relay) {
    return ScatterAtRoot(view, args, ctx, root_block_bytes, root_error, options);
  }
  return ScatterAtNonRoot(view, args, ctx, options);
}

}  // namespace tuw::detail
