"""The session UI against a real hub over a socket pair, without SSH or a PTY.

The app is the one each SSH session runs (`ServeApp`); the hub is the server's. The other
seat is a fake session driving the hub directly, so every screen change here comes
from a hub message, as it does over SSH.
"""

from __future__ import annotations

import asyncio
import html
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import OptionList

from engine.board import Cell
from engine.scenario import Scenario
from tests.serve.fakes import Session, play
from tests.tui.keys import wait_for
from tests.tui.play import first_key, keys_of, press_for_choice
from tui.panels import StatusLine
from tui.replay_screen import ReplayScreen
from tui.serve.client import ServeApp
from tui.serve.games import HostedGame
from tui.serve.hub import Hub, serve_link
from tui.serve.lobby import CreateScreen, OpponentScreen
from tui.serve.protocol import MAX_SESSION_MESSAGE, Link
from tui.serve.seat import SeatScreen
from tui.text import seat_name

SECRETS = ("Card 1", "Card 2", "Card 3", "Pick a card")
"""What the secret-cards ruleset's hidden Decisions say: only their owner may see it."""


@asynccontextmanager
async def session_app(
    hub: Hub, name: str, size: tuple[int, int] = (110, 32)
) -> AsyncIterator[tuple[ServeApp, Pilot[None]]]:
    """A session app wired to ``hub`` as the server wires it (minus the PTY)."""
    hub_end, ui_end = socket.socketpair()
    app = ServeApp(ui_end)
    async with app.run_test(size=size) as pilot:
        reader, writer = await asyncio.open_unix_connection(sock=hub_end)
        link = asyncio.create_task(serve_link(hub, name, Link(reader, writer, MAX_SESSION_MESSAGE)))
        await wait_for(pilot, lambda: app.lobby.player == name, "the lobby")
        try:
            yield app, pilot
        finally:
            writer.close()
            link.cancel()


def screen_text(app: ServeApp) -> str:
    """The words on the app's screen (from its SVG screenshot)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def seat_screen(app: ServeApp) -> SeatScreen:
    screen = app.screen
    assert isinstance(screen, SeatScreen)
    return screen


@asynccontextmanager
async def watching(
    tmp_path: Path,
) -> AsyncIterator[tuple[HostedGame, Callable[[], Awaitable[None]], ServeApp, Pilot[None]]]:
    """Carol watching a Kill Team game Alice and Bob play (seed 7) from her session app,
    with a step that makes their next choice (the first option) and waits until Carol's
    screen has it."""
    hub = Hub(tmp_path, seeds=lambda: 7)
    alice, bob = Session(hub, "alice"), Session(hub, "bob")
    alice.send(t="create", scenario="killteam-crossroads.toml")
    hosted = hub.games[alice.last("joined")["game"]]
    bob.send(t="sit", game=hosted.id, seat=None)
    async with session_app(hub, "carol") as (app, pilot):
        await wait_for(pilot, lambda: bool(app.lobby.games))
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")

        async def play_one() -> None:
            play(hosted, alice, bob, 1)
            n = len(hosted.game.choices)
            screen = seat_screen(app)
            await wait_for(pilot, lambda: len(screen.game.choices) == n, "the choice")
            await pilot.pause()

        yield hosted, play_one, app, pilot


async def test_create_a_game_from_the_lobby_and_play(tmp_path: Path) -> None:
    hub = Hub(tmp_path)
    async with session_app(hub, "alice") as (app, pilot):
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateScreen), "the form")
        keys = list(hub.scenarios)
        for _ in range(keys.index("killteam-crossroads.toml")):
            await pilot.press("down")
        assert not app.screen.query("Input")  # no seed to type: the hub draws a secret one
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, OpponentScreen), "the opponent")
        await pilot.press("enter")  # the first offer: a person, who may join
        await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")
        (hosted,) = hub.games.values()
        assert hosted.game.seed.bit_length() > 64 and hosted.game.players[0] == "alice"
        member = hub.members[0]
        await wait_for(pilot, lambda: member.synced == 0 and member.seat == 0)
        pending = hosted.game.pending
        assert pending is not None and pending.player == 0  # Kill Team: seat 0 starts
        await pilot.press("1")
        await wait_for(pilot, lambda: member.synced == 1, "the ack")
        assert seat_screen(app).game.state_hash() == hosted.game.state_hash()
        await pilot.press("u")  # no undo: the other seat may have seen it
        assert len(hosted.game.choices) == 1
        await pilot.press("q")  # back to the lobby; the seat stays alice's
        await wait_for(pilot, lambda: app.screen is app.lobby, "the lobby")
        assert member.game is None and hosted.game.players[0] == "alice"
        await wait_for(pilot, lambda: bool(app.lobby.games))
        await pilot.press("enter")  # resume my seat
        await wait_for(pilot, lambda: member.seat == 0 and member.synced == 1)


async def test_the_other_seat_sees_only_that_a_secret_is_being_decided(
    tmp_path: Path, secret_scenario: Scenario
) -> None:
    hub = Hub(tmp_path)
    hosted = hub.store.new(secret_scenario, 1)
    hub.games[hosted.id] = hosted
    red = Session(hub, "red")
    red.send(t="sit", game=hosted.id, seat=0)
    async with session_app(hub, "blue") as (app, pilot):
        await wait_for(pilot, lambda: bool(app.lobby.games))
        await pilot.press("enter")  # the free seat
        await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")
        blue = next(m for m in hub.members if m.name == "blue")
        await wait_for(pilot, lambda: blue.seat == 1, "seated")
        screen = seat_screen(app)
        await pilot.pause()
        assert screen.decision_panel.option_list.option_count == 0
        shown = screen_text(app)
        assert "deciding in secret" in shown
        assert not any(secret in shown for secret in SECRETS)
        await pilot.press("1")  # not my decision: the hub refuses, nothing changes
        await wait_for(pilot, lambda: hub.refusals == 1, "the refusal")
        assert hosted.game.choices == []
        red.send(t="choose", choice=[0, "3"])
        await wait_for(pilot, lambda: screen.decision_panel.option_list.option_count == 3)
        assert "Card 1" in screen_text(app)  # my own secret: I see my cards
        await pilot.press("2")
        await wait_for(pilot, lambda: blue.synced == 2, "my choice, applied and acked")
        assert hosted.game.choices[-1].key == "2"
        shown = screen_text(app)  # red's turn again, in secret
        assert "deciding in secret" in shown
        assert not any(secret in shown for secret in SECRETS)


async def test_a_finished_game_opens_as_a_replay(tmp_path: Path, secret_scenario: Scenario) -> None:
    hub = Hub(tmp_path)
    hosted = hub.store.new(secret_scenario, 1)
    hub.games[hosted.id] = hosted
    red, blue = Session(hub, "red"), Session(hub, "blue")
    red.send(t="sit", game=hosted.id, seat=0)
    blue.send(t="sit", game=hosted.id, seat=1)
    play(hosted, red, blue, 4)
    assert hosted.game.is_over
    async with session_app(hub, "carol") as (app, pilot):
        await wait_for(pilot, lambda: bool(app.lobby.games))
        assert "finished: " in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        assert isinstance(app.screen, ReplayScreen) and not app.screen.can_fork
        assert list(app.screen.timeline.data.choices) == hosted.game.choices
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is app.lobby, "the lobby")


async def test_a_game_against_the_computer_from_the_lobby(tmp_path: Path) -> None:
    """n, a scenario, "the computer (normal)": the hub plays the other seat; at a minute's
    pace its second move waits, the screen says it is thinking, and F plays on."""
    hub = Hub(tmp_path, pace=60.0)
    hub.start()  # as the server does: its workers before any session
    try:
        async with session_app(hub, "alice") as (app, pilot):
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, CreateScreen), "the form")
            for _ in range(list(hub.scenarios).index("killteam-crossroads.toml")):
                await pilot.press("down")
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, OpponentScreen), "opponents")
            await pilot.press("down", "down", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")
            (hosted,) = hub.games.values()
            game = hosted.game
            assert game.computer == ("", "normal") and game.players[0] == "alice"
            alice = hub.members[0]
            screen = seat_screen(app)
            skipped = 0
            while len([d for d in game.answered if d.player == 1]) < 2:
                pending = game.pending
                assert pending is not None
                made = len(game.choices)

                def mine_in(n: int = made) -> bool:
                    return alice.synced > n

                def its_move(n: int = made) -> bool:
                    return len(game.choices) > n

                def in_step(n: int = made) -> bool:
                    return alice.synced == n

                if pending.player == 0:
                    await press_for_choice(pilot, first_key(pending, keys_of(pilot)), mine_in)
                    continue
                await wait_for(pilot, in_step, "in step")
                if "Computer (normal) is thinking… (F: skip ahead)" not in screen_text(app):
                    await wait_for(pilot, its_move, "its first move (no pause before it)")
                    continue
                assert screen.decision_panel.option_list.option_count == 0
                await pilot.press("F")
                await wait_for(pilot, its_move, "the skipped pause")
                skipped += 1
            assert skipped  # its second move waited for F
            await wait_for(pilot, lambda: alice.synced == len(game.choices), "in step")
            assert screen.game.state_hash() == game.state_hash()
    finally:
        hub.close()


async def test_a_spectator_follows_who_decides_on_the_board_without_their_options(
    tmp_path: Path,
) -> None:
    """Another seat's Decision is not listed for a spectator (who could not pick it), nor
    offered on the status line under the cursor, and
    the board keeps the focus from choice to choice, also at Decisions a player answers
    from the list; the cursor follows each new Decision."""
    async with watching(tmp_path) as (hosted, play_one, app, _pilot):
        screen = seat_screen(app)
        kinds = set()
        for _ in range(8):
            await play_one()
            pending = hosted.game.pending
            assert pending is not None
            kinds.add(pending.kind.name)
            assert screen.decision_panel.option_list.option_count == 0
            assert screen.battlefield.has_focus
            shown = screen_text(app)
            assert "You are watching." in shown
            who = seat_name(hosted.game.players, hosted.game.scenario.sides, pending.player)
            assert f"{who} decides:" in shown
            # nor offered on the status line: Enter here is refused (it was "Enter: ...")
            assert "Enter:" not in str(screen.query_one(StatusLine).render())
        assert "PICK_OPTION" in kinds and "PICK_CELL" in kinds  # list and board Decisions


async def test_a_spectators_note_keeps_its_height_from_choice_to_choice(tmp_path: Path) -> None:
    """Who decides what takes one line or three: each change of the note's height lays
    out the whole screen again (most of a spectator's frame), so it only grows."""
    async with watching(tmp_path) as (_hosted, play_one, app, _pilot):
        screen = seat_screen(app)
        prompt = screen.decision_panel.prompt
        heights, needed = [], []
        for _ in range(16):
            await play_one()
            note = prompt.content
            assert isinstance(note, Text)
            width = prompt.content_size.width
            options = app.console_options.update_width(width)
            needed.append(len(app.console.render_lines(note, options, pad=False)))
            heights.append(prompt.size.height)
            assert "You are watching." in screen_text(app)
        assert heights == sorted(heights)  # never shrinks
        assert all(h >= n for h, n in zip(heights, needed, strict=True))  # never cuts
        assert any(h > n for h, n in zip(heights, needed, strict=True))  # a shorter note came


async def test_a_spectators_status_line_follows_the_cursor_once_per_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each choice puts the cursor on the next Decision's cell: the status line then
    names that cell, worked out once (moving the cursor worked it out a second time)."""
    shown: list[Cell] = []
    show = SeatScreen._show_cursor_status

    def counted(self: SeatScreen, cell: Cell, note: str = "") -> None:
        shown.append(cell)
        show(self, cell, note)

    monkeypatch.setattr(SeatScreen, "_show_cursor_status", counted)
    async with watching(tmp_path) as (_hosted, play_one, app, pilot):
        screen = seat_screen(app)
        moved = 0
        for _ in range(12):
            before = screen.battlefield.cursor
            await pilot.pause()
            shown.clear()
            await play_one()
            cursor = screen.battlefield.cursor
            moved += cursor != before
            assert shown == [cursor]
            status = str(screen.query_one(StatusLine).render())
            assert f"({cursor.x},{cursor.y})" in status
        assert moved >= 3  # the case: choices that move the cursor


async def test_a_seat_nobody_has_taken_waits_without_being_called_disconnected(
    tmp_path: Path,
) -> None:
    """Alice made a game for a person who has not joined yet: the note on the open seat's
    Decision said "(open seat, Rustbound Horde) (disconnected: the seat waits) decides",
    of a seat nobody ever sat in."""
    hub = Hub(tmp_path, seeds=lambda: 7)
    alice = Session(hub, "alice")
    alice.send(t="create", scenario="killteam-crossroads.toml")
    hosted = hub.games[alice.last("joined")["game"]]
    while (pending := hosted.game.pending) is not None and pending.player == 0:
        alice.send(t="choose", choice=[pending.id, pending.options[0].key])
    assert pending is not None and pending.player == 1
    async with session_app(hub, "carol") as (app, pilot):
        await wait_for(pilot, lambda: bool(app.lobby.games))
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")
        await pilot.pause()
        shown = " ".join(screen_text(app).split())
        assert "(open seat, " in shown and "decides" in shown
        assert "disconnected" not in shown


async def test_a_lobby_row_at_80_columns_keeps_each_count_with_its_word(tmp_path: Path) -> None:
    """Played over SSH at 80x24: a row ended '· free seat to play · 0' and 'choices' began
    the next line. A row now fits (the scenario column as wide as the longest name), one
    choice is singular, and what does not fit goes whole onto a line under the scenario."""
    hub = Hub(tmp_path, seeds=lambda: 7)
    alice, bob, carol, dave = (Session(hub, name) for name in ("alice", "bob", "carol", "dave"))
    alice.send(t="create", scenario="wh40k6-emperors-will.toml")
    first = hub.games[alice.last("joined")["game"]]
    bob.send(t="sit", game=first.id, seat=None)
    play(first, alice, bob, 1)
    carol.send(t="watch", game=first.id)
    second = hub.store.new(hub.scenarios["wh40k6-emperors-will.toml"], 7)
    hub.games[second.id] = second
    dave.send(t="sit", game=second.id, seat=1)
    async with session_app(hub, "erin", size=(80, 24)) as (app, pilot):
        await wait_for(pilot, lambda: len(app.lobby.games) == 2)
        await pilot.pause()
        games = app.lobby.query_one("#lobby-games", OptionList)
        shown = [games.render_line(y).text.rstrip() for y in range(3)]
    turn = first.game.pending
    assert turn is not None
    player = ("alice", "bob")[turn.player]
    assert shown == [
        f"#0001 The Emperor's Will alice* vs bob* · {player} to play · 1 choice",
        "      1 watching",
        "#0002 The Emperor's Will (free) vs dave* · needs a player · 0 choices",
    ]
