// irrbench: times irregular gather/scatter operations with the method of Traeff 2017, Section 5
// (warm-up, then timed repetitions, each started by MPI_Barrier, a repetition's time being the
// slowest process's), or with a common start window on synchronised clocks (--sync window).
// Every finished case is appended and flushed to raw.csv at once; --resume continues a file.
// Pieces: options.cpp (command line), operations.cpp (what is timed), timing.cpp (how),
// output.cpp (the file), metadata.cpp (what is recorded about the run).
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "carried_cubes.hpp"
#include "distributions.hpp"
#include "hypercube_tree.hpp"
#include "metadata.hpp"
#include "operations.hpp"
#include "options.hpp"
#include "output.hpp"
#include "radix_record.hpp"
#include "run_metadata.hpp"
#include "scatter_trees_record.hpp"
#include "timing.hpp"
#include "tuwcoll.h"

namespace irr::bench {
namespace {

struct CaseSpec {
  std::string op, dist;
  std::int64_t b;
};

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

std::string Fixed(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9f", x);
  return text;
}

std::string Words(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& x : items) s += (s.empty() ? "" : " ") + x;
  return s;
}

int Fail(int rank, const std::string& message) {
  return irr::bench::FailOnRanks("irrbench", rank, message);
}

// Runs one case at every rank; the rows for the file (valid at rank 0).
std::vector<formats::RawRow> RunCase(const CaseSpec& spec, const Options& o, int p, int root,
                                     double offset, MPI_Comm comm, bool* failed) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  dist::Params params;
  params.b = spec.b;
  params.rho = o.rho;
  params.seed = static_cast<std::uint64_t>(o.seed);
  const std::vector<std::int64_t> counts = dist::Generate(spec.dist, p, params);
  const dist::Totals totals = dist::Summarize(counts);
  formats::RawRow row;
  row.op = spec.op;
  row.dist = spec.dist;
  row.b = spec.b;
  row.p = p;
  row.root = root;
  row.m = totals.m;
  row.m_padded = totals.m_padded;
  std::string scale = Case::Unavailable(spec.op);
  if (scale.empty()) scale = ScaleProblem(spec.op, counts, root, o.max_mem);
  if (!scale.empty()) {
    if (rank == 0) {
      std::fprintf(stderr, "%sirrbench: skipping %s %s b=%lld: %s\n",
                   isatty(STDERR_FILENO) ? "\n" : "", spec.op.c_str(), spec.dist.c_str(),
                   static_cast<long long>(spec.b), scale.c_str());
    }
    row.status = "skipped: " + scale;
    return {row};
  }
  Case c(spec.op, counts, root, comm);
  std::string why;
  if (!o.no_validate && !c.Validate(&why)) {
    *failed = true;
    if (!why.empty()) {
      std::fprintf(stderr, "irrbench: VALIDATION FAILED %s %s b=%lld: %s\n", spec.op.c_str(),
                   spec.dist.c_str(), static_cast<long long>(spec.b), why.c_str());
    }
    row.status = "validation_failed";
    return {row};
  }
  const int warmup = static_cast<int>(o.warmup), nrep = static_cast<int>(o.nrep);
  const Timing timing = o.sync == "window" ? TimeWithWindow(c, warmup, nrep, comm, offset)
                                           : TimeWithBarrier(c, warmup, nrep, comm);
  std::vector<formats::RawRow> rows;
  for (int r = 0; r < nrep; ++r) {
    row.rep = r;
    row.seconds = timing.seconds[r];
    row.late = timing.late[r];
    row.status = "ok";
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

int Main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, p = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  Options o;
  std::string output, error;
  const int status = irr::bench::ExitStatusOfParse(ParseOptions(argc, argv, &o, &output, &error),
                                                   "irrbench", rank, output, error);
  if (status >= 0) return status;
  if (o.list_ops) {
    if (rank == 0) std::fputs(formats::OperationsAs(o.format).c_str(), stdout);
    MPI_Finalize();
    return 0;
  }
  const auto unbound = UnboundOperations();
  if (!unbound.empty()) {
    return Fail(rank, "formats/operations.tsv lists operations this irrbench cannot call: " +
                          Words(unbound));
  }
  if (o.root >= p) {
    return Fail(rank, "--root: " + std::to_string(o.root) + " is not a rank of this run (0.." +
                          std::to_string(p - 1) + ")");
  }
  const int root = o.root < 0 ? p / 2 : static_cast<int>(o.root);
  // The radix-k rows' radixes (the model's choice, or TUWCOLL_RADIX), recorded with a run that
  // measures them (the three models cost every process ~55 ms at p = 6400: minutes under SMPI); a
  // bad setting stops such a run here, not in its first case.
  const bool radix_k = std::any_of(o.ops.begin(), o.ops.end(), [](const std::string& op) {
    const formats::Operation* row = formats::FindOperation(op);  // the table's tree: "…-k"
    return row != nullptr && row->tree.size() > 2 &&
           row->tree.compare(row->tree.size() - 2, 2, "-k") == 0;
  });
  int tuwk_radix = 0, binomialk_radix = 0, tuwk_init_radix = 0, tuwk_gatherv_radix = 0;
  int init_radix_by_root = 0;
  bool radix_known = radix_k && TUWk_Radix(comm, &tuwk_radix, &binomialk_radix) == MPI_SUCCESS &&
                     TUWk_Radix_init(comm, &tuwk_init_radix) == MPI_SUCCESS &&
                     TUWk_Radix_init_by_root(comm, &init_radix_by_root) == MPI_SUCCESS &&
                     TUWk_Radix_gatherv(comm, &tuwk_gatherv_radix) == MPI_SUCCESS;
  // A small TUWk_Scatterv call's greedy step, the same everywhere: rank 0 asks (the model costs
  // about 60 ms at p = 6400; under SMPI, whose processes share one CPU, all asking took minutes).
  // Likewise whether a large call's radix is the model's at the call's size (or the one set).
  // step: the step, chosen by the model, the query's error; a large call's radix (of 4-byte
  // blocks: what is recorded is how it is chosen), chosen by the model.
  int step[5] = {0, 0, MPI_SUCCESS, 0, 0};
  if (radix_known) {
    if (rank == 0) step[2] = TUWk_Scatter_step(comm, root, &step[0], &step[1]);
    if (rank == 0 && step[2] == MPI_SUCCESS) {
      step[2] = TUWk_Radix_scatter_large(comm, root, 4, &step[3], &step[4]);
    }
    MPI_Bcast(step, 5, MPI_INT, 0, comm);
    radix_known = step[2] == MPI_SUCCESS;
  }
  // How TUWk_Gatherv cuts its transfers (every process reads the same setting and fit).
  MPI_Aint gather_piece = 0;
  int pieces_by_model = 0;
  if (radix_known) {
    radix_known = TUWk_Gather_pieces(comm, &gather_piece, &pieces_by_model) == MPI_SUCCESS;
  }
  const int scatter_step = step[0], step_by_model = step[1];
  const int large_radix = step[3], large_radix_by_model = step[4];
  if (radix_k && !radix_known) {
    return Fail(rank,
                "TUWk_*/Binomialk_*: no radix (TUWCOLL_RADIX, TUWCOLL_SCATTER_STEP, "
                "TUWCOLL_RANKS_PER_NODE, TUWCOLL_GATHER_PIECES or "
                "TUWCOLL_MODEL_FIT is bad, see libtuwcoll's message)");
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

  // Rank 0 owns the file: opens or resumes it and tells everyone the verdict.
  int nodes = 0, per_node = 0;
  std::vector<int> node_starts;
  NodeLayout(comm, &nodes, &per_node, &node_starts);
  const std::string library = LibraryVersion();
  std::map<std::string, std::string> method = {
      {"library", library},
      {"p", std::to_string(p)},
      {"root", std::to_string(root)},
      {"nrep", std::to_string(o.nrep)},
      {"warmup", std::to_string(o.warmup)},
      {"sync", o.sync},
      {"seed", std::to_string(o.seed)},
      {"rho", Fixed(o.rho)},
      {"launch", std::to_string(o.launch)},
  };
  if (radix_known) {
    method["tuwcoll_radix"] =
        formats::RadixRecordText(tuwk_radix, binomialk_radix, tuwk_init_radix, tuwk_gatherv_radix);
    method["tuwcoll_scatter_step"] = formats::ScatterStepRecord(scatter_step, step_by_model);
    method["tuwcoll_large_scatter_radix"] =
        formats::RadixChoiceRecord(large_radix, large_radix_by_model);
    method["tuwcoll_init_radix"] = formats::RadixChoiceRecord(
        tuwk_init_radix, init_radix_by_root != 0,
        init_radix_by_root != 0 ? formats::kLibraryLinkGreedyRule : formats::kNoLinkGreedy);
    method["tuwcoll_gather_pieces"] =
        formats::GatherPiecesRecord(static_cast<long long>(gather_piece), pieces_by_model);
    method["tuwcoll_small_call_max_bytes"] = std::to_string(tuw::tree::kOneMessageMaxBytes);
    method["tuwcoll_carry_max_bytes"] = std::to_string(tuw::tree::kCarryMaxBytes);
    method["tuwcoll_carry_to_root"] = "direct-only";  // tree::RootToldOnly
    method["tuwcoll_carry_to_root_max_bytes"] = std::to_string(tuw::tree::kCarryToRootMaxBytes);
  }
  ResultsFile out;
  std::string verdict;
  std::vector<char> done(cases.size(), 0);
  if (rank == 0) {
    verdict = out.Open(o.out, o.resume, static_cast<int>(o.nrep), method);
    for (std::size_t i = 0; i < cases.size() && verdict.empty(); ++i) {
      done[i] = out.Complete(formats::CaseKey(cases[i].op, cases[i].dist, cases[i].b));
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
  const std::string interposer = Interposer();
  if (rank == 0 && !interposer.empty()) {
    std::fprintf(stderr,
                 "irrbench: WARNING: running under libtuwcoll_interpose (%s): the MPI_Gatherv and "
                 "MPI_Scatterv operations measure libtuwcoll, not the MPI library\n",
                 interposer.c_str());
  }
  if (rank == 0 && !out.resumed()) {
    std::vector<std::pair<std::string, std::string>> meta = {{"tool", "irrbench"},
                                                             {"format_version", "1"}};
    meta.insert(meta.end(), method.begin(), method.end());
    std::string starts = node_starts.empty() ? "non-contiguous" : "";
    for (int first : node_starts) starts += (starts.empty() ? "" : " ") + std::to_string(first);
    meta.insert(meta.end(), {{"nodes", std::to_string(nodes)},
                             {"processes_per_node", std::to_string(per_node)},
                             {"node_starts", starts}});
    if (!mismatch.empty()) meta.emplace_back("warning", mismatch);
    if (!interposer.empty()) meta.emplace_back("interposer", interposer);
    meta.insert(meta.end(), {{"element_bytes", std::to_string(sizeof(int))},  // MPI_INT blocks
                             {"validate", o.no_validate ? "no" : "yes"},
                             {"max_mem", std::to_string(o.max_mem)}});
    if (o.sync == "window") {
      meta.insert(meta.end(), {{"clock_offset_spread_s", Fixed(spread)},
                               {"clock_sync_worst_rtt_s", Fixed(worst_rtt)}});
    }
    std::vector<std::string> bs;
    for (auto b : o.b) bs.push_back(std::to_string(b));
    meta.insert(meta.end(), {{"ops", Words(o.ops)}, {"dists", Words(o.dists)}, {"b", Words(bs)}});
    const auto facts = BuildAndMachineFacts();
    meta.insert(meta.end(), facts.begin(), facts.end());
    out.WriteHeader(meta);
  }

  const bool live = rank == 0 && isatty(STDERR_FILENO);
  // Progress in wall-clock time, not MPI_Wtime: under SMPI that is simulated time.
  const auto t_begin = std::chrono::steady_clock::now();
  const int total_to_run = static_cast<int>(std::count(done.begin(), done.end(), 0));
  int finished = 0;
  bool any_failure = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (done[i]) continue;
    const CaseSpec& spec = cases[i];
    const std::vector<formats::RawRow> rows = RunCase(spec, o, p, root, offset, comm, &any_failure);
    if (rank != 0) continue;
    out.AppendCase(rows);
    ++finished;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_begin).count();
    const double eta = elapsed / finished * (total_to_run - finished);
    std::fprintf(stderr, "%s[%d/%d] %-18s %-11s b=%-6lld %s  elapsed %s  ETA %s%s",
                 live ? "\r\033[K" : "", finished, total_to_run, spec.op.c_str(), spec.dist.c_str(),
                 static_cast<long long>(spec.b), rows.front().status.c_str(),
                 Duration(elapsed).c_str(), Duration(eta).c_str(), live ? "" : "\n");
    std::fflush(stderr);
  }
  if (rank == 0) {
    if (live) std::fputc('\n', stderr);
    out.Close();
    std::fprintf(stderr, "irrbench: %d case(s) written to %s%s\n", finished, o.out.c_str(),
                 any_failure ? " (VALIDATION FAILURES: see status column)" : "");
  }
  MPI_Finalize();
  return any_failure ? 1 : 0;  // Validate's verdict is the same on every rank
}

}  // namespace irr::bench

int main(int argc, char** argv) { return irr::bench::Main(argc, argv); }
