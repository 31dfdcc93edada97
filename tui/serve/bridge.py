"""One SSH session's UI in its own pseudo-terminal, bytes piped both ways.

PRIOR-ART §3.4 pattern A: the session process gets a real PTY (the client's terminal
type, size and live resizes), so Textual's stock Linux driver runs unchanged and a crash
ends only that process. Resizes come from asyncssh as `TerminalSizeChanged` on stdin and
are set on the PTY with TIOCSWINSZ, so the kernel sends the process SIGWINCH (asyncssh's
``redirect()`` would not pass them on: asyncssh#134). The session ends when the process
exits, when the SSH channel closes (the process gets SIGHUP, as a terminal hang-up), or
after ``idle_timeout`` seconds without a keypress (dgamelaunch's ``max_idle_time``).

A spectator need not have a process of its own: when its player asks to watch a game,
the session may be moved onto a shared render (`tui.serve.sharing`), one process drawing
that game for every spectator at the same terminal size who has pressed nothing. Its
first key (or mouse click, or a resize to another size) gives it its own process again,
opened on the game, and that key goes to it once it shows the game.

The session's own process and its PTY are `tui.serve.session_process`'s, the bytes piped
both ways `tui.serve.session_pipes`', its moves to and from a shared render
`tui.serve.shared_viewing`'.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from functools import partial
from typing import Any

import asyncssh

from tui.serve.games import Member
from tui.serve.session_pipes import INPUT_BURST
from tui.serve.session_process import RESET, OpenUi, Ui, set_size
from tui.serve.shared_viewing import Renders, SharedRender, SharedViewing
from tui.serve.spawner import Child


class PtySession(SharedViewing):
    """One SSH session: its own session process in a PTY piped to the channel, or a
    viewer of a shared render (`tui.serve.sharing`)."""

    def __init__(
        self,
        process: asyncssh.SSHServerProcess[bytes],
        open_ui: OpenUi,
        env: Mapping[str, str],
        *,
        idle_timeout: float,
        sharing: Renders | None = None,
    ) -> None:
        self.process = process
        self.open_ui = open_ui
        self.env = dict(env)
        self.idle_timeout = idle_timeout
        self.sharing = sharing
        """Where shared renders are found (None: every session has its own process)."""
        self.own: Ui | None = None
        """Its own session process (None while it views a shared render)."""
        self.shared: SharedRender | None = None
        """The shared render it views."""
        self.size = (80, 24)
        self.resizes = 0
        """Resizes passed on to the PTY (tests and logs)."""
        self.splits = 0
        """Times it left a shared render for a process of its own (tests and logs)."""
        self._last_input = 0.0
        self._drawn = False
        self._reset_sent = False
        self._allowance = float(INPUT_BURST)
        self.dropped_input = 0
        """Bytes of input dropped for coming too fast, or while the UI read none."""
        self._held: bytearray | None = None
        """Input waiting while it moves to a shared render or its own new process shows
        the game (None: input goes where it is)."""
        self._pump: asyncio.Task[None] | None = None
        self._moving = False
        """True while it moves onto a shared render."""
        self._opening: Member | None = None
        """The hub member of its own process opened on a game, until it shows the game."""
        self._over: asyncio.Future[str] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def master(self) -> int:
        """Its own process's PTY (-1 while it views a shared render)."""
        return -1 if self.own is None else self.own.master

    @property
    def child(self) -> Child | None:
        """Its own session process (None while it views a shared render)."""
        return None if self.own is None else self.own.child

    async def run(self) -> int:
        """Start the UI (the lobby); return its exit status when the session ends."""
        loop = asyncio.get_running_loop()
        self._over = over = loop.create_future()
        width, height, _, _ = self.process.get_terminal_size()
        self.size = (max(width, 1), max(height, 1))
        self.own = await self.open_ui(None, self.size, self.env, self._lobby_member)
        self._last_input = loop.time()
        self._start_pump(self.own)
        keys = asyncio.create_task(self._input())
        idle = asyncio.create_task(self._idle())
        closed = asyncio.create_task(self.process.channel.wait_closed())
        for task, why in ((keys, "left"), (closed, "left"), (idle, "idle")):
            task.add_done_callback(partial(self._task_done, why))
        try:
            why = await over
            if why != "exited":  # the player left, or idled: hang up
                await self.hang_up()
                if why == "idle":
                    minutes = max(1, round(self.idle_timeout / 60))
                    self._write(
                        RESET
                        + f"wargrid: no key pressed for {minutes} min: "
                        "disconnected. Your seat waits for you.\r\n".encode()
                    )
            return await self._exit_status()
        finally:
            for task in (keys, idle, closed):
                task.cancel()
            if self._pump is not None:
                self._pump.cancel()
            self._leave_shared()
            if self.own is not None:
                await self.own.release()

    def _task_done(self, why: str, task: asyncio.Future[Any]) -> None:
        if not task.cancelled():
            self._finish(why)

    def _finish(self, why: str) -> None:
        if self._over is not None and not self._over.done():
            self._over.set_result(why)

    @property
    def over(self) -> bool:
        """True once the session is ending."""
        return self._over is not None and self._over.done()

    def resize(self, width: int, height: int) -> None:
        """Pass the client's new terminal size on to the UI (a sharing spectator's new
        size is its own process's)."""
        if width <= 0 or height <= 0:
            return
        changed = (width, height) != self.size
        self.size = (width, height)
        if self.own is not None:
            set_size(self.own.master, width, height)
            self.resizes += 1
        elif self.shared is not None and changed:
            self._split(b"")

    async def end(self, message: str) -> None:
        """End the session from the server's side, telling the player why."""
        await self.hang_up(0.5)
        self._write(RESET + message.encode())

    async def hang_up(self, grace: float = 2.0) -> None:
        """Hang up its own process, or leave the shared render."""
        self._leave_shared()
        if self.own is not None:
            await self.own.hang_up(grace)

    async def _exit_status(self) -> int:
        own = self.own
        if own is None:
            return 0  # it was viewing a shared render
        try:
            code = await asyncio.wait_for(own.child.wait(), 5)
        except TimeoutError:
            await own.hang_up()
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
