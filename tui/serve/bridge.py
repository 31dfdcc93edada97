"""One SSH session's UI in its own pseudo-terminal, bytes piped both ways.

PRIOR-ART §3.4 pattern A: the session process gets a real PTY (the client's terminal
type, size and live resizes), so Textual's stock Linux driver runs unchanged and a crash
ends only that process. Resizes come from asyncssh as `TerminalSizeChanged` on stdin and
are set on the PTY with TIOCSWINSZ, so the kernel sends the process SIGWINCH (asyncssh's
``redirect()`` would not pass them on: asyncssh#134). The session ends when the process
exits, when the SSH channel closes (the process gets SIGHUP, as a terminal hang-up), or
after ``idle_timeout`` seconds without a keypress (dgamelaunch's ``max_idle_time``).
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

import asyncssh

from tui.serve.spawner import Child

Spawn = Callable[[int, socket.socket, Mapping[str, str]], Awaitable[Child]]
"""Starts a session process: (PTY slave, hub socket, environment) to the process."""

RESET = (
    b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    b"\x1b[?2004l\x1b[?1004l\x1b[0m\r\n"
)
"""Leave the alternate screen, show the cursor, stop mouse reports and bracketed paste:
what a UI that did not exit cleanly leaves switched on in the player's terminal."""
INPUT_RATE = 8 * 1024
"""Bytes of keys and mouse reports per second passed on to a session (a fast typist with
the mouse moving sends well under 1 KiB/s); more is dropped. Textual queues every key it
reads, so a flood of keystrokes once pushed a session process past 1 GB."""
INPUT_BURST = 64 * 1024
"""Bytes that may arrive at once before the rate applies (a resize storm, a quick burst)."""


def set_size(fd: int, width: int, height: int) -> None:
    """Set a terminal's size (its foreground process group gets SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def get_size(fd: int) -> tuple[int, int]:
    """A terminal's (columns, rows)."""
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return cols, rows


class PtySession:
    """Run a session process in a new PTY for one SSH session and pipe it to the channel."""

    def __init__(
        self,
        process: asyncssh.SSHServerProcess[bytes],
        spawn: Spawn,
        env: Mapping[str, str],
        *,
        idle_timeout: float,
    ) -> None:
        self.process = process
        self.spawn = spawn
        self.env = dict(env)
        self.idle_timeout = idle_timeout
        self.master = -1
        self.child: Child | None = None
        self.resizes = 0
        """Resizes passed on to the PTY (tests and logs)."""
        self._last_input = 0.0
        self._drawn = False
        self._reset_sent = False
        self._allowance = float(INPUT_BURST)
        self.dropped_input = 0
        """Bytes of input dropped for coming too fast, or while the UI read none."""

    async def run(self, hub_end: socket.socket) -> int:
        """Start the UI with ``hub_end`` as its hub socket; return its exit status."""
        loop = asyncio.get_running_loop()
        width, height, _, _ = self.process.get_terminal_size()
        master, slave = os.openpty()
        self.master = master
        set_size(slave, max(width, 1), max(height, 1))
        try:
            self.child = await self.spawn(slave, hub_end, self.env)
        finally:
            os.close(slave)
            hub_end.close()
        os.set_blocking(master, False)
        self._last_input = loop.time()
        output = asyncio.create_task(self._output())
        keys = asyncio.create_task(self._input())
        idle = asyncio.create_task(self._idle())
        closed = asyncio.create_task(self.process.channel.wait_closed())
        try:
            done, _ = await asyncio.wait(
                {output, keys, idle, closed}, return_when="FIRST_COMPLETED"
            )
            if output not in done:  # the player left, or idled: hang up
                await self.hang_up()
                output.cancel()
                if idle in done:
                    minutes = max(1, round(self.idle_timeout / 60))
                    self._write(
                        RESET
                        + f"wargrid: no key pressed for {minutes} min: "
                        "disconnected. Your seat waits for you.\r\n".encode()
                    )
            return await self._exit_status()
        finally:
            for task in (output, keys, idle, closed):
                task.cancel()
            with contextlib.suppress(OSError):
                os.close(master)

    def resize(self, width: int, height: int) -> None:
        """Pass the client's new terminal size on to the UI."""
        if self.master >= 0 and width > 0 and height > 0:
            set_size(self.master, width, height)
            self.resizes += 1

    async def end(self, message: str) -> None:
        """End the session from the server's side, telling the player why."""
        await self.hang_up(0.5)
        self._write(RESET + message.encode())

    async def hang_up(self, grace: float = 2.0) -> None:
        """SIGHUP the UI's process group (a terminal hang-up), SIGKILL if it lingers."""
        child = self.child
        if child is None or child.returncode is not None:
            return
        for sig in (signal.SIGHUP, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, sig)
            try:
                await asyncio.wait_for(child.wait(), grace)
                return
            except TimeoutError:
                continue

    async def _exit_status(self) -> int:
        child = self.child
        if child is None:
            return 1
        try:
            code = await asyncio.wait_for(child.wait(), 5)
        except TimeoutError:
            await self.hang_up()
            code = 1
        if code != 0:
            self._write(RESET)  # a crash may leave the alternate screen and mouse on
        return 0 if code == 0 else 1

    def _write(self, data: bytes) -> None:
        if data.startswith(RESET):
            if self._reset_sent:  # a second one would move the cursor back over the message
                data = data[len(RESET) :]
            self._reset_sent = True
        with contextlib.suppress(OSError, asyncssh.Error, BrokenPipeError):
            if not self.process.is_closing():
                self.process.stdout.write(data)

    async def _output(self) -> None:
        """PTY to channel, with back-pressure from the channel (a slow client waits)."""
        loop = asyncio.get_running_loop()
        while True:
            ready: asyncio.Future[None] = loop.create_future()
            loop.add_reader(self.master, _wake, ready)
            try:
                await ready
            finally:
                loop.remove_reader(self.master)
            while True:
                try:
                    data = os.read(self.master, 65536)
                except BlockingIOError:
                    break
                except OSError:  # EIO: every process holding the PTY has exited
                    return
                if not data:
                    return
                if not self._drawn:  # idle counts from the first screen, not the login:
                    self._drawn = True  # a session slow to start is not an idle player
                    self._last_input = max(self._last_input, loop.time())
                self.process.stdout.write(data)
            await self.process.stdout.drain()

    async def _input(self) -> None:
        """Channel to PTY: keys, and resizes between them."""
        while True:
            try:
                data = await self.process.stdin.read(4096)
            except asyncssh.TerminalSizeChanged as change:
                self.resize(change.width, change.height)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, OSError, BrokenPipeError):
                return
            if not data:
                return
            now = asyncio.get_running_loop().time()
            self._allowance = min(
                INPUT_BURST, self._allowance + (now - self._last_input) * INPUT_RATE
            )
            self._last_input = now
            if len(data) > self._allowance:
                self.dropped_input += len(data)
                continue
            self._allowance -= len(data)
            if not self._to_pty(data):
                return

    def _to_pty(self, data: bytes) -> bool:
        """Write keys to the UI; what its full terminal buffer cannot take is dropped
        (waiting would let keys pile up here instead). False once the UI has gone."""
        try:
            written = os.write(self.master, data)
        except BlockingIOError:
            written = 0
        except OSError:
            return False
        self.dropped_input += len(data) - written
        return True

    async def _idle(self) -> None:
        loop = asyncio.get_running_loop()
        while (left := self._last_input + self.idle_timeout - loop.time()) > 0:
            await asyncio.sleep(left)


def _wake(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)
