"""A session process in its own pseudo-terminal: the PTY's size, the process and its hub
connection (`Ui`), and waiting for the PTY's output without blocking the server.

The SSH side of a session is `tui.serve.bridge.PtySession`; a shared render
(`tui.serve.sharing`) runs its process the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import socket
import struct
import termios
from collections.abc import Awaitable, Callable, Mapping

from tui.serve.games import Member
from tui.serve.spawner import Child

Spawn = Callable[[int, socket.socket, Mapping[str, str]], Awaitable[Child]]
"""Starts a session process: (PTY slave, hub socket, environment) to the process."""

RESET = (
    b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    b"\x1b[?2004l\x1b[?1004l\x1b[0m\r\n"
)
"""Leave the alternate screen, show the cursor, stop mouse reports and bracketed paste:
what a UI that did not exit cleanly leaves switched on in the player's terminal."""


def set_size(fd: int, width: int, height: int) -> None:
    """Set a terminal's size (its foreground process group gets SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def get_size(fd: int) -> tuple[int, int]:
    """A terminal's (columns, rows)."""
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return cols, rows


Opened = Callable[[Member], None]
"""Told the hub member of a new session process before any of its messages is read."""
OpenUi = Callable[[str | None, tuple[int, int], Mapping[str, str], Opened], Awaitable["Ui"]]
"""Starts a session process: (the game it watches from the start, else None for the
lobby; its terminal size; its environment; `Opened`) to the process."""


class Ui:
    """One session process in its own PTY, and its connection to the hub."""

    def __init__(
        self, master: int, child: Child, link: asyncio.Task[None], closer: Callable[[], None]
    ) -> None:
        self.master = master
        self.child = child
        self.link = link
        self._close_link = closer

    async def hang_up(self, grace: float = 2.0) -> None:
        """SIGHUP the UI's process group (a terminal hang-up), SIGKILL if it lingers."""
        child = self.child
        if child.returncode is not None:
            return
        for sig in (signal.SIGHUP, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, sig)
            try:
                await asyncio.wait_for(child.wait(), grace)
                return
            except TimeoutError:
                continue

    async def release(self) -> None:
        """Close its hub connection (the hub forgets its member) and its PTY; after its
        process has ended, or been hung up."""
        self._close_link()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self.link, 2)
        if self.master >= 0:
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = -1

    async def close(self) -> None:
        """Hang it up and release it."""
        await self.hang_up()
        await self.release()


async def readable(fd: int) -> None:
    """Wait until ``fd`` (a PTY master) has bytes to read or has closed: the session's
    and the shared render's output pumps read it without blocking the server."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()
    loop.add_reader(fd, _wake, ready)
    try:
        await ready
    finally:
        loop.remove_reader(fd)


def _wake(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)
