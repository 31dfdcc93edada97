"""A tabletop for wh40k6 rule tests: place units, script the dice, answer Decisions.

Worked examples of digest wh40k6 §9 become tests by building the situation on a small
map, scripting the dice in the order the engine draws them, and driving one procedure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.board import Cell
from engine.decisions import Decision, Procedure
from engine.dice import Dice
from engine.events import Event
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.catalogue import CATALOGUE
from engine.rulesets.wh40k6.parsing import parse_catalogue
from engine.rulesets.wh40k6.profiles import Catalogue
from engine.rulesets.wh40k6.state import Model, Side, State, Unit
from engine.scenario import parse_scenario
from tests.driver import Answer, drive

T = TypeVar("T")

OPEN_MAP = ["." * 30] * 20
_CATALOGUE: Catalogue | None = None


def catalogue() -> Catalogue:
    global _CATALOGUE
    if _CATALOGUE is None:
        _CATALOGUE = parse_catalogue(CATALOGUE, "<catalogue>")
    return _CATALOGUE


class Table:
    """A wh40k6 state on a small map, with scripted dice and recorded events."""

    def __init__(
        self, dice: Sequence[int | tuple[int, str]] = (), rows: Sequence[str] = OPEN_MAP
    ) -> None:
        text = "\n".join(
            [
                'name = "test"',
                'ruleset = "wh40k6"',
                'description = "rule test"',
                "rounds = 7",
                'sides = ["Wardens", "Horde"]',
                "[map]",
                "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]",
            ]
        )
        board = parse_scenario(text, "<table>").board
        self.state = State(board, (Side(0, "Wardens"), Side(1, "Horde")))
        s = self.state
        s.game_turn, s.turn_index, s.active, s.phase = 1, 1, 0, "Test"
        s.sides[0].edges, s.sides[1].edges = ("south",), ("north",)
        self.dice = Dice.scripted(dice)
        self.events: list[Event] = []
        self.ctx = RuleContext(self.dice, self.events.append)
        self.decisions: list[Decision] = []

    def add(
        self,
        player: int,
        entry: str,
        cells: Sequence[tuple[int, int]],
        *,
        uid: str | None = None,
        name: str | None = None,
    ) -> Unit:
        """Put a unit of the catalogue on the table, one cell per model in order."""
        spec = catalogue().units[entry]
        profiles = [p for p, n in spec.models for _ in range(n)]
        count = sum(1 for u in self.state.units.values() if u.player == player)
        uid = uid or f"{'AB'[player]}{count + 1}"
        unit = Unit(uid, name or spec.name, player, spec.slot, [], len(profiles))
        for n, profile in enumerate(profiles):
            mid = f"{uid}.{n + 1}"
            model = Model(mid, uid, player, profile, profile.w, hp=profile.hp)
            if n < len(cells):
                model.cell = Cell(*cells[n])
            self.state.models[mid] = model
            unit.models.append(mid)
        if len(cells) < len(profiles):
            for mid in unit.models[len(cells) :]:
                del self.state.models[mid]
            unit.models = unit.models[: len(cells)]
            unit.start_count = len(cells)
        self.state.units[uid] = unit
        return unit

    def model(self, mid: str) -> Model:
        return self.state.models[mid]

    def run(self, procedure: Procedure[T], answers: Sequence[Answer] = ()) -> T:
        """Drive ``procedure``, answering its Decisions in order (see `tests.driver`)."""
        return drive(procedure, answers, self.decisions)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def find(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def texts(self, kind: str) -> list[str]:
        return [e.text for e in self.find(kind)]


def first(decision: Decision) -> str:
    """Pick the first option."""
    return decision.options[0].key


def first_cell(decision: Decision) -> str:
    """The first cell a placement offers (after its non-cell options)."""
    return next(o.key for o in decision.options if o.cell is not None)
