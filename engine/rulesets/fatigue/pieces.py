"""Models and units of Roads of the Apocalypse with their dynamic state (digest fatigue §3.3).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.board import Cell
from engine.rulesets.fatigue.profiles import ModelProfile, Psych, UnitSpec


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
        """Models in play, in list order (`Model.in_play` written out: asked thousands
        of times a game)."""
        return [m for m in self.models if not m.out_of_action and m.cell is not None]

    @property
    def in_play(self) -> bool:
        # `Model.in_play` written out, as in `alive`
        return any(not m.out_of_action and m.cell is not None for m in self.models)

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
    def can_play_melodies(self) -> bool:
        """Melodies are not implemented (the seed only names them); STUPID blocks them (§8)."""
        return not self.stupid

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
