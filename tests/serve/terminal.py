"""An asyncssh client session with a PTY, as a player's terminal: keys in, screen out.

Output is read all the time (as a terminal does, so the server never stalls on a full
window) into a buffer; `text` strips the escape sequences, enough to find a phrase that
one styled span of the UI prints. Waits poll with a deadline, never a bare sleep.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import asyncssh

TIMEOUT = 60.0
"""Seconds before a wait fails the test (a session process takes ~1 s to start, far
longer on a machine loaded by other work: a wait only costs time when it fails)."""

ESCAPES = re.compile(
    rb"\x1b\[[0-9;?<=>]*[ -/]*[@-~]"  # CSI: colours, cursor moves, modes
    rb"|\x1b\][^\x07\x1b]*(\x07|\x1b\\)"  # OSC: titles, clipboard
    rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78]"  # character sets, keypad, save/restore cursor
)

KEYS = {"enter": b"\r", "down": b"\x1b[B", "up": b"\x1b[A", "tab": b"\t", "escape": b"\x1b"}


async def until(predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """Wait until ``predicate()`` holds (fail after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class Terminal:
    """One SSH connection with a PTY session (the player's terminal)."""

    def __init__(
        self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess[bytes]
    ) -> None:
        self.conn = conn
        self.process = process
        self.output = bytearray()
        self.errors = bytearray()
        """What the server wrote to stderr (a refusal: "the server is full")."""
        self._reader = asyncio.create_task(self._read())
        self._errors = asyncio.create_task(self._read_errors())

    @classmethod
    async def connect(
        cls,
        port: int,
        user: str,
        *,
        size: tuple[int, int] = (100, 30),
        term: str = "xterm-256color",
        **options: Any,
    ) -> Terminal:
        conn = await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, **options)
        process = await conn.create_process(term_type=term, term_size=size, encoding=None)
        return cls(conn, process)

    async def _read(self) -> None:
        while data := await self.process.stdout.read(65536):
            self.output += data

    async def _read_errors(self) -> None:
        while data := await self.process.stderr.read(65536):
            self.errors += data

    def text(self, since: int = 0) -> str:
        """What was printed (from byte ``since``), without escape sequences."""
        return ESCAPES.sub(b"", bytes(self.output[since:])).decode("utf-8", "replace")

    async def expect(self, phrase: str, since: int = 0) -> None:
        """Wait until ``phrase`` has been printed (after byte ``since``)."""
        await until(lambda: phrase in self.text(since), repr(phrase))

    def press(self, *keys: str) -> None:
        """Type keys: names from `KEYS`, or literal characters."""
        for key in keys:
            self.process.stdin.write(KEYS.get(key, key.encode()))

    async def close(self) -> None:
        """Drop the connection, as a closed laptop lid does."""
        self.conn.close()
        await self.conn.wait_closed()
        self._reader.cancel()
        self._errors.cancel()
