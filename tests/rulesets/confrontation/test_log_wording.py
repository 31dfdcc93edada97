"""What Confrontation's log and prompts say about moves, facings and distances (issue #14):
a walk that only turns said "(5,5) -> (5,5)", a deployment's facing went unlogged, and one
distance read 17" on the status line, "16 cells" in a prompt and cm on the card."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from engine.board import Cell
from engine.bot import RandomBot
from engine.dice import Dice
from engine.game import Game
from engine.position import parse_position
from engine.rulesets.confrontation.damage import inflict_damage
from engine.rulesets.confrontation.ruleset import Confrontation
from engine.rulesets.confrontation.tables import Result, read_wound_table
from engine.scenario import load_scenario
from tests.rulesets.confrontation.table import Table

SCENARIOS = Path(__file__).parents[3] / "scenarios"

TEXT = """
scenario = "confrontation-crossing.toml"
round = 1
phase = "Activation"
[confrontation]
tactical_winner = 1
[[confrontation.fighters]]
player = 1
profile = "{profile}"
cell = [5, 5]
facing = "N"
[[confrontation.fighters]]
player = 2
profile = "cutthroat"
cell = [5, 15]
"""


def activated(profile: str, *keys: str, dice: Dice | None = None) -> Game:
    """A1 (``profile``) at (5,5) facing north, B1 ten cells north; A1's side plays first
    and declares common actions, then ``keys``."""
    text = TEXT.format(profile=profile)
    position = parse_position(text, "p.toml", base=SCENARIOS)
    game = Game(position.scenario, 0, position=position, dice=dice)
    for key in ("me", "common", *keys):
        game.choose_key(key)
    return game


def moved(game: Game) -> str:
    (event,) = [e for e in game.events if e.kind == "FighterMoved"]
    return event.text


@pytest.mark.parametrize(
    ("keys", "text"),
    [
        (("5,5", "NE"), "Lantern Spearman A1 stays at (5,5) and turns to face NE"),
        (("5,5", "N"), "Lantern Spearman A1 stays at (5,5), facing N"),
        (("5,7", "E"), "Lantern Spearman A1 walks (5,5) -> (5,7), facing E"),
    ],
)
def test_a_walk_that_only_turns_says_so(keys: tuple[str, str], text: str) -> None:
    """A32: staying on the spot is a walk of 0, so a walk may just turn."""
    assert moved(activated("spearman", "walk", *keys)) == text


def test_deployment_logs_the_facing_chosen() -> None:
    game = Game(load_scenario(SCENARIOS / "confrontation-crossing.toml"), 3)
    while not any(e.kind == "FighterDeployed" for e in game.events):
        assert game.pending is not None
        facing = "SW" if game.pending.prompt.startswith("Deployment: which way") else None
        game.choose_key(facing or game.pending.keys()[0])
    (deployed,) = [e for e in game.events if e.kind == "FighterDeployed"]
    assert deployed.text.endswith(", facing SW"), deployed.text
    assert deployed.get("facing") == 5


def test_one_formatter_gives_every_length_in_cm_with_cells() -> None:
    """§11 and §12.2: cm, the rules' unit, with the cells in brackets."""
    from engine.rulesets.confrontation.profiles import show_cells, show_length

    assert show_length(Fraction(25, 2), 5) == "12.5 cm (5 cells)"
    assert show_cells(1) == "2.5 cm (1 cell)"
    assert show_cells(16) == "40 cm (16 cells)"


def test_the_target_prompt_the_shot_and_the_status_line_give_one_distance() -> None:
    """B1 is 10 cells north of A1: 9 cells edge to edge (§11), 22.5 cm, medium range for
    a crossbow (15-30-45 cm)."""
    game = activated("crossbowman", "shoot", dice=Dice.scripted([(1, "aim")]))
    decision = game.pending
    assert decision is not None and decision.prompt.endswith("choose a target")
    (option,) = decision.options
    assert option.detail is not None
    assert option.detail.startswith("22.5 cm (9 cells) edge to edge; ")
    a1, b1 = (game.view().model(m) for m in ("A1", "B1"))
    assert a1 is not None and b1 is not None and a1.cell and b1.cell
    assert Confrontation.distance_text(game.board, a1.cell, b1.cell) == "22.5 cm (9 cells)"
    beside = Cell(a1.cell.x + 1, a1.cell.y)
    assert Confrontation.distance_text(game.board, a1.cell, beside) == "0 cm (in contact)"
    before = len(game.events)
    game.choose_key("B1")
    taken, shot = (e for e in game.events[before:] if e.kind in ("ShotTaken", "ShotRolled"))
    assert taken.text == (
        "Lantern Crossbowman A1 shoots at Bogfen Cutthroat B1, 22.5 cm (9 cells) away "
        "(medium range, difficulty 7)"
    )
    assert shot.text.startswith("Lantern Crossbowman A1's shot: rolled 1"), shot.text


def test_the_shot_is_told_before_its_aim_roll() -> None:
    """The log read "rolled 1D6 for aim: 2 vs 4+ ... fails", then who shot at whom."""
    game = activated("crossbowman", "shoot", dice=Dice.scripted([(2, "aim")]))
    rolls = len(game.rolls)
    before = len(game.events)
    game.choose_key("B1")
    (taken,) = [e for e in game.events[before:] if e.kind == "ShotTaken"]
    (aim,) = [r for r in game.rolls[rolls:] if "aim" in r.reason]
    assert taken.rolls <= aim.index  # the dice line comes after the shot is told


def test_the_card_gives_mov_in_cm_with_cells() -> None:
    game = activated("spearman")
    card = game.view().model("A1")
    assert card is not None
    assert ("MOV", "10 cm (4 cells)") in card.profile


def test_the_initiative_winner_is_told_what_winning_means() -> None:
    """§6.11 steps 2-3: "A1 wins the Initiative" left the other player to guess why they
    split their dice first; the next question is indeed the loser's split."""
    game = Game(load_scenario(SCENARIOS / "confrontation-crossing.toml"), 3)
    bot = RandomBot(3)
    while not any(e.kind == "InitiativeWon" for e in game.events):
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
    (won,) = [e for e in game.events if e.kind == "InitiativeWon"]
    assert won.text.endswith(
        " wins the Initiative and attacks first (the other side splits its combat dice first)"
    ), won.text
    assert game.pending is not None and won.get("player") == 1 - game.pending.player


def test_a_damage_line_names_the_new_wound_only_where_it_differs_from_the_result() -> None:
    """Played at 80x24: "Attack damage on Bogfen Cutthroat B2.3: dice 5/5 (head): killed,
    now killed"; a light wound on a healthy fighter read "light, now light"."""
    light = next(
        (a, b)
        for a in range(1, 6)
        for b in range(a, 7)
        if read_wound_table((a, b), 4, 3) is Result.LIGHT
    )
    table = Table([*light, *light, 6, 6])
    target = table.add(1, (5, 5), res=3)
    table.add(1, (9, 9))  # not the side's last: killing it ends no game
    for _ in range(3):
        inflict_damage(table.state, table.ctx, 0, target, 4, "attack damage")
    lines = [e.text.split(": ", 2)[2] for e in table.find("DamageRolled")]
    assert lines == ["light", "light, now serious", "killed"]
