#include <algorithm>
#include <climits>
#include <cstring>

#include "internal.hpp"

namespace tuw::detail {
namespace {

int DeletePrivateComms(MPI_Comm, int, void* attribute, void*) {
  auto* comms = static_cast<PrivateComms*>(attribute);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    if (comms->local != MPI_COMM_NULL && comms->local != comms->comm) MPI_Comm_free(&comms->local);
    MPI_Comm_free(&comms->comm);
  }
  delete comms;
  return MPI_SUCCESS;
}

// An intercommunicator's local group as an intracommunicator: merge both groups, then split
// them apart again. MPI_Comm_split rather than MPI_Comm_create_group, which crashes in MPICH 4.0
// on a merged intercommunicator. Both groups pass high = 0, so either may come first in the
// merged order, but each keeps its local order: the group whose merged rank equals its local
// rank is the first one.
int LocalGroupComm(MPI_Comm inter, MPI_Comm* local) {
  MPI_Comm merged = MPI_COMM_NULL;
  int rc = MPI_Intercomm_merge(inter, 0, &merged);
  if (rc != MPI_SUCCESS) return rc;
  int merged_rank = 0;
  int local_rank = 0;
  MPI_Comm_rank(merged, &merged_rank);
  MPI_Comm_rank(inter, &local_rank);
  const int color = merged_rank == local_rank ? 0 : 1;
  rc = MPI_Comm_split(merged, color, local_rank, local);
  MPI_Comm_free(&merged);
  if (rc == MPI_SUCCESS) MPI_Comm_set_errhandler(*local, MPI_ERRORS_RETURN);
  return rc;
}

// The attribute key of the private duplicates, created once per process by the first call.
// A function-local static: threads that make their first calls at the same time, each on its
// own communicator (MPI_THREAD_MULTIPLE), wait for one key instead of each creating one and
// overwriting the others' - after which a process would look its duplicate up under the wrong
// key and, alone among the processes, duplicate the communicator again: a hang.
struct Keyval {
  int value = MPI_KEYVAL_INVALID;
  int rc = MPI_SUCCESS;
};
const Keyval& PrivateCommKeyval() {
  static const Keyval keyval = [] {
    Keyval k;
    k.rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, DeletePrivateComms, &k.value, nullptr);
    return k;
  }();
  return keyval;
}

}  // namespace

// The private duplicate keeps our point-to-point traffic apart from the user's messages and
// from other collectives on the same communicator. It is made once per communicator (the first
// call is collective anyway) and freed when the user frees the communicator.
int GetPrivateComms(MPI_Comm comm, PrivateComms* out) {
  const Keyval& keyval = PrivateCommKeyval();
  if (keyval.rc != MPI_SUCCESS) return keyval.rc;
  void* attribute = nullptr;
  int found = 0;
  int rc = MPI_Comm_get_attr(comm, keyval.value, &attribute, &found);
  if (rc != MPI_SUCCESS) return rc;
  if (found) {
    *out = *static_cast<PrivateComms*>(attribute);
    return MPI_SUCCESS;
  }
  auto* comms = new PrivateComms;
  rc = MPI_Comm_dup(comm, &comms->comm);
  if (rc != MPI_SUCCESS) {
    delete comms;
    return rc;
  }
  MPI_Comm_set_errhandler(comms->comm, MPI_ERRORS_RETURN);
  MPI_Comm_set_name(comms->comm, "libtuwcoll private");
  int size = 0;
  MPI_Comm_size(comm, &size);
  comms->calls = std::make_shared<std::vector<std::uint32_t>>(size, 0);
  comms->buffers = std::make_shared<std::vector<CallBuffers>>(size);
  int is_inter = 0;
  MPI_Comm_test_inter(comm, &is_inter);
  comms->local = comms->comm;
  if (is_inter) {
    rc = LocalGroupComm(comms->comm, &comms->local);
    if (rc != MPI_SUCCESS) {
      MPI_Comm_free(&comms->comm);
      delete comms;
      return rc;
    }
  }
  // A simulator that runs all ranks in one process (SimGrid SMPI) shares MPI_COMM_WORLD's object,
  // and so its attributes, between the ranks: another rank may have set ours during the
  // (collective) dup. Setting it again would run the delete callback on the duplicate that rank
  // uses; take that one instead. Real MPI keeps attributes per process: never found here.
  rc = MPI_Comm_get_attr(comm, keyval.value, &attribute, &found);
  if (rc == MPI_SUCCESS && found) {
    DeletePrivateComms(comm, keyval.value, comms, nullptr);
    *out = *static_cast<PrivateComms*>(attribute);
    return MPI_SUCCESS;
  }
  rc = MPI_Comm_set_attr(comm, keyval.value, comms);
  if (rc != MPI_SUCCESS) {
    DeletePrivateComms(comm, keyval.value, comms, nullptr);
    return rc;
  }
  *out = *comms;
  return MPI_SUCCESS;
}

int RaiseError(MPI_Comm comm, int code) {
  if (code == MPI_SUCCESS) return code;
  MPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
  return code;
}

bool IsIntercomm(MPI_Comm comm) {
  int is_inter = 0;
  return comm != MPI_COMM_NULL && MPI_Comm_test_inter(comm, &is_inter) == MPI_SUCCESS && is_inter;
}

int RootArrayLength(MPI_Comm comm, int root) {
  if (comm == MPI_COMM_NULL) return 0;
  int n = 0;
  if (IsIntercomm(comm)) {
    if (root != MPI_ROOT) return 0;
    MPI_Comm_remote_size(comm, &n);
    return n;
  }
  int rank = -1;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || rank != root) return 0;
  MPI_Comm_size(comm, &n);
  return n;
}

int BeginCollective(MPI_Comm comm, int root, CallContext* ctx) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  if (IsIntercomm(comm)) return MPI_ERR_COMM;  // the caller takes the intercommunicator path
  MPI_Comm_rank(comm, &ctx->rank);
  MPI_Comm_size(comm, &ctx->size);
  if (root < 0 || root >= ctx->size) return MPI_ERR_ROOT;
  PrivateComms comms;
  int rc = GetPrivateComms(comm, &comms);
  ctx->private_comm = comms.comm;
  if (rc == MPI_SUCCESS) {
    ctx->any_source_calls = &(*comms.calls)[ctx->rank];
    // shares the ownership of the vector (a plan may outlive this call)
    ctx->buffers = std::shared_ptr<CallBuffers>(comms.buffers, &(*comms.buffers)[ctx->rank]);
  }
  return rc;
}

std::int64_t SignatureBytes(Count count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return -1;
  MPI_Count type_size = 0;
  if (MPI_Type_size_x(type, &type_size) != MPI_SUCCESS || type_size == MPI_UNDEFINED) return -1;
  return static_cast<std::int64_t>(count) * static_cast<std::int64_t>(type_size);
}

int RootBlockBytes(const Count* counts, MPI_Datatype type, int p,
                   std::vector<std::int64_t>* block_bytes) {
  block_bytes->assign(p, 0);
  for (int i = 0; i < p; ++i) {
    if (counts[i] < 0) return MPI_ERR_COUNT;
    const std::int64_t bytes = SignatureBytes(counts[i], type);
    if (bytes < 0) return MPI_ERR_TYPE;
    (*block_bytes)[i] = bytes;
  }
  return MPI_SUCCESS;
}

int MakeRangeType(const Count* counts, const Count* displs, MPI_Datatype type, int lo, int hi,
                  MPI_Datatype* range_type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  const int n = hi - lo + 1;
  std::vector<int> lengths(n);
  std::vector<MPI_Aint> byte_displs(n);
  for (int i = 0; i < n; ++i) {
    if (counts[lo + i] > INT_MAX) return MPI_ERR_COUNT;
    lengths[i] = IntCount(counts[lo + i]);
    byte_displs[i] = static_cast<MPI_Aint>(displs[lo + i]) * extent;
  }
  int rc = MPI_Type_create_hindexed(n, lengths.data(), byte_displs.data(), type, range_type);
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Type_commit(range_type);
  if (rc != MPI_SUCCESS) MPI_Type_free(range_type);
  return rc;
}

namespace {

// Elements of `type` per MPI_Pack step: the packed bytes of one step fit in MaxMessageBytes().
int ElementsPerStep(MPI_Count type_size) {
  if (type_size <= 0) return INT_MAX;
  return static_cast<int>(std::max<std::int64_t>(1, MaxMessageBytes() / type_size));
}

// `n` elements of `type` at `buf` as MPI_Pack and MPI_Unpack can take them. MPI_BOTTOM (a null
// pointer in MPICH and Open MPI) is a valid buffer for both, with a type of absolute addresses,
// but MPICH 4.0 rejects a null buffer there with MPI_ERR_ARG: the elements are then addressed
// from a non-null anchor through a type shifted back by the anchor's address.
class PackableBuffer {
 public:
  PackableBuffer(void* buf, int n, MPI_Datatype type) : buf_(buf), count_(n), type_(type) {
    if (buf != MPI_BOTTOM) return;
    static char anchor;
    MPI_Aint anchor_address = 0;
    rc_ = MPI_Get_address(&anchor, &anchor_address);
    const MPI_Aint shift = MPI_Aint_diff(0, anchor_address);
    if (rc_ == MPI_SUCCESS) rc_ = MPI_Type_create_struct(1, &n, &shift, &type, &shifted_);
    if (rc_ == MPI_SUCCESS) rc_ = MPI_Type_commit(&shifted_);
    buf_ = &anchor;
    count_ = 1;
    type_ = shifted_;
  }
  ~PackableBuffer() {
    if (shifted_ != MPI_DATATYPE_NULL) MPI_Type_free(&shifted_);
  }
  PackableBuffer(const PackableBuffer&) = delete;
  PackableBuffer& operator=(const PackableBuffer&) = delete;
  int rc() const { return rc_; }
  void* buf() const { return buf_; }
  int count() const { return count_; }
  MPI_Datatype type() const { return type_; }

 private:
  void* buf_;
  int count_;
  MPI_Datatype type_;
  MPI_Datatype shifted_ = MPI_DATATYPE_NULL;
  int rc_ = MPI_SUCCESS;
};

}  // namespace

int PackElements(const void* buf, Count count, MPI_Datatype type, char* packed, MPI_Comm comm) {
  MPI_Count type_size = 0;
  int rc = MPI_Type_size_x(type, &type_size);
  if (rc != MPI_SUCCESS) return rc;
  const Count step = ElementsPerStep(type_size);
  for (Count done = 0; done < count; done += std::min(step, count - done)) {
    const int n = IntCount(std::min(step, count - done));
    const PackableBuffer in(const_cast<void*>(OffsetBy(buf, done, type)), n, type);
    if (in.rc() != MPI_SUCCESS) return in.rc();
    int position = 0;
    rc = MPI_Pack(in.buf(), in.count(), in.type(), packed + done * type_size,
                  static_cast<int>(n * type_size), &position, comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int UnpackElements(const char* packed, Count count, MPI_Datatype type, void* buf, MPI_Comm comm) {
  MPI_Count type_size = 0;
  int rc = MPI_Type_size_x(type, &type_size);
  if (rc != MPI_SUCCESS) return rc;
  const Count step = ElementsPerStep(type_size);
  for (Count done = 0; done < count; done += std::min(step, count - done)) {
    const int n = IntCount(std::min(step, count - done));
    const PackableBuffer out(OffsetBy(buf, done, type), n, type);
    if (out.rc() != MPI_SUCCESS) return out.rc();
    int position = 0;
    rc = MPI_Unpack(packed + done * type_size, static_cast<int>(n * type_size), &position,
                    out.buf(), out.count(), out.type(), comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int PackBlocks(const void* buf, const Count* counts, const Count* displs, MPI_Datatype type, int lo,
               int hi, char* packed, MPI_Comm comm) {
  std::int64_t offset = 0;
  for (int i = lo; i <= hi; ++i) {
    int rc = PackElements(OffsetBy(buf, displs[i], type), counts[i], type, packed + offset, comm);
    if (rc != MPI_SUCCESS) return rc;
    offset += SignatureBytes(counts[i], type);
  }
  return MPI_SUCCESS;
}

int UnpackBlocks(const char* packed, const Count* counts, const Count* displs, MPI_Datatype type,
                 int lo, int hi, void* buf, MPI_Comm comm) {
  std::int64_t offset = 0;
  for (int i = lo; i <= hi; ++i) {
    int rc = UnpackElements(packed + offset, counts[i], type, OffsetBy(buf, displs[i], type), comm);
    if (rc != MPI_SUCCESS) return rc;
    offset += SignatureBytes(counts[i], type);
  }
  return MPI_SUCCESS;
}

char* PackedInPlace(void* buf, const Count* counts, const Count* displs, MPI_Datatype type, int lo,
                    int hi) {
  if (buf == nullptr || buf == MPI_IN_PLACE || type == MPI_DATATYPE_NULL) return nullptr;
  int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
  if (MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS ||
      combiner != MPI_COMBINER_NAMED) {
    return nullptr;  // a derived type's typemap may reorder or skip bytes
  }
  MPI_Count size = 0, lb = 0, extent = 0;
  if (MPI_Type_size_x(type, &size) != MPI_SUCCESS ||
      MPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS || lb != 0 || size != extent) {
    return nullptr;  // padded pair types such as MPI_DOUBLE_INT
  }
  char* first = nullptr;
  std::int64_t next = 0;  // the element where the next non-empty block must start
  for (int i = lo; i <= hi; ++i) {
    if (counts[i] == 0) continue;
    if (first == nullptr) {
      first = static_cast<char*>(buf) + static_cast<std::int64_t>(displs[i]) * size;
    } else if (static_cast<std::int64_t>(displs[i]) != next) {
      return nullptr;
    }
    next = static_cast<std::int64_t>(displs[i]) + static_cast<std::int64_t>(counts[i]);
  }
  return first;
}

const char* PackedInPlace(const void* buf, const Count* counts, const Count* displs,
                          MPI_Datatype type, int lo, int hi) {
  return PackedInPlace(const_cast<void*>(buf), counts, displs, type, lo, hi);
}

char* PackedInPlace(void* buf, Count count, MPI_Datatype type) {
  const Count zero = 0;
  return PackedInPlace(buf, &count, &zero, type, 0, 0);
}

const char* PackedInPlace(const void* buf, Count count, MPI_Datatype type) {
  return PackedInPlace(const_cast<void*>(buf), count, type);
}

int LocalCopy(const void* from, Count from_count, MPI_Datatype from_type, void* to, Count to_count,
              MPI_Datatype to_type, MPI_Comm private_comm, int rank) {
  const std::int64_t bytes = SignatureBytes(from_count, from_type);
  if (bytes != SignatureBytes(to_count, to_type)) return MPI_ERR_TRUNCATE;
  if (bytes == 0) return MPI_SUCCESS;
  if (bytes > MaxMessageBytes()) {  // a message that large may not pass: copy, or pack and unpack
    const char* in = PackedInPlace(from, from_count, from_type);
    char* out = PackedInPlace(to, to_count, to_type);
    if (in != nullptr && out != nullptr) {
      std::memmove(out, in, static_cast<std::size_t>(bytes));
      return MPI_SUCCESS;
    }
    auto staging = TryByteBuffer(bytes);
    if (!staging) return MPI_ERR_NO_MEM;
    int rc = PackElements(from, from_count, from_type, staging.get(), private_comm);
    if (rc != MPI_SUCCESS) return rc;
    return UnpackElements(staging.get(), to_count, to_type, to, private_comm);
  }
  // A message to itself: a failure here leaves no other process waiting.
  return MPI_Sendrecv(from, IntCount(from_count), from_type, rank, TUWCOLL_TAG_SELF, to,
                      IntCount(to_count), to_type, rank, TUWCOLL_TAG_SELF, private_comm,
                      MPI_STATUS_IGNORE);
}

void* OffsetBy(void* base, std::int64_t displ, MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return static_cast<char*>(base) + static_cast<MPI_Aint>(displ) * extent;
}

const void* OffsetBy(const void* base, std::int64_t displ, MPI_Datatype type) {
  return OffsetBy(const_cast<void*>(base), displ, type);
}

}  // namespace tuw::detail

namespace tuw::detail {

namespace {

// Gather and scatter alike: the root's counts (root_counts, root_type; its own block there is
// what it sends or receives itself unless in_place) and this process's own block (own_count,
// own_type), which must have the root's block's size at the root. MPI_IN_PLACE (in_place) is the
// root's alone: elsewhere a block to move there is MPI_ERR_BUFFER (MPI would read or write
// through the marker's address - a crash under MPICH 4.0's own MPI_Gatherv; Open MPI 4.1's
// returns MPI_ERR_ARG), an empty one harms nothing and passes.
int CheckOwnAndRootArgs(const Count* root_counts, MPI_Datatype root_type, bool in_place,
                        Count own_count, MPI_Datatype own_type, int root, const CallContext& ctx,
                        std::int64_t* own_bytes, std::vector<std::int64_t>* block_bytes) {
  *own_bytes = 0;
  if (ctx.rank == root) {
    int rc = RootBlockBytes(root_counts, root_type, ctx.size, block_bytes);
    if (rc != MPI_SUCCESS) return rc;
    *own_bytes = (*block_bytes)[ctx.rank];
    if (in_place) return MPI_SUCCESS;
  }
  if (own_count < 0) return MPI_ERR_COUNT;
  const std::int64_t bytes = SignatureBytes(own_count, own_type);
  if (bytes < 0) return MPI_ERR_TYPE;
  if (ctx.rank == root && bytes != *own_bytes) return MPI_ERR_TRUNCATE;
  if (in_place && bytes > 0) return MPI_ERR_BUFFER;
  *own_bytes = bytes;
  return MPI_SUCCESS;
}

}  // namespace

int CheckGatherArgs(const GatherArgs& a, const CallContext& ctx, std::int64_t* own_bytes,
                    std::vector<std::int64_t>* block_bytes) {
  return CheckOwnAndRootArgs(a.recvcounts, a.recvtype, a.sendbuf == MPI_IN_PLACE, a.sendcount,
                             a.sendtype, a.root, ctx, own_bytes, block_bytes);
}

int CheckScatterArgs(const ScatterArgs& a, const CallContext& ctx, std::int64_t* own_bytes,
                     std::vector<std::int64_t>* block_bytes) {
  return CheckOwnAndRootArgs(a.sendcounts, a.sendtype, a.recvbuf == MPI_IN_PLACE, a.recvcount,
                             a.recvtype, a.root, ctx, own_bytes, block_bytes);
}

}  // namespace tuw::detail
