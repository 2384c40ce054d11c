// What a subtree buffer costs an inner node of a tree: allocated for the call and written once
// (TryByteBuffer: fresh memory above glibc's 32 MiB mmap limit, which the kernel zeroes first)
// against the buffer a persistent request keeps between starts (ScratchBuffer: only the write).
// No MPI call: the buffers are the library's own. Not run by the tests.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>

#include "../src/transfer.hpp"

namespace {

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

}  // namespace

BENCHMARK_MAIN();
