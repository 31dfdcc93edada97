"""The bytes of one SSH session's own process: its PTY's output to the channel (with
back-pressure), and the player's keys to its PTY, rate-limited, held while the session
moves, or kept from a shared render (what a terminal sends by itself is `passive`).

`SessionPipes` is a base of `tui.serve.bridge.PtySession`, which holds the session's
state and ends it; `tui.serve.shared_viewing` moves it between processes.
"""

from __future__ import annotations

import asyncio
import os
import re
from functools import partial

import asyncssh

from tui.serve.protocol import REPAINT_MARK, held_back
from tui.serve.session_process import Ui, readable

INPUT_RATE = 8 * 1024
"""Bytes of keys and mouse reports per second passed on to a session (a fast typist with
the mouse moving sends well under 1 KiB/s); more is dropped. Textual queues every key it
reads, so a flood of keystrokes once pushed a session process past 1 GB."""
INPUT_BURST = 64 * 1024
"""Bytes that may arrive at once before the rate applies (a resize storm, a quick burst)."""
NOT_INPUT = re.compile(rb"\x1b\[[IO]|\x1b\[\?[0-9;]*\$y|\x1b\[<([0-9]+);[0-9]+;[0-9]+[Mm]")
"""What a terminal sends without its player acting: focus in and out, answers to mode
queries, and (SGR) mouse reports, of which only motion with no button held is passive."""


def passive(data: bytes) -> bool:
    """True if ``data`` is only what a terminal sends by itself (`NOT_INPUT`): a sharing
    spectator keeps its shared render through it."""
    at = 0
    for match in NOT_INPUT.finditer(data):
        if match.start() != at:
            return False
        button = match.group(1)
        if button is not None and not (int(button) & 32 and int(button) & 3 == 3):
            return False  # a click, a release, a wheel or a drag: the player acts
        at = match.end()
    return at == len(data)


class SessionPipes:
    """Its own process's output to the player, and the player's input to where it goes."""

    process: asyncssh.SSHServerProcess[bytes]
    idle_timeout: float
    own: Ui | None
    shared: object | None
    """The shared render it views (`SharedViewing`); here only whether there is one."""
    dropped_input: int
    _last_input: float
    _drawn: bool
    _allowance: float
    _held: bytearray | None
    _pump: asyncio.Task[None] | None

    def resize(self, width: int, height: int) -> None:
        """Pass a new terminal size on (`PtySession.resize`)."""
        raise NotImplementedError

    def _finish(self, why: str) -> None:
        """End the session, saying why (`PtySession._finish`)."""
        raise NotImplementedError

    def _split(self, data: bytes) -> None:
        """Leave a shared render for a process of its own (`SharedViewing._split`)."""
        raise NotImplementedError

    def _start_pump(self, ui: Ui, *, from_mark: bool = False) -> None:
        self._pump = asyncio.create_task(self._output(ui, from_mark))
        self._pump.add_done_callback(partial(self._pump_done, ui))

    def _pump_done(self, ui: Ui, task: asyncio.Future[None]) -> None:
        """Its own process has exited (not one it left for a shared render)."""
        if not task.cancelled() and self.own is ui:
            self._finish("exited")

    async def _output(self, ui: Ui, from_mark: bool) -> None:
        """PTY to channel, with back-pressure from the channel (a slow client waits);
        ``from_mark``: nothing before its first `REPAINT_MARK` (a process replacing a
        shared render: the player's terminal is in the modes it sets already, and the
        lobby it draws before the game would flash by)."""
        loop = asyncio.get_running_loop()
        skipped = b""
        while True:
            await readable(ui.master)
            while True:
                try:
                    data = os.read(ui.master, 65536)
                except BlockingIOError:
                    break
                except OSError:  # EIO: every process holding the PTY has exited
                    return
                if not data:
                    return
                if from_mark:
                    skipped += data
                    at = skipped.find(REPAINT_MARK)
                    if at < 0:
                        skipped = skipped[len(skipped) - held_back(skipped) :]
                        continue
                    data, from_mark = skipped[at + len(REPAINT_MARK) :], False
                    if not data:
                        continue
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
            if not self._deliver(data):
                return

    def _deliver(self, data: bytes) -> bool:
        """Input to where it belongs now; False once its own UI has gone."""
        if self._held is not None:  # on its way to a shared render, or to a new process
            if len(self._held) + len(data) <= INPUT_BURST:
                self._held += data
            else:
                self.dropped_input += len(data)
            return True
        if self.shared is not None:  # nothing a viewer sends reaches the shared render
            if not passive(data):
                self._split(data)
            return True
        if self.own is None:
            return True
        return self._to_pty(data)

    def _to_pty(self, data: bytes) -> bool:
        """Write keys to the UI; what its full terminal buffer cannot take is dropped
        (waiting would let keys pile up here instead). False once the UI has gone."""
        if self.own is None:
            return True
        try:
            written = os.write(self.own.master, data)
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
