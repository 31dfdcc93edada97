"""A tabletop for Kill Team rule tests: place models, script the dice, answer Decisions.

Worked examples of the digest become tests by building the situation they describe on
a small map, scripting the dice they name, and driving one procedure to its end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from engine.board import Cell
from engine.decisions import Decision, Procedure
from engine.dice import Dice
from engine.events import Event
from engine.ruleset import RuleContext
from engine.rulesets.killteam.profiles import load_factions
from engine.rulesets.killteam.roster import equip
from engine.rulesets.killteam.state import KTState, Model, Team
from engine.scenario import parse_scenario
from tests.driver import Answer, drive

T = TypeVar("T")

OPEN_MAP = ["." * 16] * 12


class Table:
    """A Kill Team state on a small map, with scripted dice and recorded events."""

    def __init__(
        self,
        dice: Sequence[int | tuple[int, str]] = (),
        rows: Sequence[str] = OPEN_MAP,
        factions: tuple[str, str] = ("militia", "reavers"),
    ) -> None:
        text = "\n".join(
            [
                'name = "test"',
                'ruleset = "killteam"',
                'description = "rule test"',
                "rounds = 4",
                'sides = ["A", "B"]',
                "[map]",
                "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]",
            ]
        )
        board = parse_scenario(text, "<table>").board
        self.state = KTState(
            board,
            (Team(0, "A", factions[0]), Team(1, "B", factions[1])),
            {},
        )
        self.state.round = 1
        self.state.phase = "Test"
        self.factions = factions
        self.dice = Dice.scripted(dice)
        self.events: list[Event] = []
        self.ctx = RuleContext(self.dice, self.events.append)
        self.decisions: list[Decision] = []

    def add(
        self,
        player: int,
        datasheet: str,
        cell: tuple[int, int] | None,
        *,
        specialism: str | None = None,
        options: Iterable[str] = (),
        mid: str | None = None,
    ) -> Model:
        """Put a model of the player's faction on the table."""
        faction = load_factions()[self.factions[player]]
        sheet = faction.datasheets[datasheet]
        count = sum(1 for m in self.state.models.values() if m.player == player)
        mid = mid or f"{'AB'[player]}{count + 1}"
        model = Model(
            mid,
            player,
            sheet,
            equip(faction, sheet, list(options)),
            specialism,
            sheet.W,
            Cell(*cell) if cell else None,
        )
        self.state.models[mid] = model
        self.state.team(player).start_count += 1
        return model

    def run(
        self,
        procedure: Procedure[T],
        answers: Sequence[Answer] = (),
        *,
        then: Callable[[Decision], str] | None = None,
    ) -> T:
        """Drive ``procedure``, answering its Decisions in order (see `tests.driver`)."""
        return drive(procedure, answers, self.decisions, then=then)

    def kinds(self) -> list[str]:
        """Kinds of the events so far, in order."""
        return [e.kind for e in self.events]

    def find(self, kind: str) -> list[Event]:
        """Events of one kind."""
        return [e for e in self.events if e.kind == kind]


def no(decision: Decision) -> str:
    """Decline a stratagem or re-roll offer."""
    return "no"
