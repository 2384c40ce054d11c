// Run metadata shared by the MPI tools (irrbench, irrfit): the library string and which
// environment variables a run records. Which of the recorded variables are algorithm
// *settings* is decided by the analysis (guidelines/irrguide/load.py), not here: C++ records,
// Python interprets, each rule in one place.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace irr::formats {

// MPI_Get_library_version's text as one metadata value: the first line, without trailing
// commas or blanks, tabs as blanks (MPICH: "MPICH Version:\t4.0.2"), without '\r'.
std::string CleanLibraryVersion(const std::string& raw);

// The prefixes of the variables a run records as env.* lines: algorithm selections of Intel
// MPI, Open MPI (every MCA parameter), MPICH, SimGrid SMPI; SLURM job facts; irrbench's and
// libtuwcoll's own (IRRBENCH_*, TUWCOLL_*).
const std::vector<std::string>& RecordedEnvironmentPrefixes();

// The recorded variables of `environ`-style "NAME=value" entries, as (NAME, value), in order.
std::vector<std::pair<std::string, std::string>> RecordedEnvironment(char** environment);

}  // namespace irr::formats
