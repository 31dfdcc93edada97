"""Prompts the game answers by itself (one legal option) say what they did: the note rides
on the next Decision (`RuleContext.answered`), so the decision panel can show it before the
player's keys mean something else (issue #14, "Done for you")."""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "engine" / "rulesets"

SAID = {"killteam": 16, "wh40k6": 14, "fatigue": 5, "apocalypse": 5, "confrontation": 10}
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


def notes_of(name: str, seed: int, limit: int = 1500) -> tuple[str, ...]:
    """Every note a seeded game showed, players picking at random (rarely ending early)."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed)
    rng = random.Random(seed)
    shown: list[str] = []
    for _ in range(limit):
        decision = game.pending
        if decision is None:
            break
        shown += decision.notes + decision.told
        options = [o for o in decision.options if not o.ends] or list(decision.options)
        if rng.random() < 0.15:
            options = list(decision.options)
        game.choose_key(rng.choice(options).key)
    return tuple(shown)


SEEN = {
    "killteam-crossroads": [
        r"is the only model left to place\.",
        r'is the only enemy within 12" to charge\.',
        r"goes to \(\d+,\d+\): the only cell it can reach\.",
        r"is the only friendly model it can target\.",
        r"is the only target of the .* \[hit \d+%",
    ],
    "wh40k6-open-war": [
        r"^No terrain piece fits on the table any more: terrain placing ends\.$",
        r"is the last unit to deploy\.",
        r"is the last reserve unit to arrive\.",
        r"stays at \(\d+,\d+\): the only cell it may use\.",
        r"^No unit can charge: the charges are over\.$",
    ],
    "wh40k6-emperors-will": [
        r"^No other blessing or malediction can be manifested now\.$",
        r"^No other unit can charge: the charges are over\.$",
    ],
    "fatigue-broken-span": [
        r"is the last unit of its side to place\.",
        r"is the only enemy unit .* can strike\.",
        r"^Hit \d+ on .*: .* is wounded, so it takes it\.$",
    ],
    "apocalypse-crossing-big": [
        r"is the last detachment of its side to deploy\.",
        r"is the only detachment of its side left to activate\.",
        r"is the only unit of its side left to resolve\.",
    ],
    "confrontation-muster": [
        r"can only declare: Nothing\.",
        r"is the last fighter of the card: it goes now\.",
        r": Attack .*, the only attack it can make\.",
        r" vs .* is the only fight left\.",
        r"goes to \(\d+,\d+\): the only cell it can reach\.",
    ],
    "confrontation-crossing": [
        r"is the last fighter to attack\.",
        r"is the last fighter to pursue\.",
    ],
}
"""What a few seeded games of each scenario must have said (three seeds each)."""

SEEDS = {"killteam-crossroads": (1, 2, 9), "confrontation-muster": (1, 2, 4)}
"""Seeds other than 1, 2, 3 where those games never met a prompt (Kill Team's roster
answering its Leader itself since version 4, Confrontation's army list offering heroes
last since version 11: each moved every later pick of the random players)."""


@pytest.mark.parametrize("name", sorted(SEEN))
def test_seeded_games_show_the_notes(name: str) -> None:
    shown = [n for seed in SEEDS.get(name, (1, 2, 3)) for n in notes_of(name, seed)]
    missing = [p for p in SEEN[name] if not any(re.search(p, note) for note in shown)]
    assert not missing, (missing, sorted(set(shown)))
