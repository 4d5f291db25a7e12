"""``chime`` and ``python -m app [--data-dir DIR] [--session ID]``: start Chime.

Before Qt is loaded, two things that need no window: ``--install-desktop-entry`` (and
``--uninstall-desktop-entry``) put Chime in the desktop's app launcher and exit, and a Linux
machine without the libraries Qt's window plugin needs gets one sentence naming the packages to
install (``app.qt_libraries``) instead of Qt's own abort.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    """The ``chime`` entry point; returns the exit code."""
    args = sys.argv[1:]
    if "--install-desktop-entry" in args or "--uninstall-desktop-entry" in args:
        from app.desktop_entry import install, uninstall

        done = install() if "--install-desktop-entry" in args else uninstall()
        print(done)
        return 0
    if "-h" not in args and "--help" not in args:
        from app.qt_libraries import start_problem

        problem = start_problem(os.environ)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 1
    from app.main import run

    return run()


if __name__ == "__main__":
    raise SystemExit(main())
