"""Run a Python snippet in a pseudo-terminal of a given size and watch what it draws.

Shared by the TUI benchmarks: they measure what a player sees (bytes reaching the
terminal), not what the app thinks it did, so the driver's write path is included.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def installed_env(**extra: str) -> dict[str, str]:
    """The environment for a measured wargrid process, as a player's install runs it:
    bytecode compiled once and read after (pip compiles it; a checkout writes it on the
    first run). With writing off (PYTHONDONTWRITEBYTECODE), every module edited since
    the last compile would be compiled again at each start (~40 modules, ~100 ms). The
    cache lives outside the worktree."""
    env = dict(os.environ, **extra)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "wargrid-bench-pycache")
    return env


class Terminal:
    """A child process attached to a pty; read its output, type keys into it."""

    def __init__(
        self,
        code: str,
        size: tuple[int, int],
        *args: str,
        pass_fds: tuple[int, ...] = (),
        **extra_env: str,
    ) -> None:
        """Start ``code`` with ``args``; ``pass_fds`` stay open in it, ``extra_env`` is
        added to its environment."""
        master, slave = pty.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = installed_env(TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows), **extra_env)
        env.pop("NO_COLOR", None)
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env=env,
            close_fds=True,
            pass_fds=pass_fds,
        )
        os.close(slave)
        self.master = master
        self.output = bytearray()

    def read(self, timeout: float) -> bytes:
        """Whatever arrives within ``timeout`` seconds (b"" if nothing)."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            return b""
        self.output += data
        return data

    def wait_for(self, text: bytes, timeout: float = 30.0) -> float:
        """Seconds since start until ``text`` has appeared in the output."""
        deadline = time.perf_counter() + timeout
        while text not in self.output:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{text!r} never appeared")
            self.read(0.05)
        return time.perf_counter() - self.started

    def settle(self, quiet: float = 0.3) -> None:
        """Read until nothing has arrived for ``quiet`` seconds."""
        while self.read(quiet):
            pass

    def key_to_frame(self, key: bytes, quiet: float = 0.03) -> tuple[float, float]:
        """Type ``key``; seconds until the first and the last byte of the repaint."""
        self.settle(0.05)
        start = time.perf_counter()
        os.write(self.master, key)
        first = last = None
        while True:
            data = self.read(1.0 if first is None else quiet)
            if not data:
                break
            now = time.perf_counter()
            first = now if first is None else first
            last = now
        if first is None or last is None:
            raise TimeoutError(f"no repaint after {key!r}")
        return first - start, last - start

    def close(self) -> None:
        """Quit the app (Ctrl+Q), or kill it."""
        try:
            os.write(self.master, b"\x11")
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        os.close(self.master)
