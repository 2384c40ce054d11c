// The messages of a persistent request's init (the verdict every process agrees on, the
// optimal tree handed out): binomial trees of point-to-point messages on the private
// communicator with their own tag, not MPI_Gather/MPI_Bcast. SimGrid SMPI 3.32 loses the
// messages of an MPI_Bcast on a duplicated communicator after a native collective on its parent
// (ranks never receive it: a deadlock at p = 64 and 560), and point-to-point keeps the library
// free of such dependencies on the collectives it is measured against.
#include "internal.hpp"

namespace tuw::detail {
namespace {

int Absolute(int relative, int root, int p) { return (relative + root) % p; }

}  // namespace

int PlanGather(const CallContext& ctx, int root, const std::int64_t* mine, int n,
               std::vector<std::int64_t>* all) {
  const int p = ctx.size, relative = (ctx.rank - root + p) % p;
  // buffer: the values of relative ranks [relative, relative + received) in order.
  std::vector<std::int64_t> buffer(mine, mine + n);
  for (int mask = 1; mask < p; mask <<= 1) {
    if (relative & mask) {
      return MPI_Send(buffer.data(), static_cast<int>(buffer.size()), MPI_INT64_T,
                      Absolute(relative - mask, root, p), TUWCOLL_TAG_PLAN, ctx.private_comm);
    }
    const int child = relative + mask;
    if (child >= p) continue;
    const int count = std::min(mask, p - child) * n;
    const std::size_t at = buffer.size();
    buffer.resize(at + count);
    const int rc = MPI_Recv(buffer.data() + at, count, MPI_INT64_T, Absolute(child, root, p),
                            TUWCOLL_TAG_PLAN, ctx.private_comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
  }
  all->assign(static_cast<std::size_t>(p) * n, 0);  // the root: back to rank order
  for (int r = 0; r < p; ++r) {
    std::copy(buffer.begin() + static_cast<std::ptrdiff_t>(r) * n,
              buffer.begin() + static_cast<std::ptrdiff_t>(r + 1) * n,
              all->begin() + static_cast<std::ptrdiff_t>(Absolute(r, root, p)) * n);
  }
  return MPI_SUCCESS;
}

int PlanBcast(const CallContext& ctx, int root, std::int64_t* data, int n) {
  const int p = ctx.size, relative = (ctx.rank - root + p) % p;
  int mask = 1;
  for (; mask < p; mask <<= 1) {
    if (relative & mask) {
      const int rc = MPI_Recv(data, n, MPI_INT64_T, Absolute(relative - mask, root, p),
                              TUWCOLL_TAG_PLAN, ctx.private_comm, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) return rc;
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (relative + mask >= p) continue;
    const int rc = MPI_Send(data, n, MPI_INT64_T, Absolute(relative + mask, root, p),
                            TUWCOLL_TAG_PLAN, ctx.private_comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

}  // namespace tuw::detail
