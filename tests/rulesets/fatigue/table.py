"""A tabletop for Roads of the Apocalypse rule tests: units, scripted dice, answers.

Worked examples of digest fatigue §9 become tests by building the situation they
describe on a small map, with the profiles of the shipped scenario (§12 forces),
scripting the dice they name, and driving one procedure to its end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from engine.board import Cell
from engine.decisions import Decision, Procedure
from engine.dice import Dice
from engine.events import Event
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.profiles import ForceSpec, Modules, UnitSpec
from engine.rulesets.fatigue.roster import parse_forces
from engine.rulesets.fatigue.state import FState, Model, Side, Unit
from engine.scenario import load_scenario, parse_scenario
from tests.driver import Answer, drive

T = TypeVar("T")

SCENARIO = Path(__file__).parents[3] / "scenarios" / "fatigue-crossroads.toml"
OPEN_MAP = ["." * 16] * 12
FACTIONS = ("WARDENS", "ASHFANG")


@cache
def forces() -> tuple[ForceSpec, ...]:
    """The §12 forces, read from the shipped scenario."""
    scenario = load_scenario(SCENARIO)
    return parse_forces(scenario.rules["forces"], str(SCENARIO))


def spec(name: str) -> UnitSpec:
    """A unit of the §12 forces by name ("Road Spears", "Tunnel Brute"...)."""
    for force in forces():
        for unit in force.units:
            if unit.name == name:
                return unit
    raise KeyError(name)


def variant(name: str, **changes: Any) -> UnitSpec:
    """A §12 unit with some fields changed (the Dread Brute, a bare leaper...)."""
    return replace(spec(name), **changes)


def first(decision: Decision) -> str:
    """Answer with the first option (hit allocation, "all" blows, auto formation)."""
    return decision.options[0].key


class Table:
    """A Roads of the Apocalypse state on a small map, with scripted dice and events."""

    def __init__(
        self,
        dice: Sequence[int | tuple[int, str]] = (),
        rows: Sequence[str] = OPEN_MAP,
        legend: str = "",
        modules: Modules | None = None,
    ) -> None:
        text = "\n".join(
            [
                'name = "test"',
                'ruleset = "fatigue"',
                'description = "rule test"',
                "rounds = 6",
                'sides = ["A", "B"]',
                "[map]",
                "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]",
                legend,
            ]
        )
        board = parse_scenario(text, "<table>").board
        self.state = FState(board, (Side(0, "A"), Side(1, "B")), modules or Modules())
        self.state.round = 1
        self.state.phase = "Test"
        self.dice = Dice.scripted(dice)
        self.events: list[Event] = []
        self.ctx = RuleContext(self.dice, self.events.append)
        self.decisions: list[Decision] = []

    def add(
        self,
        player: int,
        unit: str | UnitSpec,
        cells: Sequence[tuple[int, int]],
        *,
        facing: int | None = None,
        faction: str | None = None,
    ) -> Unit:
        """Put a unit on the table: its first ``len(cells)`` models on these cells."""
        unit_spec = spec(unit) if isinstance(unit, str) else unit
        profiles = unit_spec.models[: len(cells)]
        uid = max(self.state.units, default=0) + 1
        count = sum(1 for m in self.state.models.values() if m.player == player)
        models = [
            Model(f"{'AB'[player]}{count + i + 1}", uid, player, p, Cell(*c))
            for i, (p, c) in enumerate(zip(profiles, cells, strict=True))
        ]
        made = Unit(uid, player, unit_spec, faction or FACTIONS[player], models)
        made.facing = (0 if player == 0 else 4) if facing is None else facing
        made.models_at_round_start = len(models)
        self.state.units[uid] = made
        self.state.models.update({m.id: m for m in models})
        self.state.side(player).start_models += len(models)
        return made

    def run(self, procedure: Procedure[T], answers: Sequence[Answer] = ()) -> T:
        """Drive ``procedure``, answering its Decisions in order (see `tests.driver`)."""
        return drive(procedure, answers, self.decisions)

    def kinds(self) -> list[str]:
        """Kinds of the events so far, in order."""
        return [e.kind for e in self.events]

    def find(self, kind: str) -> list[Event]:
        """Events of one kind."""
        return [e for e in self.events if e.kind == kind]

    def rolled(self, reason: str) -> list[tuple[int, ...]]:
        """Faces of every roll whose reason contains ``reason``."""
        return [r.faces for r in self.dice.rolls if reason in r.reason]
