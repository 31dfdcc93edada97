"""One SSH session's UI: ``python -m tui.serve.client``, run by the server in a PTY.

The server starts this process for each SSH session (a fork of the zygote,
`tui.serve.zygote`, or a new Python when there is none), in its own pseudo-terminal with
the client's terminal type and size, and hands it one end of a socket pair to the hub
(a new process finds its descriptor number in ``WARGRID_HUB_FD``). It shows the lobby,
and a hosted game as the stock game screen drawing a copy of the hub's game. The process
holds no authority: the hub checks every request. If it crashes, only this session ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import resource
import socket
import sys
import termios
from functools import partial
from pathlib import Path

from textual import on
from textual.events import Mount

from engine.errors import WargridError
from engine.save import decode
from engine.timeline import build_timeline
from tui.app import WargridApp
from tui.log_panel import LogPanel
from tui.replay_screen import ReplayScreen
from tui.serve.lobby import LobbyScreen
from tui.serve.protocol import (
    MAX_HUB_MESSAGE,
    REPAINT_MARK,
    Link,
    Message,
    ProtocolError,
    choice_field,
)
from tui.serve.replica import ReplicaGame
from tui.serve.seat import SeatScreen


class ServeApp(WargridApp):
    """The lobby and hosted games of one SSH session."""

    CSS_PATH = str(Path(__file__).resolve().parents[1] / "wargrid.tcss")
    """The game's own stylesheet (a relative path would be looked up beside this file)."""
    ENABLE_COMMAND_PALETTE = False
    """Textual's palette offers Screenshot, which writes into the server account's home:
    a hosted session writes nothing on the server (the hub alone saves the games)."""

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """No screenshots on the server's disk (the player's terminal can take its own)."""
        self.notify("Screenshots are not written on the server.", severity="warning")

    def __init__(self, hub: socket.socket) -> None:
        super().__init__(saves_dir=Path("saves"))
        self._socket = hub
        self.link: Link | None = None
        self.lobby = LobbyScreen(self.send_hub)
        self.seat_screen: SeatScreen | None = None

    @on(Mount)
    def _start(self, event: Mount) -> None:
        event.prevent_default()  # not `WargridApp.on_mount`: no local main menu
        self.push_screen(self.lobby)
        self._started = True
        self._check_size(self.size)
        self.run_worker(self._listen(), name="hub", exit_on_error=True)

    def send_hub(self, message: Message) -> None:
        """Send a request to the hub (its answer arrives as a message)."""
        if self.link is not None:
            self.link.send(message)

    async def _listen(self) -> None:
        reader, writer = await asyncio.open_unix_connection(sock=self._socket)
        self.link = Link(reader, writer, MAX_HUB_MESSAGE)
        try:
            while (message := await self.link.receive()) is not None:
                self.dispatch_hub(message)
        except (ProtocolError, ConnectionError) as exc:
            self.exit(return_code=1, message=f"wargrid: lost the server: {exc}")
            return
        self.exit(return_code=1, message="wargrid: the server closed this session.")

    def dispatch_hub(self, message: Message) -> None:
        """Act on one message from the hub."""
        kind = message["t"]
        screen = self.seat_screen
        if kind == "lobby":
            self.lobby.show(message)
        elif kind == "joined":
            self._joined(message)
        elif kind == "choice" and screen is not None and message.get("game") == screen.game_id:
            if screen.apply_remote(choice_field(message)):
                self.send_hub(
                    {
                        "t": "ack",
                        "n": len(screen.game.choices),
                        "hash": screen.game.checkups[-1].state_hash,
                    }
                )
            else:
                self.send_hub({"t": "resync"})
        elif kind == "players" and screen is not None and message.get("game") == screen.game_id:
            screen.show_players(message["players"], message["online"], message["watchers"])
        elif kind == "refused":
            if screen is not None and self.screen is screen:
                screen.refused(str(message.get("message")))
            else:
                self.notify(str(message.get("message")), severity="warning", timeout=6)
        elif kind == "left":
            self._back_to_lobby()
            self.notify(str(message.get("message")), timeout=8)
        elif kind == "replay":
            self._replay(message)
        elif kind == "notice":
            self.notify(str(message.get("message")), timeout=8)
        elif kind == "repaint":
            self.repaint_whole()

    def repaint_whole(self) -> None:
        """Mark the output between two frames, then draw the whole screen: a viewer joining
        this process's shared render (`tui.serve.sharing`) is shown the output from the
        mark on. Frames are written whole from this loop, and the mark goes the same way
        (the driver's writer thread), so nothing after it is the tail of a frame."""
        driver = self._driver
        if driver is not None:
            driver.write(REPAINT_MARK.decode())
        self.screen.refresh()  # the screen dirty as a whole: its next frame is a full one

    def _joined(self, message: Message) -> None:
        game_id = str(message["game"])
        seat = message.get("seat")
        raw, label = bytes(message["save"]), f"game {game_id}"
        try:  # the events and rolls the log panel shows; the rest in the background
            data = decode(raw, label, recent=LogPanel.SHOWN)
            viewer = seat if isinstance(seat, int) else None
            game = ReplicaGame(data, viewer=viewer, whole=partial(decode, raw, label))
        except WargridError as exc:
            self.notify(f"Cannot show game {game_id}: {exc}", severity="error", timeout=10)
            self.send_hub({"t": "leave"})
            return
        screen = self.seat_screen
        if screen is not None and screen.game_id == game_id and screen.seat == game.viewer:
            screen.resync(game)
            return
        self._back_to_lobby()
        self.seat_screen = SeatScreen(game, game_id=game_id, send=self.send_hub)
        self.push_screen(self.seat_screen, self._left_game)
        self.send_hub({"t": "ack", "n": len(game.choices), "hash": game.state_hash()})

    def _left_game(self, _: None) -> None:
        screen, self.seat_screen = self.seat_screen, None
        if screen is not None and not screen.replaced:
            self.send_hub({"t": "leave"})

    def _back_to_lobby(self) -> None:
        """Close every screen above the lobby (a game, a form, a modal)."""
        if self.seat_screen is not None:
            self.seat_screen.replaced = True
        while len(self.screen_stack) > 1 and self.screen is not self.lobby:
            if self.screen is self._too_small:
                self._too_small = None
            self.pop_screen()
        self.seat_screen = None
        self._check_size(self.size)

    def _replay(self, message: Message) -> None:
        try:
            data = decode(bytes(message["save"]), f"game {message.get('game')}")
            timeline = build_timeline(data)
        except WargridError as exc:
            self.notify(f"Cannot open that replay: {exc}", severity="error", timeout=10)
            return
        self._back_to_lobby()
        # No "continue from here": a session process must not start local games.
        self.push_screen(ReplayScreen(timeline, can_fork=False))


def _take_terminal() -> None:
    """Make the PTY our controlling terminal, so the kernel sends us SIGWINCH on resize.

    The server started us as a session leader (``start_new_session``); a session leader
    acquires a terminal it already has open only by asking (TIOCSCTTY).
    """
    with contextlib.suppress(OSError):  # not a terminal: Textual runs, without live resize
        fcntl.ioctl(sys.stdin.fileno(), termios.TIOCSCTTY, 0)


def _memory_ceiling(limit: str) -> None:
    """Cap this process's heap (RLIMIT_DATA): a session that grows past it fails alone
    with a MemoryError and ends, instead of taking the server's memory."""
    if limit.isdigit():
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_DATA, (int(limit), int(limit)))


def main() -> int:
    """Entry point of a session process."""
    fd = os.environ.get("WARGRID_HUB_FD", "")
    if not fd.isdigit():
        print(
            "wargrid: this command is run by `wargrid serve` for each SSH session.", file=sys.stderr
        )
        return 2
    return session(socket.socket(fileno=int(fd)))


def session(hub: socket.socket) -> int:
    """Run one session's UI on this process's terminal (a new process, or a fork of the
    zygote, `tui.serve.zygote`); its exit status."""
    _take_terminal()
    _memory_ceiling(os.environ.get("WARGRID_SESSION_MEMORY", ""))
    app = ServeApp(hub)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main())
