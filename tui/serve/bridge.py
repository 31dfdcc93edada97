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
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import re
import signal
import socket
import struct
import termios
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any, Protocol

import asyncssh

from tui.serve.games import Member
from tui.serve.protocol import REPAINT_MARK, held_back
from tui.serve.spawner import Child

log = logging.getLogger("wargrid.serve")

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
HOLD_WAIT = 10.0
"""Seconds keys are held for a new process until it shows its game; then dropped (a
process that could not open the game shows the lobby, where a key would do something
else)."""
NOT_INPUT = re.compile(rb"\x1b\[[IO]|\x1b\[\?[0-9;]*\$y|\x1b\[<([0-9]+);[0-9]+;[0-9]+[Mm]")
"""What a terminal sends without its player acting: focus in and out, answers to mode
queries, and (SGR) mouse reports, of which only motion with no button held is passive."""


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


class SharedRender(Protocol):
    """A shared render as a session views it (`tui.serve.sharing.SharedView`)."""

    game_id: str
    size: tuple[int, int]
    member: Member | None

    def join(self, viewer: PtySession) -> None: ...

    def leave(self, viewer: PtySession) -> None: ...


class Renders(Protocol):
    """Where a session finds the shared render of a game (`tui.serve.sharing.Sharing`)."""

    async def view(
        self, game_id: str, size: tuple[int, int], env: Mapping[str, str]
    ) -> SharedRender: ...


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


class PtySession:
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

    # -- a shared render -------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Output of the shared render it views."""
        self._write(data)

    def lagging(self, limit: int) -> bool:
        """True when more than ``limit`` bytes wait to reach its player (a slow link)."""
        try:
            return self.process.channel.get_write_buffer_size() > limit
        except (AttributeError, asyncssh.Error):
            return False

    def unshare(self) -> None:
        """The shared render cannot go on showing it (it lags, or the render ended): a
        process of its own."""
        if self.shared is not None:
            self._split(b"")

    def _lobby_member(self, member: Member) -> None:
        member.share = self._share

    def _share(self, hosted: object) -> bool:
        """The hub asks whether this session's watching goes through a shared render."""
        game_id = getattr(hosted, "id", None)
        if self.sharing is None or not isinstance(game_id, str):
            return False
        if self.over or self._moving or self.own is None:
            return True  # w again while it moves, or a process on its way out: nothing
        if self._held is not None:
            return False  # its own new process, before it showed its game
        self._moving = True
        self._held = bytearray()
        self._spawn_task(self._to_shared(game_id))
        return True

    async def _to_shared(self, game_id: str) -> None:
        try:
            await self._join_shared(game_id)
        finally:
            self._moving = False

    async def _join_shared(self, game_id: str) -> None:
        assert self.sharing is not None
        old, self.own = self.own, None
        if self._pump is not None:
            self._pump.cancel()  # nothing more of the lobby reaches the player
        if old is not None:
            self._spawn_task(old.close())
        try:
            view = await self.sharing.view(game_id, self.size, self.env)
        except Exception:
            log.exception("%s: no shared render: a process of its own", game_id)
            await self._start_own(game_id)
            return
        if self.over:
            return
        self.shared = view
        view.join(self)
        held, self._held = self._held, None
        if (held and not passive(bytes(held))) or view.size != self.size:
            self._split(bytes(held or b""))  # typed, or resized, on its way

    def _split(self, data: bytes) -> None:
        """Leave the shared render for a process of its own, opened on the game; ``data``
        (what the player typed) goes to it once it shows the game."""
        view = self.shared
        if view is None:
            return
        self._leave_shared()
        self.splits += 1
        self._held = bytearray(data)
        self._spawn_task(self._start_own(view.game_id))

    def _leave_shared(self) -> None:
        view, self.shared = self.shared, None
        if view is not None:
            view.leave(self)

    async def _start_own(self, game_id: str) -> None:
        self._held = self._held if self._held is not None else bytearray()
        try:
            ui = await self.open_ui(game_id, self.size, self.env, self._split_member)
        except Exception:
            log.exception("%s: cannot start a session process", game_id)
            self._finish("exited")
            return
        if self.over:
            await ui.close()
            return
        self.own = ui
        if self.size != get_size(ui.master):  # resized while it started
            self.resize(*self.size)
        self._start_pump(ui, from_mark=True)
        asyncio.get_running_loop().call_later(HOLD_WAIT, self._drop_held, ui)

    def _split_member(self, member: Member) -> None:
        """A process opened on the game: its screen reaches the player from its first
        whole frame of the game (not the lobby it draws first): asked for at its ack."""
        member.share = self._share
        member.on_ack = partial(self._release_held, member)
        self._opening = member

    def _release_held(self, member: Member) -> None:
        """Its own process shows the game: on screen from the next whole frame, and the
        keys held for it go to it."""
        member.send({"t": "repaint"})
        held, self._held = self._held, None
        if held and self.own is not None:
            self._to_pty(bytes(held))

    def _drop_held(self, ui: Ui) -> None:
        """It did not show the game in time (the game is gone: the lobby says so): the
        held keys are dropped, and its screen is shown as it is."""
        if self.own is ui and self._held is not None:
            self.dropped_input += len(self._held)
            self._held = None
            if self._opening is not None:
                self._opening.on_ack = None
                self._opening.send({"t": "repaint"})

    def _spawn_task(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- its own process -------------------------------------------------------------

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
