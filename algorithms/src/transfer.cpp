#include "transfer.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <new>

#include "tuwcoll.h"

namespace tuw::detail {
namespace {

constexpr std::int64_t kDefaultMaxMessageBytes = std::int64_t{1} << 30;
constexpr int kLargestPoisonClass = 999;

std::int64_t ReadMaxMessageBytes() {
  const char* text = std::getenv("TUWCOLL_TEST_MAX_MESSAGE_BYTES");
  if (text == nullptr || *text == '\0') return kDefaultMaxMessageBytes;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value < 1 || value > kDefaultMaxMessageBytes) return kDefaultMaxMessageBytes;
  return value;
}

}  // namespace

std::int64_t MaxMessageBytes() {
  static const std::int64_t limit = ReadMaxMessageBytes();
  return limit;
}

int ErrorClassOf(int code) {
  if (code == MPI_SUCCESS) return MPI_SUCCESS;
  int error_class = MPI_ERR_OTHER;
  if (MPI_Error_class(code, &error_class) != MPI_SUCCESS) return MPI_ERR_OTHER;
  return error_class;
}

int PoisonTag(int error_code) {
  int error_class = ErrorClassOf(error_code);
  if (error_class <= MPI_SUCCESS || error_class > kLargestPoisonClass) error_class = MPI_ERR_OTHER;
  return TUWCOLL_TAG_POISON_BASE + error_class;
}

bool IsPoisonTag(int tag, int* error_class) {
  if (tag <= TUWCOLL_TAG_POISON_BASE || tag > TUWCOLL_TAG_POISON_BASE + kLargestPoisonClass) {
    return false;
  }
  *error_class = tag - TUWCOLL_TAG_POISON_BASE;
  return true;
}

void ByteBufferDeleter::operator()(char* p) const {
  if (huge) {
    std::free(p);
  } else {
    delete[] p;
  }
}

ByteBuffer TryByteBuffer(std::int64_t bytes) {
  constexpr std::int64_t kHugePage = std::int64_t{2} << 20;
  if (bytes >= kHugePageBufferMinBytes) {
    const std::int64_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    char* p = static_cast<char*>(std::aligned_alloc(kHugePage, rounded));
    if (p == nullptr) return ByteBuffer(nullptr, ByteBufferDeleter{true});
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without it, plain pages
    return ByteBuffer(p, ByteBufferDeleter{true});
  }
  // Uninitialised on purpose (std::vector would zero it: a pass over the data).
  return ByteBuffer(new (std::nothrow) char[std::max<std::int64_t>(bytes, 1)], ByteBufferDeleter{});
}

char* ScratchBuffer::Get(std::int64_t bytes) {
  if (buffer_ && capacity_ >= bytes) return buffer_.get();
  buffer_.reset();  // first, so that the old and the new one are never both held
  capacity_ = 0;
  buffer_ = TryByteBuffer(bytes);
  if (buffer_) capacity_ = bytes;
  return buffer_.get();
}

char* KeptBuffer::Get(std::int64_t bytes, ByteBuffer* own) {
  if (bytes < kHugePageBufferMinBytes) return kept_.Get(bytes);
  *own = TryByteBuffer(bytes);
  return own->get();
}

void Transfers::Fail(int code) {
  if (error_ == MPI_SUCCESS && code != MPI_SUCCESS) error_ = ErrorClassOf(code);
}

void Transfers::Post(MPI_Request request, int inbound) {
  requests_.push_back(request);
  request_inbound_.push_back(inbound);
}

void Transfers::PostNextPiece(int index) {
  Inbound& in = inbound_[index];
  const int piece = static_cast<int>(std::min(in.piece, in.bytes - in.posted));
  char* dest = in.dest == nullptr ? nullptr : (in.discard ? in.dest : in.dest + in.posted);
  const int room = dest == nullptr ? 0 : (in.discard ? in.discard_capacity : piece);
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = MPI_Irecv(dest, room, MPI_BYTE, in.source, MPI_ANY_TAG, comm_, &request);
  if (rc != MPI_SUCCESS) {
    Fail(rc);
    rc = MPI_Irecv(dest, room, MPI_BYTE, in.source, MPI_ANY_TAG, comm_, &request);
    if (rc != MPI_SUCCESS) {  // a second failure: give up on this transfer
      in.posted = in.bytes;
      return;
    }
  }
  in.posted += piece;
  ++in.pending;
  Post(request, index);
}

void Transfers::PostPieces(int index) {
  // A drained transfer's pieces share one scratch: one at a time.
  const int ahead = inbound_[index].discard ? 1 : kPiecesAhead;
  while (inbound_[index].posted < inbound_[index].bytes && inbound_[index].pending < ahead) {
    PostNextPiece(index);
  }
}

void Transfers::Receive(int source, char* dest, std::int64_t bytes, std::int64_t piece_bytes) {
  // A probed transfer that is one data message (not an announcement) is that message, any size.
  bool one_message = false;
  auto probed = std::find(probed_whole_.begin(), probed_whole_.end(), source);
  if (probed != probed_whole_.end()) {
    probed_whole_.erase(probed);
    one_message = true;
  }
  if (bytes <= 0 && !one_message) return;
  bytes = std::max<std::int64_t>(bytes, 0);
  const std::int64_t piece =
      one_message ? std::max<std::int64_t>(bytes, 1) : PieceLimit(piece_bytes);
  Inbound in{source, dest, false, false, 0, bytes, piece};
  if (dest == nullptr && bytes > 0) {  // drain into a scratch piece; no room at all if none
    in.discard = true;
    scratch_.push_back(TryByteBuffer(std::min(bytes, piece)));
    in.dest = scratch_.back().get();
    in.discard_capacity = in.dest == nullptr ? 0 : static_cast<int>(std::min(bytes, piece));
  }
  inbound_.push_back(in);
  const int index = static_cast<int>(inbound_.size()) - 1;
  if (bytes == 0) return PostNextPiece(index);  // (its one message, empty)
  PostPieces(index);
}

void Transfers::ReceiveTyped(int source, void* buf, int count, MPI_Datatype type,
                             std::int64_t bytes) {
  auto probed = std::find(probed_whole_.begin(), probed_whole_.end(), source);
  const bool one_empty_message = probed != probed_whole_.end() && bytes == 0;
  if (probed != probed_whole_.end()) probed_whole_.erase(probed);
  if (bytes <= 0 && !one_empty_message) return;
  Inbound in{source, nullptr, true, false, 0, bytes, bytes};
  in.posted = bytes;  // its one message, posted here
  in.pending = 1;
  inbound_.push_back(in);
  const int index = static_cast<int>(inbound_.size()) - 1;
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = MPI_Irecv(buf, count, type, source, MPI_ANY_TAG, comm_, &request);
  if (rc != MPI_SUCCESS) {
    Fail(rc);
    rc = MPI_Irecv(buf, count, type, source, MPI_ANY_TAG, comm_, &request);
    if (rc != MPI_SUCCESS) return;
  }
  Post(request, index);
}

std::int64_t Transfers::Probe(int source) {
  MPI_Status status;
  int rc = MPI_Probe(source, MPI_ANY_TAG, comm_, &status);
  if (rc != MPI_SUCCESS) {
    Fail(rc);
    rc = MPI_Probe(source, MPI_ANY_TAG, comm_, &status);
    if (rc != MPI_SUCCESS) return -1;
  }
  int error_class = MPI_SUCCESS;
  if (IsPoisonTag(status.MPI_TAG, &error_class)) {
    Fail(error_class);
    rc = MPI_Recv(nullptr, 0, MPI_BYTE, source, status.MPI_TAG, comm_, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
      MPI_Recv(nullptr, 0, MPI_BYTE, source, status.MPI_TAG, comm_, MPI_STATUS_IGNORE);
    return -1;
  }
  if (status.MPI_TAG == TUWCOLL_TAG_SIZE) {
    std::int64_t announced = -1;
    rc = MPI_Recv(&announced, 1, MPI_INT64_T, source, TUWCOLL_TAG_SIZE, comm_, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
      Fail(rc);
      rc = MPI_Recv(&announced, 1, MPI_INT64_T, source, TUWCOLL_TAG_SIZE, comm_, MPI_STATUS_IGNORE);
    }
    return rc == MPI_SUCCESS ? announced : -1;
  }
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  probed_whole_.push_back(source);
  return bytes;
}

void Transfers::PostSend(int dest, const void* buf, int count, MPI_Datatype type, int tag,
                         bool synchronous) {
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = synchronous ? MPI_Issend(buf, count, type, dest, tag, comm_, &request)
                       : MPI_Isend(buf, count, type, dest, tag, comm_, &request);
  if (rc != MPI_SUCCESS) {
    Fail(rc);  // the receiver still expects a message: tell it why none comes
    rc = MPI_Isend(nullptr, 0, MPI_BYTE, dest, PoisonTag(rc), comm_, &request);
    if (rc != MPI_SUCCESS) return;
  }
  Post(request, -1);
}

std::int64_t Transfers::PieceLimit(std::int64_t piece_bytes) {
  return piece_bytes > 0 ? std::min(piece_bytes, MaxMessageBytes()) : MaxMessageBytes();
}

void Transfers::SendPoison(int dest, int code, std::int64_t bytes, std::int64_t piece_bytes) {
  const std::int64_t limit = PieceLimit(piece_bytes);
  const std::int64_t pieces = framing_ == Framing::kSelfDescribing
                                  ? 1
                                  : std::max<std::int64_t>((bytes + limit - 1) / limit, 1);
  for (std::int64_t k = 0; k < pieces; ++k) PostSend(dest, nullptr, 0, MPI_BYTE, PoisonTag(code));
}

void Transfers::Send(int dest, const char* data, std::int64_t bytes, bool synchronous,
                     std::int64_t piece_bytes) {
  // Size known and zero: the receiver expects no message at all, not even a poison.
  if (framing_ == Framing::kSizeKnown && bytes == 0) return;
  const std::int64_t limit = PieceLimit(piece_bytes);
  if (framing_ == Framing::kSelfDescribing) {
    if (failed()) return SendPoison(dest, error_);  // the receiver probes it and stops
    if (bytes <= limit) {
      return PostSend(dest, data, static_cast<int>(bytes), MPI_BYTE, TUWCOLL_TAG_DATA, synchronous);
    }
    announcements_.push_back(bytes);
    PostSend(dest, &announcements_.back(), 1, MPI_INT64_T, TUWCOLL_TAG_SIZE);
    if (failed()) return;  // a poison went in its place: the receiver expects nothing more
  }
  // Every piece goes, as a poison once this process has failed: the receiver may have posted them.
  for (std::int64_t offset = 0; offset < bytes; offset += limit) {
    if (failed()) {
      SendPoison(dest, error_);
      continue;
    }
    const int piece = static_cast<int>(std::min(limit, bytes - offset));
    PostSend(dest, data + offset, piece, MPI_BYTE, TUWCOLL_TAG_DATA, synchronous);
  }
}

void Transfers::SendTyped(int dest, const void* buf, int count, MPI_Datatype type,
                          std::int64_t bytes, bool synchronous) {
  if (framing_ == Framing::kSizeKnown && bytes == 0) return;
  if (failed()) return SendPoison(dest, error_);
  PostSend(dest, buf, count, type, TUWCOLL_TAG_DATA, synchronous);
}

int Transfers::WaitAll(std::vector<MPI_Request>* requests, std::vector<MPI_Status>* statuses) {
  statuses->assign(requests->size(), MPI_Status{});
  int rc = MPI_Waitall(static_cast<int>(requests->size()), requests->data(), statuses->data());
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) {
    Fail(rc);  // nothing completed: wait once more
    rc = MPI_Waitall(static_cast<int>(requests->size()), requests->data(), statuses->data());
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) {
      Fail(rc);  // give up on these requests; their statuses say nothing
    }
  }
  return rc;
}

void Transfers::Settle(int index, const MPI_Status& status, bool status_has_error) {
  Inbound& in = inbound_[index];
  --in.pending;
  int error_class = MPI_SUCCESS;
  if (IsPoisonTag(status.MPI_TAG, &error_class)) {
    Fail(error_class);
    return PostPieces(index);  // the poisons of the pieces left follow: take them all
  }
  if (status_has_error && status.MPI_ERROR != MPI_SUCCESS) {
    Fail(status.MPI_ERROR);
    in.posted = in.bytes;  // e.g. a truncated piece: the rest of the transfer cannot be placed
    return;
  }
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  if (in.typed) {
    if (bytes != in.bytes) Fail(MPI_ERR_TRUNCATE);
    return;
  }
  in.received += bytes;
  if (bytes == 0 && in.bytes > 0) {  // the sender stopped short
    Fail(MPI_ERR_TRUNCATE);
    in.posted = in.bytes;
    return;
  }
  PostPieces(index);
  // A piece shorter than its receive (the sender's pieces of another size) leaves a gap.
  if (in.pending == 0 && in.posted >= in.bytes && in.received < in.bytes) Fail(MPI_ERR_TRUNCATE);
}

int Transfers::Finish() {
  std::vector<MPI_Status> statuses;
  while (!requests_.empty()) {
    std::vector<MPI_Request> requests;
    std::vector<int> owners;
    requests.swap(requests_);
    owners.swap(request_inbound_);
    const int rc = WaitAll(&requests, &statuses);
    const bool statuses_valid = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
    for (std::size_t k = 0; k < requests.size() && statuses_valid; ++k) {
      const MPI_Status& status = statuses[k];
      const bool has_error = rc == MPI_ERR_IN_STATUS;
      if (has_error && status.MPI_ERROR == MPI_ERR_PENDING) {  // not done yet: wait again
        Post(requests[k], owners[k]);
        continue;
      }
      if (owners[k] >= 0) {
        Settle(owners[k], status, has_error);
      } else if (has_error && status.MPI_ERROR != MPI_SUCCESS) {
        Fail(status.MPI_ERROR);
      }
    }
  }
  inbound_.clear();
  scratch_.clear();
  announcements_.clear();
  return error_;
}

}  // namespace tuw::detail
