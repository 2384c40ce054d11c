// TUWk_Scatterv on an intracommunicator: the adaptive radix-k tree (Traeff 2017's construction,
// tree::BuildTree's tree) planned by the root. The root of a scatter knows every block size, so
// the construction's rounds, which exist to tell the others what only they know, are not needed:
// the root computes its own node (tree::AdaptiveNodeOf, O(p)) and sends each child the block
// sizes of the child's range (one small message, ahead of the data); each child computes its node
// from them (the subtree is the same construction over the range) and does the same for its
// children. A small call (tree::OneMessageCall) sends each child its sizes and its data in one
// message, taken by a receive posted with room for the largest: no message more than the data
// phase of a start of TUWk_Scatterv_init; and its tree is the one the root picks by the LogGP
// model (ModelScatterStep; the radix tree where a block is heavy, tree::SmallCallOnRadixTree): the
// radix tree or, where latency rules (b = 1), the LogP-greedy tree
// (tree/greedy_tree.hpp), whose shape depends on a range's number of ranks only and is named in
// every message's header. A larger one runs on the radix tree of the radix the model prices
// fastest at the call's size (LargeScatterRadix, also named in the headers) and sends the sizes a
// level ahead of the data, which then moves along the tree as in every scatter here
// (ExecuteScatter, in pieces where needed): about one latency more than the data phase, against
// ceil(log_k p) rounds of exchanges for a construction. A child does not know its parent before the
// sizes arrive: it receives them from any source, with a tag of the call's own
// (TUWCOLL_TAG_TREE_BASE + its number on the communicator), so that a later call's message cannot
// be taken for this one's. Errors: the root's bad arguments go down as an error in place of the
// sizes (the tree of empty blocks carries it, which every process can compute), so every process
// returns it. A non-root's own bad arguments, or a count that differs from the root's, are that
// process's error, as in MPI_Scatterv: the root does not learn of them (no message goes up), the
// process's subtree gets poison in place of data (transfer.hpp).
#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <new>

#include "../tree/greedy_tree.hpp"
#include "../tree/loggp.hpp"
#include "../tree/scatter_schedule.hpp"
#include "internal.hpp"

namespace tuw::detail {
namespace {

// A size message (tree::SizeMessageBytes): four int64 [error class, lo, hi, width | flags], then
// the block bytes of ranks lo..hi, each in `width` little-endian bytes, or with kUniformSizes in
// the flags one such field for all of them (none with an error); with kDataAttached the data of
// lo..hi follows in rank order (the caller appends it), and the flags name the tree of the
// range: 0 the radix tree, else the greedy tree's shape code (tree::ShapeCode, bits kStepShift
// on), which the root chose for the call (ModelScatterStep). Every message names the radix of
// the call's tree (bits kRadixShift on), which its root chose (a large call's by its size,
// LargeScatterRadix), so that a child needs no choice of its own.
constexpr std::int64_t kDataAttached = 1 << 8;
constexpr std::int64_t kUniformSizes = 1 << 9;
constexpr int kRadixShift = 10;
constexpr std::int64_t kRadixMask = std::int64_t{0xff} << kRadixShift;
constexpr int kStepShift = 24;
static_assert(tree::kMaxRadix <= 0xff, "the radix field holds 8 bits");

std::vector<unsigned char> EncodeSizes(std::int64_t error, std::int64_t lo, std::int64_t hi,
                                       const std::int64_t* sizes, int radix,
                                       bool data_attached = false, int step = 0) {
  const int n = sizes == nullptr ? 0 : static_cast<int>(hi - lo + 1);
  const tree::SizeLayout layout = tree::SizeMessageLayout(sizes, n);  // the format's one layout
  const int width = layout.width;
  std::vector<unsigned char> m(layout.bytes);
  const std::int64_t header[4] = {
      error, lo, hi,
      width | (layout.uniform ? kUniformSizes : 0) |
          static_cast<std::int64_t>(radix) << kRadixShift |
          (data_attached ? kDataAttached | static_cast<std::int64_t>(step) << kStepShift : 0)};
  std::memcpy(m.data(), header, sizeof header);
  unsigned char* out = m.data() + tree::kSizeHeaderBytes;
  for (int i = 0; i < layout.fields; ++i) {
    for (int b = 0; b < width; ++b) *out++ = static_cast<unsigned char>(sizes[i] >> (8 * b));
  }
  return m;
}

struct SizesReceived {
  std::int64_t error = MPI_SUCCESS, lo = 0, hi = -1;
  std::vector<std::int64_t> sizes;      // empty with an error
  const unsigned char* data = nullptr;  // the range's data, where it came with the sizes
  int step = 0;                         // the range's tree: 0 radix, else the greedy step
  int radix = 2;                        // the call's radix
};

// Decodes `bytes` of a size message; false if it is not one (for ranks [0, p), to `rank`).
bool DecodeSizes(const unsigned char* m, std::int64_t bytes, int rank, int p, SizesReceived* out) {
  if (bytes < tree::kSizeHeaderBytes) return false;
  std::int64_t header[4];
  std::memcpy(header, m, sizeof header);
  out->error = header[0];
  out->lo = header[1];
  out->hi = header[2];
  const std::int64_t width = header[3] & 0xff;
  const bool attached = (header[3] & kDataAttached) != 0;
  const bool uniform = (header[3] & kUniformSizes) != 0;
  out->step = static_cast<int>(header[3] >> kStepShift);
  out->radix = static_cast<int>((header[3] & kRadixMask) >> kRadixShift);
  tree::GreedyShape shape;
  if (out->lo < 0 || out->hi >= p || out->lo > rank || rank > out->hi ||
      (width != 1 && width != 2 && width != 4 && width != 8) || out->radix < 2 ||
      out->radix > tree::kMaxRadix ||
      (header[3] & ~(kDataAttached | kUniformSizes | 0xff | kRadixMask |
                     std::int64_t{0x7fffffff} << kStepShift)) != 0 ||
      (out->step > 0 && (!attached || !tree::ShapeOfCode(out->step, &shape))) ||
      (attached && out->error != MPI_SUCCESS)) {
    return false;
  }
  const std::int64_t n = out->error == MPI_SUCCESS ? out->hi - out->lo + 1 : 0;
  if (uniform && n < 2) return false;  // the sender writes one field only for n > 1
  const std::int64_t fields = uniform ? 1 : n;
  if (bytes < tree::kSizeHeaderBytes + width * fields) return false;
  out->sizes.assign(n, 0);
  const unsigned char* in = m + tree::kSizeHeaderBytes;
  for (std::int64_t i = 0; i < fields; ++i) {
    std::uint64_t value = 0;
    for (int b = 0; b < width; ++b) value |= static_cast<std::uint64_t>(*in++) << (8 * b);
    out->sizes[i] = static_cast<std::int64_t>(value);
  }
  if (uniform) std::fill(out->sizes.begin() + 1, out->sizes.end(), out->sizes[0]);
  // With the data attached it must be what the sizes add up to (checked without overflow).
  std::int64_t total = 0;
  for (std::int64_t i = 0; attached && i < n; ++i) {
    const std::int64_t s = out->sizes[i];
    if (s < 0 || s > bytes - total) return false;
    total += s;
  }
  out->data = attached ? in : nullptr;
  return bytes == tree::kSizeHeaderBytes + width * fields + (attached ? total : 0);
}

int TreeTag(const CallContext& ctx) {
  const std::uint32_t call = (*ctx.any_source_calls)++;
  return TUWCOLL_TAG_TREE_BASE + static_cast<int>(call % TUWCOLL_TREE_TAGS);
}

// The node of `rank` (absolute) in the tree over ranks lo..lo+n-1 with these sizes: the radix
// tree, or with step > 0 the greedy tree of that step.
tree::NodeView NodeInRange(const std::int64_t* sizes, int lo, int n, int fixed_root, int radix,
                           int rank, int step = 0) {
  tree::NodeView view = step > 0 ? tree::GreedyNodeOf(sizes, n, fixed_root, step, rank - lo, lo)
                                 : tree::AdaptiveNodeOf(sizes, n, fixed_root, radix, rank - lo);
  view.rank += lo;
  view.lo += lo;
  view.hi += lo;
  for (tree::ChildEdge& c : view.children) {
    c.child += lo;
    c.lo += lo;
    c.hi += lo;
  }
  return view;
}

// Messages of one call's tag in flight, each kept until Finish (stable addresses).
class Outbox {
 public:
  Outbox(int tag, MPI_Comm comm) : tag_(tag), comm_(comm) {}
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;
  ~Outbox() { Finish(); }
  // Posts `message` to `dest`, synchronously where `serial` (tree::ScatterSend); the failure.
  int Send(std::vector<unsigned char> message, int dest, bool serial = false) {
    std::vector<unsigned char>& m = messages_.emplace_back(std::move(message));
    MPI_Request& r = requests_.emplace_back(MPI_REQUEST_NULL);
    int failure = MPI_SUCCESS;
    WithRetry(&failure, [&] {
      const int count = static_cast<int>(m.size());
      return serial ? MPI_Issend(m.data(), count, MPI_BYTE, dest, tag_, comm_, &r)
                    : MPI_Isend(m.data(), count, MPI_BYTE, dest, tag_, comm_, &r);
    });
    return failure;
  }
  int Finish() {
    int failure = MPI_SUCCESS;
    if (requests_.empty()) return failure;
    WithRetry(&failure, [&] {
      return MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    });
    requests_.clear();
    messages_.clear();
    return failure;
  }

 private:
  int tag_;
  MPI_Comm comm_;
  std::deque<std::vector<unsigned char>> messages_;
  std::vector<MPI_Request> requests_;
};

// The size messages one process sends its children, each [error, lo, hi] and, without an error,
// the block bytes of the child's range (sizes: those of the sender's range view.lo..view.hi).
// Posted one by one (ExecuteOptions::send_ahead), completed by Finish.
class SizeMessages {
 public:
  SizeMessages(const tree::NodeView& view, const std::int64_t* sizes, int error, int radix, int tag,
               MPI_Comm comm)
      : view_(view), sizes_(sizes), error_(error), radix_(radix), out_(tag, comm) {}

  int Send(const tree::ChildEdge& c) {
    return out_.Send(EncodeSizes(sizes_ == nullptr ? error_ : MPI_SUCCESS, c.lo, c.hi,
                                 sizes_ == nullptr ? nullptr : sizes_ + (c.lo - view_.lo), radix_),
                     c.child);
  }
  // Every child's message (the deepest subtrees first), then Finish.
  int SendAll() {
    int failure = MPI_SUCCESS;
    for (auto c = view_.children.rbegin(); c != view_.children.rend(); ++c) {
      const int rc = Send(*c);
      if (failure == MPI_SUCCESS) failure = rc;
    }
    const int rc = Finish();
    return failure != MPI_SUCCESS ? failure : rc;
  }
  int Finish() { return out_.Finish(); }

 private:
  const tree::NodeView& view_;
  const std::int64_t* sizes_;
  int error_;
  int radix_;
  Outbox out_;
};

// The size messages as an executor's send_ahead; *failure: the first failure of a send.
ExecuteOptions SendingAhead(SizeMessages* messages, int* failure) {
  ExecuteOptions options;
  options.send_ahead = [messages, failure](const tree::ChildEdge& c) {
    const int rc = messages->Send(c);
    if (*failure == MPI_SUCCESS) *failure = rc;
    return rc;
  };
  return options;
}

// A small call: posts each child its sizes with its data in one message (sizes: those of
// view.lo..view.hi; radix, step: the tree's, named in the header), in the scatter schedule's order,
// all at once (kSmallCallSerialSendMinBytes); write(k, tail) puts the data of view.children[k]'s
// range at tail. A subtree whose data cannot be written gets the error in place of its sizes. The
// first failure; the caller finishes `out`.
template <typename Write>
int SendWithData(const tree::NodeView& view, const std::int64_t* sizes, int radix, int step,
                 Outbox* out, Write write) {
  int failure = MPI_SUCCESS;
  const auto note = [&failure](int rc) {
    if (failure == MPI_SUCCESS) failure = rc;
  };
  for (const tree::ScatterSend& send :
       tree::ScatterSchedule(view, {}, tree::kSmallCallSerialSendMinBytes)) {
    const tree::ChildEdge& c = view.children[send.child];
    std::vector<unsigned char> m = EncodeSizes(MPI_SUCCESS, c.lo, c.hi, sizes + (c.lo - view.lo),
                                               radix, /*data_attached=*/true, step);
    const std::size_t at = m.size();
    m.resize(at + static_cast<std::size_t>(c.bytes));
    const int rc = write(send.child, m.data() + at);
    if (rc != MPI_SUCCESS) {
      note(rc);
      m = EncodeSizes(ErrorClassOf(rc), c.lo, c.hi, nullptr, radix);
    }
    note(out->Send(std::move(m), c.child, send.serial));
    if (send.wait) note(out->Finish());
  }
  return failure;
}

int ScatterAtRoot(const ScatterArgs& args, const CallContext& ctx, int radix, int step_setting,
                  int ranks_per_node, int tag) {
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  const int local_error = CheckScatterArgs(args, ctx, &own_bytes, &block_bytes);
  if (local_error != MPI_SUCCESS) {  // the error goes down the tree of empty blocks
    const std::vector<std::int64_t> none(ctx.size, 0);
    const tree::NodeView view = NodeInRange(none.data(), 0, ctx.size, args.root, radix, ctx.rank);
    SizeMessages(view, nullptr, ErrorClassOf(local_error), radix, tag, ctx.private_comm).SendAll();
    return local_error;
  }
  if (tree::OneMessageCall(block_bytes.data(), ctx.size, MaxMessageBytes())) {
    const int step = step_setting >= 0 ? step_setting
                     : tree::SmallCallOnRadixTree(block_bytes)
                         ? 0  // a heavy block
                         : ModelScatterStep(ctx.size, tree::ShapeBlockBytes(block_bytes), radix,
                                            args.root, ranks_per_node);
    const tree::NodeView view =
        NodeInRange(block_bytes.data(), 0, ctx.size, args.root, radix, ctx.rank, step);
    Outbox out(tag, ctx.private_comm);
    int failure = SendWithData(
        view, block_bytes.data(), radix, step, &out, [&](std::size_t k, unsigned char* tail) {
          const tree::ChildEdge& c = view.children[k];
          return PackBlocks(args.sendbuf, args.sendcounts, args.displs, args.sendtype, c.lo, c.hi,
                            reinterpret_cast<char*>(tail), ctx.private_comm);
        });
    int local = MPI_SUCCESS;
    if (args.recvbuf != MPI_IN_PLACE) {
      local = LocalCopy(OffsetBy(args.sendbuf, args.displs[ctx.rank], args.sendtype),
                        args.sendcounts[ctx.rank], args.sendtype, args.recvbuf, args.recvcount,
                        args.recvtype, ctx.private_comm, ctx.rank);
    }
    const int finished = out.Finish();
    if (failure == MPI_SUCCESS) failure = finished;
    return local != MPI_SUCCESS ? local : failure;
  }
  // A larger call: the radix its size class models fastest (LargeScatterRadix), which the one
  // chosen for 4-byte blocks need not be.
  const int large_radix =
      LargeScatterRadix(ctx.size, tree::ShapeBlockBytes(block_bytes), args.root, ranks_per_node);
  const tree::NodeView view =
      NodeInRange(block_bytes.data(), 0, ctx.size, args.root, large_radix, ctx.rank);
  SizeMessages messages(view, block_bytes.data(), MPI_SUCCESS, large_radix, tag, ctx.private_comm);
  int failure = MPI_SUCCESS;
  const int rc =
      ExecuteScatter(view, args, ctx, &block_bytes, MPI_SUCCESS, SendingAhead(&messages, &failure));
  const int finished = messages.Finish();
  if (failure == MPI_SUCCESS) failure = finished;
  return failure != MPI_SUCCESS ? failure : rc;
}

int ScatterAtNonRoot(const ScatterArgs& args, const CallContext& ctx, int tag) {
  std::int64_t own_bytes = 0;
  const int local_error = CheckScatterArgs(args, ctx, &own_bytes, nullptr);
  int failure = MPI_SUCCESS;
  // The parent's first message (the sizes, with the data in a small call), from any source, into
  // room for the largest either can be: a receive posted at once, not a probe (SimGrid's
  // MPI_Probe polls: 2-4 us more a call at p = 560, b = 1, and not the same twice). A range
  // never holds the root, and its radix is the root's choice: at most p - 1 sizes.
  const std::int64_t capacity =
      std::max(std::min(tree::kOneMessageMaxBytes, MaxMessageBytes()),
               tree::kSizeHeaderBytes + 8 * static_cast<std::int64_t>(ctx.size - 1));
  // Kept between calls (CallBuffers: allocated and freed at each call, it made glibc trim and
  // regrow the heap at every call).
  ByteBuffer own_room;
  auto* message = reinterpret_cast<unsigned char*>(
      ctx.buffers ? ctx.buffers->first_message.Get(capacity, &own_room)
                  : (own_room = TryByteBuffer(capacity)).get());
  if (message == nullptr) throw std::bad_alloc();  // as the plain allocation it replaces
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Status status;
  WithRetry(&failure, [&] {
    return MPI_Irecv(message, static_cast<int>(capacity), MPI_BYTE, MPI_ANY_SOURCE, tag,
                     ctx.private_comm, &request);
  });
  WithRetry(&failure, [&] { return MPI_Wait(&request, &status); });
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  SizesReceived got;
  if (!DecodeSizes(message, bytes, ctx.rank, ctx.size, &got)) {
    return MPI_ERR_INTERN;  // not a size message of this library: nothing sensible to pass on
  }
  const int lo = static_cast<int>(got.lo);
  const int n = static_cast<int>(got.hi - got.lo + 1);
  if (got.error != MPI_SUCCESS) {  // the root's arguments are bad: pass it on along the tree of
                                   // empty blocks
    const std::vector<std::int64_t> none(n, 0);
    const tree::NodeView view = NodeInRange(none.data(), lo, n, -1, got.radix, ctx.rank);
    SizeMessages(view, nullptr, static_cast<int>(got.error), got.radix, tag, ctx.private_comm)
        .SendAll();
    return static_cast<int>(got.error);
  }
  const std::int64_t* sizes = got.sizes.data();
  tree::NodeView view = NodeInRange(sizes, lo, n, -1, got.radix, ctx.rank, got.step);
  view.parent = status.MPI_SOURCE;
  // A count that differs from the root's: this process's error (MPI_Scatterv's truncation).
  int own_error = local_error;
  if (own_error == MPI_SUCCESS && view.own_bytes != own_bytes) own_error = MPI_ERR_TRUNCATE;
  if (got.data != nullptr) {  // a small call: the range's data came with the sizes
    const tree::PieceOffsets offsets = tree::ComputePieceOffsets(view);  // the range's layout
    Outbox out(tag, ctx.private_comm);
    int sent = SendWithData(view, sizes, got.radix, got.step, &out,
                            [&](std::size_t k, unsigned char* tail) {
                              std::memcpy(tail, got.data + offsets.child[k],
                                          static_cast<std::size_t>(view.children[k].bytes));
                              return MPI_SUCCESS;
                            });
    int local = MPI_SUCCESS;
    if (own_error == MPI_SUCCESS && own_bytes > 0) {
      local = UnpackElements(reinterpret_cast<const char*>(got.data + offsets.own), args.recvcount,
                             args.recvtype, args.recvbuf, ctx.private_comm);
    }
    const int finished = out.Finish();
    if (sent == MPI_SUCCESS) sent = finished;
    if (own_error != MPI_SUCCESS) return own_error;
    if (failure != MPI_SUCCESS) return failure;
    return local != MPI_SUCCESS ? local : sent;
  }
  SizeMessages messages(view, sizes, MPI_SUCCESS, got.radix, tag, ctx.private_comm);
  int send_failure = MPI_SUCCESS;
  ExecuteOptions options = SendingAhead(&messages, &send_failure);
  options.prior_failure = failure != MPI_SUCCESS ? failure : own_error;
  const int rc = ExecuteScatter(view, args, ctx, nullptr, MPI_SUCCESS, options);
  const int finished = messages.Finish();
  if (failure == MPI_SUCCESS) failure = send_failure;
  if (failure == MPI_SUCCESS) failure = finished;
  if (own_error != MPI_SUCCESS) return own_error;
  return failure != MPI_SUCCESS ? failure : rc;
}

}  // namespace

int TuwkScatterv(const ScatterArgs& args) {
  if (IsIntercomm(args.comm)) return InterScatter(args, TreeAlgorithm::kAdaptive, kChooseRadix);
  CallContext ctx;
  int radix = kChooseRadix, step_setting = -1, ranks_per_node = 0;
  int rc = BeginCollective(args.comm, args.root, &ctx);
  if (rc == MPI_SUCCESS) rc = ResolveRadix(TreeAlgorithm::kAdaptive, ctx.size, &radix);
  if (rc == MPI_SUCCESS) rc = ScatterStepSetting(&step_setting);
  if (rc == MPI_SUCCESS) rc = RanksPerNodeSetting(&ranks_per_node);
  if (rc != MPI_SUCCESS) return rc;
  const int tag = TreeTag(ctx);
  if (ctx.rank == args.root) {
    return ScatterAtRoot(args, ctx, radix, step_setting, ranks_per_node, tag);
  }
  return ScatterAtNonRoot(args, ctx, tag);  // the radix comes in the root's messages
}

}  // namespace tuw::detail
