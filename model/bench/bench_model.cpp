// Google Benchmark of the cost model: the optimal-tree DP (straightforward reference vs the
// fast layout + vectorized + threaded version, side by side in one run) and the O(p)
// adaptive/oblivious constructions up to p = 10^6.
#include <benchmark/benchmark.h>

#include "distributions.hpp"
#include "hypercube_tree.hpp"
#include "link_greedy_tree.hpp"
#include "loggp.hpp"
#include "node_scatter_tree.hpp"
#include "tree_costs.hpp"

namespace {

std::vector<std::int64_t> Blocks(int p) {
  irr::dist::Params params;
  params.b = 1000;
  return irr::dist::Generate("random", p, params);
}

void BM_OptimalDp(benchmark::State& state, irr::model::DpMethod method) {
  const auto blocks = Blocks(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const irr::model::OptimalDp dp(blocks, {100, 1, 1}, method);
    benchmark::DoNotOptimize(dp.Best().time);
  }
}
BENCHMARK_CAPTURE(BM_OptimalDp, reference, irr::model::DpMethod::kReference)
    ->Arg(500)
    ->Arg(2000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_OptimalDp, fast, irr::model::DpMethod::kFast)
    ->Arg(500)
    ->Arg(2000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK_CAPTURE(BM_OptimalDp, windowed, irr::model::DpMethod::kWindowed)
    ->Arg(500)
    ->Arg(2000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// The optimal binary tree's DP (O(p^3), the model's Binary row and the Table 1 test's cost).
void BM_BinaryDp(benchmark::State& state) {
  const auto blocks = Blocks(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const irr::model::BinaryDp dp(blocks, {100, 1, 1});
    benchmark::DoNotOptimize(dp.Best().time);
  }
}
BENCHMARK(BM_BinaryDp)->Arg(500)->Arg(2000)->Unit(benchmark::kMillisecond)->Iterations(1);

// What Optimal_*_init's root computes: the DP and the tree for a fixed root, on one thread
// (OMP_NUM_THREADS=1 for the library's view), exact up to p = 256 and windowed above.
void BM_OptimalInitTree(benchmark::State& state, irr::model::DpMethod method) {
  const int p = static_cast<int>(state.range(0));
  const auto blocks = Blocks(p);
  for (auto _ : state) {
    tuw::tree::SequencedTree tree;
    irr::model::OptimalCost(blocks, {3.18, 0.00038, 0.00038}, p / 2, method, &tree);
    benchmark::DoNotOptimize(tuw::tree::ToNodeViews(tree, blocks).root);
  }
}
BENCHMARK_CAPTURE(BM_OptimalInitTree, exact, irr::model::DpMethod::kFast)
    ->Arg(256)
    ->Arg(560)
    ->Arg(2000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_OptimalInitTree, windowed, irr::model::DpMethod::kWindowed)
    ->Arg(256)
    ->Arg(560)
    ->Arg(2000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_OptimalFixedRoot(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  const irr::model::OptimalDp dp(Blocks(p), {100, 1, 1});
  for (auto _ : state) benchmark::DoNotOptimize(dp.Fixed(p / 2).time);
}
BENCHMARK(BM_OptimalFixedRoot)->Arg(2000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_HypercubeTree(benchmark::State& state, tuw::tree::TreeKind kind) {
  const int p = static_cast<int>(state.range(0));
  const auto blocks = Blocks(p);
  for (auto _ : state) {
    const auto tree =
        tuw::tree::BuildTree(kind, blocks, kind == tuw::tree::TreeKind::kAdaptive ? -1 : p / 2);
    benchmark::DoNotOptimize(irr::model::GatherTime(irr::model::FromHypercube(tree), blocks,
                                                    irr::model::CostParams{100, 1, 1}));
  }
  state.SetComplexityN(p);
}
BENCHMARK_CAPTURE(BM_HypercubeTree, adaptive, tuw::tree::TreeKind::kAdaptive)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK_CAPTURE(BM_HypercubeTree, oblivious, tuw::tree::TreeKind::kOblivious)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

// What the first TUWk_* call on a communicator of p processes pays once per process (libtuwcoll's
// ResolveRadix caches it; irrbench asks for all three at its start): the LogGP model of about ten
// candidate radixes, each a whole tree's construction and data phase.
void BM_ModelRadix(benchmark::State& state, tuw::tree::ModelTree tree) {
  const int p = static_cast<int>(state.range(0));
  const tuw::tree::LogGPParams params = tuw::tree::RadixCosts{}.Params();
  for (auto _ : state) benchmark::DoNotOptimize(tuw::tree::ModelRadix(tree, p, params));
}
BENCHMARK_CAPTURE(BM_ModelRadix, tuwk, tuw::tree::ModelTree::kAdaptive)
    ->Arg(64)
    ->Arg(560)
    ->Arg(6400)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ModelRadix, tuwk_init, tuw::tree::ModelTree::kPlanned)
    ->Arg(64)
    ->Arg(560)
    ->Arg(6400)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ModelRadix, binomialk, tuw::tree::ModelTree::kOblivious)
    ->Arg(64)
    ->Arg(560)
    ->Arg(6400)
    ->Unit(benchmark::kMillisecond);

// What a TUWk_Scatterv root pays at its first small call of a size class: the greedy tree's step
// (16 greedy trees of 4-byte blocks) and the radix tree against it, on two levels (16 ranks a
// node, the simulated cluster's node costs) from the middle rank, then the trees of 2 ... 64 equal
// node ranges at the call's size (SmallCallRule::kEqualNodeRangesBySize: 22.8 -> 82.6 ms at
// p = 6400, 1.6 -> 5.2 at 560, when they came).
void BM_SmallScatterShape(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  tuw::tree::RadixCosts costs;
  costs.has_local = true;
  costs.alpha_local_us = 1.10;
  costs.beta_local_us_per_byte = 1.9e-4;
  const tuw::tree::LogGPParams params = costs.Params(16);
  for (auto _ : state) {
    benchmark::DoNotOptimize(tuw::tree::SmallScatterShape(p, 4, 5, params, p / 2));
  }
}
BENCHMARK(BM_SmallScatterShape)->Arg(560)->Arg(6400)->Unit(benchmark::kMillisecond);

// What a TUWk_Gatherv_init root computes at the init, on equal blocks of state.range(1) bytes from
// the middle rank (the simulated runs' root), split into its parts: its radix
// (tree::PlannedRadix), the link-greedy tree built for the mean block, and PlannedTree, which does
// both and prices the tree. SMPI does not simulate computation (smpi/simulate-computation:no), so
// the simulated init times (results/simulated/link-greedy-init) leave this out; on a real machine
// the other processes wait for it.
const tuw::tree::LogGPParams& InitParams() {
  static const tuw::tree::LogGPParams params = tuw::tree::RadixCosts{}.SmallCallParams(1);
  return params;
}
void BM_InitPlannedRadix(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  const std::vector<std::int64_t> blocks(p, state.range(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(tuw::tree::PlannedRadix(false, blocks, p / 2, InitParams()));
  }
}
void BM_InitLinkGreedyTree(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        tuw::tree::BuildLinkGreedyTree(p, state.range(1), p / 2, InitParams()).deadline_us);
  }
}
void BM_InitPlannedTree(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  const std::vector<std::int64_t> blocks(p, state.range(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        tuw::tree::PlannedTree(false, blocks, p / 2, InitParams(), false).radix);
  }
}
// The init's cases: p = 560 and 6400, blocks of 4 and 40 bytes.
void InitCases(benchmark::internal::Benchmark* bench) {
  for (int p : {560, 6400}) {
    for (int bytes : {4, 40}) bench->Args({p, bytes});
  }
  bench->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_InitPlannedRadix)->Apply(InitCases);
BENCHMARK(BM_InitLinkGreedyTree)->Apply(InitCases);
BENCHMARK(BM_InitPlannedTree)->Apply(InitCases);
// The built-in costs with a node's own alpha 1.28 us, as the simulated cluster's.
tuw::tree::RadixCosts ClusterCosts() {
  tuw::tree::RadixCosts costs;
  costs.has_local = true;
  costs.alpha_local_us = 1.28;
  costs.beta_local_us_per_byte = 2.9e-4;
  return costs;
}
// A TUWk_Scatterv_init root on nodes of 16 also weighs the node scatter tree: its 12 shapes priced
// on the two-level model with node links.
void BM_NodeScatterTree(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  const std::vector<std::int64_t> blocks(p, state.range(1));
  const tuw::tree::LogGPParams params =
      tuw::tree::NodeLinkOf(ClusterCosts(), 16, tuw::tree::ScatterTreesOnNodes::kNone).TwoLevel();
  for (auto _ : state) {
    benchmark::DoNotOptimize(tuw::tree::FastestNodeScatterTree(blocks, p / 2, 16, params).time);
  }
}
BENCHMARK(BM_NodeScatterTree)
    ->Args({560, 40})
    ->Args({1024, 40})
    ->Args({6400, 4})
    ->Args({6400, 40})
    ->Unit(benchmark::kMillisecond);
// The whole choice of a TUWk_Scatterv_init root on nodes of 16 (libtuwcoll's RootPlannedRadix, at
// its first init of a shape: the library then keeps the greedy tree's shape): PlannedTree with the
// node link's two trees (kLibraryScatterTreesOnNodes) on the cluster's
// costs, against BM_InitPlannedTree's choice without them.
void BM_InitScatterOnNodes(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  const std::vector<std::int64_t> blocks(p, state.range(1));
  const tuw::tree::RadixCosts costs = ClusterCosts();
  const tuw::tree::NodeLinkCosts node_link =
      tuw::tree::NodeLinkOf(costs, 16, tuw::tree::kLibraryScatterTreesOnNodes);
  const tuw::tree::LogGPParams params = costs.SmallCallParams(1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        tuw::tree::PlannedTree(true, blocks, p / 2, params, true, node_link).radix);
  }
}
BENCHMARK(BM_InitScatterOnNodes)->Apply(InitCases);

}  // namespace

BENCHMARK_MAIN();
