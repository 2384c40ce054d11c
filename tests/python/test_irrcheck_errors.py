"""Bad input to irrcheck: one clear line naming the file, line or column, exit status 2, never a
traceback; guidelines whose operands are missing are skipped with a note."""
import os

import numpy as np
import pytest

from synthetic import HEADER, ROOT, noise, rng, run, write_raw

TABLE3 = ROOT / "results" / "paper" / "traff2017_table3.csv"


def assert_user_error(result, *fragments):
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


def gather_cases(r, dists=("same",), ops=("MPI_Gather", "Guideline2_Gather", "MPI_Gatherv")):
    return {(op, d, 1): noise(r, 10, 30.0) for op in ops for d in dists}


def test_missing_file_and_directory(tmp_path):
    assert_user_error(run(tmp_path / "nope.csv"), "nope.csv: no such file")
    assert_user_error(run(tmp_path), "is a directory")


def test_not_text(tmp_path):
    path = tmp_path / "binary.csv"
    path.write_bytes(b"\xff\xfe\x00\x01garbage")
    assert_user_error(run(path), "binary.csv", "not a text CSV")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files regardless of permissions")
def test_unreadable(tmp_path):
    path = write_raw(tmp_path / "raw.csv", gather_cases(rng(1)))
    path.chmod(0)
    assert_user_error(run(path), "not readable")


def test_wrong_or_missing_columns(tmp_path):
    path = tmp_path / "cols.csv"
    path.write_text("op,distribution,b,p,root,m,m_padded,rep,secs,late,status\n"
                    "MPI_Gatherv,same,1,4,2,4,4,0,0.1,0,ok\n")
    assert_user_error(run(path), "cols.csv line 1", "missing column(s) seconds")
    path.write_text("# library=x\n")
    assert_user_error(run(path), "no header line")


def test_non_numeric_time_names_line_and_column(tmp_path):
    path = write_raw(tmp_path / "raw.csv", gather_cases(rng(1)))
    lines = path.read_text().splitlines()
    number = next(i for i, l in enumerate(lines) if l.startswith("MPI_Gatherv")) + 3
    lines[number - 1] = lines[number - 1].rsplit(",", 3)[0] + ",fast,0,ok"
    path.write_text("\n".join(lines) + "\n")
    assert_user_error(run(path), f"raw.csv line {number}", "column 'seconds' has 'fast'",
                      "expected a time in seconds >= 0")


def test_negative_and_ragged_rows(tmp_path):
    path = tmp_path / "summary.csv"
    path.write_text("op,distribution,b,p,m,m_padded,avg_us,min_us\n"
                    "MPI_Gatherv,same,1,4,4,4,-3,1\n")
    assert_user_error(run(path), "summary.csv line 2", "avg_us", "'-3'")
    path.write_text("op,distribution,b,p,m,m_padded,avg_us,min_us\n"
                    "MPI_Gatherv,same,1,4,4,4,3,1,7\n")
    assert_user_error(run(path), "summary.csv line 2", "9 fields, expected 8")
    path.write_text("op,distribution,b,p,m,m_padded,avg_us,min_us\n"
                    "MPI_Gatherv,same,1,4,4,4,3,5\n")
    assert_user_error(run(path), "line 2", "min_us 5 exceeds avg_us 3")


def test_empty_data(tmp_path):
    path = tmp_path / "raw.csv"
    path.write_text("# library=x\n" + HEADER + "\n")
    assert_user_error(run(path), "raw.csv: no data rows after the header")
    path.write_text(HEADER + "\nMPI_Gatherv,same,1,4,2,4,4,-1,,0,validation_failed\n")
    assert_user_error(run(path), "no successful measurement")


def test_mixed_p_or_library_needs_group_by(tmp_path):
    r = rng(4)
    a = write_raw(tmp_path / "a.csv", gather_cases(r), p=16)
    b = write_raw(tmp_path / "b.csv", gather_cases(r), p=32)
    assert_user_error(run(a, b), "mixed p in one table", "p=16", "p=32", "--group-by p")
    grouped = run(a, b, "--group-by", "p", "--format", "report")
    assert grouped.returncode == 0, grouped.stderr
    assert "[p=16]" in grouped.stdout or "no guideline violations" in grouped.stdout
    c = write_raw(tmp_path / "c.csv", gather_cases(r), metadata={"library": "Other MPI 2"})
    assert_user_error(run(a, c), "mixed library", "Other MPI 2", "Synthetic MPI 1.0")
    assert run(a, c, "--group-by", "library").returncode == 0
    d = write_raw(tmp_path / "d.csv", gather_cases(r),
                  metadata={"env.OMPI_MCA_coll_tuned_gather_algorithm": "2"})
    assert_user_error(run(a, d), "mixed setting", "OMPI_MCA_coll_tuned_gather_algorithm=2")
    page = run(a, d, "--group-by", "setting", "--format", "html").stdout
    assert "<h2>default</h2>" in page and "OMPI_MCA_coll_tuned_gather_algorithm=2</h2>" in page


def test_missing_operands_are_skipped_with_a_note(tmp_path):
    r = rng(5)
    only_g2 = write_raw(tmp_path / "g2.csv", gather_cases(r, ops=("Guideline2_Gather",
                                                                  "MPI_Gatherv")))
    result = run(only_g2, "--format", "report")
    assert result.returncode == 0, result.stderr
    assert "Guideline (1) for gather not checked: no MPI_Gather measurements" in result.stdout
    assert "scatter" not in result.stdout  # scatter was not measured at all: nothing to say
    no_g2 = write_raw(tmp_path / "g1.csv", gather_cases(r, ops=("MPI_Gather", "MPI_Gatherv")))
    result = run(no_g2, "--format", "report")
    assert result.returncode == 0
    assert "Guideline (2) for gather not checked: no Guideline2_Gather measurements" in \
        result.stdout
    irregular_only = write_raw(tmp_path / "irr.csv",
                               gather_cases(r, dists=("random",), ops=("MPI_Gather",
                                                                      "MPI_Gatherv")))
    assert_user_error(run(irregular_only), "no guideline can be checked",
                      "no regular problem (m = m')")
    only_v = write_raw(tmp_path / "v.csv", gather_cases(r, ops=("MPI_Gatherv",)))
    assert_user_error(run(only_v), "no guideline can be checked", "MPI_Gather")


def test_harness_ops_only(tmp_path):
    path = write_raw(tmp_path / "raw.csv", {("Barrier", "same", 1): noise(rng(1), 5, 3.0)})
    assert_user_error(run(path), "no gather or scatter operation", "Barrier")


def test_bad_arguments():
    assert_user_error(run(TABLE3, "--stat", "mean"), "unknown statistic mean", "avg,min,median")
    assert_user_error(run(TABLE3, "--alpha", "1.5"), "--alpha")
    assert_user_error(run(TABLE3, "--slack", "-0.1"), "--slack")
    assert_user_error(run(TABLE3, "--format", "pdf"), "invalid choice")
    assert_user_error(run(), "FILE")


def test_unwritable_output(tmp_path):
    assert_user_error(run(TABLE3, "--out", tmp_path / "missing" / "x.txt"), "cannot write")


def test_failed_cases_are_noted_not_fatal(tmp_path):
    path = write_raw(tmp_path / "raw.csv", gather_cases(rng(6)))
    with open(path, "a") as f:
        f.write("TUW_Gatherv,same,1,16,8,16,16,-1,,0,validation_failed\n")
    result = run(path, "--format", "report")
    assert result.returncode == 0, result.stderr
    assert "TUW_Gatherv same b=1 not measured: validation_failed" in result.stdout


def test_resume_notes_between_rows_are_metadata_not_rows(tmp_path):
    """irrbench --resume appends '# resumed=... dropped_rows=N' after the rows it kept."""
    path = tmp_path / "raw.csv"
    write_raw(path, {("MPI_Gatherv", "same", 1): np.full(5, 2e-6),
                     ("MPI_Gather", "same", 1): np.full(5, 1e-6)})
    lines = path.read_text().splitlines()
    lines.insert(len(lines) - 5, "# resumed=2026-11-22T07:05:26Z dropped_rows=0")
    path.write_text("\n".join(lines) + "\n")
    result = run(path, "--format", "report")
    assert result.returncode == 0, result.stderr
    assert "0 violations in 2 checks" in result.stdout  # avg and min of the one comparison


def test_provenance_names_the_job_of_every_case(tmp_path):
    """A file begun by SLURM job 11 and resumed by job 12 after a requeue: each case counted to
    the job that measured it (irrbench writes job= and restart= on its resumed line)."""
    import sys
    sys.path.insert(0, str(ROOT / "guidelines"))
    from irrguide import analysis, environment, load, render_html

    path = tmp_path / "raw.csv"
    write_raw(path, {("MPI_Gather", "same", 1): np.full(5, 1e-6),
                     ("MPI_Gatherv", "same", 1): np.full(5, 2e-6),
                     ("MPI_Gatherv", "same", 10): np.full(5, 3e-6)})
    lines = path.read_text().splitlines()
    lines.insert(0, "# env.SLURM_JOB_ID=11")
    lines.insert(len(lines) - 5, "# resumed=2026-11-25T07:05:26Z dropped_rows=3 cases_before=2 "
                 "job=11 restart=1")
    path.write_text("\n".join(lines) + "\n")
    measurements = load.read_files([str(path)])
    source = measurements.sources[0]
    assert source.provenance == [("SLURM job 11", 2), ("SLURM job 11 (restart 1)", 1)]
    page = render_html.document([("all", [source], [])], [], [], [], analysis.Settings())
    assert "SLURM job 11: 2 cases; SLURM job 11 (restart 1): 1 case" in page
    # the one table of recorded variables, as the C++ tools read it
    assert environment.kind("OMPI_MCA_coll_tuned_gather_algorithm") == "setting"
    assert environment.kind("OMPI_MCA_orte_hnp_uri") == "plumbing"
    assert environment.kind("SLURM_RESTART_COUNT") == "context"
    assert environment.kind("PATH") == ""
