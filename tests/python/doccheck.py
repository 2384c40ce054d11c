"""Checks the shell commands of the documentation against the tools they name.

A fenced block whose info string is sh, bash, shell or console is a block of commands. Each
command (continuation lines joined, comments dropped) is checked:
- the first word (after VAR=value assignments) must be a project tool, a command on PATH, or a
  command users have elsewhere (USER_SIDE);
- every project tool in it (irrbench, irrcheck, ..., scripts/x, slurm/sweep, build/*/tool) must
  exist, and each --option after it must appear in that tool's --help (or, for a script without
  --help, in its source);
- a block preceded by the line `<!-- doc-test: run -->` is also run, line by line, in a scratch
  copy of the repository, and each command must exit 0.
"""
import dataclasses
import os
import pathlib
import re
import shlex
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUN_MARKER = "<!-- doc-test: run -->"
SHELL_INFO = {"sh", "bash", "shell", "console"}
# The pages whose commands are checked: the README, the manual, and the per-folder READMEs it maps.
PAGES = ["README.md", "docs/*.md", "guidelines/README.md", "analysis/README.md",
         "slurm/README.md", "results/README.md", "harness/platforms/README.md"]
# Tools the documentation may name by their bare name, and where the build or the tree has them.
BARE_TOOLS = {
    "irrbench": "build/openmpi/harness/irrbench",
    "irrfit": "build/openmpi/harness/irrfit",
    "irrmodel": "build/openmpi/model/irrmodel",
    "irrcheck": "guidelines/irrcheck",
    "irrplot": "analysis/irrplot",
}
# Commands a user runs on their own machine or cluster that this one need not have.
USER_SIDE = {"xdg-open", "module", "export", "cd", "sbatch", "srun", "salloc", "squeue"}
OPTION = re.compile(r"^(--[A-Za-z0-9][A-Za-z0-9-]*)(=.*)?$")


@dataclasses.dataclass
class Command:
    page: str
    line: int
    text: str
    run: bool


def blocks(page_path):
    """Yields (first line number, lines, run?) of each shell block of a Markdown page."""
    lines = page_path.read_text().splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```\s*([A-Za-z]*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        info = fence.group(2).lower()
        run = i > 0 and lines[i - 1].strip() == RUN_MARKER
        start = i + 1
        j = start
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        if info in SHELL_INFO:
            yield start + 1, lines[start:j], run
        i = j + 1


def commands(page_path):
    """The commands of a page, continuation lines joined."""
    try:
        rel = str(page_path.relative_to(ROOT))
    except ValueError:  # a page outside the repository (the checker's own tests)
        rel = str(page_path)
    out = []
    for first_line, lines, run in blocks(page_path):
        pending, pending_line = "", None
        for offset, raw in enumerate(lines):
            text = raw.strip()
            if text.startswith("$ "):
                text = text[2:]
            if pending_line is None:
                pending_line = first_line + offset
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            pending += text
            if pending.strip() and not pending.strip().startswith("#"):
                out.append(Command(rel, pending_line, pending.strip(), run))
            pending, pending_line = "", None
    return out


def words(command):
    """The words of a command, comments dropped; the first segment of a && / | chain each."""
    lexer = shlex.shlex(command.text, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    segments, current = [], []
    for token in lexer:
        if token and set(token) <= set(";&|"):
            segments.append(current)
            current = []
        else:
            current.append(token)
    segments.append(current)
    return [s for s in segments if s]


def project_tool(word, root=ROOT):
    """The path of the project tool a word names, or None. A tool of another MPI library's build
    (build/mpich/harness/irrbench) is checked in the Open MPI build: the options are the same,
    and the quick loop builds Open MPI only."""
    if word in BARE_TOOLS:
        return root / BARE_TOOLS[word]
    if "/" in word and not word.startswith(("/", "$", "~", ".")) and "<" not in word:
        parts = word.split("/")
        if parts[0] == "build" and len(parts) > 2 and parts[1] in {"mpich"}:
            parts[1] = "openmpi"
        if parts[0] in {"scripts", "slurm", "guidelines", "analysis", "build", "tests"}:
            return root.joinpath(*parts)
    return None


_help_cache = {}


def help_text(tool):
    """What a tool says to --help, and its source where it is a script: what an option must be in."""
    if tool not in _help_cache:
        text = ""
        try:
            result = subprocess.run([str(tool), "--help"], capture_output=True, text=True,
                                    timeout=60, stdin=subprocess.DEVNULL, cwd=ROOT)
            text = result.stdout + result.stderr
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            head = tool.read_bytes()[:2]
            if head == b"#!":  # a script: options it parses by hand are in its source
                text += tool.read_text(errors="replace")
        except OSError:
            pass
        _help_cache[tool] = text
    return _help_cache[tool]


def check(command, root=ROOT):
    """The problems of one command, as messages (empty: fine)."""
    problems = []
    where = f"{command.page}:{command.line}: {command.text}"
    for segment in words(command):
        while segment and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", segment[0]):
            segment = segment[1:]
        if not segment:
            continue
        first = segment[0]
        if project_tool(first, root) is None and first not in USER_SIDE \
                and shutil.which(first) is None and not first.startswith(("./", "$")):
            problems.append(f"{where}\n    '{first}' is neither a project tool nor on PATH")
        tool, tool_word = None, None
        for word in segment:
            if tool is None:  # the tool is the first project path that is a program
                path = project_tool(word, root)
                if path is not None and not path.exists():
                    problems.append(f"{where}\n    '{word}' does not exist ({path})")
                    break
                if path is not None and path.is_file() and os.access(path, os.X_OK):
                    tool, tool_word = path, word
                continue
            option = OPTION.match(word)
            if option and not re.search(re.escape(option.group(1)) + r"(?![A-Za-z0-9-])",
                                        help_text(tool)):
                problems.append(f"{where}\n    {tool_word} has no option {option.group(1)} "
                                f"(not in its --help)")
    return problems


def pages(root=ROOT):
    found = []
    for pattern in PAGES:
        found += sorted(root.glob(pattern))
    return found


def scratch_copy(destination, root=ROOT):
    """The repository's files (tracked and new, not ignored) in destination, build/ linked."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=root, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, listed):
        source = root / os.fsdecode(name)
        if not source.is_file():
            continue  # deleted in the working tree
        target = destination / os.fsdecode(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    (destination / "build").symlink_to(root / "build")


def run(command, scratch):
    """Runs one command of a run block in the scratch copy; the bare tool names are on PATH."""
    path = os.pathsep.join(str(scratch / pathlib.Path(p).parent) for p in BARE_TOOLS.values())
    env = dict(os.environ, PATH=path + os.pathsep + os.environ.get("PATH", ""),
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    return subprocess.run(["bash", "-o", "pipefail", "-c", command.text], cwd=scratch, env=env,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
