// The algorithms of libtuwcoll by name: one table that the harness and the tests read.
#pragma once

#include <tuwcoll.h>

#include <string_view>

namespace tuw {

using GathervFn = int (*)(const void*, int, MPI_Datatype, void*, const int[], const int[],
                          MPI_Datatype, int, MPI_Comm);
using ScattervFn = int (*)(const void*, const int[], const int[], MPI_Datatype, void*, int,
                           MPI_Datatype, int, MPI_Comm);

struct GathervAlgorithm {
  std::string_view name;
  GathervFn fn;
};
struct ScattervAlgorithm {
  std::string_view name;
  ScattervFn fn;
};

inline constexpr GathervAlgorithm kGathervAlgorithms[] = {
    {"MPI_Gatherv", MPI_Gatherv},       {"TUW_Gatherv", TUW_Gatherv},
    {"Linear_Gatherv", Linear_Gatherv}, {"Binomial_Gatherv", Binomial_Gatherv},
    {"TUWk_Gatherv", TUWk_Gatherv},     {"Binomialk_Gatherv", Binomialk_Gatherv},
};
inline constexpr ScattervAlgorithm kScattervAlgorithms[] = {
    {"MPI_Scatterv", MPI_Scatterv},       {"TUW_Scatterv", TUW_Scatterv},
    {"Linear_Scatterv", Linear_Scatterv}, {"Binomial_Scatterv", Binomial_Scatterv},
    {"TUWk_Scatterv", TUWk_Scatterv},     {"Binomialk_Scatterv", Binomialk_Scatterv},
};

// The persistent ones (a request made once, started many times).
using GathervInitFn = int (*)(const void*, int, MPI_Datatype, void*, const int[], const int[],
                              MPI_Datatype, int, MPI_Comm, MPI_Info, TUW_Request*);
using ScattervInitFn = int (*)(const void*, const int[], const int[], MPI_Datatype, void*, int,
                               MPI_Datatype, int, MPI_Comm, MPI_Info, TUW_Request*);
struct GathervInitAlgorithm {
  std::string_view name;
  GathervInitFn fn;
};
struct ScattervInitAlgorithm {
  std::string_view name;
  ScattervInitFn fn;
};
inline constexpr GathervInitAlgorithm kGathervInitAlgorithms[] = {
    {"TUW_Gatherv_init", TUW_Gatherv_init},
    {"Optimal_Gatherv_init", Optimal_Gatherv_init},
    {"TUWk_Gatherv_init", TUWk_Gatherv_init},
};
inline constexpr ScattervInitAlgorithm kScattervInitAlgorithms[] = {
    {"TUW_Scatterv_init", TUW_Scatterv_init},
    {"Optimal_Scatterv_init", Optimal_Scatterv_init},
    {"TUWk_Scatterv_init", TUWk_Scatterv_init},
};

}  // namespace tuw
