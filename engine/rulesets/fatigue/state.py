"""Game state of Roads of the Apocalypse: models, units, scrums, sides (digest fatigue §3).

Mutable, and only inside the engine: UIs read the `GameView` the ruleset builds. Every
loop over units runs in ascending unit id, so every game replays identically (§3.3).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.board import Board, Cell
from engine.rulesets.fatigue.pieces import Model, Unit
from engine.rulesets.fatigue.profiles import Modules

__all__ = ["FState", "Model", "Scrum", "Side", "Unit"]


@dataclass(slots=True)
class Scrum:
    """A melee engagement between units of both players (§3.7)."""

    id: int
    sides: tuple[list[int], list[int]]
    """Unit ids per player."""
    created_round: int
    exchanges: int = 0
    wounds: list[int] = field(default_factory=lambda: [0, 0])
    """Wounds each player's units took in this scrum this round (panic, §6.16)."""
    active: bool = True
    fled: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    """Units that fled this Aftermath, with the enemy units then in the scrum (§6.19)."""

    def members(self) -> list[int]:
        return sorted(self.sides[0] + self.sides[1])

    def snapshot(self) -> list[Any]:
        return [
            self.id,
            list(self.sides[0]),
            list(self.sides[1]),
            self.created_round,
            self.exchanges,
            list(self.wounds),
            self.active,
            [[u, list(e)] for u, e in self.fled],
        ]


@dataclass(slots=True)
class Side:
    """One player's force and resources (§3.6)."""

    player: int
    name: str
    force: str = ""
    faction: str = ""
    fp: int = 0
    passed: bool = False
    start_models: int = 0
    """N, the starting model count (rout threshold, §6.21)."""
    vp: int = 0
    edge: str = ""
    """The deployment zone chosen or left (§4.3)."""

    def snapshot(self) -> list[Any]:
        return [
            self.name,
            self.force,
            self.faction,
            self.fp,
            self.passed,
            self.start_models,
            self.vp,
            self.edge,
        ]


@dataclass(slots=True)
class FState:
    """The whole game (§3)."""

    board: Board
    sides: tuple[Side, Side]
    modules: Modules = field(default_factory=Modules)
    units: dict[int, Unit] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)
    scrums: dict[int, Scrum] = field(default_factory=dict)
    zones: dict[str, frozenset[Cell]] = field(default_factory=dict)
    rounds: int = 6
    round: int = 0
    phase: str = "Setup"
    step: str = ""
    initiative: int = 0
    """Seat of this round's A player (§5)."""
    next_scrum: int = 1
    terrain: dict[tuple[int, int], tuple[bool, bool]] = field(default_factory=dict)
    """Cache: cell -> (walkable, difficult), built on first use (not part of the state)."""
    heights: dict[Cell, int] = field(default_factory=dict)
    """Cache: cell -> height (§11.4), built with ``terrain``."""
    moving: dict[str, Cell] = field(default_factory=dict)
    """Where the models of a move being placed go, while the player is still asked how
    the rest follow: shown by the view, not yet the models' cells (not part of the state:
    a move never spans a checkpoint)."""
    TRANSIENT: ClassVar[tuple[str, ...]] = ("terrain", "heights", "moving")
    """Caches, rebuilt on use, and the move being placed: checkpoints leave them out
    (engine.statecodec)."""

    def side(self, player: int) -> Side:
        return self.sides[player]

    def order(self) -> tuple[int, int]:
        """Players in initiative order: A then B (§10 #34)."""
        return (self.initiative, 1 - self.initiative)

    def units_of(self, player: int) -> list[Unit]:
        """The player's units in id order, destroyed ones included."""
        return [u for u in self.units.values() if u.player == player]

    def units_in_order(self) -> Iterator[Unit]:
        """Units in play, A's units first, then B's, each in id order (§6.7, §6.16)."""
        for player in self.order():
            for unit in self.units_of(player):
                if unit.in_play:
                    yield unit

    def unit_of(self, model: Model) -> Unit:
        return self.units[model.unit]

    def occupied(self) -> dict[Cell, Model]:
        return {m.cell: m for m in self.models.values() if m.in_play and m.cell is not None}

    def enemy_models(self, player: int) -> list[Model]:
        return [m for m in self.models.values() if m.player != player and m.in_play]

    def out_of_action(self, player: int) -> int:
        """Models of the player out of action (rout, §6.21; fleeing ones do not count)."""
        return sum(m.out_of_action for m in self.models.values() if m.player == player)

    def new_scrum(self, first: Unit, second: Unit) -> Scrum:
        sides: tuple[list[int], list[int]] = ([], [])
        sides[first.player].append(first.id)
        sides[second.player].append(second.id)
        scrum = Scrum(self.next_scrum, sides, self.round)
        self.scrums[scrum.id] = scrum
        self.next_scrum += 1
        return scrum

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "initiative": self.initiative,
            "next_scrum": self.next_scrum,
            "sides": [s.snapshot() for s in self.sides],
            "units": [u.snapshot() for u in self.units.values()],
            "scrums": [s.snapshot() for s in self.scrums.values()],
        }
