"""`wargrid serve` end to end: a real SSH server on 127.0.0.1, asyncssh clients with a PTY.

Every session is a real process in a real pseudo-terminal, so these tests cover the
whole path a player's key takes: SSH channel, PTY, Textual, the hub, and back to every
other terminal. What the sessions' copies of the game hold is checked through their
acknowledgements to the hub (each carries the copy's state hash).
"""

from __future__ import annotations

from pathlib import Path

import asyncssh
import pytest

from engine.save import read_save
from tests.serve.terminal import Terminal, until
from tests.tui.play import first_key
from tui.option_keys import OptionKeys
from tui.serve.bridge import PtySession
from tui.serve.games import HostedGame, Member
from tui.serve.hub import Hub
from tui.serve.server import ServeConfig, WargridServer
from tui.serve.session_process import get_size


def hub_of(server: WargridServer) -> Hub:
    assert server.hub is not None
    return server.hub


def member(server: WargridServer, name: str) -> Member | None:
    """The hub member of ``name``'s own process (None while ``name`` views a shared render,
    `tui.serve.sharing`, or has none)."""
    return next((m for m in hub_of(server).members if m.name == name), None)


def copy_of(server: WargridServer, name: str) -> Member | None:
    """The member whose copy of the game ``name`` sees: its own, or its shared render's."""
    pty = next(
        (s for s in server.sessions if s.process.get_extra_info("wargrid_name") == name), None
    )
    view = None if pty is None else pty.shared
    return member(server, name) if view is None else view.member


def watching(server: WargridServer, name: str, hosted: HostedGame) -> bool:
    """True once ``name`` sees ``hosted`` as a spectator (its own process or a shared one)."""
    seen = copy_of(server, name)
    return seen is not None and seen.game is hosted and seen.seat is None


def session(server: WargridServer, name: str) -> PtySession:
    return next(s for s in server.sessions if s.process.get_extra_info("wargrid_name") == name)


async def synced(server: WargridServer, names: list[str], hosted: HostedGame) -> None:
    """Wait until these players' copies have applied every choice of the game."""
    n = len(hosted.game.choices)
    await until(
        lambda: all((m := copy_of(server, x)) is not None and m.synced == n for x in names),
        f"copies at {n}",
    )


async def play_one(
    server: WargridServer, hosted: HostedGame, seats: dict[int, Terminal], watcher: Terminal
) -> None:
    """The seat to play presses 1; first the other seat and the watcher try, in vain."""
    hub = hub_of(server)
    pending = hosted.game.pending
    assert pending is not None
    before = len(hosted.game.choices)
    for intruder in (seats[1 - pending.player], watcher):
        refusals = hub.refusals
        intruder.press("1")
        await until(lambda: hub.refusals == refusals + 1, "a refusal")  # noqa: B023
        assert len(hosted.game.choices) == before
    mark = len(watcher.output)
    seats[pending.player].press("1")
    await until(lambda: len(hosted.game.choices) == before + 1, "the choice")
    await synced(server, ["alice", "bob", "carol"], hosted)
    await until(lambda: len(watcher.output) > mark, "the spectator's screen to change")


@pytest.mark.slow
async def test_two_seats_a_spectator_resize_drop_reconnect_and_restart(
    server: WargridServer, tmp_path: Path
) -> None:
    hub = hub_of(server)
    alice = await Terminal.connect(server.port, "alice")
    await alice.expect("signed in as alice")
    alice.press("n")
    await alice.expect("New game")
    alice.press(*["down"] * list(hub.scenarios).index("killteam-crossroads.toml"))
    alice.press("enter")
    await alice.expect(" played by…")
    alice.press("enter")  # a person
    await until(lambda: len(hub.games) == 1, "the new game")
    (hosted,) = hub.games.values()
    assert hosted.game.seed.bit_length() > 64 and hosted.game.players[0] == "alice"

    bob = await Terminal.connect(server.port, "bob", size=(90, 28))
    await bob.expect("alice* vs (free)")
    bob.press("enter")
    carol = await Terminal.connect(server.port, "carol")
    await carol.expect("alice* vs bob*")
    carol.press("w")
    await until(lambda: watching(server, "carol", hosted), "carol watching")
    await synced(server, ["alice", "bob", "carol"], hosted)
    assert hosted.game.players == ("alice", "bob")

    seats = {0: alice, 1: bob}
    for _ in range(3):
        await play_one(server, hosted, seats, carol)

    bob_pty = session(server, "bob")
    assert get_size(bob_pty.master) == (90, 28)
    mark = len(bob.output)
    bob.process.change_terminal_size(120, 40)
    await until(lambda: get_size(bob_pty.master) == (120, 40), "the PTY to resize")
    await until(lambda: len(bob.output) > mark + 1000, "a redraw at the new size")

    await bob.close()  # dropped: the seat waits
    await until(lambda: hosted.online() == [True, False], "bob's seat to empty")
    await until(lambda: len(server.sessions) == 2, "bob's session process to end")
    assert hosted.game.players == ("alice", "bob")
    bob = await Terminal.connect(server.port, "bob")
    await bob.expect("alice* vs bob")
    bob.press("enter")  # resume my seat
    await until(lambda: getattr(member(server, "bob"), "seat", None) == 1, "bob back in his seat")
    await synced(server, ["bob"], hosted)
    seats[1] = bob
    await play_one(server, hosted, seats, carol)

    choices = list(hosted.game.choices)
    await server.close()  # the server restarts; every session is told and hung up
    await alice.expect("server is stopping")
    restarted = WargridServer(server.config)
    await restarted.start()
    try:
        again = hub_of(restarted).games[hosted.id]
        assert again.game.choices == choices and again.game.players == ("alice", "bob")
        alice = await Terminal.connect(restarted.port, "alice")
        await alice.expect("alice vs bob")
        alice.press("enter")
        await until(lambda: getattr(member(restarted, "alice"), "seat", None) == 0, "alice back")
        await synced(restarted, ["alice"], again)
        await alice.close()
    finally:
        await restarted.close()
    for terminal in (bob, carol):
        await terminal.close()


async def test_without_a_terminal_or_with_a_command_nothing_runs(server: WargridServer) -> None:
    async with asyncssh.connect(
        "127.0.0.1", server.port, username="mallory", known_hosts=None
    ) as conn:
        result = await conn.run(timeout=10)  # a session without a PTY
        assert result.exit_status == 1 and "needs a terminal" in str(result.stderr)
        result = await conn.run("cat /etc/passwd", term_type="xterm", timeout=10)
        assert result.exit_status == 1 and "root:" not in str(result.stdout)
        assert "without a command" in str(result.stderr) + str(result.stdout)
    assert hub_of(server).members == [] and not server.sessions


async def test_only_authorized_keys_get_in_named_by_their_comment(tmp_path: Path) -> None:
    allowed = asyncssh.generate_private_key("ssh-ed25519", comment="alice@home")
    stranger = asyncssh.generate_private_key("ssh-ed25519", comment="alice@home")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(b"# players\n" + allowed.export_public_key())
    server = WargridServer(ServeConfig(state_dir=tmp_path / "state", port=0, authorized_keys=keys))
    await server.start()
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1", server.port, username="alice", known_hosts=None, client_keys=[stranger]
            )
        alice = await Terminal.connect(server.port, "whoever", client_keys=[allowed])
        await alice.expect("signed in as alice@home")
        await alice.close()
    finally:
        await server.close()


async def test_limits_and_idle_timeout(tmp_path: Path) -> None:
    server = WargridServer(
        ServeConfig(state_dir=tmp_path, port=0, guests=True, max_sessions=1, idle_timeout=3)
    )
    await server.start()
    try:
        first = await Terminal.connect(server.port, "first")
        await first.expect("signed in as first")
        async with asyncssh.connect(
            "127.0.0.1", server.port, username="second", known_hosts=None
        ) as conn:
            result = await conn.run(term_type="xterm", timeout=10)
            assert "server is full" in str(result.stderr)
        await first.expect("no key pressed")  # 3 s idle: closed, with a message
        await until(lambda: not server.sessions, "the session to end")
        await first.close()
    finally:
        await server.close()


async def test_a_game_against_the_computer_over_ssh(server: WargridServer) -> None:
    """alice opens a game against the computer from the lobby; the server plays its seat
    (at the default pace) while carol watches; both copies follow every move."""
    hub = hub_of(server)
    alice = await Terminal.connect(server.port, "alice", size=(80, 24))
    await alice.expect("signed in as alice")
    alice.press("n")
    await alice.expect("New game")
    alice.press(*["down"] * list(hub.scenarios).index("killteam-crossroads.toml"), "enter")
    await alice.expect("You play Vanguard Militia. Ashen Reavers are played by…")
    alice.press("down", "down", "enter")  # the computer (normal)
    await until(lambda: len(hub.games) == 1, "the new game")
    (hosted,) = hub.games.values()
    game = hosted.game
    assert game.players == ("alice", "Computer (normal)")
    carol = await Terminal.connect(server.port, "carol")
    await carol.expect("alice* vs Computer (normal)")
    carol.press("w")
    await until(lambda: watching(server, "carol", hosted), "carol watching")
    keys = OptionKeys()  # alice's screen lists her Decisions only, as this does
    while len([d for d in game.answered if d.player == 1]) < 3:
        pending = game.pending
        assert pending is not None
        made = len(game.choices)
        if pending.player == 0:
            await synced(server, ["alice"], hosted)
            alice.press(first_key(pending, keys))
        await until(lambda: len(game.choices) > made, "the next move")  # noqa: B023
    await synced(server, ["alice", "carol"], hosted)
    assert list(read_save(hosted.path).choices) == game.choices
    for terminal in (alice, carol):
        await terminal.close()
