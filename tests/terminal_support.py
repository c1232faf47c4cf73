"""Helpers for the tests that run ``euchre`` on a pseudo-terminal (tests/test_cli.py,
tests/test_pty.py), kept apart so that neither needs the other's imports (test_pty needs pexpect).
"""

from __future__ import annotations

import signal


def ctrl_c_interrupts() -> None:
    """In the child, before it starts (``preexec_fn``): Ctrl-C interrupts, as at a shell's prompt.
    A test run started in the background by a non-interactive shell (``cmd &``), or a test
    runner's worker, may ignore SIGINT; every child inherits that, and Python installs its
    KeyboardInterrupt handler only where SIGINT is not ignored, so the program would never see
    the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
