#include "operations.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "tuwcoll.h"
#include "tuwcoll_registry.hpp"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>  // MPIX_Gatherv_init (pcollreq) in Open MPI 4
#endif

// The library's persistent v-collectives, where it has them.
#if MPI_VERSION >= 4
#define IRR_NATIVE_GATHERV_INIT MPI_Gatherv_init
#define IRR_NATIVE_SCATTERV_INIT MPI_Scatterv_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define IRR_NATIVE_GATHERV_INIT MPIX_Gatherv_init
#define IRR_NATIVE_SCATTERV_INIT MPIX_Scatterv_init
#endif

namespace irr::bench {
namespace {

constexpr int kGuard = 16;  // ints after each buffer that no operation may touch
constexpr int kFill = -0x2ed1bee;
int Pattern(int rank, int k) { return (rank + 1) * 1000003 + k * 7 + 11; }

// The v-collective of libtuwcoll's registry named `name` (MPI_Gatherv and MPI_Scatterv are in it
// too), or null.
tuw::GathervFn FindGatherv(const std::string& name) {
  for (const auto& alg : tuw::kGathervAlgorithms) {
    if (alg.name == name) return alg.fn;
  }
  return nullptr;
}
tuw::ScattervFn FindScatterv(const std::string& name) {
  for (const auto& alg : tuw::kScattervAlgorithms) {
    if (alg.name == name) return alg.fn;
  }
  return nullptr;
}

// "TUW_Gatherv_setup" and "TUW_Gatherv_init" -> the persistent algorithm "TUW_Gatherv_init".
std::string InitName(const std::string& op) {
  const std::string setup = "_setup";
  if (op.size() > setup.size() && op.compare(op.size() - setup.size(), setup.size(), setup) == 0) {
    return op.substr(0, op.size() - setup.size()) + "_init";
  }
  return op;
}
bool IsNative(const std::string& op) { return op.rfind("MPI_", 0) == 0; }
tuw::GathervInitFn FindGathervInit(const std::string& name) {
  for (const auto& alg : tuw::kGathervInitAlgorithms) {
    if (alg.name == name) return alg.fn;
  }
  return nullptr;
}
tuw::ScattervInitFn FindScattervInit(const std::string& name) {
  for (const auto& alg : tuw::kScattervInitAlgorithms) {
    if (alg.name == name) return alg.fn;
  }
  return nullptr;
}

// Whether irrbench knows how to call a row of the table.
bool Callable(const formats::Operation& op) {
  if (op.role == "persistent" || op.role == "setup") {
    const std::string init = InitName(op.name);
    if (IsNative(init)) return init == "MPI_Gatherv_init" || init == "MPI_Scatterv_init";
    return op.family == "gather" ? FindGathervInit(init) != nullptr
                                 : FindScattervInit(init) != nullptr;
  }
  if (op.role == "regular" || op.role == "guideline2") return op.family != "harness";
  if (op.role == "harness") return op.name == "Empty" || op.name == "Barrier";
  if (op.role == "test") return op.name == "TEST_Broken_Gatherv";
  return op.family == "gather" ? FindGatherv(op.name) != nullptr : FindScatterv(op.name) != nullptr;
}

const formats::Operation& Lookup(const std::string& name) {
  const formats::Operation* op = formats::FindOperation(name);
  if (op == nullptr) throw std::invalid_argument("unknown operation '" + name + "'");
  return *op;
}

}  // namespace

std::vector<std::string> UnboundOperations() {
  std::vector<std::string> names;
  for (const auto& op : formats::Operations()) {
    if (!Callable(op)) names.push_back(op.name);
  }
  return names;
}

std::vector<std::string> SelectableOperations(bool with_test_ops) {
  std::vector<std::string> names;
  for (const auto& op : formats::Operations()) {
    if (op.role != "test" || with_test_ops) names.push_back(op.name);
  }
  return names;
}

std::vector<std::string> DefaultOperations() {
  std::vector<std::string> names;
  for (const auto& op : formats::Operations()) {
    if (op.by_default) names.push_back(op.name);
  }
  return names;
}

std::int64_t Case::BytesNeeded(const std::string& op, const std::vector<std::int64_t>& counts,
                               int root, int rank) {
  std::int64_t m = 0, max = 0;
  for (auto c : counts) {
    m += c;
    max = std::max(max, c);
  }
  const bool padded = Lookup(op).padded();
  const std::int64_t p = static_cast<std::int64_t>(counts.size());
  const std::int64_t at_root = padded ? p * max : m;
  const std::int64_t own = padded ? max : counts[rank];
  return 4 * (own + kGuard + (rank == root ? at_root + kGuard : 0)) + 8 * p;
}

Case::Case(const std::string& op, const std::vector<std::int64_t>& counts, int root, MPI_Comm comm)
    : op_(Lookup(op)), root_(root), comm_(comm) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &p_);
  counts_.assign(counts.begin(), counts.end());
  displs_.resize(p_);
  int position = 0;
  for (int i = 0; i < p_; ++i) {
    displs_[i] = position;
    position += counts_[i];
    max_count_ = std::max(max_count_, counts_[i]);
  }
  own_ = counts_[rank_];
  const bool at_root = rank_ == root_;
  const int root_elems = IsPadded() ? p_ * max_count_ : position;
  const int own_elems = IsPadded() ? max_count_ : own_;
  if (op_.family == "harness") return;
  if (IsGather()) {
    send_.assign(own_elems + kGuard, 0);
    recv_.assign(at_root ? root_elems + kGuard : 0, 0);
  } else {
    send_.assign(at_root ? root_elems + kGuard : 0, 0);
    recv_.assign(own_elems + kGuard, 0);
  }
  if (op_.role == "persistent") init_rc_ = Init();
}

Case::~Case() { FreeRequest(); }

std::string Case::Unavailable(const std::string& op) {
  const formats::Operation& o = Lookup(op);
  if ((o.role != "persistent" && o.role != "setup") || !IsNative(op)) return "";
#ifdef IRR_NATIVE_GATHERV_INIT
  return "";
#else
  return "this MPI library has no " + InitName(op) +
         " (MPI-4 persistent collectives, or Open MPI's MPIX_ pcollreq extension)";
#endif
}

int Case::Init() {
  int* send = send_.empty() ? nullptr : send_.data();
  int* recv = recv_.empty() ? nullptr : recv_.data();
  const std::string init = InitName(op_.name);
  if (IsNative(init)) {
#ifdef IRR_NATIVE_GATHERV_INIT
    return IsGather()
               ? IRR_NATIVE_GATHERV_INIT(send, own_, MPI_INT, recv, counts_.data(), displs_.data(),
                                         MPI_INT, root_, comm_, MPI_INFO_NULL, &mpi_request_)
               : IRR_NATIVE_SCATTERV_INIT(send, counts_.data(), displs_.data(), MPI_INT, recv, own_,
                                          MPI_INT, root_, comm_, MPI_INFO_NULL, &mpi_request_);
#else
    return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
  }
  return IsGather()
             ? FindGathervInit(init)(send, own_, MPI_INT, recv, counts_.data(), displs_.data(),
                                     MPI_INT, root_, comm_, MPI_INFO_NULL, &tuw_request_)
             : FindScattervInit(init)(send, counts_.data(), displs_.data(), MPI_INT, recv, own_,
                                      MPI_INT, root_, comm_, MPI_INFO_NULL, &tuw_request_);
}

int Case::StartAndWait() {
  if (mpi_request_ != MPI_REQUEST_NULL) {
    const int rc = MPI_Start(&mpi_request_);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&mpi_request_, MPI_STATUS_IGNORE);
  }
  const int rc = TUW_Start(&tuw_request_);
  return rc != MPI_SUCCESS ? rc : TUW_Wait(&tuw_request_, MPI_STATUS_IGNORE);
}

void Case::FreeRequest() {
  if (mpi_request_ != MPI_REQUEST_NULL) MPI_Request_free(&mpi_request_);
  if (tuw_request_ != TUW_REQUEST_NULL) TUW_Request_free(&tuw_request_);
}

int Case::Run() {
  if (op_.role == "setup") {
    const int rc = Init();
    FreeRequest();
    return rc;
  }
  if (op_.role == "persistent") return init_rc_ != MPI_SUCCESS ? init_rc_ : StartAndWait();
  return RunRegularOrV(send_.empty() ? nullptr : send_.data(),
                       recv_.empty() ? nullptr : recv_.data());
}

int Case::RunRegularOrV(int* send, int* recv) {
  if (op_.role == "harness") return op_.name == "Barrier" ? MPI_Barrier(comm_) : MPI_SUCCESS;
  if (op_.role == "regular") {
    return IsGather()
               ? MPI_Gather(send, max_count_, MPI_INT, recv, max_count_, MPI_INT, root_, comm_)
               : MPI_Scatter(send, max_count_, MPI_INT, recv, max_count_, MPI_INT, root_, comm_);
  }
  if (op_.role == "guideline2") {
    // Guideline (2)'s right-hand side as one operation: agree on the padded size, then the
    // regular collective on it.
    int padded = 0;
    int rc = MPI_Allreduce(&own_, &padded, 1, MPI_INT, MPI_MAX, comm_);
    if (rc != MPI_SUCCESS) return rc;
    return IsGather() ? MPI_Gather(send, padded, MPI_INT, recv, padded, MPI_INT, root_, comm_)
                      : MPI_Scatter(send, padded, MPI_INT, recv, padded, MPI_INT, root_, comm_);
  }
  if (op_.role == "test") {
    // TEST_Broken_Gatherv: TUW_Gatherv with one received element corrupted, so that validation
    // must catch it.
    int rc = TUW_Gatherv(send, own_, MPI_INT, recv, counts_.data(), displs_.data(), MPI_INT, root_,
                         comm_);
    if (rank_ == root_ && !recv_.empty()) recv_[0] ^= 1;
    return rc;
  }
  if (IsGather()) {
    return FindGatherv(op_.name)(send, own_, MPI_INT, recv, counts_.data(), displs_.data(), MPI_INT,
                                 root_, comm_);
  }
  return FindScatterv(op_.name)(send, counts_.data(), displs_.data(), MPI_INT, recv, own_, MPI_INT,
                                root_, comm_);
}

void Case::FillForValidation() {
  std::fill(send_.begin(), send_.end(), kFill);
  std::fill(recv_.begin(), recv_.end(), kFill);
  const int own_elems = IsPadded() ? max_count_ : own_;
  if (IsGather()) {
    for (int k = 0; k < own_elems; ++k) send_[k] = Pattern(rank_, k);
  } else if (rank_ == root_) {
    for (int i = 0; i < p_; ++i) {
      const int begin = IsPadded() ? i * max_count_ : displs_[i];
      const int n = IsPadded() ? max_count_ : counts_[i];
      for (int k = 0; k < n; ++k) send_[begin + k] = Pattern(i, k);
    }
  }
}

bool Case::CheckAfterValidation(std::string* why) const {
  auto expect = [&](const std::vector<int>& buf, std::size_t index, int value) {
    if (buf[index] == value) return true;
    *why = "rank " + std::to_string(rank_) + ": element " + std::to_string(index) + " is " +
           std::to_string(buf[index]) + ", expected " + std::to_string(value);
    return false;
  };
  const int own_elems = IsPadded() ? max_count_ : own_;
  if (IsGather()) {
    if (rank_ != root_) return true;
    std::size_t end = 0;
    for (int i = 0; i < p_; ++i) {
      const int begin = IsPadded() ? i * max_count_ : displs_[i];
      const int n = IsPadded() ? max_count_ : counts_[i];
      for (int k = 0; k < n; ++k) {
        if (!expect(recv_, begin + k, Pattern(i, k))) return false;
      }
      end = std::max<std::size_t>(end, begin + n);
    }
    for (std::size_t k = end; k < recv_.size(); ++k) {
      if (!expect(recv_, k, kFill)) return false;
    }
    return true;
  }
  for (int k = 0; k < own_elems; ++k) {
    if (!expect(recv_, k, Pattern(rank_, k))) return false;
  }
  for (std::size_t k = own_elems; k < recv_.size(); ++k) {
    if (!expect(recv_, k, kFill)) return false;
  }
  return true;
}

bool Case::Validate(std::string* why) {
  if (op_.family == "harness") return true;
  FillForValidation();
  int rc = MPI_SUCCESS;
  if (op_.role == "setup") {  // a setup moves no data: validate a whole init, start, wait, free
    rc = Init();
    if (rc == MPI_SUCCESS) rc = StartAndWait();
    FreeRequest();
  } else {
    rc = Run();
  }
  bool ok = rc == MPI_SUCCESS;
  if (!ok)
    *why = "rank " + std::to_string(rank_) + ": the call returned MPI error " + std::to_string(rc);
  ok = ok && CheckAfterValidation(why);
  int local = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_LAND, comm_);
  return all == 1;
}

}  // namespace irr::bench
