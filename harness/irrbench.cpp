// irrbench: times irregular gather/scatter operations with the method of Traeff 2017, Section 5
// (warm-up, then timed repetitions, each started by MPI_Barrier, a repetition's time being the
// slowest process's), or with a common start window on synchronised clocks (--sync window).
// Every finished case is appended and flushed to raw.csv at once; --resume continues a file.
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "distributions.hpp"
#include "operations.hpp"
#include "options.hpp"
#include "results_file.hpp"

extern char** environ;

namespace irr::bench {
namespace {

struct CaseSpec {
  std::string op, dist;
  std::int64_t b;
};

std::string Now(const char* format) {
  char text[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(text, sizeof text, format, std::gmtime(&t));
  return text;
}

bool MakeDirs(const std::string& path) {
  for (std::size_t pos = 1; pos != std::string::npos; pos = path.find('/', pos + 1)) {
    const std::string part = path.substr(0, pos);
    if (!part.empty() && mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string Dirname(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string LibraryVersion() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string s(version, strnlen(version, length));  // Open MPI counts the NUL
  s = s.substr(0, s.find('\n'));
  s.erase(std::remove(s.begin(), s.end(), '\r'), s.end());
  std::replace(s.begin(), s.end(), '\t', ' ');  // MPICH: "MPICH Version:\t4.0.2"
  while (!s.empty() && (s.back() == ' ' || s.back() == ',')) s.pop_back();
  return s;
}

// Nodes and processes per node, from the processor names of all ranks.
void NodeLayout(MPI_Comm comm, int* nodes, int* per_node) {
  int p = 0, rank = 0, length = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  MPI_Get_processor_name(name, &length);
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(p) * MPI_MAX_PROCESSOR_NAME : 1);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
             0, comm);
  *nodes = *per_node = 0;
  if (rank != 0) return;
  std::map<std::string, int> count;
  for (int i = 0; i < p; ++i)
    count[std::string(&all[static_cast<std::size_t>(i) * MPI_MAX_PROCESSOR_NAME])]++;
  *nodes = static_cast<int>(count.size());
  for (const auto& [host, n] : count) *per_node = std::max(*per_node, n);
}

// Clock offsets to rank 0 by ping-pongs (the one with the smallest round trip wins), as in
// ReproMPI/SKaMPI. offset = local clock - rank 0's clock.
double ClockOffset(MPI_Comm comm, double* spread, double* worst_rtt) {
  int p = 0, rank = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  constexpr int kPingPongs = 20;
  double my_offset = 0;
  std::vector<double> offsets(p, 0.0);
  *worst_rtt = 0;
  for (int peer = 1; peer < p; ++peer) {
    if (rank == 0) {
      double best_rtt = 1e30, best = 0;
      for (int k = 0; k < kPingPongs; ++k) {
        double remote = 0;
        const double t1 = MPI_Wtime();
        MPI_Send(&t1, 1, MPI_DOUBLE, peer, 1, comm);
        MPI_Recv(&remote, 1, MPI_DOUBLE, peer, 2, comm, MPI_STATUS_IGNORE);
        const double t2 = MPI_Wtime();
        if (t2 - t1 < best_rtt) {
          best_rtt = t2 - t1;
          best = remote - (t1 + t2) / 2;
        }
      }
      offsets[peer] = best;
      *worst_rtt = std::max(*worst_rtt, best_rtt);
      MPI_Send(&best, 1, MPI_DOUBLE, peer, 3, comm);
    } else if (rank == peer) {
      for (int k = 0; k < kPingPongs; ++k) {
        double t1 = 0;
        MPI_Recv(&t1, 1, MPI_DOUBLE, 0, 1, comm, MPI_STATUS_IGNORE);
        const double now = MPI_Wtime();
        MPI_Send(&now, 1, MPI_DOUBLE, 0, 2, comm);
      }
      MPI_Recv(&my_offset, 1, MPI_DOUBLE, 0, 3, comm, MPI_STATUS_IGNORE);
    }
  }
  const auto [lo, hi] = std::minmax_element(offsets.begin(), offsets.end());
  *spread = *hi - *lo;
  return my_offset;
}

struct Timing {
  std::vector<double> seconds;  // per repetition, at rank 0
  std::vector<int> late;
};

Timing TimeWithBarrier(Case& c, const Options& o, MPI_Comm comm) {
  std::vector<double> local(o.nrep), slowest(o.nrep);
  for (int r = 0; r < o.warmup + o.nrep; ++r) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    c.Run();
    const double end = MPI_Wtime();
    if (r >= o.warmup) local[r - o.warmup] = end - start;
  }
  MPI_Reduce(local.data(), slowest.data(), o.nrep, MPI_DOUBLE, MPI_MAX, 0, comm);
  return {slowest, std::vector<int>(o.nrep, 0)};
}

// All processes start at a common future time (rank 0's clock, shifted by each offset); the
// time is the latest end minus that start. A process that reaches the start late flags the
// repetition.
Timing TimeWithWindow(Case& c, const Options& o, MPI_Comm comm, double offset) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  double window = 0;
  for (int r = 0; r < o.warmup; ++r) {  // warm-ups size the window
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    c.Run();
    window = std::max(window, MPI_Wtime() - start);
  }
  MPI_Allreduce(MPI_IN_PLACE, &window, 1, MPI_DOUBLE, MPI_MAX, comm);
  window = 2 * window + 1e-4;
  std::vector<double> ends(o.nrep), latest(o.nrep), starts(o.nrep);
  std::vector<int> late(o.nrep), any_late(o.nrep);
  for (int r = 0; r < o.nrep; ++r) {
    double start_at = rank == 0 ? MPI_Wtime() + window : 0;
    MPI_Bcast(&start_at, 1, MPI_DOUBLE, 0, comm);
    starts[r] = start_at;
    const double local_start = start_at + offset;
    late[r] = MPI_Wtime() > local_start ? 1 : 0;
    while (MPI_Wtime() < local_start) {
    }
    c.Run();
    ends[r] = MPI_Wtime() - offset;
  }
  MPI_Reduce(ends.data(), latest.data(), o.nrep, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(late.data(), any_late.data(), o.nrep, MPI_INT, MPI_MAX, 0, comm);
  Timing t{std::vector<double>(o.nrep), any_late};
  for (int r = 0; r < o.nrep; ++r) t.seconds[r] = latest[r] - starts[r];
  return t;
}

std::int64_t PhysicalMemory() {
  return static_cast<std::int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

// Why a case cannot run at this scale, or "" if it can (the same verdict on every rank).
std::string ScaleProblem(const std::string& op, const std::vector<std::int64_t>& counts, int root,
                         std::int64_t max_mem) {
  const dist::Totals t = dist::Summarize(counts);
  if (t.m > INT_MAX) {
    return "m=" + std::to_string(t.m) + " elements overflows an int displacement (max " +
           std::to_string(INT_MAX) + ")";
  }
  if (t.m_padded > INT_MAX) {
    return "m'=" + std::to_string(t.m_padded) + " elements overflows an int count (max " +
           std::to_string(INT_MAX) + ")";
  }
  const std::int64_t need = std::max(
      Case::BytesNeeded(op, counts, root, root),
      Case::BytesNeeded(op, counts, root, root == 0 ? 1 % static_cast<int>(counts.size()) : 0));
  if (need > max_mem) {
    return "needs " + std::to_string(need) + " bytes per process; --max-mem is " +
           std::to_string(max_mem);
  }
  return "";
}

std::string Fmt(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9f", seconds);
  return text;
}

std::string Duration(double s) {
  char text[32];
  if (s < 120) {
    std::snprintf(text, sizeof text, "%.1fs", s);
  } else {
    std::snprintf(text, sizeof text, "%dm%02ds", static_cast<int>(s) / 60,
                  static_cast<int>(s) % 60);
  }
  return text;
}

// A sweep (slurm/sweep) names the library its settings are for in IRRBENCH_EXPECT_LIBRARY
// (intel, openmpi, mpich). Returns a warning when this binary runs on another library - the
// settings then select nothing - or "" when it matches or nothing was expected.
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

int Fail(int rank, const std::string& message) {
  if (rank == 0) std::fprintf(stderr, "irrbench: error: %s\n", message.c_str());
  MPI_Finalize();
  return 2;
}

}  // namespace

int Main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, p = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  Options o;
  const std::string error = ParseOptions(std::vector<std::string>(argv + 1, argv + argc), &o);
  if (o.help && error.empty()) {
    if (rank == 0) std::fputs(HelpText().c_str(), stdout);
    MPI_Finalize();
    return 0;
  }
  if (!error.empty()) return Fail(rank, error);
  const int root = o.root < 0 ? p / 2 : static_cast<int>(o.root);
  if (o.root >= p) {
    return Fail(rank, "--root: " + std::to_string(o.root) + " is not a rank of this run (0.." +
                          std::to_string(p - 1) + ")");
  }
  if (o.max_mem == 0) o.max_mem = PhysicalMemory() / 4;
  if (o.out.empty()) {
    std::string stamp = Now("%Y%m%dT%H%M%SZ");
    stamp.resize(32, '\0');
    MPI_Bcast(stamp.data(), 32, MPI_CHAR, 0, comm);
    o.out = "results/local/" + std::string(stamp.c_str()) + "/raw.csv";
  }

  std::vector<CaseSpec> cases;
  for (const auto& d : o.dists) {
    for (auto b : o.b) {
      for (const auto& op : o.ops) cases.push_back({op, d, b});
    }
  }

  // Rank 0 owns the file: check it, read it back for --resume, and tell everyone the verdict.
  int nodes = 0, per_node = 0;
  NodeLayout(comm, &nodes, &per_node);
  const std::string library = LibraryVersion();
  std::map<std::string, std::string> meta = {
      {"tool", "irrbench"},
      {"format_version", "1"},
      {"library", library},
      {"p", std::to_string(p)},
      {"nodes", std::to_string(nodes)},
      {"processes_per_node", std::to_string(per_node)},
      {"root", std::to_string(root)},
      {"nrep", std::to_string(o.nrep)},
      {"warmup", std::to_string(o.warmup)},
      {"sync", o.sync},
      {"seed", std::to_string(o.seed)},
      {"rho", Fmt(o.rho)},
  };
  std::string verdict;
  std::vector<char> done(cases.size(), 0);
  std::FILE* out = nullptr;
  if (rank == 0) {
    struct stat st;
    const bool exists = stat(o.out.c_str(), &st) == 0;
    if (exists && !o.resume) {
      verdict =
          "--out: '" + o.out + "' exists; pass --resume to continue it or choose another file";
    } else if (exists) {
      ExistingResults existing;
      if (!ReadExisting(o.out, o.nrep, &existing, &verdict)) {
        verdict = "--resume: " + verdict;
      } else {
        for (const auto& key : MethodKeys()) {
          if (existing.meta[key] != meta[key]) {
            verdict = "--resume: '" + o.out + "' was measured with " + key + "=" +
                      existing.meta[key] + ", this run has " + key + "=" + meta[key] +
                      "; use another --out";
            break;
          }
        }
        if (verdict.empty()) {
          for (std::size_t i = 0; i < cases.size(); ++i) {
            done[i] = existing.complete.count(CaseKey(cases[i].op, cases[i].dist, cases[i].b));
          }
          // Rewrite without the rows of interrupted cases, atomically.
          const std::string tmp = o.out + ".tmp";
          std::ofstream rewrite(tmp);
          for (const auto& line : existing.lines) rewrite << line << '\n';
          rewrite << "# resumed=" << Now("%Y-%m-%dT%H:%M:%SZ")
                  << " dropped_rows=" << existing.dropped_rows << '\n';
          rewrite.close();
          if (!rewrite || std::rename(tmp.c_str(), o.out.c_str()) != 0) {
            verdict = "--out: cannot rewrite '" + o.out + "'";
          }
          out = std::fopen(o.out.c_str(), "a");
        }
      }
    } else {
      if (!MakeDirs(Dirname(o.out) + "/")) {
        verdict =
            "--out: cannot create directory '" + Dirname(o.out) + "': " + std::strerror(errno);
      } else {
        out = std::fopen(o.out.c_str(), "w");
      }
    }
    if (verdict.empty() && out == nullptr) {
      verdict = "--out: cannot write '" + o.out + "': " + std::strerror(errno);
    }
  }
  int bad = verdict.empty() ? 0 : 1;
  MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
  if (bad) return Fail(rank, verdict);
  MPI_Bcast(done.data(), static_cast<int>(done.size()), MPI_CHAR, 0, comm);

  double offset = 0, spread = 0, worst_rtt = 0;
  if (o.sync == "window") offset = ClockOffset(comm, &spread, &worst_rtt);

  const std::string mismatch = LibraryMismatch(library);
  if (rank == 0 && !mismatch.empty()) {
    std::fprintf(stderr, "irrbench: WARNING: %s\n", mismatch.c_str());
  }
  if (rank == 0 && !o.resume) {
    auto put = [&](const std::string& k, const std::string& v) {
      std::fprintf(out, "# %s=%s\n", k.c_str(), v.c_str());
    };
    for (const auto& [k, v] : meta) put(k, v);
    int version = 0, subversion = 0;
    MPI_Get_version(&version, &subversion);
    put("mpi_version", std::to_string(version) + "." + std::to_string(subversion));
    if (!mismatch.empty()) put("warning", mismatch);
#ifdef SMPI_H  // SimGrid's mpi.h: MPI_Wtime is simulated time (scripts/simulate records the
               // platform and configuration as env.IRRBENCH_* lines)
    put("simulated", "yes (SimGrid SMPI)");
#else
    put("simulated", "no");
#endif
    put("element_bytes", std::to_string(sizeof(int)));  // blocks are MPI_INT elements
    put("validate", o.validate ? "yes" : "no");
    put("max_mem", std::to_string(o.max_mem));
    put("start_time", Now("%Y-%m-%dT%H:%M:%SZ"));
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    put("hostname", host);
    put("git_commit", IRRCOLL_GIT_COMMIT);
    put("compiler", IRRCOLL_COMPILER);
    put("compiler_flags", IRRCOLL_COMPILER_FLAGS);
    put("timer", "MPI_Wtime, resolution " + Fmt(MPI_Wtick()) + " s");
    if (o.sync == "window") {
      put("clock_offset_spread_s", Fmt(spread));
      put("clock_sync_worst_rtt_s", Fmt(worst_rtt));
    }
    std::string list;
    for (const auto& x : o.ops) list += (list.empty() ? "" : " ") + x;
    put("ops", list);
    list.clear();
    for (const auto& x : o.dists) list += (list.empty() ? "" : " ") + x;
    put("dists", list);
    list.clear();
    for (auto x : o.b) list += (list.empty() ? "" : " ") + std::to_string(x);
    put("b", list);
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string var = *e;
      // Algorithm selections and job facts; not what launchers set for themselves (Open MPI's
      // orte, ess, pmix; MPICH's interface host name; SMPI's world size).
      bool launcher_internal = false;
      for (const char* noise :
           {"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
            "OMPI_MCA_shmem_RUNTIME", "MPIR_CVAR_CH3_INTERFACE_HOSTNAME", "SMPI_GLOBAL_SIZE"}) {
        launcher_internal = launcher_internal || var.rfind(noise, 0) == 0;
      }
      for (const char* prefix :
           {"I_MPI_ADJUST_", "OMPI_MCA_", "MPIR_CVAR_", "SLURM_", "SMPI_", "IRRBENCH_"}) {
        if (var.rfind(prefix, 0) == 0 && !launcher_internal) {
          put("env." + var.substr(0, var.find('=')), var.substr(var.find('=') + 1));
        }
      }
    }
    std::fprintf(out, "%s\n", kHeader);
    std::fflush(out);
  }

  const bool live = rank == 0 && isatty(STDERR_FILENO);
  // Progress in wall-clock time, not MPI_Wtime: under SMPI that is simulated time.
  const auto t_begin = std::chrono::steady_clock::now();
  int total_to_run = 0;
  for (char d : done) total_to_run += d ? 0 : 1;
  int finished = 0;
  bool any_failure = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (done[i]) continue;
    const CaseSpec& spec = cases[i];
    dist::Params params;
    params.b = spec.b;
    params.rho = o.rho;
    params.seed = o.seed;
    const std::vector<std::int64_t> counts = dist::Generate(spec.dist, p, params);
    const dist::Totals totals = dist::Summarize(counts);
    const std::string prefix = spec.op + "," + spec.dist + "," + std::to_string(spec.b) + "," +
                               std::to_string(p) + "," + std::to_string(root) + "," +
                               std::to_string(totals.m) + "," + std::to_string(totals.m_padded);
    const std::string scale = ScaleProblem(spec.op, counts, root, o.max_mem);
    std::string status = "ok";
    Timing timing;
    if (!scale.empty()) {
      status = "skipped: " + scale;
      if (rank == 0) {
        std::fprintf(stderr, "%sirrbench: skipping %s %s b=%lld: %s\n", live ? "\n" : "",
                     spec.op.c_str(), spec.dist.c_str(), static_cast<long long>(spec.b),
                     scale.c_str());
      }
    } else {
      Case c(spec.op, counts, root, comm);
      std::string why;
      if (o.validate && !c.Validate(&why)) {
        status = "validation_failed";
        any_failure = true;
        if (!why.empty()) {
          std::fprintf(stderr, "irrbench: VALIDATION FAILED %s %s b=%lld: %s\n", spec.op.c_str(),
                       spec.dist.c_str(), static_cast<long long>(spec.b), why.c_str());
        }
      } else {
        timing =
            o.sync == "window" ? TimeWithWindow(c, o, comm, offset) : TimeWithBarrier(c, o, comm);
      }
    }
    if (rank == 0) {
      std::string rows;
      if (status == "ok") {
        for (int r = 0; r < o.nrep; ++r) {
          rows += prefix + "," + std::to_string(r) + "," + Fmt(timing.seconds[r]) + "," +
                  std::to_string(timing.late[r]) + ",ok\n";
        }
      } else {
        std::string clean = status;
        std::replace(clean.begin(), clean.end(), ',', ';');
        rows = prefix + ",-1,,0," + clean + "\n";
      }
      std::fputs(rows.c_str(), out);
      std::fflush(out);
      fsync(fileno(out));
      ++finished;
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t_begin).count();
      const double eta = elapsed / finished * (total_to_run - finished);
      std::fprintf(stderr, "%s[%d/%d] %-18s %-11s b=%-6lld %s  elapsed %s  ETA %s%s",
                   live ? "\r\033[K" : "", finished, total_to_run, spec.op.c_str(),
                   spec.dist.c_str(), static_cast<long long>(spec.b),
                   status == "ok" ? "ok" : status.c_str(), Duration(elapsed).c_str(),
                   Duration(eta).c_str(), live ? "" : "\n");
      std::fflush(stderr);
    }
  }
  if (rank == 0) {
    if (live) std::fputc('\n', stderr);
    std::fclose(out);
    std::fprintf(stderr, "irrbench: %d case(s) written to %s%s\n", finished, o.out.c_str(),
                 any_failure ? " (VALIDATION FAILURES: see status column)" : "");
  }
  MPI_Finalize();
  return any_failure ? 1 : 0;
}

}  // namespace irr::bench

int main(int argc, char** argv) { return irr::bench::Main(argc, argv); }
