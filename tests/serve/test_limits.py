"""What the server promises a stranger cannot break (issue #18, items 4, 5, 6, 11, 12).

Sessions counted before they start, keys that are players, a full disk that stops play
instead of losing it, bounded queues both ways, a session process that ends with its
channel, and nothing a session can make the server write outside its state folder.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import asyncssh
import pytest

from engine.save import read_save
from tests.serve.fakes import Session, play, turn
from tests.serve.terminal import Terminal, until
from tests.serve.test_screens import session_app
from tests.tui.keys import wait_for
from tui.serve.hub import Hub
from tui.serve.protocol import MAX_BACKLOG, Link
from tui.serve.seat import SeatScreen
from tui.serve.server import ServeConfig, ServeError, WargridServer, read_authorized_keys

KILLTEAM = "killteam-crossroads.toml"


# -- 4. --max-sessions holds when logins arrive together --------------------------------


async def test_max_sessions_holds_for_logins_arriving_together(tmp_path: Path) -> None:
    """Before, the count was checked before an await and raised after it: with a limit of
    5, 12 and then 20 logins arriving together all got in."""
    server = WargridServer(ServeConfig(state_dir=tmp_path, port=0, guests=True, max_sessions=2))
    await server.start()
    terminals: list[Terminal] = []
    try:
        terminals = list(
            await asyncio.gather(*(Terminal.connect(server.port, f"p{i}") for i in range(5)))
        )

        def full(terminal: Terminal) -> bool:
            return b"server is full" in terminal.errors

        await until(lambda: sum(map(full, terminals)) == 3, "three logins refused", 120)
        admitted = [t for t in terminals if not full(t)]

        def signed_in() -> bool:
            return all("signed in as" in t.text() for t in admitted)

        await until(signed_in, "both sign-ins", 120)
        assert server.admitted == 2 and len(server.sessions) == 2
    finally:
        for terminal in terminals:
            await terminal.close()
        await server.close()


# -- 6. authorized keys: no ignored options, one key per name -----------------------------


def test_key_options_are_refused_at_start(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="eve").export_public_key()
    keys = tmp_path / "authorized_keys"
    for options in (b'from="10.9.9.9" ', b"no-pty ", b'command="/bin/true",no-pty '):
        keys.write_bytes(b"# players\n" + options + key)
        with pytest.raises(ServeError, match=r"line 2: options .* are not supported"):
            read_authorized_keys(keys)


def test_two_keys_with_one_name_are_refused_at_start(tmp_path: Path) -> None:
    first, second, carol = (
        asyncssh.generate_private_key("ssh-ed25519", comment=c).export_public_key()
        for c in ("alice", "alice", "carol")
    )
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(first + carol + second)
    with pytest.raises(ServeError, match=r"line 3: another key is already named 'alice' \(line 1"):
        read_authorized_keys(keys)
    keys.write_bytes(first + carol + first)  # the same key twice is the same player
    assert sorted(read_authorized_keys(keys).values()) == ["alice", "carol"]


# -- 5. a failing autosave stops the game instead of losing it ---------------------------


def test_a_failed_autosave_is_told_and_stops_play_until_a_save_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = Hub(tmp_path / "state", seeds=lambda: 7)
    alice, bob = Session(hub, "alice"), Session(hub, "bob")
    alice.send(t="create", scenario=KILLTEAM)
    hosted = hub.games[alice.last("joined")["game"]]
    bob.send(t="sit", game=hosted.id, seat=None)
    carol = Session(hub, "carol")
    carol.send(t="watch", game=hosted.id)
    play(hosted, alice, bob, 2)

    def disk_full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tui.serve.games.write_save", disk_full)
    play(hosted, alice, bob, 1)  # taken in memory, not on disk: everyone is told
    for session in (alice, bob, carol):
        assert "could not save this game (No space left" in session.last("notice")["message"]
    pending = hosted.game.pending
    assert pending is not None
    player = turn(hosted, alice, bob)
    player.send(t="choose", choice=[pending.id, pending.options[0].key])
    assert "cannot save this game" in player.last("refused")["message"]
    assert len(hosted.game.choices) == 3 and len(read_save(hosted.path).choices) == 2
    monkeypatch.undo()  # the disk has room again
    player.send(t="choose", choice=[pending.id, pending.options[0].key])
    assert len(hosted.game.choices) == 4 and len(read_save(hosted.path).choices) == 4


# -- 11. bounded queues; the session process ends with its channel -------------------------


async def test_a_peer_that_never_reads_is_dropped_past_the_backlog() -> None:
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    link = Link(reader, writer, 2**16)
    sent = 0
    while not link.dropped and sent < 20 * MAX_BACKLOG:
        link.send({"t": "notice", "message": "x" * 1000})
        sent += 1000
        await asyncio.sleep(0)
    assert link.dropped and writer.is_closing()
    assert sent < 4 * MAX_BACKLOG  # the kernel's buffer plus our bound, not without limit
    theirs.close()


async def test_a_session_floods_keys_then_vanishes(tmp_path: Path) -> None:
    server = WargridServer(ServeConfig(state_dir=tmp_path, port=0, guests=True))
    await server.start()
    try:
        mallory = await Terminal.connect(server.port, "mallory")
        await mallory.expect("signed in as mallory")
        (session,) = server.sessions
        child = session.child
        assert child is not None
        limits = Path(f"/proc/{child.pid}/limits").read_text()
        assert f"Max data size             {server.config.session_memory}" in limits
        for _ in range(64):
            mallory.press("j" * 32768)  # 2 MiB of keys at once
        await until(lambda: session.dropped_input > 1_000_000, "the flood to be dropped")
        status = Path(f"/proc/{child.pid}/status").read_text()
        rss = int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1])
        assert rss < 400_000, f"{rss} kB"
        mallory.conn.abort()  # gone without a word: no EOF, no close
        await until(lambda: child.returncode is not None, "the session process to end", 15)
        await until(lambda: not server.sessions and server.admitted == 0, "the slot to free")
    finally:
        await server.close()


# -- 12. nothing written outside the state folder --------------------------------------------


async def test_a_hosted_session_offers_no_screenshot_and_no_position_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = Hub(tmp_path / "state")
    monkeypatch.chdir(tmp_path)  # the server's working folder: must stay empty
    home = set(Path.home().iterdir())
    hosted = hub.store.new(hub.scenarios[KILLTEAM], 1)
    hub.games[hosted.id] = hosted
    async with session_app(hub, "alice") as (app, pilot):
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen is app.lobby  # no command palette
        app.action_screenshot()
        await wait_for(pilot, lambda: bool(app.lobby.games), "the lobby's games")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")
        await pilot.press("w", "ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, SeatScreen)
    assert [p.name for p in tmp_path.iterdir()] == ["state"]
    assert set(Path.home().iterdir()) == home
