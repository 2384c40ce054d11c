// Which trees over nodes a scatter's root weighed, by the record its run wrote
// (tuwcoll_init_radix's formats::LinkGreedyRule): irrmodel prices a run on that rule, and irrbench
// checks at compile time that the record it writes names libtuwcoll's own rule. Header-only, as
// fit_costs.hpp: irrformats does not link the tree code.
#pragma once

#include "link_greedy_tree.hpp"
#include "run_metadata.hpp"

namespace irr::formats {

constexpr tuw::tree::ScatterTreesOnNodes ScatterTreesOfRecord(LinkGreedyRule rule) {
  switch (rule) {
    case kLinkGreedyNodeScatter:
      return tuw::tree::ScatterTreesOnNodes::kNodeTree;
    case kLinkGreedyTwoLevelScatter:
      return tuw::tree::ScatterTreesOnNodes::kNodeAndGreedyTrees;
    case kLinkGreedyTwoLevelScatter8192:
      return tuw::tree::ScatterTreesOnNodes::kNodeAndGreedyTreesToLargerP;
    case kLinkGreedyTwoLevelScatterWide:
      return tuw::tree::ScatterTreesOnNodes::kNodeAndGreedyTreesWide;
    default:
      return tuw::tree::ScatterTreesOnNodes::kNone;
  }
}

// The record irrbench writes for a TUWk_*_init root's choice by the model.
constexpr LinkGreedyRule kLibraryLinkGreedyRule = kLinkGreedyTwoLevelScatterWide;
static_assert(ScatterTreesOfRecord(kLibraryLinkGreedyRule) ==
                  tuw::tree::kLibraryScatterTreesOnNodes,
              "irrbench's tuwcoll_init_radix record must name libtuwcoll's trees over nodes");

}  // namespace irr::formats
