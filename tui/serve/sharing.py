"""Shared renders: one session process draws a game for every spectator who has pressed
nothing, at the same terminal size and type (issue 16: a choice reaching 9 spectators).

Each SSH session used to have its own process, so every spectator's process applied and
drew every choice (~11 ms of CPU each): nine spectators on two cores could not see a
choice within 50 ms. Spectators who only watch see the same thing, so they can share one
drawing: a `SharedView` is a session process watching the game (its hub member is named
`SHARED_NAME`) whose PTY output the server copies to each viewer's channel.

- Joining: the player presses w in the lobby; the hub asks the session (`Member.share`)
  and the session moves onto the shared render of that game, size and terminal
  environment (started if there is none), and its lobby process is hung up. A viewer
  joining a running render is sent the terminal modes the process switched on (`Modes`:
  alternate screen, mouse, bracketed paste, ...), then the output from the next
  `REPAINT_MARK` on: the process writes the mark between two frames and then draws its
  whole screen, when the hub asks it (``repaint``).
- Leaving: any input from a viewer (a key, a click, a resize to another size) gives it a
  process of its own, opened on the game from the hub's latest checkpoint, and the input
  goes to it once it shows the game (`bridge.PtySession`). What a terminal sends by
  itself (focus changes, mouse motion with no button) changes nothing. Nothing a viewer
  sends ever reaches the shared process: its PTY is never written to.
- A viewer whose channel lags (`BACKLOG` bytes unsent) gets a process of its own too,
  which waits for its channel as every session's process does: one slow link never
  stalls the others.
- The render ends when no one views it, and when its process ends or the hub takes it
  off the game: its viewers then get processes of their own.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from tui.serve.games import Member
from tui.serve.protocol import REPAINT_MARK, held_back
from tui.serve.session_process import Opened, Ui, readable

log = logging.getLogger("wargrid.serve")

SHARED_NAME = "(spectators)"
"""The hub member name of a shared render's process (parentheses: no login has them)."""
BACKLOG = 256 * 1024
"""Bytes waiting for a viewer's channel past which it gets a process of its own."""
MODE = re.compile(rb"\x1b\[\?([0-9;]+)([hl])|\x1b\[>([0-9]+)u|\x1b\[<u")
"""DEC private modes set or reset, and the kitty keyboard flags pushed and popped."""
SYNC_MODE = b"2026"
"""Synchronized output: set and reset around frames, never a state to hand on."""

OpenShared = Callable[[str, tuple[int, int], Mapping[str, str], Opened], Awaitable[Ui]]
"""Starts a session process watching a game: (game, size, environment, `Opened`)."""


class Viewer(Protocol):
    """An SSH session viewing a shared render (`bridge.PtySession`)."""

    def write(self, data: bytes) -> None: ...

    def lagging(self, limit: int) -> bool: ...

    def unshare(self) -> None: ...


class Modes:
    """The terminal modes a process has switched on, from its output."""

    def __init__(self) -> None:
        self.private: dict[bytes, bytes] = {}
        self.kitty: list[bytes] = []

    def feed(self, data: bytes) -> None:
        """Note the modes set in ``data`` (a sequence cut between two reads is missed:
        the modes are set once, at start, in one write)."""
        for match in MODE.finditer(data):
            numbers, state, flags = match.groups()
            if numbers is not None:
                for number in numbers.split(b";"):
                    if number != SYNC_MODE:
                        self.private[number] = state
            elif flags is not None:
                self.kitty.append(flags)
            elif self.kitty:
                self.kitty.pop()

    def preamble(self) -> bytes:
        """What switches a terminal into the same modes, in the order first set."""
        modes = b"".join(b"\x1b[?" + number + state for number, state in self.private.items())
        return modes + b"".join(b"\x1b[>" + flags + b"u" for flags in self.kitty)


class SharedView:
    """One session process watching a game, its output copied to every viewer."""

    def __init__(
        self,
        game_id: str,
        size: tuple[int, int],
        on_end: Callable[[], None],
        recount: Callable[[Member, int], None] | None = None,
    ) -> None:
        self.game_id = game_id
        self.size = size
        self.ui: Ui | None = None
        self.member: Member | None = None
        self.viewers: list[Viewer] = []
        """Viewers shown its output."""
        self.joining: list[Viewer] = []
        """Viewers shown its output from the next repaint mark on."""
        self.modes = Modes()
        self.repaints = 0
        """Repaints asked for (tests and logs)."""
        self.ended = False
        self._on_end = on_end
        self._recount_in_hub = recount
        self._tail = b""
        self._pump: asyncio.Task[None] | None = None

    async def start(self, open_ui: OpenShared, env: Mapping[str, str]) -> None:
        """Start its process, watching the game."""
        self.ui = await open_ui(self.game_id, self.size, env, self._opened)
        self._pump = asyncio.create_task(self._output(self.ui))
        self._pump.add_done_callback(self._pump_done)

    def _pump_done(self, task: asyncio.Future[None]) -> None:
        """Its process has exited."""
        if not task.cancelled():
            self.end()

    def _opened(self, member: Member) -> None:
        self.member = member
        member.on_left = self.end  # the game is gone, or the hub dropped it
        self._recount()
        if self.joining:
            self._ask_repaint()

    def join(self, viewer: Viewer) -> None:
        """Show ``viewer`` this render from its next whole frame on."""
        self.joining.append(viewer)
        self._recount()
        self._ask_repaint()

    def leave(self, viewer: Viewer) -> None:
        """``viewer`` no longer views it; the render ends with its last viewer."""
        for group in (self.viewers, self.joining):
            if viewer in group:
                group.remove(viewer)
        if not self.viewers and not self.joining:
            self.end()
        else:
            self._recount()

    def end(self) -> None:
        """Stop the render: its viewers get processes of their own, its process ends."""
        if self.ended:
            return
        self.ended = True
        self._on_end()
        if self.member is not None:
            self.member.on_left = None
        viewers, self.viewers, self.joining = self.viewers + self.joining, [], []
        for viewer in viewers:
            viewer.unshare()
        if self._pump is not None:
            self._pump.cancel()
        if self.ui is not None:
            task = asyncio.ensure_future(self.ui.close())
            _CLOSING.add(task)
            task.add_done_callback(_CLOSING.discard)

    def _ask_repaint(self) -> None:
        if self.member is not None:
            self.repaints += 1
            self.member.send({"t": "repaint"})

    def _recount(self) -> None:
        if self._recount_in_hub is not None and self.member is not None:
            self._recount_in_hub(self.member, len(self.viewers) + len(self.joining))

    def _send(self, data: bytes) -> None:
        if not data:
            return
        self.modes.feed(data)
        for viewer in list(self.viewers):
            if viewer.lagging(BACKLOG):
                self.viewers.remove(viewer)
                viewer.unshare()
            else:
                viewer.write(data)

    def feed(self, data: bytes) -> None:
        """Output read from the process: to the viewers, but for what may be the start of
        a repaint mark, kept until the next read shows whether it is one."""
        whole = self._tail + data
        keep = held_back(whole)
        self._tail = whole[len(whole) - keep :] if keep else b""
        self._take(whole[: len(whole) - keep])

    def _take(self, data: bytes) -> None:
        """Copy ``data`` to the viewers; at each repaint mark, the joining ones start."""
        while (at := data.find(REPAINT_MARK)) >= 0:
            self._send(data[:at])
            data = data[at + len(REPAINT_MARK) :]
            if self.joining:
                preamble = self.modes.preamble()
                for viewer in self.joining:
                    viewer.write(preamble)
                self.viewers += self.joining
                self.joining = []
        self._send(data)

    async def _output(self, ui: Ui) -> None:
        """Read the PTY until the process has gone; never waits for a viewer."""
        while True:
            await readable(ui.master)
            data = bytearray()
            while True:
                try:
                    chunk = os.read(ui.master, 65536)
                except BlockingIOError:
                    break
                except OSError:  # EIO: the process has exited
                    return
                if not chunk:
                    return
                data += chunk
            self.feed(bytes(data))


_CLOSING: set[asyncio.Task[None]] = set()


class Sharing:
    """The shared renders of one server, by game, terminal size and environment."""

    def __init__(
        self, open_ui: OpenShared, recount: Callable[[Member, int], None] | None = None
    ) -> None:
        self.open_ui = open_ui
        self.recount = recount
        self.views: dict[tuple[object, ...], SharedView] = {}
        self.started = 0
        """Shared renders started so far (tests and logs)."""
        self._starting: dict[tuple[object, ...], asyncio.Future[SharedView]] = {}

    async def view(self, game_id: str, size: tuple[int, int], env: Mapping[str, str]) -> SharedView:
        """The shared render of ``game_id`` at this size and environment, started if need be.

        Raises:
            Exception: whatever starting its process raised.
        """
        key = (game_id, size, tuple(sorted(env.items())))
        view = self.views.get(key)
        if view is not None and not view.ended:
            return view
        starting = self._starting.get(key)
        if starting is not None:
            return await asyncio.shield(starting)
        future: asyncio.Future[SharedView] = asyncio.get_running_loop().create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._starting[key] = future
        view = SharedView(game_id, size, lambda: self._ended(key), self.recount)
        try:
            await view.start(self.open_ui, env)
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._starting[key]
        self.started += 1
        self.views[key] = view
        future.set_result(view)
        return view

    def _ended(self, key: tuple[object, ...]) -> None:
        view = self.views.get(key)
        if view is not None and view.ended:
            del self.views[key]

    async def close(self) -> None:
        """End every render and wait for their processes (the server is stopping)."""
        for view in list(self.views.values()):
            view.end()
        if _CLOSING:
            await asyncio.wait(list(_CLOSING), timeout=5)
