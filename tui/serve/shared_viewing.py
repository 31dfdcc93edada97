"""A spectator's session on a shared render (`tui.serve.sharing`), and back on a process
of its own at its first key, opened on the game, that key held until it shows the game.

`SharedViewing` is a base of `tui.serve.bridge.PtySession`, which holds the session's
state and ends it; its own process's bytes are `tui.serve.session_pipes`'.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping
from functools import partial
from typing import Protocol

import asyncssh

from tui.serve.games import Member
from tui.serve.session_pipes import SessionPipes, passive
from tui.serve.session_process import OpenUi, Ui, get_size

log = logging.getLogger("wargrid.serve")

HOLD_WAIT = 10.0
"""Seconds keys are held for a new process until it shows its game; then dropped (a
process that could not open the game shows the lobby, where a key would do something
else)."""


class SharedRender(Protocol):
    """A shared render as a session views it (`tui.serve.sharing.SharedView`)."""

    game_id: str
    size: tuple[int, int]
    member: Member | None

    def join(self, viewer: SharedViewing) -> None: ...

    def leave(self, viewer: SharedViewing) -> None: ...


class Renders(Protocol):
    """Where a session finds the shared render of a game (`tui.serve.sharing.Sharing`)."""

    async def view(
        self, game_id: str, size: tuple[int, int], env: Mapping[str, str]
    ) -> SharedRender: ...


class SharedViewing(SessionPipes):
    """Moving a session onto a shared render and off it again."""

    shared: SharedRender | None
    open_ui: OpenUi
    env: dict[str, str]
    sharing: Renders | None
    size: tuple[int, int]
    splits: int
    _moving: bool
    _opening: Member | None
    _tasks: set[asyncio.Task[None]]

    @property
    def over(self) -> bool:
        """True once the session is ending (`PtySession.over`)."""
        raise NotImplementedError

    def _write(self, data: bytes) -> None:
        """Write to the player's terminal (`PtySession._write`)."""
        raise NotImplementedError

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
