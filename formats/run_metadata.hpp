// Run metadata shared by the MPI tools (irrbench, irrfit): the library string and which
// environment variables a run records, by the one table formats/environment.tsv that the
// analysis (guidelines/irrguide/load.py) reads too.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace irr::formats {

// MPI_Get_library_version's text as one metadata value: the first line, without trailing
// commas or blanks, tabs as blanks (MPICH: "MPICH Version:\t4.0.2"), without '\r'.
std::string CleanLibraryVersion(const std::string& raw);

// One row of formats/environment.tsv: a variable name (or a prefix ending in '*') and what it is
// to a run - "setting" (selects an algorithm), "context" (job facts, timing-relevant settings)
// or "plumbing" (launcher wiring, not recorded).
struct EnvironmentRule {
  std::string pattern;
  std::string kind;
};
const std::vector<EnvironmentRule>& EnvironmentRules();

// The kind of the first rule matching `name`, or "" when none does (not recorded).
std::string EnvironmentKind(const std::string& name);

// The recorded variables (settings and context) of `environ`-style "NAME=value" entries, as
// (NAME, value), in order.
std::vector<std::pair<std::string, std::string>> RecordedEnvironment(char** environment);

// irrbench's record of a small TUWk_Scatterv call's greedy step (tuwcoll_scatter_step):
// "S model-heavy-radix" where the library's model chose S for 4-byte blocks and chooses per size
// class of three significant bits, equal node ranges included, its shared sends at their sizes'
// rates, a call with a heavy block on the radix tree
// (tree::SmallCallRule::kHeavyBlocksOnRadixTree); "S model-by-size3-rates" in files of the builds
// before (kEqualNodeRangesAtSizeRates), "S model-by-size3" before those (kEqualNodeRangesBySize),
// "S model-by-size" in those with two bits (kEqualNodeRangesByCoarseSize), "S model" in those
// before (kGreedy); "S TUWCOLL_SCATTER_STEP" where that setting forced S for every small call (S as
// TUWk_Scatter_step gives it: a two-level tree's code, tuwcoll.h). ParseScatterStepRecord: false
// for anything else (a negative S included); *rule: which (1 "model", 2 "model-by-size", 3
// "model-by-size3", 4 "model-by-size3-rates", 5 "model-heavy-radix"; 0 for a forced step),
// tree::SmallCallRuleOfRecord's argument.
std::string ScatterStepRecord(int step, bool by_model);
bool ParseScatterStepRecord(const std::string& record, int* step, bool* by_model,
                            int* rule = nullptr);

// irrbench's record of a radix chosen by the call (RadixChoiceRecord): "model" where the library's
// model chooses it, "R TUWCOLL_RADIX" where that setting forced R. Two keys: the radix of a
// TUWk_Scatterv call too large for one message a child (tuwcoll_large_scatter_radix; the model's
// per size class, tree::LargeScatterRadix, TUWk_Radix_scatter_large) and a TUWk_*_init request's
// (tuwcoll_init_radix; its root's on its counts at the init, tree::PlannedRadix); files of the
// builds before have none (such a call ran at tuwcoll_radix's TUWk, such a request at its
// TUWk_init). ParseRadixChoiceRecord: false for anything else; *radix: R, or 0 for "model".
// "model link-greedy" (tuwcoll_init_radix, builds of 2026-12-07): a TUWk_*_init request's root
// chooses between its radix tree and the link-greedy tree in its first layout (tree::PlannedTree
// without weigh_layouts; scatters since the second change of that day: the day's runs of the
// first have gathers only); "model link-greedy layouts" (77ae977's build, 2026-12-07): in the
// faster of its two layouts; "model link-greedy scatter-layouts" (b67f107's): a scatter's in
// the faster, a gather's in the first; "model link-greedy node-link" (builds of 2026-12-07 before
// a2333b8): the same, but
// a gather's outward where the root's node link says (tree::OutwardOnNodeLink, with the run's
// TUWCOLL_RANKS_PER_NODE); "model link-greedy node-scatter" (a2333b8's build): the same, and a
// scatter's root also weighs the node scatter tree within the link-greedy tree's limits;
// "model link-greedy two-level-scatter" (a06ad2c's build and the next ones of 2026-12-07): the
// node scatter tree and the plain call's greedy tree, for any blocks on p <= 1024
// (tree::NodeLinkCosts::scatter_trees); "model link-greedy two-level-scatter-8192" (builds since):
// the same on p <= 8192 (4c7c61e's build and the next of 2026-12-07);
// "model link-greedy two-level-scatter-wide" (builds since): the same with the node scatter
// tree's wide shapes on many nodes (tree::kWideShapesMinNodes). *link_greedy (where not null):
// which the record says.
enum LinkGreedyRule {
  kNoLinkGreedy = 0,
  kLinkGreedyFirstLayout = 1,
  kLinkGreedyLayouts = 2,
  kLinkGreedyScatterLayouts = 3,
  kLinkGreedyNodeLink = 4,
  kLinkGreedyNodeScatter = 5,
  kLinkGreedyTwoLevelScatter = 6,
  kLinkGreedyTwoLevelScatter8192 = 7,
  kLinkGreedyTwoLevelScatterWide = 8
};
std::string RadixChoiceRecord(int radix, bool by_model, LinkGreedyRule link_greedy = kNoLinkGreedy);
// The model's records, quoted and comma-separated, for an error message: "'model'" alone, or with
// link_greedy every LinkGreedyRule's.
std::string ModelChoiceRecords(bool link_greedy);
bool ParseRadixChoiceRecord(const std::string& record, int max_radix, int* radix,
                            LinkGreedyRule* link_greedy = nullptr);

// irrbench's record of TUWk_Gatherv's pieces (tuwcoll_gather_pieces, TUWk_Gather_pieces): "model"
// where the library's LogGP rule on its fit decides (tree::GatherPieceRule), "N
// TUWCOLL_GATHER_PIECES" where that setting forced pieces of N bytes (0: none); files of the
// builds before have none (every transfer one message). ParseGatherPiecesRecord: false for
// anything else; *piece: N, or -1 for "model".
std::string GatherPiecesRecord(long long piece, bool by_model);
bool ParseGatherPiecesRecord(const std::string& record, long long* piece);

}  // namespace irr::formats
