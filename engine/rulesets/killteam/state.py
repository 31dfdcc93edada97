"""Kill Team game state: models, teams and the round (digest killteam §3.4-§3.6).

Mutable, and only inside the engine: UIs read `GameView`s built by the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.board import Board, Cell
from engine.rulesets.killteam.profiles import Datasheet, Weapon


@dataclass(slots=True)
class Model:
    """One model on (or off) the table, with its tokens (§3.4)."""

    id: str
    """"A1".."A10" for seat 0, "B1".. for seat 1."""
    player: int
    sheet: Datasheet
    weapons: tuple[Weapon, ...]
    specialism: str | None
    wounds: int
    cell: Cell | None = None
    flesh_wounds: int = 0
    out_of_action: bool = False
    shaken: bool = False
    # -- per round (cleared at the start of each round, §6.2) --
    move_action: str = ""
    """"normal", "advance", "ready", "charge", "fall_back", "stay", "retreat" or ""."""
    moved: bool = False
    """Changed position this round (§10 A11): Heavy penalty, Retreat eligibility."""
    ready: bool = False
    advanced: bool = False
    fell_back: bool = False
    retreated: bool = False
    charge_declared: bool = False
    charge_successful: bool = False
    charge_failed: bool = False
    """Display only (not in the snapshot, so saves keep their hashes): the charge roll
    fell short. Until the roll, a declared charge is neither failed nor successful."""
    charge_targets: set[str] = field(default_factory=set)
    charged_by: set[str] = field(default_factory=set)
    """Models whose successful charge declared this model a target (§10 A17)."""
    casts_used: int = 0
    denies_used: int = 0
    injected: bool = False
    """Medic stratagem: +1 Advance, +1 charge, +1 A this round."""
    warded: bool = False
    """Ward power: 5++ this round."""
    fury: bool = False
    """Fury power: +1 S, +1 A this round."""
    # -- per phase --
    activated: bool = False
    """Has taken its Movement-phase action (or retreated)."""
    engaged_at_start: bool = False
    """Within 1" of an enemy when the Movement phase began (§10 A4)."""
    moved_this_phase: bool = False
    has_shot: bool = False
    shooting: bool = False
    """Display only (not in the snapshot, so saves keep their hashes): its shooting is
    under way (weapons, Comms, stratagems, dice); the card says "shooting", not yet "has
    shot" (the engine marks it as having shot as soon as it starts, §6.5.3)."""
    has_fought: bool = False
    comms_bonus: bool = False

    @property
    def name(self) -> str:
        spec = f" ({self.specialism})" if self.specialism else ""
        return f"{self.id} {self.sheet.name}{spec}"

    @property
    def on_table(self) -> bool:
        """Alive and deployed."""
        return not self.out_of_action and self.cell is not None

    @property
    def can_act(self) -> bool:
        """On the table and not shaken (§10 A40: shaken models take no actions)."""
        return self.on_table and not self.shaken

    @property
    def is_fly(self) -> bool:
        return "FLY" in self.sheet.keywords

    @property
    def invuln(self) -> int | None:
        """Best invulnerable save, Ward included."""
        values = [v for v in (self.sheet.invuln, 5 if self.warded else None) if v]
        return min(values) if values else None

    def clear_round(self) -> None:
        """Forget everything that lasts only a round (§6.2 step 1)."""
        self.move_action = ""
        self.moved = self.ready = self.advanced = self.fell_back = False
        self.retreated = self.charge_declared = self.charge_successful = False
        self.charge_failed = False
        self.charge_targets = set()
        self.charged_by = set()
        self.casts_used = self.denies_used = 0
        self.injected = self.warded = self.fury = False

    def clear_phase(self) -> None:
        """Forget everything that lasts only a phase."""
        self.activated = self.engaged_at_start = self.moved_this_phase = False
        self.has_shot = self.has_fought = self.comms_bonus = False

    def states(self) -> tuple[str, ...]:
        """Tokens in the digest's words, for the model panel."""
        flags = [
            ("out of action", self.out_of_action),
            ("shaken", self.shaken),
            ("ready", self.ready),
            ("advanced", self.advanced),
            ("fell back", self.fell_back),
            ("retreated", self.retreated),
            ("charged", self.charge_successful),
            ("failed charge", self.charge_failed),
            (
                "charge declared",
                self.charge_declared and not self.charge_successful and not self.charge_failed,
            ),
            ("charged by enemy", bool(self.charged_by)),
            ("injected", self.injected),
            ("warded 5++", self.warded),
            ("fury", self.fury),
            ("shooting", self.shooting),
            ("has shot", self.has_shot and not self.shooting),
            ("has fought", self.has_fought),
        ]
        out = [name for name, on in flags if on]
        if self.flesh_wounds:
            out.insert(0, f"flesh wound x{self.flesh_wounds}")
        return tuple(out)

    def snapshot(self) -> list[Any]:
        return [
            self.id,
            None if self.cell is None else list(self.cell),
            self.wounds,
            self.flesh_wounds,
            self.out_of_action,
            self.shaken,
            self.move_action,
            self.moved,
            self.ready,
            self.advanced,
            self.fell_back,
            self.retreated,
            self.charge_declared,
            self.charge_successful,
            sorted(self.charge_targets),
            sorted(self.charged_by),
            self.casts_used,
            self.denies_used,
            self.injected,
            self.warded,
            self.fury,
            self.activated,
            self.engaged_at_start,
            self.has_shot,
            self.has_fought,
            self.comms_bonus,
        ]


@dataclass(slots=True)
class Team:
    """One player's kill team and resources (§3.5)."""

    player: int
    name: str
    faction: str
    cp: int = 0
    points: int = 0
    start_count: int = 0
    broken: bool = False
    vp: int = 0
    zone: str | None = None
    grenade_used: bool = False
    """A grenade was thrown by this team this phase (§6.5.10)."""
    psyker_cast: bool = False
    """A psyker of this team attempted a power this round (§6.4)."""
    stratagems_used: set[str] = field(default_factory=set)
    """Stratagems used this phase (§10 A31)."""
    veteran_used: bool = False
    comms_passive_used: bool = False
    comms_morale: bool = False
    """Comms stratagem active this Morale phase."""

    def clear_phase(self) -> None:
        self.grenade_used = False
        self.stratagems_used = set()
        self.comms_passive_used = False
        self.comms_morale = False

    def snapshot(self) -> list[Any]:
        return [
            self.cp,
            self.points,
            self.start_count,
            self.broken,
            self.vp,
            self.zone,
            self.grenade_used,
            self.psyker_cast,
            sorted(self.stratagems_used),
            self.veteran_used,
            self.comms_passive_used,
            self.comms_morale,
        ]


@dataclass(slots=True)
class KTState:
    """The whole game (§3.6)."""

    board: Board
    teams: tuple[Team, Team]
    models: dict[str, Model]
    zones: dict[str, frozenset[Cell]] = field(default_factory=dict)
    """Deployment zones by name."""
    rounds: int = 4
    round: int = 0
    phase: str = "Setup"
    step: str = ""
    after_charge: tuple[str, str] | None = None
    """Display only, not in the snapshot (saves keep their hashes): (the step a finished
    charge left behind, the step to show instead) until the step changes again."""
    initiative: int = 0
    """Seat of this round's initiative player."""
    first_deployer: int = 0

    def team(self, player: int) -> Team:
        return self.teams[player]

    def shown_step(self) -> str:
        """The step for the phase panel: a finished charge's sub-step does not linger."""
        if self.after_charge is not None and self.after_charge[0] == self.step:
            return self.after_charge[1]
        return self.step

    def models_of(self, player: int) -> list[Model]:
        """The player's models in roster order, removed ones included."""
        return [m for m in self.models.values() if m.player == player]

    def on_table(self, player: int | None = None) -> list[Model]:
        """Models alive and deployed, optionally of one player (`Model.on_table` written
        out: asked for every sighting, engagement and move, twenty thousand times a game)."""
        if player is None:
            return [m for m in self.models.values() if not m.out_of_action and m.cell is not None]
        return [
            m
            for m in self.models.values()
            if m.player == player and not m.out_of_action and m.cell is not None
        ]

    def model_at(self, cell: Cell) -> Model | None:
        for m in self.models.values():
            if m.cell == cell and not m.out_of_action:
                return m
        return None

    def occupied(self) -> dict[Cell, Model]:
        """Cell -> model for every model on the table."""
        return {m.cell: m for m in self.models.values() if m.on_table and m.cell is not None}

    def clear_phase(self) -> None:
        for m in self.models.values():
            m.clear_phase()
        for t in self.teams:
            t.clear_phase()

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "initiative": self.initiative,
            "first_deployer": self.first_deployer,
            "teams": [t.snapshot() for t in self.teams],
            "models": [m.snapshot() for m in self.models.values()],
        }
