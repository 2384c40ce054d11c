"""The documentation cannot drift: every shell command in README.md and the manual names tools and
options that exist, and the blocks marked to run do run (doccheck.py says how)."""
import pathlib

import pytest

import doccheck

ROOT = doccheck.ROOT


def all_commands():
    return [c for page in doccheck.pages() for c in doccheck.commands(page)]


def test_every_page_of_the_manual_is_found_and_has_commands():
    pages = {str(p.relative_to(ROOT)) for p in doccheck.pages()}
    assert {"README.md", "docs/README.md", "docs/irrbench.md", "guidelines/README.md"} <= pages
    assert len(all_commands()) >= 40


def test_readme_is_a_front_door():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


def test_every_link_of_the_readme_and_the_manual_resolves():
    import re
    missing = []
    for page in doccheck.pages():
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            if not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert not missing, "links to nothing:\n" + "\n".join(missing)


def test_every_tool_and_option_named_exists():
    problems = [p for c in all_commands() for p in doccheck.check(c)]
    assert not problems, "\n".join(problems)


def test_the_marked_blocks_run(tmp_path):
    runnable = [c for c in all_commands() if c.run]
    assert len(runnable) >= 5, "fewer runnable examples than the pages had"
    doccheck.scratch_copy(tmp_path)
    failures = []
    for command in runnable:
        result = doccheck.run(command, tmp_path)
        if result.returncode != 0:
            failures.append(f"{command.page}:{command.line}: {command.text}\n  exit "
                            f"{result.returncode}: {(result.stderr or result.stdout)[-800:]}")
    assert not failures, "\n".join(failures)


# ---- the checker itself can fail: hand-written pages with known mistakes ----

def _page(tmp_path, text):
    page = tmp_path / "page.md"
    page.write_text(text)
    return doccheck.commands(page)


def test_checker_flags_an_option_a_tool_does_not_have(tmp_path):
    commands = _page(tmp_path, "```sh\nguidelines/irrcheck raw.csv --no-such-option 3  # x\n```\n")
    assert len(commands) == 1
    problems = doccheck.check(commands[0])
    assert len(problems) == 1 and "--no-such-option" in problems[0]


def test_checker_flags_a_missing_tool_and_an_unknown_command(tmp_path):
    commands = _page(tmp_path, "```sh\nscripts/no-such-script --x\nnosuchcommand-xyz a b\n```\n")
    problems = [p for c in commands for p in doccheck.check(c)]
    assert len(problems) == 2
    assert "does not exist" in problems[0] and "neither a project tool" in problems[1]


def test_checker_accepts_real_options_values_and_continuations(tmp_path):
    text = ("<!-- doc-test: run -->\n```sh\n"
            "FOO=1 guidelines/irrcheck a.csv --slack 0.05 \\\n  --group-by library  # comment --bad\n"
            "slurm/sweep --library mpich --bench-args '--b 1,10 --nrep 75' --dry-run\n```\n"
            "```c\nirrcheck --not-a-shell-block\n```\n")
    commands = _page(tmp_path, text)
    assert [c.text.split()[1] for c in commands] == ["guidelines/irrcheck", "--library"]
    assert all(c.run for c in commands)
    assert [p for c in commands for p in doccheck.check(c)] == []


def test_a_failing_run_block_is_reported(tmp_path):
    (tmp_path / "build").mkdir()
    command = doccheck.Command("page.md", 1, "guidelines/irrcheck /nonexistent.csv", True)
    (tmp_path / "guidelines").symlink_to(ROOT / "guidelines")
    assert doccheck.run(command, tmp_path).returncode != 0
