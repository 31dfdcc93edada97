"""A tabletop for Apocalypse rule tests: place units, script the dice, answer Decisions.

Worked examples of the digest (apocalypse §9) become tests by building the situation
they describe on a small open map, scripting the dice they name, and driving one
procedure to its end with the answers a player would give.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.board import Cell
from engine.cards import Deck
from engine.decisions import Choice, Decision, Procedure
from engine.dice import Dice
from engine.events import Event
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.profiles import Datasheet, load_catalogue
from engine.rulesets.apocalypse.state import (
    BATTLEFIELD,
    ApocState,
    Detachment,
    Side,
    Unit,
)
from engine.rulesets.apocalypse.terrain import TerrainMap
from engine.scenario import parse_scenario
from tests.driver import Answer, drive

T = TypeVar("T")

OPEN_MAP = ["." * 40] * 30
CATALOGUE = load_catalogue()


def sheet(sid: str, **changes: Any) -> Datasheet:
    """A catalogue datasheet, optionally with changed fields (W, Sv, weapons...)."""
    return dataclasses.replace(CATALOGUE[sid], **changes)


class Table:
    """An Apocalypse state on a small map, with scripted dice and recorded events."""

    def __init__(
        self, dice: Sequence[int | tuple[int, str]] = (), rows: Sequence[str] = OPEN_MAP
    ) -> None:
        text = "\n".join(
            [
                'name = "test"',
                'ruleset = "apocalypse"',
                'description = "rule test"',
                "rounds = 5",
                'sides = ["Legion", "Horde"]',
                "[map]",
                "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]",
                '[map.legend]\n"R" = { terrain = "difficult" }',
            ]
        )
        board = parse_scenario(text, "<table>").board
        height = board.height
        south = frozenset(Cell(x, y) for x in range(board.width) for y in range(4))
        north = frozenset(Cell(x, y) for x in range(board.width) for y in range(height - 4, height))
        self.state = ApocState(
            TerrainMap(board),
            {},
            {},
            (
                Side(0, "Legion", "LEGION", Deck(0, "a", [])),
                Side(1, "Horde", "HORDE", Deck(1, "b", [])),
            ),
            (south, north),
        )
        self.state.turn = 1
        self.state.phase = "Test"
        self.dice = Dice.scripted(dice)
        self.events: list[Event] = []
        self.ctx = RuleContext(self.dice, self.events.append)
        self.decisions: list[Decision] = []

    def detachment(self, player: int, name: str = "", order: str | None = None) -> Detachment:
        """A new detachment of the player (its first unit added becomes its Commander)."""
        n = sum(1 for d in self.state.detachments.values() if d.owner == player) + 1
        det = Detachment(f"{'AB'[player]}-D{n}", name or f"{'AB'[player]} det {n}", player, [])
        det.order = order
        det.order_revealed = order is not None
        self.state.detachments[det.id] = det
        return det

    def add(
        self,
        player: int,
        datasheet: str | Datasheet,
        at: tuple[int, int] | None,
        *,
        det: Detachment | None = None,
        name: str | None = None,
        commander: bool | None = None,
        warlord: bool = False,
        location: str = BATTLEFIELD,
    ) -> Unit:
        """Put a unit on the table (or, with ``at=None``, at ``location``)."""
        sh = datasheet if isinstance(datasheet, Datasheet) else CATALOGUE[datasheet]
        if det is None:
            det = self.detachment(player)
        n = sum(1 for u in self.state.units.values() if u.owner == player) + 1
        uid = f"{'AB'[player]}{n}"
        unit = Unit(uid, name or f"{sh.name} {uid}", player, sh, det.id)
        unit.is_commander = not det.unit_ids if commander is None else commander
        unit.is_warlord = warlord
        det.unit_ids.append(uid)
        self.state.units[uid] = unit
        self.state.put(unit, location, Cell(*at) if at is not None else None)
        return unit

    def run(self, procedure: Procedure[T], answers: Sequence[Answer] = ()) -> T:
        """Drive ``procedure``, answering its Decisions in order (see `tests.driver`)."""
        return drive(procedure, answers, self.decisions)

    def run_from(
        self,
        procedure: Procedure[T],
        decision: Decision,
        answers: Sequence[Answer],
        check: Callable[[], None] | None = None,
    ) -> T:
        """Like `run`, for a procedure already started at ``decision``; ``check`` runs
        before every answer (to assert what is visible at that moment)."""
        queue = list(answers)
        try:
            while True:
                if check is not None:
                    check()
                key = queue.pop(0)
                answer = key(decision) if callable(key) else key
                decision = procedure.send(Choice(len(self.decisions) - 1, answer))
                self.decisions.append(decision)
        except StopIteration as stop:
            result: T = stop.value
        assert not queue, f"answers left over: {queue}"
        return result

    def kinds(self) -> list[str]:
        """Kinds of the events so far, in order."""
        return [e.kind for e in self.events]

    def find(self, kind: str) -> list[Event]:
        """Events of one kind."""
        return [e for e in self.events if e.kind == kind]

    def texts(self) -> list[str]:
        return [e.text for e in self.events]


def first(decision: Decision) -> str:
    """Answer with the first option."""
    return decision.options[0].key
