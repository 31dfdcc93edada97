"""Prompts the game answers by itself (one legal option) say what they did: the note rides
on the next Decision (`RuleContext.answered`), so the decision panel can show it before the
player's keys mean something else (issue #14, "Done for you")."""

from __future__ import annotations

import ast
import functools
import random
from collections import Counter
from pathlib import Path

import pytest

from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "engine" / "rulesets"

SAID = {"killteam": 13, "wh40k6": 14, "fatigue": 4, "apocalypse": 4, "confrontation": 10}
"""Places in each ruleset that answer a prompt for the player and say so. Every one was
found by its one-legal-option shortcut (``if len(options) == 1``, a loop whose last item
is not asked); a shortcut that is structural (a weapon with one profile, a tie that never
happened) asks nothing the player expects, so it says nothing."""


def said_in(ruleset: str) -> Counter[str]:
    """``ctx.answered(...)`` calls per function of the ruleset's modules."""
    found: Counter[str] = Counter()
    for path in sorted((RULESETS / ruleset).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "answered"
                ):
                    found[f"{path.stem}.{fn.name}"] += 1
    return found


@pytest.mark.parametrize("ruleset", sorted(SAID))
def test_every_ruleset_says_what_it_answered(ruleset: str) -> None:
    assert sum(said_in(ruleset).values()) == SAID[ruleset]


@functools.cache
def notes_of(name: str, seed: int, limit: int = 1500) -> tuple[str, ...]:
    """Every note a seeded game showed, players picking at random (rarely ending early)."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed)
    rng = random.Random(seed)
    shown: list[str] = []
    for _ in range(limit):
        decision = game.pending
        if decision is None:
            break
        shown += decision.notes
        options = [o for o in decision.options if not o.ends] or list(decision.options)
        if rng.random() < 0.15:
            options = list(decision.options)
        game.choose_key(rng.choice(options).key)
    return tuple(shown)


@pytest.mark.parametrize(
    ("name", "seed", "expected"),
    [
        (
            "killteam-crossroads",
            1,
            'B2 Reaver Gunner (Heavy) is the only enemy within 12" to charge.',
        ),
        (
            "killteam-crossroads",
            1,
            "A1 Militia Sergeant (Leader) goes to (18,7): the only cell it can reach.",
        ),
        (
            "wh40k6-open-war",
            2,
            "No terrain piece fits on the table any more: terrain placing ends.",
        ),
        ("wh40k6-open-war", 2, "Warden Rangers is the last reserve unit to arrive."),
        (
            "wh40k6-open-war",
            2,
            "B2.7 Raider moves to (28,13): the only cell its charge move may end on.",
        ),
        ("wh40k6-open-war", 2, "Bastion Tank vs Horde Mob Red is the last combat to fight."),
        ("wh40k6-emperors-will", 2, "No other blessing or malediction can be manifested now."),
        ("fatigue-crossroads", 1, "Road Spears is the only enemy unit Ashfang Chief can strike."),
        ("fatigue-broken-span", 1, "Hit 1 on Scav Pack: B7 Pack-Boss is wounded, so it takes it."),
        (
            "apocalypse-crossing-big",
            1,
            "Scrap Battery is the last detachment of its side to deploy.",
        ),
        ("apocalypse-crossing-big", 1, "Warboss is the only unit of its side left to resolve."),
        ("confrontation-crossing", 2, "Lantern Spearman A2.1 can only declare: Nothing."),
        ("confrontation-crossing", 2, "Bogfen Slinger B4.1 is the last fighter to pursue."),
        (
            "confrontation-crossing",
            2,
            "Grish the Sly B1: Attack Captain Aldric Vane A1, the only attack it can make.",
        ),
    ],
)
def test_a_seeded_game_shows_the_note(name: str, seed: int, expected: str) -> None:
    assert expected in notes_of(name, seed)
