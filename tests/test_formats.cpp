// The shared formats (formats/): raw.csv written and read back by the one writer and reader,
// the resume rule on hand-made files, the fit file, the command-line value rules and the table
// of operations; and irrbench's binding of every row to a call (harness/operations.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "cli.hpp"
#include "fit_file.hpp"
#include "operation_table.hpp"
#include "operations.hpp"  // harness: the rows bound to MPI calls
#include "radix_record.hpp"
#include "raw_csv.hpp"
#include "run_metadata.hpp"
#include "tuwcoll_registry.hpp"

namespace {

using namespace irr::formats;

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

RawRow Row(const std::string& op, int rep, double seconds, const std::string& status = "ok") {
  RawRow r;
  r.op = op;
  r.dist = "same";
  r.b = 10;
  r.p = 4;
  r.root = 2;
  r.m = 40;
  r.m_padded = 40;
  r.rep = rep;
  r.seconds = seconds;
  r.status = status;
  return r;
}

TEST(RawCsv, RowsWrittenAreReadBack) {
  std::string text =
      MetadataLine("library", "X, v1") + MetadataLine("nrep", "2") + std::string(kRawHeader) + "\n";
  text += FormatRow(Row("TUW_Gatherv", 0, 1.5e-6)) + FormatRow(Row("TUW_Gatherv", 1, 2.5e-6));
  text += FormatRow(Row("MPI_Gather", -1, 0, "skipped: m'=3000000000, too large"));
  // The writer keeps a status to one field (commas would split it).
  EXPECT_NE(text.find("skipped: m'=3000000000; too large"), std::string::npos);
  RawFile file;
  std::string error;
  ASSERT_TRUE(ReadRawFile(TempFile("rows.csv", text), &file, &error)) << error;
  EXPECT_EQ(file.meta["library"], "X, v1");
  ASSERT_EQ(file.cases.size(), 2u);
  EXPECT_EQ(file.cases[0].op, "TUW_Gatherv");
  EXPECT_EQ(file.cases[0].seconds, (std::vector<double>{1.5e-6, 2.5e-6}));
  EXPECT_EQ(file.cases[0].m, 40);
  EXPECT_EQ(file.cases[1].status, "skipped: m'=3000000000; too large");
  EXPECT_TRUE(file.cases[1].seconds.empty());
}

TEST(RawCsv, BadFilesAreRefusedWithTheLine) {
  RawFile file;
  std::string error;
  EXPECT_FALSE(ReadRawFile(TempFile("none.csv", "# a=b\nx,y\n"), &file, &error));
  EXPECT_NE(error.find("is not an irrbench raw.csv"), std::string::npos) << error;
  const std::string bad = std::string(kRawHeader) + "\nTUW_Gatherv,same,1,4,2,4,4,0,fast,0,ok\n";
  RawFile other;
  EXPECT_FALSE(ReadRawFile(TempFile("bad.csv", bad), &other, &error));
  EXPECT_NE(error.find("line 2: time 'fast'"), std::string::npos) << error;
  EXPECT_FALSE(ReadRawFile("/nonexistent/raw.csv", &other, &error));
  EXPECT_NE(error.find("cannot read"), std::string::npos);
}

TEST(RawCsv, ResumeKeepsCompleteAndSkippedCasesOnly) {
  std::string text = MetadataLine("nrep", "2") + std::string(kRawHeader) + "\n";
  text += FormatRow(Row("A", 0, 1e-6)) + FormatRow(Row("A", 1, 1e-6));  // complete
  text += FormatRow(Row("B", 0, 1e-6));                                 // interrupted
  text += FormatRow(Row("C", -1, 0, "skipped: too large"));             // skipped: complete
  text += FormatRow(Row("D", -1, 0, "validation_failed"));              // runs again
  text += "E,same,10,4,2,40,40,0,0.0000";                               // torn by a kill
  ResumePlan plan;
  std::string error;
  ASSERT_TRUE(PlanResume(TempFile("resume.csv", text), 2, &plan, &error)) << error;
  EXPECT_EQ(plan.complete,
            (std::set<std::string>{CaseKey("A", "same", 10), CaseKey("C", "same", 10)}));
  EXPECT_EQ(plan.dropped_rows, 2);  // B's row and D's row; the torn line is not a row
  EXPECT_TRUE(plan.file.torn_last_line);
  ASSERT_EQ(plan.lines.size(), 2u + 3u);  // metadata, header, A's two rows, C's row
  EXPECT_EQ(plan.lines[1], kRawHeader);
  EXPECT_EQ(plan.lines.back().substr(0, 2), "C,");
}

TEST(FitFile, WrittenFitIsReadBackAndBadValuesNamed) {
  Fit fit;
  fit.alpha_us = 3.25;
  fit.beta_us_per_byte = 0.0005;
  fit.gamma_us_per_byte = 0.0001;
  fit.has_gamma = true;
  fit.other = {{"tool", "irrfit"}, {"point", "4 3.3 3.252 0.1"}};
  const std::string text = FormatFit(fit, "a comment\nsecond line");
  EXPECT_EQ(text.rfind("# a comment\n# second line\n", 0), 0u) << text;
  Fit back;
  std::vector<std::string> notes;
  std::string error;
  ASSERT_TRUE(ReadFit(TempFile("fit.txt", text), &back, &notes, &error)) << error;
  EXPECT_DOUBLE_EQ(back.alpha_us, 3.25);
  EXPECT_DOUBLE_EQ(back.beta_us_per_byte, 0.0005);
  EXPECT_DOUBLE_EQ(back.gamma_us_per_byte, 0.0001);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(back.other, fit.other);

  Fit no_gamma;
  ASSERT_TRUE(
      ReadFit(TempFile("fit2.txt", "alpha_us=1\nbeta_us_per_byte=2\n"), &no_gamma, &notes, &error));
  EXPECT_DOUBLE_EQ(no_gamma.gamma_us_per_byte, 2);  // a copy costs beta
  ASSERT_EQ(notes.size(), 1u);
  Fit bad;
  EXPECT_FALSE(
      ReadFit(TempFile("fit3.txt", "alpha_us=-1\nbeta_us_per_byte=1\n"), &bad, &notes, &error));
  EXPECT_NE(error.find("alpha_us=-1 is not a number >= 0"), std::string::npos) << error;
  EXPECT_FALSE(ReadFit(TempFile("fit4.txt", "alpha_us=1\n"), &bad, &notes, &error));
  EXPECT_NE(error.find("has no beta_us_per_byte= line"), std::string::npos) << error;

  // The costs inside a node: both keys or neither.
  Fit two_level = fit;
  two_level.alpha_local_us = 0.75;
  two_level.beta_local_us_per_byte = 0.00025;
  two_level.has_local = true;
  Fit local_back;
  ASSERT_TRUE(ReadFit(TempFile("fit5.txt", FormatFit(two_level, "c")), &local_back, &notes, &error))
      << error;
  EXPECT_TRUE(local_back.has_local);
  EXPECT_DOUBLE_EQ(local_back.alpha_local_us, 0.75);
  EXPECT_DOUBLE_EQ(local_back.beta_local_us_per_byte, 0.00025);
  EXPECT_FALSE(back.has_local);
  EXPECT_FALSE(ReadFit(TempFile("fit6.txt", "alpha_us=1\nbeta_us_per_byte=2\nalpha_local_us=1\n"),
                       &bad, &notes, &error));
  EXPECT_NE(error.find("only one of alpha_local_us and beta_local_us_per_byte"), std::string::npos)
      << error;
  EXPECT_FALSE(ReadFit(TempFile("fit7.txt",
                                "alpha_us=1\nbeta_us_per_byte=2\nalpha_local_us=x\n"
                                "beta_local_us_per_byte=1\n"),
                       &bad, &notes, &error));
  EXPECT_NE(error.find("alpha_local_us=x is not a number >= 0"), std::string::npos) << error;
}

TEST(FitFile, PointLinesAreReadBackAndBadOnesNamed) {
  // Written as irrfit writes them, read back as irrmodel --measured-costs reads them.
  Fit fit;
  fit.alpha_us = 1;
  fit.beta_us_per_byte = 0.001;
  const FitPoint small{4, 2.5, 1.004, 0.01, 1.25};
  const FitPoint large{1048576, 1100.5, 1049.6, 80, 310.25};
  fit.other = {{"tool", "irrfit"}, {"point", FormatPoint(small)}, {"point", FormatPoint(large)}};
  EXPECT_EQ(FormatPoint(large), "1048576 1100.5 1049.6 80 310.25");  // sizes in full
  Fit back;
  std::vector<std::string> notes;
  std::string error;
  ASSERT_TRUE(ReadFit(TempFile("points.txt", FormatFit(fit, "c")), &back, &notes, &error)) << error;
  std::vector<FitPoint> points;
  ASSERT_TRUE(ReadPoints(back, "points.txt", &points, &error)) << error;
  ASSERT_EQ(points.size(), 2u);
  EXPECT_DOUBLE_EQ(points[1].bytes, 1048576);
  EXPECT_DOUBLE_EQ(points[1].one_way_us, 1100.5);
  EXPECT_DOUBLE_EQ(points[1].fitted_us, 1049.6);
  EXPECT_DOUBLE_EQ(points[1].copy_us, 80);
  EXPECT_DOUBLE_EQ(points[0].local_one_way_us, 1.25);
  // Four columns: nothing measured inside a node.
  fit.other = {{"point", FormatPoint({4, 2.5, 1.004, 0.01})}};
  EXPECT_EQ(fit.other[0].second, "4 2.5 1.004 0.01");
  ASSERT_TRUE(ReadPoints(fit, "f", &points, &error)) << error;
  ASSERT_EQ(points.size(), 1u);
  EXPECT_TRUE(std::isnan(points[0].local_one_way_us));
  for (const auto& [bad_line, message] : std::vector<std::pair<std::string, std::string>>{
           {"8 1 2", "point=8 1 2 is not 4 or 5 numbers >= 0"},
           {"8 1 2 x", "point=8 1 2 x is not 4 or 5 numbers"},
           {"8 -1 2 0", "point=8 -1 2 0 is not 4 or 5 numbers"},
           {"8 1 2 0 1", "point=8 1 2 0 1 is not 4 or 5 numbers >= 0 like the lines before it"},
           {"2 1 2 0", "point=2 1 2 0 is not a larger size than the line before it"}}) {
    Fit bad = fit;
    bad.other.emplace_back("point", bad_line);
    EXPECT_FALSE(ReadPoints(bad, "bad.txt", &points, &error)) << bad_line;
    EXPECT_NE(error.find("'bad.txt': " + message), std::string::npos) << error;
  }
}

TEST(Cli, OneRuleForSizesListsAndNumbers) {
  std::int64_t bytes = 0;
  EXPECT_EQ(irr::cli::ParseSize("8G", &bytes), "");
  EXPECT_EQ(bytes, 8LL << 30);
  EXPECT_EQ(irr::cli::ParseSize("512m", &bytes), "");
  EXPECT_EQ(bytes, 512LL << 20);
  EXPECT_EQ(irr::cli::ParseSize("1000", &bytes), "");
  EXPECT_EQ(bytes, 1000);
  EXPECT_NE(irr::cli::ParseSize("lots", &bytes), "");
  EXPECT_NE(irr::cli::ParseSize("0", &bytes), "");
  EXPECT_NE(irr::cli::ParseSize("-1G", &bytes), "");
  std::vector<std::string> names;
  EXPECT_EQ(irr::cli::ParseNameList("a,b", {"a", "b", "c"}, "thing", &names), "");
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  // Empty items are an error everywhere (`same,,spikes`, a trailing comma, nothing at all).
  for (const char* text : {"a,,b", "a,", ""}) {
    EXPECT_EQ(irr::cli::ParseNameList(text, {"a", "b"}, "thing", &names),
              "unknown thing ''; valid: a,b")
        << text;
  }
  std::vector<std::int64_t> values;
  EXPECT_EQ(irr::cli::ParseIntList("1,10,100", 1, "a block size", &values), "");
  EXPECT_EQ(values, (std::vector<std::int64_t>{1, 10, 100}));
  EXPECT_NE(irr::cli::ParseIntList("1,,10", 1, "a block size", &values), "");
  long long x = 0;
  EXPECT_EQ(irr::cli::ParseInt("-3", -5, 5, &x), "");
  EXPECT_EQ(x, -3);
  EXPECT_EQ(irr::cli::ParseInt("7", 0, 5, &x), "'7' is not an integer >= 0 and <= 5");
  double d = 0;
  EXPECT_EQ(irr::cli::ParseNumber("1", 1, true, &d), "'1' is not a number > 1");
  EXPECT_EQ(irr::cli::ParseNumber("2.5", 1, true, &d), "");
  EXPECT_EQ(d, 2.5);
}

TEST(Cli, VersionNamesProjectAndCommit) {
  const std::string line = irr::cli::VersionLine("irrtool");
  EXPECT_EQ(line, "irrtool " + irr::cli::ProjectVersion() + " (git " + irr::cli::GitCommit() + ")");
  EXPECT_FALSE(irr::cli::GitCommit().empty());
}

TEST(RunMetadata, LibraryStringAndRecordedEnvironment) {
  EXPECT_EQ(CleanLibraryVersion(std::string("MPICH Version:\t4.0.2\nMPICH Release date: x", 39)),
            "MPICH Version: 4.0.2");
  EXPECT_EQ(CleanLibraryVersion(std::string("Open MPI v4.1.4, package: x, \0", 30)),
            "Open MPI v4.1.4, package: x");
  // Settings and job facts are kept; launcher plumbing (mpirun's URIs, srun's ports) is not.
  char a[] = "I_MPI_ADJUST_GATHERV=3", b[] = "PATH=/bin", c[] = "OMPI_MCA_coll_tuned_x=1",
       d[] = "TUWCOLL_GATHERV=tuw", e[] = "OMPI_MCA_orte_hnp_uri=1.0;tcp://10.0.0.1:4",
       f[] = "OMPI_MCA_mpi_yield_when_idle=1", g[] = "SLURM_JOB_ID=7",
       h[] = "SLURM_SRUN_COMM_PORT=4321", i[] = "MPIR_CVAR_CH3_INTERFACE_HOSTNAME=node1",
       j[] = "OMPI_MCA_ess_base_vpid=0", k[] = "SLURM_RESTART_COUNT=1";
  char* env[] = {a, b, c, d, e, f, g, h, i, j, k, nullptr};
  std::vector<std::string> names;
  for (const auto& [name, value] : RecordedEnvironment(env)) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"I_MPI_ADJUST_GATHERV", "OMPI_MCA_coll_tuned_x",
                                             "TUWCOLL_GATHERV", "OMPI_MCA_mpi_yield_when_idle",
                                             "SLURM_JOB_ID", "SLURM_RESTART_COUNT"}));
  EXPECT_EQ(RecordedEnvironment(env)[0].second, "3");
  EXPECT_EQ(EnvironmentKind("OMPI_MCA_coll_tuned_gather_algorithm"), "setting");
  EXPECT_EQ(EnvironmentKind("OMPI_MCA_btl_tcp_if_include"), "context");
  EXPECT_EQ(EnvironmentKind("OMPI_MCA_ess"), "plumbing");
  EXPECT_EQ(EnvironmentKind("OMPI_MCA_essence"), "context");  // exact names are exact
  EXPECT_EQ(EnvironmentKind("HOME"), "");
}

// TUWCOLL_RADIX and irrbench's tuwcoll_radix: one form. Records before TUWk_Gatherv had its own
// radix mean TUWk's for it; a name or radix outside the families' is refused whole.
TEST(RadixRecord, OneFormForTheSettingAndTheRecord) {
  using irr::formats::RadixFamily;
  irr::formats::RadixRecord r;
  ASSERT_TRUE(irr::formats::ParseRadixRecord("5", 64, &r));
  for (RadixFamily f : {RadixFamily::kTuwk, RadixFamily::kTuwkGatherv, RadixFamily::kBinomialk,
                        RadixFamily::kTuwkInit}) {
    EXPECT_EQ(r.Of(f), 5) << irr::formats::RadixFamilyName(f);
  }
  ASSERT_TRUE(irr::formats::ParseRadixRecord("TUWk=4 Binomialk=9 TUWk_init=9", 64, &r));
  EXPECT_EQ(r.Of(RadixFamily::kTuwkGatherv), 4);
  EXPECT_EQ(r.Of(RadixFamily::kTuwkInit), 9);
  const std::string text = irr::formats::RadixRecordText(4, 9, 8, 6);
  EXPECT_EQ(text, "TUWk=4 Binomialk=9 TUWk_init=8 TUWk_Gatherv=6");
  ASSERT_TRUE(irr::formats::ParseRadixRecord(text, 64, &r));
  EXPECT_EQ(r.Of(RadixFamily::kTuwk), 4);
  EXPECT_EQ(r.Of(RadixFamily::kTuwkGatherv), 6);
  EXPECT_EQ(r.Of(RadixFamily::kBinomialk), 9);
  EXPECT_EQ(r.Of(RadixFamily::kTuwkInit), 8);
  ASSERT_TRUE(irr::formats::ParseRadixRecord("TUWk_Gatherv=7,,Binomialk=3", 64, &r));
  EXPECT_EQ(r.Of(RadixFamily::kTuwk), 0);  // not named: the library's model chooses
  EXPECT_EQ(r.Of(RadixFamily::kTuwkGatherv), 7);
  for (const char* bad : {"", "1", "65", "4x", "TUWk", "TUWk=", "TUWk=1", "tuwk=4",
                          "TUWk_Scatterv=4", "TUWk=4;Binomialk=3", "TUWk_Gatherv=65"}) {
    EXPECT_FALSE(irr::formats::ParseRadixRecord(bad, 64, &r)) << bad;
    EXPECT_EQ(r.Of(RadixFamily::kTuwk), 0) << bad;
  }
}

TEST(Operations, TheTableIsConsistentAndEveryRowIsCallable) {
  std::set<std::string> names;
  for (const auto& op : Operations()) {
    EXPECT_TRUE(names.insert(op.name).second) << "duplicate " << op.name;
    EXPECT_TRUE(op.family == "gather" || op.family == "scatter" || op.family == "harness");
    EXPECT_EQ(op.padded(), op.role == "regular" || op.role == "guideline2") << op.name;
  }
  for (const char* family : {"gather", "scatter"}) {
    int regular = 0, guideline2 = 0;
    for (const auto& op : Operations()) {
      regular += op.family == family && op.role == "regular";
      guideline2 += op.family == family && op.role == "guideline2";
    }
    EXPECT_EQ(regular, 1) << family;
    EXPECT_EQ(guideline2, 1) << family;
  }
  EXPECT_EQ(FindOperation("TUW_Gatherv")->tree, "adaptive");
  EXPECT_EQ(FindOperation("Binomial_Scatterv")->tree, "oblivious");
  EXPECT_EQ(FindOperation("MPI_Gatherv")->tree, "");
  EXPECT_TRUE(FindOperation("Guideline2_Scatter")->padded());
  EXPECT_EQ(FindOperation("nope"), nullptr);
  // irrbench can call every row, and every v-collective of libtuwcoll has a row.
  EXPECT_TRUE(irr::bench::UnboundOperations().empty());
  for (const auto& alg : tuw::kGathervAlgorithms) {
    ASSERT_NE(FindOperation(std::string(alg.name)), nullptr) << alg.name;
  }
  for (const auto& alg : tuw::kScattervAlgorithms) {
    ASSERT_NE(FindOperation(std::string(alg.name)), nullptr) << alg.name;
  }
  const std::string tsv = OperationsAs("tsv");
  EXPECT_EQ(tsv.rfind("name\tfamily\trole\tproblem\ttree\talgorithm\tdefault\tlabel\n", 0), 0u);
  EXPECT_NE(tsv.find("\nTUW_Gatherv\tgather\tirregular\tirregular\tadaptive\tTUW\tyes\t"),
            std::string::npos);
}

}  // namespace
