"""A spectator's session: what each choice costs its screen, and joining a game.

Nine spectators' processes share two cores, so a choice reaches the last of them only
as fast as each draws it: one frame per choice, with the log already at its end.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import msgpack
import pytest
from textual.screen import Screen

from engine.bot import RandomBot
from engine.game import Game
from engine.save import SaveData, decode, to_bytes
from engine.scenario import load_scenario
from tests.engine.test_save import CROSSROADS
from tests.serve.fakes import Session, turn
from tests.serve.test_screens import screen_text, seat_screen, session_app, watching
from tests.tui.keys import send_key, wait_for
from tui.log_panel import LogPanel
from tui.log_screen import LogScreen
from tui.serve import client
from tui.serve.client import ServeApp
from tui.serve.hub import Hub
from tui.serve.seat import SeatScreen
from tui.text import log_lines


async def test_a_choice_reaches_a_spectator_in_one_frame_with_the_log_at_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log's new lines are drawn scrolled into view in the frame that draws the rest
    of the choice: no second frame to scroll the log, nor a third for its scrollbar
    alone (each was a frame of its own, drawing the screen's middle again)."""
    frames: list[set[str]] = []
    update = Screen._on_timer_update

    def counted(self: Screen[object]) -> None:
        if self._dirty_widgets or self._layout_required:
            frames.append({type(w).__name__ for w in self._dirty_widgets})
        update(self)

    monkeypatch.setattr(Screen, "_on_timer_update", counted)
    async with watching(tmp_path) as (hosted, play_one, app, pilot):
        log = seat_screen(app).query_one(LogPanel)
        while log.max_scroll_y < 3:  # a log longer than its panel: it scrolls
            await play_one()
        logged = 0
        for _ in range(10):
            await pilot.pause(0.1)
            frames.clear()
            before = len(log.lines)
            await play_one()
            await pilot.pause(0.1)  # anything a choice leaves to later frames comes now
            if len(log.lines) == before:
                continue
            logged += 1
            assert log.scroll_y == log.max_scroll_y  # the newest line in view
            drew_log = [f for f in frames if "LogPanel" in f]
            assert len(drew_log) == 1, frames
            assert all(f - {"ScrollBar"} for f in frames), frames  # no frame for a bar alone
            newest = str(log._texts[-1]).split("\n")[-1][:20]
            assert newest in screen_text(app)
        assert logged >= 3
        assert seat_screen(app).game.state_hash() == hosted.game.state_hash()


async def test_a_spectator_joining_mid_game_sees_it_and_its_whole_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joining reads only the newest events and rolls of the hub's file (what the copy
    and the log panel need); the rest is read off the app's thread after the first frame,
    and then the copy holds the hub's whole logs: the whole log (L) is the hub's."""
    reads: list[tuple[int | None, bool]] = []

    def counted(raw: bytes, source: str, *, recent: int | None = None) -> SaveData:
        reads.append((recent, threading.current_thread() is threading.main_thread()))
        return decode(raw, source, recent=recent)

    monkeypatch.setattr(client, "decode", counted)
    hub = Hub(tmp_path, seeds=lambda: LONG_SEED)
    alice, bob = Session(hub, "alice"), Session(hub, "bob")
    alice.send(t="create", scenario="killteam-crossroads.toml")
    hosted = hub.games[alice.last("joined")["game"]]
    bob.send(t="sit", game=hosted.id, seat=None)
    game, bot = hosted.game, RandomBot(LONG_SEED)
    while len(game.events) <= 2 * LogPanel.SHOWN:  # the bot's game: the first options pass
        assert game.pending is not None
        choice = bot.choose(game.pending)
        turn(hosted, alice, bob).send(t="choose", choice=[choice.decision_id, choice.key])
    assert game.pending is not None
    async with session_app(hub, "carol") as (app, pilot):
        await wait_for(pilot, lambda: bool(app.lobby.games))
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")
        screen = seat_screen(app)
        log = screen.query_one(LogPanel)
        sides = game.scenario.sides
        newest = [str(t) for t in log_lines(game.rolls, game.events, sides, last=log.SHOWN)]
        assert [str(t) for t in log._texts] == newest
        assert screen.game.state_hash() == game.state_hash()
        assert "You are watching." in screen_text(app)
        await wait_for(pilot, lambda: screen.replica.unread == (0, 0), "the rest of the file")
        assert reads == [(LogPanel.SHOWN, True), (None, False)]
        assert screen.game.events == game.events and screen.game.rolls == game.rolls
        first = screen.replica
        app.send_hub({"t": "resync"})  # the hub sends the game again: read in two parts too
        await wait_for(pilot, lambda: screen.replica is not first, "the game again")
        await wait_for(pilot, lambda: screen.replica.unread == (0, 0), "the rest again")
        assert reads[2:] == [(LogPanel.SHOWN, True), (None, False)]
        assert screen.game.events == game.events and screen.game.rolls == game.rolls
        await send_key(pilot, "L")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen), "the whole log")
        shown = app.screen
        assert isinstance(shown, LogScreen)
        assert [str(t) for t in shown.lines] == [
            str(t) for t in log_lines(game.rolls, game.events, sides)
        ]
    hub.close()


LONG_SEED = 18
"""A seed whose random Kill Team game runs well past two log reads (317 events): since
the random players may pass with all their remaining models (Kill Team 10), most seeds'
games end sooner (seed 7's, used before, at 202; seed 5's, at 259, still failed the
damaged dice counter test)."""


def hostile(raw: bytes, index: int) -> bytes:
    """``raw`` with event ``index`` replaced by a record of the wrong shape."""
    doc = msgpack.unpackb(raw, raw=False)
    doc["events"][index] = [1, "not an event"]
    packed: bytes = msgpack.packb(doc, use_bin_type=True)
    return packed


def long_enough() -> Game:
    """A Kill Team game whose log is longer than two reads in part, not over, with no
    roll since its last checkpoint (a copy opened there with a damaged dice counter
    throws no die before the whole file is read)."""
    game = Game(load_scenario(CROSSROADS), LONG_SEED, players=("alice", "bob"))
    bot = RandomBot(LONG_SEED)
    while len(game.events) <= 2 * LogPanel.SHOWN or game.checkpoints[-1].rolls < len(game.rolls):
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
    assert game.pending is not None
    return game


async def test_a_damaged_dice_counter_costs_a_copy_rebuilt_from_the_choices() -> None:
    """A checkpoint's dice counter is checked against the rolls before it, which a join
    reads after the first frame: when it is off, the copy is rebuilt from the choices
    (as a whole read at once did), and the game stays on screen."""
    game = long_enough()
    doc = msgpack.unpackb(to_bytes(game), raw=False)
    doc["checkpoints"][-1][3] += 1  # the dice drawn before the last checkpoint
    save: bytes = msgpack.packb(doc, use_bin_type=True)
    hub_end, ui_end = socket.socketpair()
    app = ServeApp(ui_end)
    async with app.run_test(size=(110, 32)) as pilot:
        app.dispatch_hub({"t": "lobby", "you": "carol", "games": [], "scenarios": []})
        app.dispatch_hub({"t": "joined", "game": "g1", "seat": None, "save": save})
        screen = seat_screen(app)
        first = screen.replica
        assert first.unread != (0, 0)  # opened at the damaged checkpoint, in part
        await wait_for(pilot, lambda: screen.replica is not first, "the copy rebuilt")
        assert app.screen is screen and screen.replica.unread == (0, 0)
        assert screen.game.state_hash() == game.state_hash()
        assert screen.game.events == game.events and screen.game.rolls == game.rolls
    hub_end.close()


@pytest.mark.parametrize(("index", "shown"), [(0, True), (-1, False)])
async def test_a_damaged_file_from_the_hub_is_refused_with_a_clear_message(
    index: int, shown: bool
) -> None:
    """The hub's messages are checked where they are read: damage in the newest events
    stops the join at once; damage in the earlier ones, read after the first frame,
    takes the game off the screen as soon as it is found. Either way the session says
    why and tells the hub it left."""
    game = long_enough()
    hub_end, ui_end = socket.socketpair()
    app = ServeApp(ui_end)
    async with app.run_test(size=(110, 32)) as pilot:
        app.dispatch_hub({"t": "lobby", "you": "carol", "games": [], "scenarios": []})
        save = hostile(to_bytes(game), index)
        app.dispatch_hub({"t": "joined", "game": "g1", "seat": None, "save": save})
        assert isinstance(app.screen, SeatScreen) is shown
        await wait_for(pilot, lambda: app.screen is app.lobby, "back in the lobby")

        def said() -> str:
            return " ".join(str(n.message) for n in app._notifications)

        await wait_for(pilot, lambda: "Cannot show game g1: " in said(), "why")
        assert "an entry of 'events' has the wrong shape" in said()
        hub_end.setblocking(False)
        sent = msgpack.Unpacker(raw=False)
        sent.feed(hub_end.recv(65536))
        assert {"t": "leave"} in list(sent)
    hub_end.close()


async def test_spectators_coming_and_going_redraw_no_one_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every session of a game hears when someone joins or leaves it; only a player's
    coming or going changes what it shows (a redraw in every session for each spectator
    was most of a crowd's joining)."""
    redraws: list[bool] = []
    refresh = SeatScreen._refresh

    def counted(self: SeatScreen, *, new_decision: bool) -> None:
        redraws.append(new_decision)
        refresh(self, new_decision=new_decision)

    monkeypatch.setattr(SeatScreen, "_refresh", counted)
    hub = Hub(tmp_path, seeds=lambda: 7)
    alice, bob = Session(hub, "alice"), Session(hub, "bob")
    alice.send(t="create", scenario="killteam-crossroads.toml")
    game_id = alice.last("joined")["game"]
    bob.send(t="sit", game=game_id, seat=None)
    async with session_app(hub, "carol") as (app, pilot):
        await wait_for(pilot, lambda: bool(app.lobby.games))
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the game")
        screen = seat_screen(app)
        await wait_for(pilot, lambda: screen.watchers == 1 and screen.online == [True, True])
        await pilot.pause(0.1)
        redraws.clear()
        dave = Session(hub, "dave")
        dave.send(t="watch", game=game_id)
        await wait_for(pilot, lambda: screen.watchers == 2, "the second spectator")
        dave.send(t="leave")
        await wait_for(pilot, lambda: screen.watchers == 1, "the second spectator gone")
        assert redraws == []
        hub.disconnect(bob.member)
        await wait_for(pilot, lambda: screen.online == [True, False], "bob gone")
        assert redraws == [False]
        said = "bob disconnected (the seat waits)."
        await wait_for(pilot, lambda: said in " ".join(str(n.message) for n in app._notifications))
    hub.close()
