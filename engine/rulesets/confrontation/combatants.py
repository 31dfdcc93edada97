"""The runtime of one fight: its participants and their combat dice.

Digest confrontation §3.5 per-fight fields, §6.11.3.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rulesets.confrontation.state import Fighter
from engine.rulesets.confrontation.tables import HERO_EXTRA_DICE_MALUS


@dataclass(slots=True)
class Combatant:
    """A fighter in a fight, with its combat dice for this fight only."""

    fighter: Fighter
    dice: int
    """Combat dice: opponents + 1 (T7), plus hero extra dice (H1)."""
    attack: int = 0
    defence: int = 0
    extra: int = 0
    """Hero extra dice taken (0-2): -2 ATT and -2 DEF each for this fight (H1, A19)."""

    @property
    def alive(self) -> bool:
        return self.fighter.alive

    @property
    def player(self) -> int:
        return self.fighter.player

    @property
    def att(self) -> int:
        """Effective ATT, floored at 0 (A19)."""
        return max(0, self.fighter.profile.att - HERO_EXTRA_DICE_MALUS * self.extra)

    @property
    def def_(self) -> int:
        """Effective DEF, floored at 0 (A19)."""
        return max(0, self.fighter.profile.def_ - HERO_EXTRA_DICE_MALUS * self.extra)

    def lose_dice(self) -> None:
        """A killed fighter's remaining dice are lost (§6.11.6)."""
        self.attack = self.defence = 0


@dataclass(slots=True)
class Engagement:
    """One fight being resolved: the center against its leaves (§6.11.3-§6.11.6)."""

    center: Combatant
    leaves: list[Combatant]
    first: int = 0
    """Seat of the Initiative winner, whose side attacks first in each exchange."""
    exchanges: int = 0
    attacked: set[tuple[str, str]] = field(default_factory=set)
    """(attacker, target) pairs already used in the current exchange."""

    @property
    def everyone(self) -> list[Combatant]:
        return [self.center, *self.leaves]

    def side(self, player: int) -> list[Combatant]:
        """Living combatants of one seat."""
        return [c for c in self.everyone if c.player == player and c.alive]

    def opponents(self, c: Combatant) -> list[Combatant]:
        """Living opponents of ``c`` in this fight (the center fights every leaf)."""
        if c is self.center:
            return [leaf for leaf in self.leaves if leaf.alive]
        return [self.center] if self.center.alive else []

    def is_over(self) -> bool:
        """A side is wiped out, or nobody alive has an attack die left (§6.11.4, A24)."""
        if not self.center.alive or not any(leaf.alive for leaf in self.leaves):
            return True
        return not any(c.alive and c.attack > 0 for c in self.everyone)

    def combatant(self, fighter_id: str) -> Combatant:
        return next(c for c in self.everyone if c.fighter.id == fighter_id)
