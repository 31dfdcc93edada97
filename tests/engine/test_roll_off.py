"""Roll-off lines say who rolled what, who won and what the winner now decides (issue #14:
"deployment roll-off: 4 against 2" said none of it), in every ruleset that rolls off."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from engine.bot import RandomBot
from engine.dice import Dice
from engine.events import Event
from engine.game import Game
from engine.roll_off import roll_off
from engine.ruleset import RuleContext
from engine.scenario import load_scenario
from engine.transcript import transcript

SCENARIOS = Path(engine.__file__).parent / "scenarios"


def test_a_tie_is_rolled_again_and_the_win_names_sides_dice_winner_and_prize() -> None:
    events: list[Event] = []
    ctx = RuleContext(Dice.scripted([3, 3, 2, 5]), events.append)
    winner = roll_off(ctx, ("Red", "Blue"), "Deployment roll-off", "chooses the zone")
    assert winner == 1
    assert [e.text for e in events] == [
        "Deployment roll-off: Red 3, Blue 3 — a tie, rolling again",
        "Deployment roll-off: Red 2, Blue 5 — Blue wins and chooses the zone",
    ]
    assert dict(events[1].fields) == {"player": 1, "winner": 1, "a": 2, "b": 5}


def test_a_d12_roll_off_reads_its_own_dice() -> None:
    events: list[Event] = []
    dice = Dice.scripted([11, 4])
    ctx = RuleContext(dice, events.append)
    assert roll_off(ctx, ("Red", "Blue"), "Initiative roll-off", "goes first", die=12) == 0
    assert [r.dice for r in dice.rolls] == ["1D12", "1D12"]
    assert events[0].text == "Initiative roll-off: Red 11, Blue 4 — Red wins and goes first"


def first_events(scenario: str, kinds: set[str], seed: int = 3) -> tuple[Game, list[Event]]:
    """A bot game played until an event of ``kinds`` is logged; that game and those events."""
    game = Game(load_scenario(SCENARIOS / scenario), seed, players=("Bot 1", "Bot 2"))
    bot = RandomBot(seed)
    while game.pending is not None and not any(e.kind in kinds for e in game.events):
        game.choose(bot.choose(game.pending))
    return game, [e for e in game.events if e.kind in kinds]


@pytest.mark.parametrize(
    ("scenario", "kind", "title", "prize"),
    [
        ("killteam-crossroads.toml", "RollOffWon", "Deployment", "chooses? the deployment zone"),
        ("fatigue-crossroads.toml", "RollOffWon", "Deployment", "chooses? an edge"),
        ("wh40k6-open-war.toml", "RollOffWon", "Table-halves", "chooses? a table half"),
        ("apocalypse-crossing.toml", "RollOffWon", "Deployment", "chooses? who deploys first"),
    ],
)
def test_each_ruleset_names_both_sides_the_winner_and_the_choice(
    scenario: str, kind: str, title: str, prize: str
) -> None:
    game, (won, *_) = first_events(scenario, {kind})
    a, b = game.scenario.sides
    match = re.fullmatch(
        rf"{title} roll-off: {a} (\d+), {b} (\d+) — ({a}|{b}) wins? and {prize}", won.text
    )
    assert match, won.text
    first, second, winner = int(match[1]), int(match[2]), match[3]
    assert winner == (a if first > second else b)
    assert [r.faces[0] for r in game.rolls[-2:]] == [first, second]  # the dice of the line
    assert won.get("player") == (0 if winner == a else 1)


@pytest.mark.parametrize("scenario", ["killteam-crossroads.toml", "fatigue-crossroads.toml"])
def test_an_initiative_roll_off_is_one_line_that_says_who_has_it(scenario: str) -> None:
    game, (won,) = first_events(scenario, {"InitiativeWon"})
    a, b = game.scenario.sides
    assert re.fullmatch(
        rf"Initiative roll-off: {a} \d+, {b} \d+ — ({a}|{b}) wins? and ha(s|ve) the initiative",
        won.text,
    ), won.text


def test_confrontation_says_what_the_tactical_roll_winner_chooses() -> None:
    _, (won,) = first_events("confrontation-crossing.toml", {"TacticalRollWon"})
    assert re.search(r" wins? the Tactical roll and chooses? who deploys first$", won.text)


def test_apocalypse_initiative_dice_are_each_sides_dice_line() -> None:
    game, (rolled,) = first_events("apocalypse-crossing.toml", {"InitiativeRolled"})
    assert rolled.text == ""  # the dice lines say it (a line of its own repeated them)
    dice = [r for r in game.rolls if r.reason == "initiative"]
    assert [r.player for r in dice] == [0, 1]
    assert (rolled.get("a"), rolled.get("b")) == (dice[0].faces[0], dice[1].faces[0])


def test_transcript_dice_lines_and_steps_name_sides_not_players() -> None:
    game, _ = first_events("killteam-crossroads.toml", {"RollOffWon"})
    lines = list(transcript(game))
    assert "      roll #1 Vanguard Militia: 1D6 for deployment roll-off: 2 (roll-off)" in lines
    assert "[1] Vanguard Militia: Propose the points format -> 125 points" in lines
    assert not any("Bot 1" in line or "Bot 2" in line for line in lines)


def test_a_built_kill_team_roster_is_logged_under_its_side_name() -> None:
    game, _ = first_events("killteam-crossroads.toml", {"RollOffWon"})
    built = [e.text for e in game.events if e.kind == "RosterBuilt"]
    assert built == [
        "Vanguard Militia builds a roster of 6 models (42 pts)",
        "Ashen Reavers build a roster of 5 models (46 pts)",
    ]


def test_a_step_names_its_side_once_when_the_question_already_does() -> None:
    """fatigue asks "South player: choose your force": the step read "[1] South player:
    South player: choose your force"."""
    game, _ = first_events("fatigue-broken-span.toml", {"EdgeChosen"})
    steps = [line for line in transcript(game) if line.startswith("[")]
    assert steps[0].startswith("[1] South player: choose your force -> "), steps[0]
    assert steps[2].startswith("[3] ") and ": You won the roll-off: choose your edge" in steps[2]


def test_a_plural_name_takes_a_plural_verb() -> None:
    """The log said "Warden Rangers is deployed"; a name ending in s is read as plural,
    as `possessive` reads it."""
    from engine.wording import agreeing, agrees

    assert [agrees("Warden Rangers", v) for v in ("is", "has", "wins", "passes")] == [
        "are",
        "have",
        "win",
        "pass",
    ]
    assert agrees("Scrap Horde", "wins") == "wins"
    assert agreeing("Bogfen Raiders", "chooses who deploys first") == "choose who deploys first"
    events: list[Event] = []
    ctx = RuleContext(Dice.scripted([1, 6]), events.append)
    roll_off(ctx, ("Iron Wardens", "Rustbound Horde"), "Deployment roll-off", "chooses")
    roll_off(
        RuleContext(Dice.scripted([6, 1]), events.append), ("Iron Wardens", "X"), "R", "has it"
    )
    assert [e.text.split(" — ")[1] for e in events] == [
        "Rustbound Horde wins and chooses",
        "Iron Wardens win and have it",
    ]
