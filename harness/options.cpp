#include "options.hpp"

#include <cstdlib>

#include "cli.hpp"
#include "distributions.hpp"
#include "operations.hpp"

namespace irr::bench {

ParseOutcome ParseOptions(int argc, char** argv, Options* o, std::string* output,
                          std::string* error) {
  const char* test_ops = std::getenv("IRRBENCH_TEST_OPS");
  o->ops = DefaultOperations();
  o->dists = dist::PaperNames();
  irr::cli::Parser cli("irrbench",
                       "irrbench: benchmark irregular gather/scatter (Traeff 2017, Section 5)\n"
                       "usage: mpirun -np P irrbench [options]");
  cli.Names("--ops", &o->ops,
            SelectableOperations(test_ops != nullptr && std::string(test_ops) == "1"), "operation",
            "operations (default: " + irr::cli::Join(o->ops) + ")");
  cli.Names("--dists", &o->dists, dist::AllNames(), "distribution",
            "distributions (default: " + irr::cli::Join(o->dists) + ")");
  cli.Ints("--b", &o->b, 1, "a block size",
           "average block sizes in MPI_INT elements (default: 1,10,100,1000,10000)");
  cli.Int("--nrep", &o->nrep, 1, 100000000, "timed repetitions per case (default: 75)");
  cli.Int("--warmup", &o->warmup, 0, 100000000, "untimed calls before them (default: 10)");
  cli.Int("--root", &o->root, 0, 100000000, "root rank, 0 <= R < p (default: floor(p/2))");
  cli.Int("--seed", &o->seed, 0, 1LL << 62, "seed of the random distributions (default: 1)");
  cli.Int("--launch", &o->launch, 1, 1000000,
          "which launch of the run this is, recorded as launch=N: irrcheck tests per-launch "
          "statistics across launches (default: 1)");
  cli.Number("--rho", &o->rho, 1, true, "spikes factor / skewed count (default: 5)");
  cli.Choice("--sync", &o->sync, {"barrier", "window"}, "method",
             "barrier: MPI_Barrier before each repetition, time = slowest process's end - "
             "start (default); window: all processes start at a common time on "
             "offset-corrected clocks, time = latest end - common start, late starts flagged "
             "in column 'late'");
  cli.Text("--out", &o->out, "CSV output (default: results/local/<timestamp>/raw.csv)");
  cli.Flag("--resume", &o->resume, "skip cases already complete in --out, append the rest");
  cli.Flag("--no-validate", &o->no_validate, "skip the untimed correctness check before each case");
  cli.Size("--max-mem", &o->max_mem,
           "per-process memory a case may use, e.g. 8G (default: a quarter of physical memory)");
  cli.Flag("--list-ops", &o->list_ops,
           "print the table of operations (formats/operations.tsv) and exit");
  cli.Choice("--format", &o->format, {"tsv", "json"}, "format", "of --list-ops (default tsv)");
  cli.Footer(
      "Empty and Barrier measure the harness itself. Exit status: 0 success, 1 a validation "
      "failure, 2 bad arguments.");
  std::string message;
  switch (cli.Parse(argc, argv, output, &message)) {
    case irr::cli::Parser::Outcome::kExitSuccess:
      return ParseOutcome::kExitSuccess;
    case irr::cli::Parser::Outcome::kExitError:
      *error = message;
      return ParseOutcome::kExitError;
    case irr::cli::Parser::Outcome::kRun:
      break;
  }
  if (cli.Given("--format") && !o->list_ops) {
    *error = "--format is the format of --list-ops; give --list-ops too";
    return ParseOutcome::kExitError;
  }
  return ParseOutcome::kRun;
}

}  // namespace irr::bench
