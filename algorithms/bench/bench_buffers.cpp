// What a subtree buffer costs an inner node of a tree: allocated for the call and written once
// (TryByteBuffer: fresh memory above glibc's 32 MiB mmap limit, which the kernel zeroes first)
// against the buffer a persistent request keeps between starts (ScratchBuffer: only the write).
// And the buffers of one plain call at an inner node of TUWk_Scatterv (the first message's room,
// of which only the sizes are written, and the subtree's data): allocated and freed at each call,
// against the communicator's CallBuffers, kept between calls.
// No MPI call: the buffers are the library's own. Not run by the tests.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>

#include "../src/internal.hpp"
#include "../src/transfer.hpp"

namespace {

using tuw::detail::ByteBuffer;
using tuw::detail::CallBuffers;
using tuw::detail::ScratchBuffer;
using tuw::detail::TryByteBuffer;

void BM_FreshBuffer(benchmark::State& state) {
  const std::int64_t bytes = state.range(0) << 20;
  for (auto _ : state) {
    auto buffer = TryByteBuffer(bytes);
    std::memset(buffer.get(), 1, static_cast<std::size_t>(bytes));
    benchmark::DoNotOptimize(buffer.get());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_FreshBuffer)->Arg(1)->Arg(16)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond);

void BM_KeptBuffer(benchmark::State& state) {
  const std::int64_t bytes = state.range(0) << 20;
  ScratchBuffer scratch;
  for (auto _ : state) {
    char* buffer = scratch.Get(bytes);
    std::memset(buffer, 1, static_cast<std::size_t>(bytes));
    benchmark::DoNotOptimize(buffer);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_KeptBuffer)->Arg(1)->Arg(16)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond);

// tree::kOneMessageMaxBytes when docs/library.md's figures were taken (512 KiB since 2026-11-28).
constexpr std::int64_t kFirstMessageRoom = 256 * 1024;
constexpr std::int64_t kSizesWritten = 32 + 16;  // its header and 16 one-byte sizes

void BM_CallBuffersFresh(benchmark::State& state) {
  const std::int64_t subtree = state.range(0) << 10;
  for (auto _ : state) {
    auto room = TryByteBuffer(kFirstMessageRoom);
    std::memset(room.get(), 1, kSizesWritten);
    auto data = TryByteBuffer(subtree);
    std::memset(data.get(), 1, static_cast<std::size_t>(subtree));
    benchmark::DoNotOptimize(room.get());
    benchmark::DoNotOptimize(data.get());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * subtree);
}
BENCHMARK(BM_CallBuffersFresh)->Arg(40)->Arg(160)->Arg(640)->Unit(benchmark::kMicrosecond);

void BM_CallBuffersKept(benchmark::State& state) {
  const std::int64_t subtree = state.range(0) << 10;
  CallBuffers buffers;
  for (auto _ : state) {
    ByteBuffer own_room, own_data;  // used only from kHugePageBufferMinBytes on
    char* room = buffers.first_message.Get(kFirstMessageRoom, &own_room);
    std::memset(room, 1, kSizesWritten);
    char* data = buffers.subtree.Get(subtree, &own_data);
    std::memset(data, 1, static_cast<std::size_t>(subtree));
    benchmark::DoNotOptimize(room);
    benchmark::DoNotOptimize(data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * subtree);
}
BENCHMARK(BM_CallBuffersKept)->Arg(40)->Arg(160)->Arg(640)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
