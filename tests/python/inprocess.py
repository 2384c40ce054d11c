"""A Python tool's main(argv) run in the test's own process, with what its command would give:
the exit status, stdout and stderr. Each command would import pandas, SciPy and matplotlib anew
(1.3-2.2 s of a 2-core machine a call); tests that run a tool many times call it here, and
test_one_house runs every tool's real command."""
import contextlib
import io
import os
import signal
import subprocess
import traceback


class Hung(BaseException):
    """The call outlasted its time limit (a BaseException: a tool's own handlers must not take
    it for one of their errors)."""


def run_main(main, args, cwd, timeout=300):
    """main([str(a) for a in args]) in directory cwd; an exception that escapes it is a traceback
    on stderr and status 1, as the interpreter gives, and a SystemExit its status. A call that
    outlasts `timeout` seconds fails the test, as the commands' subprocess timeouts did."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()

    def expire(signum, frame):
        raise Hung(f"{argv}: still running after {timeout} s")

    handler = signal.signal(signal.SIGALRM, expire)
    signal.alarm(timeout)
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
        signal.alarm(0)
        signal.signal(signal.SIGALRM, handler)
        os.chdir(previous)
    return subprocess.CompletedProcess(argv, status or 0, out.getvalue(), err.getvalue())
