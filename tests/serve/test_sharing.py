"""Shared renders (`tui.serve.sharing`): spectators who press nothing share one process.

Real SSH sessions on loopback: two spectators of a hosted game at the same terminal size
view one session process; a key from one gives it a process of its own, opened on the
game, which gets the key; the other goes on viewing the shared one undisturbed.
"""

from __future__ import annotations

import os
import signal

from tests.serve.fakes import Session, play
from tests.serve.terminal import Terminal, until
from tests.serve.test_ssh import hub_of, session
from tui.serve.games import HostedGame
from tui.serve.protocol import REPAINT_MARK
from tui.serve.server import WargridServer
from tui.serve.session_pipes import passive
from tui.serve.sharing import SHARED_NAME, Modes, SharedView


def a_game(server: WargridServer) -> tuple[HostedGame, Session, Session]:
    """A Kill Team game between two players driven through the hub."""
    hub = hub_of(server)
    alice, bob = Session(hub, "alice"), Session(hub, "bob")
    alice.send(t="create", scenario="killteam-crossroads.toml")
    hosted = hub.games[alice.last("joined")["game"]]
    bob.send(t="sit", game=hosted.id, seat=None)
    return hosted, alice, bob


def the_view(server: WargridServer) -> SharedView:
    assert server.sharing is not None
    (view,) = server.sharing.views.values()
    return view


async def watch(server: WargridServer, name: str) -> Terminal:
    """``name`` logs in and presses w on the only game."""
    terminal = await Terminal.connect(server.port, name)
    await terminal.expect(f"signed in as {name}")
    terminal.press("w")
    return terminal


async def test_two_spectators_share_one_process_until_one_presses_a_key(
    server: WargridServer,
) -> None:
    hub = hub_of(server)
    hosted, alice, bob = a_game(server)
    carol = await watch(server, "carol")
    await until(lambda: server.sharing is not None and len(server.sharing.views) == 1, "a view")
    view = the_view(server)
    await until(lambda: len(view.viewers) == 1, "carol viewing")
    await carol.expect("You are watching.")
    mark = len(carol.output)
    dave = await watch(server, "dave")
    await until(lambda: len(view.viewers) == 2, "dave viewing")
    # dave joined a render already drawn: he is sent its modes and a whole frame
    await dave.expect("You are watching.")
    assert view.repaints >= 2
    await until(lambda: len(carol.output) > mark, "carol to be sent the repaint too")
    sharing = server.sharing
    assert sharing is not None and sharing.started == 1
    carol_pty, dave_pty = session(server, "carol"), session(server, "dave")
    assert carol_pty.child is None and dave_pty.child is None  # their lobbies ended
    await until(lambda: {m.name for m in hub.members} == {"alice", "bob", SHARED_NAME}, "lobbies")
    (shared,) = [m for m in hosted.members if m.seat is None]
    assert shared.name == SHARED_NAME and hosted.watchers() == 2

    marks = len(carol.output), len(dave.output)
    play(hosted, alice, bob, 1)
    n = len(hosted.game.choices)
    await until(lambda: shared.synced == n, "the shared copy to apply it")
    await until(lambda: len(carol.output) > marks[0], "carol's screen changes")
    await until(lambda: len(dave.output) > marks[1], "dave's screen changes")

    refusals = hub.refusals
    dave.press("1")  # a key: dave gets a process of his own, and it gets the key
    await until(lambda: dave_pty.child is not None, "dave's own process")
    await until(lambda: hub.refusals == refusals + 1, "the key to reach it")
    await dave.expect("spectators cannot act", since=marks[1])
    assert "signed in as" not in dave.text(marks[1])  # its lobby never reached him
    (dave_member,) = [m for m in hub.members if m.name == "dave"]
    assert dave_member.game is hosted and dave_member.seat is None
    assert view.viewers == [carol_pty] and carol_pty.child is None and not view.ended
    assert hosted.watchers() == 2 and shared.viewers == 1

    marks = len(carol.output), len(dave.output)
    play(hosted, alice, bob, 1)
    await until(lambda: len(carol.output) > marks[0], "carol sees the next choice")
    await until(lambda: len(dave.output) > marks[1], "dave sees the next choice")
    n = len(hosted.game.choices)
    await until(lambda: shared.synced == n and dave_member.synced == n, "both copies")
    for terminal in (carol, dave):
        assert REPAINT_MARK not in terminal.output

    await carol.close()  # the last viewer gone: the shared process ends
    await until(lambda: view.ended and not sharing.views, "the render to end")
    await until(lambda: shared not in hub.members, "its member to leave the hub")
    await dave.close()


async def test_a_resize_to_another_size_gives_a_viewer_its_own_process(
    server: WargridServer,
) -> None:
    a_game(server)
    carol = await watch(server, "carol")
    await until(lambda: server.sharing is not None and len(server.sharing.views) == 1, "a view")
    view = the_view(server)
    await until(lambda: len(view.viewers) == 1, "carol viewing")
    carol_pty = session(server, "carol")
    mark = len(carol.output)
    carol.process.change_terminal_size(100, 30)  # the same size: nothing changes
    carol.process.change_terminal_size(120, 40)
    await until(lambda: carol_pty.child is not None, "carol's own process")
    assert carol_pty.splits == 1 and carol_pty.size == (120, 40)
    await until(lambda: view.ended, "the render without viewers to end")
    await carol.expect("You are watching.", since=mark)  # drawn by her own process
    assert "signed in as" not in carol.text(mark)
    await carol.close()


def test_what_a_terminal_sends_by_itself_is_not_input() -> None:
    assert passive(b"\x1b[I\x1b[O")  # focus in, out
    assert passive(b"\x1b[?2026;2$y")  # an answer to a mode query
    assert passive(b"\x1b[<35;10;4M\x1b[<43;11;4M")  # motion, no button (Shift too)
    assert not passive(b"\x1b[<0;10;4M")  # a click
    assert not passive(b"\x1b[<64;10;4M")  # the wheel
    assert not passive(b"\x1b[<32;10;4M")  # a drag with the left button
    assert not passive(b"\x1b[Il")  # focus, then a key
    assert not passive(b"q")


def test_the_modes_a_render_switched_on_are_handed_to_a_joining_viewer() -> None:
    modes = Modes()
    modes.feed(b"\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?25l\x1b[>1u\x1b[?2026$p")
    modes.feed(b"\x1b[?2026h frame \x1b[?2026l\x1b[?7l\x1b[?1000l")
    assert modes.preamble() == b"\x1b[?1049h\x1b[?1000l\x1b[?1003h\x1b[?25l\x1b[?7l\x1b[>1u"


class FakeViewer:
    """A viewer whose link may lag; what it was sent, and whether it was let go."""

    def __init__(self, lag: bool) -> None:
        self.lag = lag
        self.got = bytearray()
        self.let_go = False

    def write(self, data: bytes) -> None:
        self.got += data

    def lagging(self, limit: int) -> bool:
        return self.lag

    def unshare(self) -> None:
        self.let_go = True


def test_a_lagging_viewer_is_let_go_and_a_joining_one_starts_at_the_mark() -> None:
    """A viewer whose channel lags gets a process of its own (`unshare`) and nothing more
    of the render, so the others never wait for it; a viewer joining starts at the next
    repaint mark, after the modes, even when the mark is cut between two reads."""
    ended: list[bool] = []
    view = SharedView("g1", (100, 30), lambda: ended.append(True))
    fast, slow, late = FakeViewer(False), FakeViewer(False), FakeViewer(False)
    view.viewers += [fast, slow]
    view.feed(b"\x1b[?1049h\x1b[?25lframe 1")
    slow.lag = True
    view.join(late)
    half = len(REPAINT_MARK) // 2
    view.feed(b"frame 2 tail" + REPAINT_MARK[:half])
    assert slow.let_go and view.viewers == [fast] and not fast.let_go
    assert bytes(fast.got) == b"\x1b[?1049h\x1b[?25lframe 1frame 2 tail"
    fast.got.clear()
    view.feed(REPAINT_MARK[half:] + b"whole frame")  # the rest of the mark, then a frame
    assert bytes(slow.got) == b"\x1b[?1049h\x1b[?25lframe 1"
    assert bytes(late.got) == b"\x1b[?1049h\x1b[?25lwhole frame"
    assert bytes(fast.got) == b"whole frame"
    assert view.viewers == [fast, late] and not ended


async def test_when_the_shared_process_ends_its_viewers_get_their_own(
    server: WargridServer,
) -> None:
    """A shared render's process that dies (a crash, a kill) takes no viewer with it: each
    gets a process of its own, opened on the game."""
    hosted, alice, bob = a_game(server)
    carol = await watch(server, "carol")
    await until(lambda: server.sharing is not None and len(server.sharing.views) == 1, "a view")
    view = the_view(server)
    await until(lambda: len(view.viewers) == 1, "carol viewing")
    assert view.ui is not None
    mark = len(carol.output)
    os.killpg(view.ui.child.pid, signal.SIGKILL)
    carol_pty = session(server, "carol")
    await until(lambda: carol_pty.child is not None, "carol's own process")
    await carol.expect("You are watching.", since=mark)
    assert view.ended and carol_pty.splits == 1
    play(hosted, alice, bob, 1)
    n = len(hosted.game.choices)
    hub = hub_of(server)
    await until(
        lambda: any(m.name == "carol" and m.synced == n for m in hub.members), "carol's copy"
    )
    await carol.close()
