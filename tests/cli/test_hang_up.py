"""Closing the terminal ends the game, and nothing keeps running (issue #24).

Each test starts wargrid (directly, or through ``make play`` as a player does) as the
session leader of a fresh pseudo-terminal, plays one choice by keys, then closes the
terminal's far end the way a closed window or ``tmux kill-session`` does. Within 2 seconds
no process of that session may be left, and the autosave must hold the choice.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from engine.save import read_save, replay
from tui.settings import FILE_NAME

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="needs Linux pseudo-terminals and /proc"
)

ROOT = Path(__file__).parents[2]
CROSSROADS = ROOT / "scenarios" / "killteam-crossroads.toml"
BIN = Path(sys.executable).parent
WAIT = 60.0
"""Seconds to wait for a screen (Textual starting on a busy 2-core CI machine)."""

# The child becomes a session leader and takes the pseudo-terminal as its controlling
# terminal, as a login shell in a terminal window does; then it becomes the command.
LEADER = (
    "import fcntl, os, sys, termios; os.setsid(); fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)
ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


class Terminal:
    """One pseudo-terminal with a command running in it as its session leader."""

    def __init__(self, argv: Sequence[str], cwd: Path, env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", LEADER, *argv],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                cwd=cwd,
                env=env,
            )
        finally:
            os.close(slave)
        self.screen = ""

    def wait_for(self, text: str) -> None:
        """Read the output (as the window would) until ``text`` shows."""
        deadline = time.monotonic() + WAIT
        while text not in ESCAPES.sub("", self.screen):
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never showed; last output: {self.screen[-400:]!r}"
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                self.screen += os.read(self.master, 65536).decode("utf-8", "replace")

    def press(self, keys: str, then: str) -> None:
        """Type ``keys``, then wait for ``then`` on the screen."""
        self.screen = ""
        os.write(self.master, keys.encode())
        self.wait_for(then)

    def close(self) -> None:
        """Close the window: the terminal hangs up."""
        os.close(self.master)
        self.master = -1

    def survivors(self) -> list[str]:
        """The processes still in the terminal's session (the command and its children)."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                text = stat.read_text()
                fields = text[text.rindex(")") + 2 :].split()
                if int(fields[3]) == self.process.pid and fields[0] != "Z":
                    found.append(text[: text.rindex(")") + 1])
        return found

    def end(self) -> None:
        """Whatever happened, leave nothing running."""
        if self.master >= 0:
            self.close()
        for line in self.survivors():
            with contextlib.suppress(OSError):
                os.kill(int(line.split()[0]), signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


@contextlib.contextmanager
def terminal(argv: Sequence[str], cwd: Path) -> Iterator[Terminal]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "COLUMNS", "LINES"))}
    env |= {"TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none"}
    env["WARGRID_SAVES"] = str(cwd / "saves")
    term = Terminal(argv, cwd, env)
    try:
        yield term
    finally:
        term.end()


def play_one_choice(term: Terminal) -> None:
    """Propose the scenario's points (key 1): one choice, autosaved, then the hand-over."""
    term.wait_for("Propose the points format")
    term.press("1", then="take the keyboard")


def hang_up(term: Terminal) -> None:
    """Close the terminal; 2 seconds later nothing of its session may be running."""
    term.close()
    deadline = time.monotonic() + 2
    while term.survivors() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert term.survivors() == []


def assert_one_choice_saved(saves: Path) -> None:
    # The new-game form keeps its choices in settings.json beside the saves (b0f48b5).
    files = sorted(f for f in saves.iterdir() if f.name != FILE_NAME)
    assert [f.suffix for f in files] == [".wargrid"]  # and no *.tmp left over
    game = replay(read_save(files[0]), verify=True)
    assert len(game.choices) == 1
    assert game.choices[0].key == "100"  # 100 points, the scenario's


def test_closing_the_terminal_ends_wargrid_play(tmp_path: Path) -> None:
    argv = [str(BIN / "wargrid"), "play", str(CROSSROADS), "--seed", "3"]
    with terminal(argv, tmp_path) as term:
        play_one_choice(term)
        hang_up(term)
        assert term.process.wait(timeout=1) == 0  # a hang-up is a normal end
    assert_one_choice_saved(tmp_path / "saves")


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_closing_the_terminal_ends_make_play(tmp_path: Path) -> None:
    """make is the session leader and gets the hang-up; wargrid must notice on its own.

    ``-o .venv/.play`` skips the install step (the test runs the installed wargrid).
    """
    argv = ["make", "-s", "-f", str(ROOT / "Makefile"), "-o", ".venv/.play", "play", f"BIN={BIN}"]
    with terminal(argv, tmp_path) as term:
        term.wait_for("New game")
        term.press("n", then="pick a scenario")
        term.press("\r", then="")
        play_one_choice(term)
        hang_up(term)
    assert_one_choice_saved(tmp_path / "saves")
