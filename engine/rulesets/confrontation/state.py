"""Confrontation game state: fighters, reference cards, sides, the round.

Digest confrontation §3.3-§3.6.

Mutable, and only inside the engine: UIs read the `GameView` built by the ruleset. The
activation decks are `SecretStack`s, so only their owners' Decisions ever see the order.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.board import Board, Cell
from engine.hidden import SecretStack
from engine.rulesets.confrontation.profiles import Profile
from engine.rulesets.confrontation.tables import Wound


class GameOver(Exception):  # noqa: N818  (a signal, not an error)
    """Raised the moment a player has no fighter left (§4.4, §10 A34): ends the game at once."""

    def __init__(self, loser: int) -> None:
        super().__init__(f"player {loser + 1} has no fighter left")
        self.loser = loser


@dataclass(slots=True)
class Fighter:
    """One model and its runtime state (§3.5)."""

    id: str
    player: int
    card: str
    profile: Profile
    cell: Cell | None = None
    facing: int = 0
    """Eighths of a turn, 0 = north, clockwise (engine.facing)."""
    wound: Wound = Wound.HEALTHY
    # -- per round, cleared in the Time-out phase --
    activated: bool = False
    charged: bool = False
    ran: bool = False
    shots: int = 0
    disengage_failed: bool = False
    """All combat dice go to defence this round, pursuit fights included (§6.7 step 3)."""
    free_at_reveal: bool = False
    """Free when its card was revealed: may run (§6.9 step 1)."""
    # -- per phase --
    engaged: bool = False
    """Contacted by an enemy charge this Activation phase: may not disengage (§10 A3)."""
    fought: bool = False
    """Took part in a resolved fight this Combat phase."""

    @property
    def alive(self) -> bool:
        return self.wound is not Wound.KILLED

    @property
    def on_table(self) -> bool:
        return self.alive and self.cell is not None

    @property
    def name(self) -> str:
        return f"{self.profile.name} {self.id}"

    def clear_round(self) -> None:
        """Time-out phase: forget what lasts a round (§5, TIMEOUT)."""
        self.activated = self.charged = self.ran = False
        self.shots = 0
        self.disengage_failed = self.free_at_reveal = False
        self.engaged = self.fought = False

    def states(self) -> tuple[str, ...]:
        """Wound level and round flags, in the digest's words."""
        out = []
        if self.wound is not Wound.HEALTHY:
            out.append(f"{self.wound.name.lower()} wound" if self.alive else "killed")
        flags = (
            ("activated", self.activated),
            ("charged", self.charged),
            ("ran", self.ran),
            ("shot", self.shots > 0),
            ("engaged by a charge", self.engaged),
            ("failed disengagement: all defence", self.disengage_failed),
            ("fought", self.fought),
        )
        out.extend(text for text, on in flags if on)
        return tuple(out)

    def snapshot(self) -> list[Any]:
        return [
            self.id,
            None if self.cell is None else list(self.cell),
            self.facing,
            int(self.wound),
            self.activated,
            self.charged,
            self.ran,
            self.shots,
            self.disengage_failed,
            self.free_at_reveal,
            self.engaged,
            self.fought,
        ]


@dataclass(slots=True)
class Card:
    """A reference card: 1-3 identical fighters activated together (§3.3)."""

    id: str
    owner: int
    profile: Profile
    fighters: tuple[str, ...]
    in_play: bool = True
    """False once removed at a Strategic phase because all its fighters are dead."""

    @property
    def label(self) -> str:
        count = len(self.fighters)
        return f"{self.id}: {self.profile.name}" + (f" x{count}" if count > 1 else "")


@dataclass(slots=True)
class Side:
    """One player's army and activation deck (§3.6)."""

    player: int
    name: str
    cards: list[str]
    deck: SecretStack
    zone: str = ""


@dataclass(frozen=True, slots=True)
class Fight:
    """One fighter (the center) against one or more enemies in contact (§6.11.1)."""

    center: str
    leaves: tuple[str, ...]

    @property
    def members(self) -> tuple[str, ...]:
        return (self.center, *self.leaves)


@dataclass(slots=True)
class CState:
    """The whole game (§3.6)."""

    board: Board
    sides: tuple[Side, Side]
    fighters: dict[str, Fighter]
    cards: dict[str, Card]
    zones: dict[str, frozenset[Cell]] = field(default_factory=dict)
    rounds: int = 10
    round: int = 0
    phase: str = "Setup"
    step: str = ""
    tactical_winner: int | None = None
    tactical_open: bool = False
    """Display only, not in the snapshot (saves keep their hashes): a Tactical roll is
    under way, so the last one's winner is not shown as this one's."""
    current_player: int | None = None
    fights: list[Fight] = field(default_factory=list)
    """Unresolved fights of the Combat phase."""

    def side(self, player: int) -> Side:
        return self.sides[player]

    def fighters_of(self, player: int) -> list[Fighter]:
        """The player's fighters in army order, dead ones included."""
        return [f for f in self.fighters.values() if f.player == player]

    def on_table(self, player: int | None = None) -> list[Fighter]:
        """Living deployed fighters, optionally of one player."""
        return [
            f
            for f in self.fighters.values()
            if f.on_table and (player is None or f.player == player)
        ]

    def occupied(self) -> dict[Cell, Fighter]:
        """Cell -> fighter for every fighter on the table (`Fighter.on_table` written out:
        asked at every contact and move test, a dozen thousand times a game)."""
        killed = Wound.KILLED
        return {
            f.cell: f
            for f in self.fighters.values()
            if f.cell is not None and f.wound is not killed
        }

    def card_fighters(self, card_id: str) -> list[Fighter]:
        """The living fighters of a card."""
        return [self.fighters[i] for i in self.cards[card_id].fighters if self.fighters[i].alive]

    def lost_ap(self, player: int) -> int:
        """Effective AP of the player's dead fighters: the opponent's score (§12.3)."""
        return sum(f.profile.ap for f in self.fighters_of(player) if not f.alive)

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "tactical_winner": self.tactical_winner,
            "current_player": self.current_player,
            "decks": [s.deck.snapshot() for s in self.sides],
            "zones": [s.zone for s in self.sides],
            "cards": [[c.id, c.in_play] for c in self.cards.values()],
            "fighters": [f.snapshot() for f in self.fighters.values()],
            "fights": [[f.center, list(f.leaves)] for f in self.fights],
        }
