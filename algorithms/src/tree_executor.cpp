// Executes a gather or scatter tree (tree::NodeView) with non-blocking point-to-point messages.
// Blocks always travel in rank order, so a contiguous buffer per node suffices and no block is
// ever reordered; at the root, indexed datatypes put data straight into the user's buffer.
#include <algorithm>
#include <climits>
#include <memory>

#include "internal.hpp"

namespace tuw::detail {
namespace {

// Keeps the first error; later ones are usually consequences.
void Note(int* error, int rc) {
  if (*error == MPI_SUCCESS && rc != MPI_SUCCESS) *error = rc;
}

std::int64_t RangeBytes(const std::vector<std::int64_t>& block_bytes, int lo, int hi) {
  std::int64_t sum = 0;
  for (int i = lo; i <= hi; ++i) sum += block_bytes[i];
  return sum;
}

// An uninitialised byte buffer (std::vector would zero it, costing a pass over the data).
std::unique_ptr<char[]> ByteBuffer(std::int64_t bytes) {
  return std::unique_ptr<char[]>(new char[std::max<std::int64_t>(bytes, 1)]);
}

// Children in descending round: the scatter serves the largest subtree first.
std::vector<std::size_t> DescendingRounds(const tree::NodeView& view) {
  std::vector<std::size_t> order(view.children.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
  return order;
}

int WaitAll(std::vector<MPI_Request>* requests) {
  if (requests->empty()) return MPI_SUCCESS;
  std::vector<MPI_Status> statuses(requests->size());
  int rc = MPI_Waitall(static_cast<int>(requests->size()), requests->data(), statuses.data());
  if (rc == MPI_ERR_IN_STATUS) {
    for (const MPI_Status& s : statuses) {
      if (s.MPI_ERROR != MPI_SUCCESS && s.MPI_ERROR != MPI_ERR_PENDING) return s.MPI_ERROR;
    }
  }
  return rc;
}

void FreeTypes(std::vector<MPI_Datatype>* types) {
  for (MPI_Datatype& t : *types) MPI_Type_free(&t);
  types->clear();
}

// block_bytes == nullptr: the root's own arguments are bad; it only drains its children.
int GatherAtRoot(const tree::NodeView& view, const GatherArgs& a, const CallContext& ctx,
                 const std::vector<std::int64_t>* block_bytes, const ExecuteOptions& options) {
  int error = MPI_SUCCESS;
  std::vector<MPI_Request> requests;
  std::vector<MPI_Datatype> types;
  std::vector<std::unique_ptr<char[]>> drains;
  for (const tree::ChildEdge& c : view.children) {
    if (options.sizes_known_to_parents && c.bytes == 0) continue;
    if (TooLargeForIntCount(c.bytes)) {  // the child refuses to send it as well
      Note(&error, MPI_ERR_COUNT);
      continue;
    }
    MPI_Request request;
    if (options.sizes_known_to_parents &&
        (block_bytes == nullptr || c.bytes != RangeBytes(*block_bytes, c.lo, c.hi))) {
      // The processes' counts disagree with the root's recvcounts: take the message anyway so
      // that nobody waits, and report it.
      Note(&error, MPI_ERR_TRUNCATE);
      drains.push_back(ByteBuffer(c.bytes));
      Note(&error, MPI_Irecv(drains.back().get(), static_cast<int>(c.bytes), MPI_PACKED, c.child,
                             TUWCOLL_TAG_DATA, ctx.private_comm, &request));
    } else {
      MPI_Datatype range_type;
      int rc = MakeRangeType(a.recvcounts, a.displs, a.recvtype, c.lo, c.hi, &range_type);
      if (rc != MPI_SUCCESS) return rc;
      types.push_back(range_type);
      Note(&error, MPI_Irecv(a.recvbuf, 1, range_type, c.child, TUWCOLL_TAG_DATA, ctx.private_comm,
                             &request));
    }
    requests.push_back(request);
  }
  if (block_bytes != nullptr && a.sendbuf != MPI_IN_PLACE) {
    Note(&error, LocalCopy(a.sendbuf, a.sendcount, a.sendtype,
                           OffsetBy(a.recvbuf, a.displs[ctx.rank], a.recvtype),
                           a.recvcounts[ctx.rank], a.recvtype, ctx.private_comm, ctx.rank));
  }
  Note(&error, WaitAll(&requests));
  FreeTypes(&types);
  return error;
}

int GatherAtNonRoot(tree::NodeView view, const GatherArgs& a, const CallContext& ctx,
                    const ExecuteOptions& options) {
  int error = MPI_SUCCESS;
  const bool always_send = !options.sizes_known_to_parents;
  if (view.children.empty()) {
    if ((always_send || view.bytes > 0) && !TooLargeForIntCount(view.bytes)) {
      return MPI_Send(a.sendbuf, a.sendcount, a.sendtype, view.parent, TUWCOLL_TAG_DATA,
                      ctx.private_comm);
    }
    return TooLargeForIntCount(view.bytes) ? MPI_ERR_COUNT : MPI_SUCCESS;
  }
  // Oblivious tree: learn the children's sizes from their messages. MPI_Probe, not the
  // thread-safer MPI_Mprobe (which SimGrid's SMPI lacks): the receive below names the same
  // source and tag on the call's private communicator, so it matches the probed message
  // (messages between two processes do not overtake).
  const bool probed = !options.sizes_known_to_parents;
  if (probed) {
    view.bytes = view.own_bytes;
    for (tree::ChildEdge& c : view.children) {
      MPI_Status status;
      int rc = MPI_Probe(c.child, TUWCOLL_TAG_DATA, ctx.private_comm, &status);
      if (rc != MPI_SUCCESS) return rc;
      int count = 0;
      MPI_Get_count(&status, MPI_PACKED, &count);
      c.bytes = count;
      view.bytes += count;
    }
  }
  const tree::PieceOffsets offsets = tree::ComputePieceOffsets(view);
  auto buffer = ByteBuffer(view.bytes);
  if (view.own_bytes > 0) {
    if (TooLargeForIntCount(view.own_bytes)) {
      Note(&error, MPI_ERR_COUNT);
    } else {
      int position = 0;
      Note(&error, MPI_Pack(a.sendbuf, a.sendcount, a.sendtype, buffer.get() + offsets.own,
                            static_cast<int>(view.own_bytes), &position, ctx.private_comm));
    }
  }
  std::vector<MPI_Request> requests;
  for (std::size_t k = 0; k < view.children.size(); ++k) {
    const tree::ChildEdge& c = view.children[k];
    MPI_Request request;
    if (probed || (c.bytes > 0 && !TooLargeForIntCount(c.bytes))) {  // probed: even empty ones
      Note(&error, MPI_Irecv(buffer.get() + offsets.child[k], static_cast<int>(c.bytes), MPI_PACKED,
                             c.child, TUWCOLL_TAG_DATA, ctx.private_comm, &request));
    } else {
      if (TooLargeForIntCount(c.bytes)) Note(&error, MPI_ERR_COUNT);
      continue;
    }
    requests.push_back(request);
  }
  Note(&error, WaitAll(&requests));
  if (TooLargeForIntCount(view.bytes)) return MPI_ERR_COUNT;
  if (always_send || view.bytes > 0) {
    Note(&error, MPI_Send(buffer.get(), static_cast<int>(view.bytes), MPI_PACKED, view.parent,
                          TUWCOLL_TAG_DATA, ctx.private_comm));
  }
  return error;
}

// block_bytes == nullptr: the root's own arguments are bad; it only feeds its children zeros.
int ScatterAtRoot(const tree::NodeView& view, const ScatterArgs& a, const CallContext& ctx,
                  const std::vector<std::int64_t>* block_bytes, const ExecuteOptions& options) {
  int error = MPI_SUCCESS;
  std::vector<MPI_Request> requests;
  std::vector<MPI_Datatype> types;
  std::vector<std::vector<std::int64_t>> headers;
  std::vector<std::unique_ptr<char[]>> fillers;
  headers.reserve(view.children.size());
  for (std::size_t k : DescendingRounds(view)) {
    const tree::ChildEdge& c = view.children[k];
    MPI_Request request;
    if (!options.sizes_known_to_parents && c.hi > c.lo) {  // an inner node needs the sizes
      headers.emplace_back(block_bytes->begin() + c.lo, block_bytes->begin() + c.hi + 1);
      Note(&error, MPI_Isend(headers.back().data(), c.hi - c.lo + 1, MPI_INT64_T, c.child,
                             TUWCOLL_TAG_HEADER, ctx.private_comm, &request));
      requests.push_back(request);
    }
    if (options.sizes_known_to_parents && c.bytes == 0) continue;
    if (TooLargeForIntCount(c.bytes)) {
      Note(&error, MPI_ERR_COUNT);
      continue;
    }
    if (options.sizes_known_to_parents &&
        (block_bytes == nullptr || c.bytes != RangeBytes(*block_bytes, c.lo, c.hi))) {
      // The processes expect other sizes than sendcounts say: send what they expect (zeros) so
      // that nobody waits, and report it.
      Note(&error, MPI_ERR_TRUNCATE);
      fillers.push_back(ByteBuffer(c.bytes));
      std::fill_n(fillers.back().get(), c.bytes, 0);
      Note(&error, MPI_Isend(fillers.back().get(), static_cast<int>(c.bytes), MPI_PACKED, c.child,
                             TUWCOLL_TAG_DATA, ctx.private_comm, &request));
    } else {
      MPI_Datatype range_type;
      int rc = MakeRangeType(a.sendcounts, a.displs, a.sendtype, c.lo, c.hi, &range_type);
      if (rc != MPI_SUCCESS) return rc;
      types.push_back(range_type);
      Note(&error, MPI_Isend(a.sendbuf, 1, range_type, c.child, TUWCOLL_TAG_DATA, ctx.private_comm,
                             &request));
    }
    requests.push_back(request);
  }
  if (block_bytes != nullptr && a.recvbuf != MPI_IN_PLACE) {
    Note(&error,
         LocalCopy(OffsetBy(a.sendbuf, a.displs[ctx.rank], a.sendtype), a.sendcounts[ctx.rank],
                   a.sendtype, a.recvbuf, a.recvcount, a.recvtype, ctx.private_comm, ctx.rank));
  }
  Note(&error, WaitAll(&requests));
  FreeTypes(&types);
  return error;
}

int ScatterAtNonRoot(tree::NodeView view, const ScatterArgs& a, const CallContext& ctx,
                     const ExecuteOptions& options) {
  int error = MPI_SUCCESS;
  const bool always_send = !options.sizes_known_to_parents;
  if (view.children.empty()) {
    if ((always_send || view.bytes > 0) && !TooLargeForIntCount(view.bytes)) {
      return MPI_Recv(a.recvbuf, a.recvcount, a.recvtype, view.parent, TUWCOLL_TAG_DATA,
                      ctx.private_comm, MPI_STATUS_IGNORE);
    }
    return TooLargeForIntCount(view.bytes) ? MPI_ERR_COUNT : MPI_SUCCESS;
  }
  std::vector<std::int64_t> header;
  bool own_matches = true;
  if (!options.sizes_known_to_parents) {  // oblivious: the parent sends the block sizes first
    header.resize(view.hi - view.lo + 1);
    int rc = MPI_Recv(header.data(), static_cast<int>(header.size()), MPI_INT64_T, view.parent,
                      TUWCOLL_TAG_HEADER, ctx.private_comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    own_matches = header[view.rank - view.lo] == view.own_bytes;
    view.own_bytes = header[view.rank - view.lo];
    view.bytes = RangeBytes(header, 0, static_cast<int>(header.size()) - 1);
    for (tree::ChildEdge& c : view.children) {
      c.bytes = RangeBytes(header, c.lo - view.lo, c.hi - view.lo);
    }
  }
  const tree::PieceOffsets offsets = tree::ComputePieceOffsets(view);
  auto buffer = ByteBuffer(view.bytes);
  if (TooLargeForIntCount(view.bytes)) {
    Note(&error, MPI_ERR_COUNT);
    std::fill_n(buffer.get(), view.bytes, 0);
  } else if (always_send || view.bytes > 0) {
    Note(&error, MPI_Recv(buffer.get(), static_cast<int>(view.bytes), MPI_PACKED, view.parent,
                          TUWCOLL_TAG_DATA, ctx.private_comm, MPI_STATUS_IGNORE));
  }
  std::vector<MPI_Request> requests;
  for (std::size_t k : DescendingRounds(view)) {
    const tree::ChildEdge& c = view.children[k];
    MPI_Request request;
    if (!options.sizes_known_to_parents && c.hi > c.lo) {
      Note(&error, MPI_Isend(header.data() + (c.lo - view.lo), c.hi - c.lo + 1, MPI_INT64_T,
                             c.child, TUWCOLL_TAG_HEADER, ctx.private_comm, &request));
      requests.push_back(request);
    }
    if (!(always_send || c.bytes > 0)) continue;
    if (TooLargeForIntCount(c.bytes)) {
      Note(&error, MPI_ERR_COUNT);
      continue;
    }
    Note(&error, MPI_Isend(buffer.get() + offsets.child[k], static_cast<int>(c.bytes), MPI_PACKED,
                           c.child, TUWCOLL_TAG_DATA, ctx.private_comm, &request));
    requests.push_back(request);
  }
  if (!own_matches) {
    Note(&error, MPI_ERR_TRUNCATE);
  } else if (view.own_bytes > 0) {
    int position = 0;
    Note(&error, MPI_Unpack(buffer.get() + offsets.own, static_cast<int>(view.own_bytes), &position,
                            a.recvbuf, a.recvcount, a.recvtype, ctx.private_comm));
  }
  Note(&error, WaitAll(&requests));
  return error;
}

}  // namespace

int ExecuteGather(const tree::NodeView& view, const GatherArgs& args, const CallContext& ctx,
                  const std::vector<std::int64_t>* root_block_bytes,
                  const ExecuteOptions& options) {
  if (ctx.rank == args.root) return GatherAtRoot(view, args, ctx, root_block_bytes, options);
  return GatherAtNonRoot(view, args, ctx, options);
}

int ExecuteScatter(const tree::NodeView& view, const ScatterArgs& args, const CallContext& ctx,
                   const std::vector<std::int64_t>* root_block_bytes,
                   const ExecuteOptions& options) {
  if (ctx.rank == args.root) return ScatterAtRoot(view, args, ctx, root_block_bytes, options);
  return ScatterAtNonRoot(view, args, ctx, options);
}

}  // namespace tuw::detail
