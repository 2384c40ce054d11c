"""A Python tool's main(argv) run in the test's own process, with what its command would give:
the exit status, stdout and stderr. Each command would import pandas, SciPy and matplotlib anew
(1.3-2.2 s of a 2-core machine a call); tests that run a tool many times call it here, and
test_one_house runs every tool's real command."""
import contextlib
import io
import os
import subprocess
import traceback


def run_main(main, args, cwd):
    """main([str(a) for a in args]) in directory cwd; an exception that escapes it is a traceback
    on stderr and status 1, as the interpreter gives, and a SystemExit its status."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as e:  # argparse's errors, --help, --version
                if isinstance(e.code, str):
                    print(e.code, file=err)
                status = 1 if isinstance(e.code, str) else e.code
            except Exception:  # noqa: BLE001 - the command would print it and exit 1
                traceback.print_exc(file=err)
                status = 1
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(argv, status or 0, out.getvalue(), err.getvalue())
