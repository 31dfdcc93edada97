"""Hosted games against the computer: the hub plays its seat through worker processes.

The hub runs in this test's event loop, with its real worker pool (fresh interpreters);
the person is a fake session sending the first option at each of their Decisions, and a
spectator watches. What the computer chose must reach every session and the save, and
the save must verify without any bot.
"""

from __future__ import annotations

import asyncio
import tomllib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from engine.decisions import Choice
from engine.errors import ChoiceRejection
from engine.game import Game
from engine.save import read_save, replay
from engine.scenario import load_scenario
from tests.serve.conftest import ROOT
from tests.serve.fakes import Session
from tests.serve.terminal import until
from tests.tui.test_engine_bug import RulesBug
from tui.serve import computer
from tui.serve.computer import ask, decide
from tui.serve.games import HostedGame
from tui.serve.hub import Hub

KILLTEAM = "killteam-crossroads.toml"


@pytest.fixture
async def make_hub(tmp_path: Path) -> AsyncIterator[Callable[..., Hub]]:
    """Hubs on one state folder (a second one is the server restarted), closed after."""
    hubs: list[Hub] = []

    def make(pace: float = 0.0) -> Hub:
        hub = Hub(tmp_path / "state", pace=pace)
        hubs.append(hub)
        return hub

    yield make
    for hub in hubs:
        hub.close()


def against_computer(hub: Hub, level: str = "normal") -> tuple[Session, HostedGame]:
    """alice opens a Kill Team game against the computer; she takes the first seat."""
    alice = Session(hub, "alice")
    alice.send(t="create", scenario=KILLTEAM, computer=level)
    return alice, hub.games[alice.last("joined")["game"]]


async def my_turn(hosted: HostedGame) -> None:
    """Wait until the person (seat 0) must decide, or the game is over."""
    await until(
        lambda: hosted.game.pending is None or hosted.game.pending.player == 0,
        "the computer's move",
    )


def take_first(alice: Session, hosted: HostedGame) -> None:
    pending = hosted.game.pending
    assert pending is not None and pending.player == 0
    alice.send(t="choose", choice=[pending.id, pending.options[0].key])


def computer_moves(hosted: HostedGame) -> int:
    return len([d for d in hosted.game.answered if d.player == 1])


async def to_the_computer(alice: Session, hosted: HostedGame) -> int:
    """alice plays (first options) until the computer must decide; the choices so far."""
    while (pending := hosted.game.pending) is not None and pending.player == 0:
        take_first(alice, hosted)
    assert hosted.game.pending is not None
    return len(hosted.game.choices)


async def test_the_computer_plays_its_seat_and_everyone_sees_it(
    make_hub: Callable[..., Hub],
) -> None:
    hub = make_hub()
    alice, hosted = against_computer(hub)
    game = hosted.game
    assert game.computer == ("", "normal") and game.players == ("alice", "Computer (normal)")
    carol = Session(hub, "carol")
    carol.send(t="watch", game=hosted.id)
    assert carol.last("joined")["seat"] is None
    bob = Session(hub, "bob")
    bob.send(t="sit", game=hosted.id, seat=None)
    assert bob.last("refused")["message"].startswith("both seats are taken")
    bob.send(t="sit", game=hosted.id, seat=1)
    assert bob.last("refused")["message"].startswith("the computer plays that seat")
    (line,) = bob.last("lobby")["games"]
    assert line["seats"] == ["alice", "Computer (normal)"]

    while computer_moves(hosted) < 4:
        await to_the_computer(alice, hosted)
        pending = game.pending
        assert pending is not None
        refusals = hub.refusals  # not hers to answer
        alice.send(t="choose", choice=[pending.id, pending.options[0].key])
        assert hub.refusals == refusals + 1
        assert alice.last("refused")["why"] == ChoiceRejection.WRONG_PLAYER.value
        await my_turn(hosted)

    sent = [m["choice"] for m in carol.inbox if m["t"] == "choice"]
    assert sent == [[c.decision_id, c.key] for c in game.choices]  # the spectator saw all
    saved = read_save(hosted.path)
    assert saved.computer == ("", "normal") and list(saved.choices) == game.choices
    again = replay(saved)  # verified step by step, and no bot needed
    assert again.state_hash() == game.state_hash()


async def test_the_pace_between_moves_and_f_to_skip_it(make_hub: Callable[..., Hub]) -> None:
    """A minute's pace: the computer's first move comes at once, its next waits; F from
    the person plays it at once; a spectator may not skip."""
    hub = make_hub(pace=60.0)
    alice, hosted = against_computer(hub, "easy")
    game = hosted.game
    await to_the_computer(alice, hosted)  # its first move: no previous one to wait for
    await until(lambda: computer_moves(hosted) == 1, "the computer's first move")
    made = await to_the_computer(alice, hosted)
    await asyncio.sleep(1.0)  # thinking takes well under a second; the pace holds it
    assert len(game.choices) == made
    carol = Session(hub, "carol")
    carol.send(t="watch", game=hosted.id)
    carol.send(t="skip")
    assert carol.last("refused")["message"].startswith("only a player")
    alice.send(t="skip")
    await my_turn(hosted)
    assert len(game.choices) > made
    made = await to_the_computer(alice, hosted)  # a person decided: the pace holds again
    await asyncio.sleep(1.0)
    assert len(game.choices) == made


async def test_a_restarted_server_lets_the_computer_move(make_hub: Callable[..., Hub]) -> None:
    hub = make_hub(pace=60.0)
    alice, hosted = against_computer(hub, "easy")
    await to_the_computer(alice, hosted)
    await until(lambda: computer_moves(hosted) == 1, "the computer's first move")
    waiting = await to_the_computer(alice, hosted)
    hub.close()  # stopped while the computer waited out its pace
    restarted = make_hub()
    again = restarted.games[hosted.id]
    assert len(again.game.choices) == waiting and again.game.computer == ("", "easy")
    restarted.start()
    await until(lambda: len(again.game.choices) > waiting, "the computer's move")
    assert list(read_save(again.path).choices) == again.game.choices


async def test_an_unknown_computer_is_refused(make_hub: Callable[..., Hub]) -> None:
    hub = make_hub()
    alice = Session(hub, "alice")
    alice.send(t="create", scenario=KILLTEAM, computer="grandmaster")
    assert alice.last("refused")["message"].startswith("no such computer player")
    assert not hub.games


def at_the_computer(seed: int, moves: int) -> Game:
    """A Kill Team game against the computer (easy, seat 1) at its ``moves``-th Decision;
    the person and the computer both take first options on the way."""
    game = Game(load_scenario(ROOT / "scenarios" / KILLTEAM), seed, computer=("", "easy"))
    seen = 0
    while True:
        pending = game.pending
        assert pending is not None
        if pending.player == 1:
            seen += 1
            if seen == moves:
                return game
        game.choose(Choice(pending.id, pending.options[0].key))


def test_a_worker_keeps_its_game_and_decides_as_from_the_save() -> None:
    """The worker's kept copy plays only the choices since its last move and decides what
    a copy rebuilt from the save decides; a copy that is not the hub's game is rebuilt."""
    early, later = at_the_computer(5, 1), at_the_computer(5, 4)
    decide(ask("0001-game", early, "normal"))  # the worker keeps this game now
    kept = computer._kept["0001-game"]
    assert decide(ask("0001-game", later, "normal")) == decide(ask("0009-x", later, "normal"))
    assert computer._kept["0001-game"] is kept  # caught up, not rebuilt
    assert kept.choices == later.choices and kept.state_hash() == later.state_hash()
    other = at_the_computer(6, 2)  # another game under the same id: not a continuation
    assert decide(ask("0001-game", other, "normal")) == decide(ask("0010-y", other, "normal"))
    assert computer._kept["0001-game"] is not kept
    assert computer._kept["0001-game"].state_hash() == other.state_hash()


async def test_a_computer_move_that_hits_a_rules_bug_gives_way_to_another(
    make_hub: Callable[..., Hub], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot would choose the failing move again: the hub plays its next option, so a
    rules bug never stalls a game against the computer (and it is reported as any)."""
    hub = make_hub()
    alice, hosted = against_computer(hub)
    game = hosted.game
    take_first(alice, hosted)  # the points format: the computer answers next
    assert game.pending is not None and game.pending.player == 1
    asked = game.pending
    RulesBug(monkeypatch).armed = True  # in this process: the hub's game, not the bot's
    await until(lambda: len(game.choices) > 1, "the computer's move")
    assert "hit a bug in the rules engine" in alice.last("notice")["message"]
    (report,) = (hub.bugs_dir).glob("*.toml")
    failed = tomllib.loads(report.read_text())["choices"]
    taken = game.choices[1]
    assert taken.decision_id == asked.id and [taken.key] != failed
    assert list(read_save(hosted.path).choices) == game.choices
