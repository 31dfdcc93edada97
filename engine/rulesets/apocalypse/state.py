"""Apocalypse game state: units, detachments, sides and the turn (digest apocalypse §3.3-§3.7).

Mutable, and only inside the engine: UIs read `GameView`s built by the ruleset. Orders
not yet revealed and asset hands live here (and in the hashed snapshot) but never reach
a view or an event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, ClassVar

from engine.board import Cell
from engine.cards import Deck
from engine.footprints import Rect, square
from engine.rulesets.apocalypse.profiles import Datasheet
from engine.rulesets.apocalypse.terrain import TerrainMap

BATTLEFIELD = "BATTLEFIELD"
EMBARKED = "EMBARKED"
RESERVE = "RESERVE"
DESTROYED = "DESTROYED"
UNDEPLOYED = "UNDEPLOYED"
"""Before deployment (setup only)."""

ORDERS = ("ADVANCE", "AIMED_FIRE", "ASSAULT")
ORDER_NAMES = {"ADVANCE": "Advance", "AIMED_FIRE": "Aimed Fire", "ASSAULT": "Assault"}


@dataclass(slots=True)
class Unit:
    """One unit: a token of n x n cells with unit-level markers (§3.3)."""

    uid: str
    name: str
    owner: int
    sheet: Datasheet
    detachment: str
    location: str = UNDEPLOYED
    anchor: Cell | None = None
    transport: str | None = None
    passengers: list[str] = field(default_factory=list)
    blast_small: int = 0
    blast_large: int = 0
    damage: int = 0
    critical: bool = False
    deserter: bool = False
    is_commander: bool = False
    is_warlord: bool = False
    start: str = ""
    """Roster default deployment: "", "reserve", "embark:<uid>" or "x,y" (scenario)."""
    destroyed_turn: int | None = None
    # -- per turn (cleared at the end of each turn, §6.15) --
    move_done: bool = False
    moved: bool = False
    """Changed position (or disembarked) this Action phase (§6.8.2, A36)."""
    fell_back: bool = False
    step2_done: bool = False
    shot: bool = False
    fought: bool = False
    embarked_this_turn: bool = False
    disembarked_this_turn: bool = False

    footprint: Rect | None = None
    """The cells covered on the battlefield; kept by `ApocState.put` with ``anchor``."""

    @property
    def rect(self) -> Rect:
        """The footprint (only for units on the battlefield)."""
        assert self.footprint is not None, f"{self.uid} is not on the battlefield"
        return self.footprint

    @property
    def on_battlefield(self) -> bool:
        return self.location == BATTLEFIELD

    @property
    def alive(self) -> bool:
        return self.location not in (DESTROYED, UNDEPLOYED)

    @property
    def blasts(self) -> int:
        """Blast markers of both sizes (morale counts each as 1, §6.12.2 step 4)."""
        return self.blast_small + self.blast_large

    def clear_turn(self) -> None:
        """Forget the per-turn flags (§6.15 step 3)."""
        self.move_done = self.moved = self.fell_back = self.step2_done = False
        self.shot = self.fought = False
        self.embarked_this_turn = self.disembarked_this_turn = False

    def states(self, order: str | None, names: Mapping[str, str] | None = None) -> tuple[str, ...]:
        """Markers in the digest's words, for the unit panel; ``names``: unit names by id
        (a card says "carrying Brute Mob γ", not "carrying B5")."""
        names = names or {}
        out: list[str] = []
        if self.location == EMBARKED:
            out.append(f"embarked in {names.get(self.transport or '', self.transport)}")
        elif self.location == RESERVE:
            out.append("in reserve")
        elif self.location == DESTROYED:
            out.append("destroyed")
        if self.is_commander:
            out.append("commander" + (", warlord" if self.is_warlord else ""))
        if order:
            out.append(f"order: {ORDER_NAMES[order]}")
        for name, count in (("small blast", self.blast_small), ("large blast", self.blast_large)):
            if count:
                out.append(name + (f" x{count}" if count > 1 else ""))
        if self.damage:
            out.append(f"damage {self.damage}")
        flags = (
            ("critical damage", self.critical),
            ("deserter", self.deserter),
            ("fell back", self.fell_back),
            ("moved", self.moved),
            ("shot", self.shot),
            ("fought", self.fought),
        )
        out.extend(name for name, on in flags if on)
        if self.passengers:
            out.append("carrying " + ", ".join(names.get(p, p) for p in self.passengers))
        return tuple(out)

    def snapshot(self) -> tuple[Any, ...]:
        """Every changing field, read in one C call (hashed after each choice)."""
        return _UNIT_FIELDS(self)


_UNIT_FIELDS = attrgetter(
    "uid",
    "location",
    "anchor",
    "transport",
    "passengers",
    "blast_small",
    "blast_large",
    "damage",
    "critical",
    "deserter",
    "is_commander",
    "is_warlord",
    "destroyed_turn",
    "move_done",
    "moved",
    "fell_back",
    "step2_done",
    "shot",
    "fought",
    "embarked_this_turn",
    "disembarked_this_turn",
)


@dataclass(slots=True)
class Detachment:
    """Units under one Commander and one order per turn (§3.4)."""

    id: str
    name: str
    owner: int
    unit_ids: list[str]
    order: str | None = None
    order_revealed: bool = False
    activated: bool = False
    destroyed: bool = False

    def snapshot(self) -> list[Any]:
        return [self.id, self.order, self.order_revealed, self.activated, self.destroyed]


@dataclass(slots=True)
class Side:
    """One player's army and resources (§3.5)."""

    player: int
    name: str
    faction: str
    deck: Deck
    vp: int = 0
    points: int = 0
    assets_quiet: bool = False
    """The player asked for no asset offers until his next activation (secret: only the
    offers he is not given follow from it, and those look like holding no playable card)."""

    def snapshot(self) -> list[Any]:
        return [self.vp, self.points, self.deck.snapshot(), self.assets_quiet]


@dataclass(slots=True)
class Effects:
    """Asset effects that last an activation or a phase (§12.4)."""

    march_move: set[str] = field(default_factory=set)
    """Detachments whose Move actions get +3" this activation (Forced March a)."""
    march_reroll: set[str] = field(default_factory=set)
    """Detachments re-rolling natural-1 wound rolls this activation (Forced March b)."""
    smoke: dict[str, str] = field(default_factory=dict)
    """Unit -> activating detachment it is obscured against (Smoke Screen)."""
    fortitude: set[str] = field(default_factory=set)
    """Units adding 1 to their saves this phase."""

    def clear(self) -> None:
        self.march_move.clear()
        self.march_reroll.clear()
        self.smoke.clear()
        self.fortitude.clear()

    def snapshot(self) -> list[Any]:
        return [
            sorted(self.march_move),
            sorted(self.march_reroll),
            sorted(self.smoke.items()),
            sorted(self.fortitude),
        ]


@dataclass(slots=True)
class ApocState:
    """The whole game (§3.6)."""

    terrain: TerrainMap
    units: dict[str, Unit]
    detachments: dict[str, Detachment]
    sides: tuple[Side, Side]
    zones: tuple[frozenset[Cell], frozenset[Cell]]
    rounds: int = 5
    turn: int = 0
    phase: str = "Setup"
    step: str = ""
    initiative: int = 0
    prev_initiative: int | None = None
    first_deployed: int = 0
    """The player who finished deploying first (turn-1 initiative tie, §10 A2)."""
    effects: Effects = field(default_factory=Effects)
    seed: int = 0
    """The asset decks' secret shuffles derive from it (`deck_seed` of the game's seed)."""
    index: dict[int, Unit] = field(default_factory=dict)
    """Flat cell index (``y * cols + x``) -> the unit covering it. Kept by `put` only."""
    TRANSIENT: ClassVar[tuple[str, ...]] = ("index",)
    """Derived from the units: checkpoints leave it out and `restored` rebuilds it."""

    def restored(self) -> None:
        """Rebuild the cell index after a checkpoint brought the units back."""
        for unit in self.units.values():
            if unit.location == BATTLEFIELD and unit.footprint is not None:
                for i in self._flat(unit.footprint):
                    self.index[i] = unit

    def put(self, unit: Unit, location: str, anchor: Cell | None = None) -> None:
        """Move a unit to a location (and cell); the only way positions change."""
        if unit.location == BATTLEFIELD and unit.anchor is not None:
            for i in self._flat(unit.rect):
                self.index.pop(i, None)
        unit.location = location
        unit.anchor = anchor if location == BATTLEFIELD else None
        unit.footprint = None
        if location == BATTLEFIELD:
            assert anchor is not None
            unit.footprint = square(anchor, unit.sheet.footprint)
            for i in self._flat(unit.footprint):
                self.index[i] = unit

    def _flat(self, r: Rect) -> list[int]:
        cols = self.terrain.cols
        return [y * cols + x for y in range(r.y0, r.y1 + 1) for x in range(r.x0, r.x1 + 1)]

    def around(self, r: Rect) -> list[Unit]:
        """Units covering a cell that touches the rectangle from outside (base contact)."""
        cols, rows, index = self.terrain.cols, self.terrain.rows, self.index
        found: list[Unit] = []
        for y in range(max(0, r.y0 - 1), min(rows, r.y1 + 2)):
            inner = r.y0 <= y <= r.y1
            xs = (r.x0 - 1, r.x1 + 1) if inner else range(r.x0 - 1, r.x1 + 2)
            for x in xs:
                if 0 <= x < cols:
                    unit = index.get(y * cols + x)
                    if unit is not None and unit not in found:
                        found.append(unit)
        return found

    @property
    def cols(self) -> int:
        return self.terrain.cols

    @property
    def rows(self) -> int:
        return self.terrain.rows

    def side(self, player: int) -> Side:
        return self.sides[player]

    def units_of(self, player: int) -> list[Unit]:
        """The player's units in roster order, destroyed ones included."""
        return [u for u in self.units.values() if u.owner == player]

    def on_battlefield(self, player: int | None = None) -> list[Unit]:
        return [
            u
            for u in self.units.values()
            if u.location == BATTLEFIELD and (player is None or u.owner == player)
        ]

    def detachment_of(self, unit: Unit) -> Detachment:
        return self.detachments[unit.detachment]

    def commander(self, det: Detachment) -> Unit | None:
        """The living unit holding the Commander marker."""
        for uid in det.unit_ids:
            unit = self.units[uid]
            if unit.is_commander and unit.alive:
                return unit
        return None

    def in_reserve(self, unit: Unit) -> bool:
        """In Reserve, or embarked in a transport that is (§4.3 step 5, PROPOSED)."""
        if unit.location == RESERVE:
            return True
        if unit.location == EMBARKED and unit.transport is not None:
            return self.units[unit.transport].location == RESERVE
        return False

    def units_in(self, det: Detachment) -> list[Unit]:
        return [self.units[uid] for uid in det.unit_ids]

    def occupied(self, exclude: Unit | None = None) -> set[int]:
        """Flat indices of cells covered by units on the battlefield, but ``exclude``'s."""
        if exclude is None or exclude.footprint is None:
            return set(self.index)
        return self.index.keys() - self._flat(exclude.footprint)

    def snapshot(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "step": self.step,
            "initiative": self.initiative,
            "prev_initiative": self.prev_initiative,
            "first_deployed": self.first_deployed,
            "sides": [s.snapshot() for s in self.sides],
            "units": [u.snapshot() for u in self.units.values()],
            "detachments": [d.snapshot() for d in self.detachments.values()],
            "effects": self.effects.snapshot(),
        }
