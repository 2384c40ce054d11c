"""--version of the Python tools: the project version (VERSION, the file CMake reads too) and
the git commit of the checkout, with -dirty for uncommitted changes."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


def version_line(tool):
    with open(os.path.join(ROOT, "VERSION"), encoding="utf-8") as f:
        version = f.read().strip()
    try:
        commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty",
                                 "--abbrev=12", "--exclude=*"], capture_output=True, text=True,
                                timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    return f"{tool} {version} (git {commit})"


def add_version(parser, tool):
    """Adds --version to an argparse parser."""
    parser.add_argument("--version", action="version", version=version_line(tool))
