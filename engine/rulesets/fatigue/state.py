"""Game state of Roads of the Apocalypse: models, units, scrums, sides (digest fatigue §3).

Mutable, and only inside the engine: UIs read the `GameView` the ruleset builds. Every
loop over units runs in ascending unit id, so every game replays identically (§3.3).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.board import Board, Cell
from engine.rulesets.fatigue.profiles import ModelProfile, Modules, Psych, UnitSpec


@dataclass(slots=True)
class Model:
    """One figure: its profile, place, wounds and ranged weapon state (§3.3, §6.29)."""

    id: str
    """"A1".. for seat 0, "B1".. for seat 1."""
    unit: int
    player: int
    profile: ModelProfile
    cell: Cell | None = None
    wounds_taken: int = 0
    out_of_action: bool = False
    jammed_until: int = 0
    """The ranged weapon cannot fire up to and including this round (Jam, §6.29)."""
    weapon_destroyed: bool = False
    """Blowback destroyed the ranged weapon for the rest of the game (§6.29)."""

    @property
    def in_play(self) -> bool:
        """Deployed and not out of action."""
        return not self.out_of_action and self.cell is not None

    @property
    def wounds_left(self) -> int:
        return self.profile.resilience - self.wounds_taken

    @property
    def name(self) -> str:
        return f"{self.id} {self.profile.name}"

    def can_fire(self, round_number: int) -> bool:
        """Has a ranged weapon that is neither destroyed nor jammed (§6.10 step 1)."""
        return (
            self.profile.ranged is not None
            and not self.weapon_destroyed
            and self.jammed_until < round_number
        )

    def snapshot(self) -> list[Any]:
        cell = None if self.cell is None else [self.cell.x, self.cell.y]
        return [
            self.id,
            cell,
            self.wounds_taken,
            self.out_of_action,
            self.jammed_until,
            self.weapon_destroyed,
        ]


@dataclass(slots=True)
class Unit:
    """A unit (a single warrior is a unit of one) with its dynamic state (§3.3)."""

    id: int
    player: int
    spec: UnitSpec
    faction: str
    models: list[Model]
    facing: int = 0
    """Eighths of a turn, 0 = north (+y), clockwise (§11.4)."""
    # -- reset each round --
    activations: int = 0
    moved: bool = False
    aim: int = 0
    braced: bool = False
    feared: bool = False
    fear_tested_a: bool = False
    fear_b_passed: bool = False
    cannot_attack: bool = False
    ambushed: bool = False
    models_at_round_start: int = 0
    lost_to_shooting: int = 0
    whirlwind: bool = False
    scrums_this_round: list[int] = field(default_factory=list)
    # -- persistent --
    fatigue: int = 0
    fleeing: bool = False
    terrified: bool = False
    stupid: bool = False
    frenzy_lost: bool = False
    camouflaged: bool = False
    scrum: int | None = None
    first_exchange: bool = False
    """True from joining a scrum until its first exchange there ends (PROPOSED, §10 #7)."""
    leap_bonus: bool = False
    """Leap Attack: +1 M and a Ramming die in the next exchange (§6.28)."""

    @property
    def name(self) -> str:
        return self.spec.name

    def alive(self) -> list[Model]:
        """Models in play, in list order."""
        return [m for m in self.models if m.in_play]

    @property
    def in_play(self) -> bool:
        return any(m.in_play for m in self.models)

    @property
    def destroyed(self) -> bool:
        """Every model is out of action."""
        return all(m.out_of_action for m in self.models)

    @property
    def engaged(self) -> bool:
        return self.scrum is not None

    def cells(self) -> list[Cell]:
        return [m.cell for m in self.models if m.in_play and m.cell is not None]

    def has(self, keyword: Psych) -> bool:
        return self.spec.has(keyword)

    @property
    def frenzied(self) -> bool:
        """Has Frenzy and has not lost it (§6.24)."""
        return self.has(Psych.FRENZY) and not self.frenzy_lost

    @property
    def causes_fear(self) -> bool:
        """FEAR or TERROR causer (Terror causers also cause Fear, §6.23 item 5)."""
        return self.has(Psych.FEAR) or self.has(Psych.TERROR)

    def commander(self) -> Model | None:
        """The living commander, if any (§6.15)."""
        for m in self.models:
            if m.profile.commander and m.in_play:
                return m
        return None

    def clear_round(self) -> None:
        """Forget the per-round fields (§6.32 item 4)."""
        self.activations = 0
        self.moved = self.braced = self.feared = self.fear_tested_a = False
        self.fear_b_passed = self.cannot_attack = self.ambushed = self.whirlwind = False
        self.aim = self.lost_to_shooting = 0
        self.scrums_this_round = []

    def states(self, round_number: int) -> tuple[str, ...]:
        """States in the digest's words (§3.8), for the model panel."""
        flags = [
            ("fleeing", self.fleeing),
            ("terrified", self.terrified),
            ("stupid", self.stupid),
            ("engaged", self.engaged),
            ("braced", self.braced),
            ("feared", self.feared),
            ("cannot attack", self.cannot_attack),
            ("ambushed", self.ambushed),
            ("camouflaged", self.camouflaged),
            ("frenzy lost", self.frenzy_lost),
            ("leap attack", self.leap_bonus),
        ]
        out = [name for name, on in flags if on]
        if self.fatigue:
            out.insert(0, f"fatigue {self.fatigue}")
        if self.aim:
            out.append(f"aimed {self.aim}")
        out.append(f"activated x{self.activations}" if self.activations else "ready")
        return tuple(out)

    def snapshot(self) -> list[Any]:
        return [
            self.id,
            self.facing,
            self.activations,
            self.moved,
            self.aim,
            self.braced,
            self.feared,
            self.fear_tested_a,
            self.fear_b_passed,
            self.cannot_attack,
            self.ambushed,
            self.models_at_round_start,
            self.lost_to_shooting,
            self.whirlwind,
            list(self.scrums_this_round),
            self.fatigue,
            self.fleeing,
            self.terrified,
            self.stupid,
            self.frenzy_lost,
            self.camouflaged,
            self.scrum,
            self.first_exchange,
            self.leap_bonus,
            [m.snapshot() for m in self.models],
        ]


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
