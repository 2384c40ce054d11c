// What irrbench and irrfit record about a run and the machine it ran on (MPI facts; the file
// syntax and the environment rule are formats/'s).
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"

namespace irr::bench {

// How the MPI tools (irrbench, irrfit, irrprobe) leave on an error: "TOOL: error: MESSAGE" on
// rank 0, MPI finalized; the exit status, 2.
int FailOnRanks(const std::string& tool, int rank, const std::string& message);
// After every rank parsed the command line: -1 to run; otherwise MPI is finalized and this is
// the exit status (rank 0 printed --help or --version: 0; a bad option: 2).
int ExitStatusOfParse(irr::cli::Parser::Outcome outcome, const std::string& tool, int rank,
                      const std::string& output, const std::string& error);

// MPI_Get_library_version as one line (formats::CleanLibraryVersion).
std::string LibraryVersion();
// This process's MPI processor name.
std::string ProcessorName();
// Nodes and processes per node, from the processor names of all ranks (valid at rank 0).
// *node_starts: each node's lowest rank, in rank order, where every node is one contiguous rank
// range (as Optimal_*_init's node-aware tree needs, and irrmodel reproduces from raw.csv's
// node_starts); empty otherwise. All three at rank 0 only.
void NodeLayout(MPI_Comm comm, int* nodes, int* per_node, std::vector<int>* node_starts);

// A sweep (slurm/sweep) names the library its settings are for in IRRBENCH_EXPECT_LIBRARY
// (intel, openmpi, mpich). Returns a warning when this binary runs on another library - the
// settings then select nothing - or "" when it matches or nothing was expected.
std::string LibraryMismatch(const std::string& library);

// When this process runs under libtuwcoll_interpose (LD_PRELOAD), the MPI_Gatherv/MPI_Scatterv
// it calls are libtuwcoll's: the interposer's choice, e.g. "MPI_Gatherv=TUW_Gatherv
// MPI_Scatterv=TUW_Scatterv"; "" when the MPI library's own functions run.
std::string Interposer();

// "2026-11-22T13:36:26Z" (UTC) or another strftime format.
std::string Now(const char* format = "%Y-%m-%dT%H:%M:%SZ");

// The facts of the build, the machine and the environment that every results file carries,
// after the run's own keys: (key, value) in the order they are written.
std::vector<std::pair<std::string, std::string>> BuildAndMachineFacts();

}  // namespace irr::bench
