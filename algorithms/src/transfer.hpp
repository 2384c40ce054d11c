// The point-to-point layer of libtuwcoll's executors. Three promises:
//  - any size: a transfer larger than MaxMessageBytes() goes in pieces, so no message ever needs
//    a count above INT_MAX although a subtree may carry far more than 2 GiB;
//  - failures travel: a process that cannot produce valid data sends a *poisoned* message (empty,
//    its tag carries the MPI error class) in place of the data, so the receiver learns why instead
//    of waiting or taking garbage for data; receivers poison what they forward in turn;
//  - one retry: an MPI call that fails is noted and retried once in a form that completes the
//    protocol (a failed send is re-sent as poison, a failed receive/probe/wait is repeated), so a
//    single failure on one process never leaves a peer waiting.
// Framing (both ends agree per algorithm):
//  - kSizeKnown (adaptive trees, linear): the receiver knows the size; a zero-size transfer sends
//    no message; otherwise pieces of at most MaxMessageBytes() in order (or of a smaller piece size
//    that both ends name for the transfer: TUWk_Gatherv's pieces at the fit's cheapest size).
//  - kSelfDescribing (oblivious trees): the receiver learns the size by probing the first message;
//    every transfer sends at least one message: the data itself if it fits in one message, else a
//    size announcement (one int64, TUWCOLL_TAG_SIZE) followed by the pieces.
// Every piece is sent: a sender that has failed sends a poison in place of each piece left (so a
// receiver may post its pieces' receives ahead, up to kPiecesAhead at once, and takes them all
// whatever comes); a self-describing sender that failed before its first message sends one poison.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace tuw::detail {

// Largest single message: 1 GiB. TUWCOLL_TEST_MAX_MESSAGE_BYTES lowers it so that tests exercise
// the pieces with small data; it must then be the same on every process.
std::int64_t MaxMessageBytes();

// An error class travels in the tag of a poisoned message.
int PoisonTag(int error_code);
bool IsPoisonTag(int tag, int* error_class);

// The MPI error class of an error code (codes may carry more than the class).
int ErrorClassOf(int code);

// An uninitialised byte buffer, or nullptr if the memory is not there (the caller reports
// MPI_ERR_NO_MEM and drains what it would have received). Buffers of 8 MiB and more are backed
// by transparent huge pages where the kernel offers them: a fresh buffer is touched page by page,
// and with 4 KiB pages that first touch costs more than moving the data (2.6 s per GiB measured
// on this project's VMs, 0.1 s with huge pages).
struct ByteBufferDeleter {
  bool huge = false;
  void operator()(char* p) const;
};
using ByteBuffer = std::unique_ptr<char[], ByteBufferDeleter>;
constexpr std::int64_t kHugePageBufferMinBytes = std::int64_t{8} << 20;
ByteBuffer TryByteBuffer(std::int64_t bytes);

// A buffer kept between the runs of one plan (the starts of a persistent request), so that a start
// does not allocate again what the previous one freed: above glibc's 32 MiB mmap limit every
// allocation is fresh memory that the kernel zeroes (64 MiB: 9-12 ms here, 3-4 ms to rewrite a
// kept buffer). Get() reuses it where it is large enough; nullptr if the memory is not there.
class ScratchBuffer {
 public:
  char* Get(std::int64_t bytes);

 private:
  ByteBuffer buffer_;
  std::int64_t capacity_ = 0;
};

// A buffer kept between the calls on one communicator (internal.hpp's CallBuffers), for buffers
// below kHugePageBufferMinBytes only: those are plain pages, whose first touch is what keeping
// them saves; larger ones are huge pages, cheap to touch, and keeping them would hold that much
// memory for the communicator's life. Get(): the kept buffer (grown where too small) for such
// sizes, else a fresh one owned by *own; nullptr if the memory is not there.
class KeptBuffer {
 public:
  char* Get(std::int64_t bytes, ByteBuffer* own);

 private:
  ScratchBuffer kept_;
};

enum class Framing { kSizeKnown, kSelfDescribing };

class Transfers {
 public:
  // A receiver posts at most this many pieces of one transfer ahead: enough for a child's
  // subtree at the fit's cheapest piece size, few enough for a test's 7-byte pieces
  // (tree::kMaxModelPieces, the most pieces the model's rule gives a transfer, is the same).
  static constexpr int kPiecesAhead = 16;

  Transfers(MPI_Comm comm, Framing framing) : comm_(comm), framing_(framing) {}
  Transfers(const Transfers&) = delete;
  Transfers& operator=(const Transfers&) = delete;

  // The first failure this process saw or was told of (an error class); MPI_SUCCESS if none.
  // Once set, everything this process sends is poisoned.
  int error() const { return error_; }
  bool failed() const { return error_ != MPI_SUCCESS; }
  void Fail(int code);

  // Receives, posted now and completed by Finish(). dest == nullptr drains the transfer (after a
  // failure that left no place for it). piece_bytes > 0: the sender's pieces are of that size
  // (at most MaxMessageBytes()); both ends must name the same.
  void Receive(int source, char* dest, std::int64_t bytes, std::int64_t piece_bytes = 0);
  // A transfer that fits in one message straight into a typed buffer (the root's indexed types).
  void ReceiveTyped(int source, void* buf, int count, MPI_Datatype type, std::int64_t bytes);
  // kSelfDescribing: waits for the next transfer from source and returns its size (0 if it is a
  // poison, which is noted). Receive(source, ..., size) must follow.
  std::int64_t Probe(int source);

  // Sends, posted now. If this process has failed, a poison goes instead of the data.
  // synchronous: MPI_Issend, which completes only once the receiver has matched it, so that
  // Finish() after it waits for the message, not just for its buffer (an eager send completes
  // at once and leaves the transfer to share the link with whatever is posted next).
  void Send(int dest, const char* data, std::int64_t bytes, bool synchronous = false,
            std::int64_t piece_bytes = 0);
  // A transfer of `bytes` <= MaxMessageBytes() straight from a typed buffer.
  void SendTyped(int dest, const void* buf, int count, MPI_Datatype type, std::int64_t bytes,
                 bool synchronous = false);
  // Poison with this error class in place of a transfer of `bytes` the receiver expects: one per
  // piece (kSelfDescribing: one, which the receiver's probe finds).
  void SendPoison(int dest, int code, std::int64_t bytes = 0, std::int64_t piece_bytes = 0);

  // Completes everything posted (further pieces of long receives included). Returns error().
  int Finish();

 private:
  struct Inbound {
    int source;
    char* dest;               // contiguous destination (nullptr: typed, or drained without room)
    bool typed;               // one message into a typed buffer
    bool discard;             // drained: every piece lands in the same scratch
    int discard_capacity;     // room of that scratch
    std::int64_t bytes;       // the whole transfer
    std::int64_t piece;       // the size of its pieces (the last may be smaller)
    std::int64_t posted = 0;  // bytes whose pieces' receives are posted
    std::int64_t received = 0;
    int pending = 0;  // pieces posted and not yet settled
  };
  static std::int64_t PieceLimit(std::int64_t piece_bytes);  // 0: MaxMessageBytes()
  void Post(MPI_Request request, int inbound);
  void PostNextPiece(int inbound);
  void PostPieces(int inbound);  // up to kPiecesAhead pending (one while draining)
  void PostSend(int dest, const void* buf, int count, MPI_Datatype type, int tag,
                bool synchronous = false);
  void Settle(int inbound, const MPI_Status& status, bool status_has_error);
  int WaitAll(std::vector<MPI_Request>* requests, std::vector<MPI_Status>* statuses);

  MPI_Comm comm_;
  Framing framing_;
  int error_ = MPI_SUCCESS;
  std::vector<Inbound> inbound_;
  std::vector<MPI_Request> requests_;
  std::vector<int> request_inbound_;        // -1 for sends
  std::vector<int> probed_whole_;           // sources whose probed transfer is one data message
  std::deque<std::int64_t> announcements_;  // size announcements in flight (stable addresses)
  std::vector<ByteBuffer> scratch_;         // drain buffers
};

}  // namespace tuw::detail
