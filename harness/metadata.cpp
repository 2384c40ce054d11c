#include "metadata.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>

#include "build_info.hpp"
#include "cli.hpp"
#include "run_metadata.hpp"

extern char** environ;

namespace irr::bench {

std::string LibraryVersion() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int length = 0;
  MPI_Get_library_version(version, &length);
  return formats::CleanLibraryVersion(std::string(version, strnlen(version, length)));
}

std::string ProcessorName() {
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, strnlen(name, sizeof name));
}

void NodeLayout(MPI_Comm comm, int* nodes, int* per_node, std::vector<int>* node_starts) {
  int p = 0, rank = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  std::string name = ProcessorName();
  name.resize(MPI_MAX_PROCESSOR_NAME, '\0');
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(p) * MPI_MAX_PROCESSOR_NAME : 1);
  MPI_Gather(name.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
             MPI_CHAR, 0, comm);
  *nodes = *per_node = 0;
  node_starts->clear();
  if (rank != 0) return;
  std::map<std::string, int> count;
  std::string previous;
  for (int i = 0; i < p; ++i) {
    const std::string host(&all[static_cast<std::size_t>(i) * MPI_MAX_PROCESSOR_NAME]);
    if (i == 0 || host != previous) node_starts->push_back(i);
    previous = host;
    count[host]++;
  }
  *nodes = static_cast<int>(count.size());
  for (const auto& [host, n] : count) *per_node = std::max(*per_node, n);
  // A host seen again after another one: some node is not one contiguous range.
  if (node_starts->size() != count.size()) node_starts->clear();
}

int FailOnRanks(const std::string& tool, int rank, const std::string& message) {
  if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", tool.c_str(), message.c_str());
  MPI_Finalize();
  return 2;
}

int ExitStatusOfParse(irr::cli::Parser::Outcome outcome, const std::string& tool, int rank,
                      const std::string& output, const std::string& error) {
  switch (outcome) {
    case irr::cli::Parser::Outcome::kExitError:
      return FailOnRanks(tool, rank, error);
    case irr::cli::Parser::Outcome::kExitSuccess:
      if (rank == 0) std::fputs(output.c_str(), stdout);
      MPI_Finalize();
      return 0;
    case irr::cli::Parser::Outcome::kRun:
      break;
  }
  return -1;
}

std::string LibraryMismatch(const std::string& library) {
  const char* expected = std::getenv("IRRBENCH_EXPECT_LIBRARY");
  if (expected == nullptr || *expected == '\0') return "";
  const std::map<std::string, std::pair<const char*, const char*>> known = {
      {"intel", {"Intel", "Intel MPI"}},
      {"openmpi", {"Open MPI", "Open MPI"}},
      {"mpich", {"MPICH", "MPICH"}}};
  const auto it = known.find(expected);
  if (it == known.end()) {
    return std::string("IRRBENCH_EXPECT_LIBRARY=") + expected +
           " is not one of intel, openmpi, mpich; the library was not checked";
  }
  if (library.find(it->second.first) != std::string::npos) return "";
  return std::string("the job's settings are for ") + it->second.second + " but irrbench runs on " +
         library + ": those settings select nothing here; load " + it->second.second +
         " (module lines in slurm/irrbench.sbatch) or sweep --library for this one";
}

std::string Now(const char* format) {
  char text[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(text, sizeof text, format, std::gmtime(&t));
  return text;
}

std::string Interposer() {
  // The interposer exports this function; a program without it has no such symbol.
  using ChoiceFn = const char* (*)();
  auto choice = reinterpret_cast<ChoiceFn>(dlsym(RTLD_DEFAULT, "tuwcoll_interpose_choice"));
  return choice == nullptr ? "" : choice();
}

std::vector<std::pair<std::string, std::string>> BuildAndMachineFacts() {
  std::vector<std::pair<std::string, std::string>> facts;
  int version = 0, subversion = 0;
  MPI_Get_version(&version, &subversion);
  facts.emplace_back("mpi_version", std::to_string(version) + "." + std::to_string(subversion));
#ifdef SMPI_H  // SimGrid's mpi.h: MPI_Wtime is simulated time (scripts/simulate records the
               // platform and configuration as env.IRRBENCH_* lines)
  facts.emplace_back("simulated", "yes (SimGrid SMPI)");
#else
  facts.emplace_back("simulated", "no");
#endif
  facts.emplace_back("start_time", Now());
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  facts.emplace_back("hostname", host);
  facts.emplace_back("version", irr::cli::ProjectVersion());
  facts.emplace_back("git_commit", irr::cli::GitCommit());
  facts.emplace_back("compiler", IRRCOLL_COMPILER);
  facts.emplace_back("compiler_flags", IRRCOLL_COMPILER_FLAGS);
  char tick[32];
  std::snprintf(tick, sizeof tick, "%.9f", MPI_Wtick());
  facts.emplace_back("timer", std::string("MPI_Wtime, resolution ") + tick + " s");
  for (const auto& [name, value] : formats::RecordedEnvironment(environ)) {
    facts.emplace_back("env." + name, value);
  }
  return facts;
}

}  // namespace irr::bench
