"""Warhammer 40,000 6th edition game state: models, units, sides, terrain (digest §3.6).

Mutable, and only inside the engine: UIs read `GameView`s built by the ruleset. Player
turns are counted by ``State.turn_index`` (1, 2, 3 ... across both players), and effects
that last "until the end of its next turn" store the index of the player turn at whose
end they expire (§5, effect durations).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.board import Board, Cell
from engine.footprints import Rect
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.profiles import Mount, Profile


@dataclass(slots=True)
class Model:
    """One model or vehicle (§3.6)."""

    id: str
    unit: str
    player: int
    profile: Profile
    wounds: int
    cell: Cell | None = None
    """South-west cell of the footprint; None off the table (reserve, embarked, dead)."""
    removed: bool = False
    facing: int = 0
    moved: bool = False
    """Moved this turn (Heavy, Salvo and Ordnance weapons, §6.1 item 5)."""
    # -- vehicles --
    hp: int = 0
    speed: str = t.STATIONARY
    """Speed of its controller's last Movement phase (plus flat out), §6.4."""
    moved_inches: int = 0
    shaken_until: int = 0
    stunned_until: int = 0
    immobilised: bool = False
    destroyed_weapons: list[int] = field(default_factory=list)
    wrecked: bool = False
    smoke_until: int = 0
    smoke_used: bool = False
    # -- psykers --
    powers: list[int] = field(default_factory=list)
    powers_used: int = 0
    carries_relic: bool = False

    @property
    def name(self) -> str:
        return f"{self.id} {self.profile.name}"

    @property
    def alive(self) -> bool:
        return not self.removed

    @property
    def on_table(self) -> bool:
        return not self.removed and self.cell is not None

    @property
    def is_vehicle(self) -> bool:
        return self.profile.is_vehicle

    @property
    def rect(self) -> Rect:
        """The footprint (`square` of the cell and size, built in one step: the rules
        ask for it a hundred thousand times a game)."""
        cell = self.cell
        assert cell is not None, f"{self.id} is not on the table"
        x, y = cell
        k = self.profile.size - 1
        return _rect(Rect, (x, y, x + k, y + k))

    def weapons(self) -> list[tuple[int, Mount]]:
        """Weapons still working, with their index in the profile."""
        return [
            (n, m) for n, m in enumerate(self.profile.weapons) if n not in self.destroyed_weapons
        ]

    def snapshot(self) -> list[Any]:
        return [
            self.id,
            None if self.cell is None else list(self.cell),
            self.wounds,
            self.removed,
            self.facing,
            self.moved,
            self.hp,
            self.speed,
            self.moved_inches,
            self.shaken_until,
            self.stunned_until,
            self.immobilised,
            sorted(self.destroyed_weapons),
            self.wrecked,
            self.smoke_until,
            self.smoke_used,
            list(self.powers),
            self.powers_used,
            self.carries_relic,
        ]


_rect = tuple.__new__
"""Builds a `Rect` from its four numbers without its Python-level constructor."""

TURN_FLAGS = (
    "moved",
    "ran",
    "moved_fast",
    "has_shot",
    "charged",
    "hammer",
    "regrouped",
    "failed_charge",
    "arrived",
    "disembarked",
    "left_open_topped",
    "embarked",
    "charge_difficult",
    "doomed",
)


@dataclass(slots=True)
class Unit:
    """A unit (§3.3) and its per-turn and persistent flags (§3.6)."""

    id: str
    name: str
    player: int
    slot: str
    models: list[str]
    start_count: int
    points: int = 0
    warlord: bool = False
    # -- this turn (cleared at the start of each of its owner's turns) --
    moved: bool = False
    ran: bool = False
    moved_fast: bool = False
    """Turbo-boosted or moved flat out."""
    has_shot: bool = False
    shot_target: str | None = None
    fired_types: set[str] = field(default_factory=set)
    charged: bool = False
    hammer: bool = False
    regrouped: bool = False
    failed_charge: bool = False
    arrived: bool = False
    disembarked: bool = False
    left_open_topped: bool = False
    embarked: bool = False
    charge_difficult: bool = False
    """Charged through difficult terrain without assault grenades: strikes at I1."""
    doomed: bool = False
    """Failed its regroup test when charged: destroyed at the end of the charge sub-phase."""
    packs: bool = True
    # -- until an effect expires --
    overwatch_used: bool = False
    falling_back: bool = False
    ground_until: int = 0
    counts_moved_until: int = 0
    effects: list[tuple[str, int, int]] = field(default_factory=list)
    """(name, value, expires at the start of this player-turn index)."""
    embarked_in: str | None = None
    in_reserve: bool = False
    infiltrating: bool = False
    destroyed: bool = False
    placing: dict[str, Cell] = field(default_factory=dict)
    """Model id -> where the player has put it so far in a placement not yet finished
    (shown on the board; the models do not stand there until the placement ends)."""
    # -- this phase --
    activated: bool = False
    at_phase_start: int = 0
    pinning_tested: bool = False

    def clear_turn(self) -> None:
        for name in TURN_FLAGS:
            setattr(self, name, False)
        self.shot_target = None
        self.fired_types = set()
        self.packs = True

    def effect(self, name: str) -> int:
        """The value of an active effect, 0 if none."""
        return max((v for n, v, _ in self.effects if n == name), default=0)

    def snapshot(self) -> list[Any]:
        return [
            self.id,
            list(self.models),
            [getattr(self, n) for n in TURN_FLAGS],
            self.shot_target,
            sorted(self.fired_types),
            self.packs,
            self.overwatch_used,
            self.falling_back,
            self.ground_until,
            self.counts_moved_until,
            [list(e) for e in self.effects],
            self.embarked_in,
            self.in_reserve,
            self.infiltrating,
            self.destroyed,
            self.activated,
            self.at_phase_start,
            self.pinning_tested,
            self.warlord,
        ]


@dataclass(slots=True)
class Moving:
    """A unit's move whose placement took a checkpoint (``ctx.boundary``) part way: what
    the move was given, and how far the placement got (the cells picked so far are the
    unit's ``placing``). A long placement, model by model with adjustments and fresh
    starts, runs to a hundred choices; undo then replays a few of them, not all."""

    unit: str
    budget: int
    fly: bool
    through: bool
    verb: str
    tests: str
    stage: str = ""
    """"" before a fresh attempt, or the placement stage it resumes in."""
    adjusted: list[str] = field(default_factory=list)
    """Models already adjusted in this round of adjustments."""
    rounds: int = 1
    """Rounds of adjustment begun in this attempt."""
    asked: int = 0
    """Decisions of the placement since its last checkpoint."""


@dataclass(slots=True)
class Side:
    """One player's army and score."""

    player: int
    name: str
    vp: int = 0
    trait: int = 0
    """Warlord trait (§4.7), 0 before it is rolled."""
    warlord: str = ""
    """Model id of the Warlord."""
    half: str = ""
    zone: frozenset[Cell] = frozenset()
    edges: tuple[str, ...] = ()
    """Own table edge(s) for falling back: "south", "north", "west", "east"."""
    first_blood: bool = False
    warlord_slain: bool = False
    """This side's Warlord was removed as a casualty (the enemy scores Slay the Warlord)."""

    def snapshot(self) -> list[Any]:
        return [
            self.vp,
            self.trait,
            self.warlord,
            self.half,
            list(self.edges),
            self.first_blood,
            self.warlord_slain,
        ]


@dataclass(slots=True)
class State:
    """The whole game (§3.6)."""

    board: Board
    sides: tuple[Side, Side]
    models: dict[str, Model] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    terrain: dict[Cell, str] = field(default_factory=dict)
    """Feature kind of every cell that is not open ground (§4.5)."""
    mission: int = 5
    deployment_map: str = "dawn_of_war"
    objectives: list[Cell] = field(default_factory=list)
    objective_values: list[int] = field(default_factory=list)
    relic: Cell | None = None
    game_turn: int = 0
    turn_index: int = 0
    active: int = 0
    first_player: int = 0
    first_deployer: int = 0
    phase: str = "Setup"
    step: str = ""
    batch: int = 0
    """Counts simultaneous-casualty batches (First Blood ties, §4.2)."""
    first_blood_batch: int = -1
    destroyed_order: list[str] = field(default_factory=list)
    reserves_allowed: bool = True
    moving: Moving | None = None
    """A unit's move at a checkpoint inside its placement (None between moves). Not in
    the snapshot: it only says where a checkpoint resumes."""
    jet_moved: list[str] = field(default_factory=list)
    """Units that made a jet pack assault move this charge sub-phase (not in the
    snapshot: it resumes the sub-phase between two charges)."""
    fought: list[str] = field(default_factory=list)
    """Units whose combat was fought this fight sub-phase (likewise, between combats)."""
    cache: dict[str, Any] = field(default_factory=dict, repr=False)
    """Derived data (terrain rectangles); cleared whenever the terrain changes."""
    TRANSIENT: ClassVar[tuple[str, ...]] = ("cache",)
    """Rebuilt on use, so checkpoints leave it out (engine.statecodec)."""

    @property
    def width(self) -> int:
        return self.board.width

    @property
    def height(self) -> int:
        return self.board.height

    def side(self, player: int) -> Side:
        return self.sides[player]

    def unit_of(self, model: Model) -> Unit:
        return self.units[model.unit]

    def members(self, unit: Unit) -> list[Model]:
        """Living models of the unit (on the table or not)."""
        return [self.models[m] for m in unit.models if not self.models[m].removed]

    def on_table(self, unit: Unit) -> list[Model]:
        return [m for m in self.members(unit) if m.cell is not None]

    def lead(self, unit: Unit) -> str | None:
        """A question about the whole unit names this model as its subject: the UI shows
        its card and puts the cursor on it (it showed the last model looked at)."""
        members = self.on_table(unit) or self.members(unit)
        return members[0].id if members else None

    def lead_cell(self, unit: Unit) -> Cell | None:
        """Where a list of units puts the cursor for ``unit`` (its first model on the
        table), so browsing the list shows each unit on the board; None off the table."""
        models = self.on_table(unit)
        return models[0].cell if models else None

    def units_of(self, player: int) -> list[Unit]:
        return [u for u in self.units.values() if u.player == player and not u.destroyed]

    def deployed(self, player: int | None = None) -> list[Unit]:
        """Units with models on the table."""
        return [
            u
            for u in self.units.values()
            if not u.destroyed
            and (player is None or u.player == player)
            and any(m.cell is not None for m in self.members(u))
        ]

    def table_models(self) -> list[Model]:
        return [m for m in self.models.values() if m.on_table]

    def feature(self, cell: Cell) -> t.Feature:
        return t.FEATURES[self.terrain.get(cell, "open")]

    def next_turn_end(self, player: int) -> int:
        """Index of the player turn at whose end "until the end of its next turn" expires."""
        return self.turn_index + (2 if self.active == player else 1)

    def next_turn_start(self, player: int) -> int:
        """Index of ``player``'s next player turn (effects "until the start of its next turn")."""
        return self.turn_index + (2 if self.active == player else 1)

    def _terrain_snapshot(self) -> list[list[Any]]:
        """The terrain as the snapshot lists it, sorted once until the terrain changes
        (every change clears the cache): the snapshot is hashed after every choice."""
        cached = self.cache.get("snapshot:terrain")
        if cached is None:
            cached = sorted([c.x, c.y, k] for c, k in self.terrain.items())
            self.cache["snapshot:terrain"] = cached
        assert isinstance(cached, list)
        return cached

    def snapshot(
        self, models: list[Any] | None = None, units: list[Any] | None = None
    ) -> dict[str, Any]:
        """The whole state as the checkup hashes it; ``models`` and ``units`` stand in
        for their own snapshots (`engine.rulesets.wh40k6.checkup` packs them apart)."""
        return {
            "turn": [self.game_turn, self.turn_index, self.active, self.first_player],
            "phase": [self.phase, self.step],
            "mission": [self.mission, self.deployment_map, self.first_deployer],
            "objectives": [list(c) for c in self.objectives],
            "values": list(self.objective_values),
            "relic": None if self.relic is None else list(self.relic),
            "terrain": self._terrain_snapshot(),
            "sides": [s.snapshot() for s in self.sides],
            "units": [u.snapshot() for u in self.units.values()] if units is None else units,
            "models": [m.snapshot() for m in self.models.values()] if models is None else models,
            "blood": [self.batch, self.first_blood_batch, list(self.destroyed_order)],
        }
