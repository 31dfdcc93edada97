"""Read-only views of a game, the same shape for every ruleset.

A UI draws only from these (and the Board), so one TUI serves all five rule systems and
never computes a rule itself. Rulesets build them from their own state.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Cell


@dataclass(frozen=True, slots=True)
class ModelView:
    """One model as a UI shows it."""

    id: str
    player: int
    """Owning seat (0 or 1)."""
    name: str
    glyph: str
    """One character for the battlefield (the UI adds the side's colour)."""
    cell: Cell | None
    """Where it stands; None before deployment or once removed."""
    wounds: int
    max_wounds: int
    states: tuple[str, ...] = ()
    """Tokens and conditions in the digest's words ("ready", "shaken", "flesh wound x2")."""
    profile: tuple[tuple[str, str], ...] = ()
    """Characteristics as (label, value): ("M", "6"), ("BS", "4+")."""
    weapons: tuple[str, ...] = ()
    """One line per weapon profile."""
    facing: int | None = None
    """Facing in eighths of a turn (0 = north, clockwise), for rulesets that have one."""
    removed: bool = False
    """Out of action / destroyed."""


@dataclass(frozen=True, slots=True)
class SideView:
    """One player's side: name, resources and score."""

    player: int
    name: str
    resources: tuple[tuple[str, str], ...] = ()
    """("CP", "2"), ("broken", "no")..."""
    score: int = 0


@dataclass(frozen=True, slots=True)
class GameView:
    """Everything a UI shows about the current moment of a game."""

    round: int
    phase: str
    step: str
    sides: tuple[SideView, SideView]
    models: tuple[ModelView, ...]
    zones: tuple[tuple[str, frozenset[Cell]], ...] = ()
    """Named areas to tint (deployment zones), if relevant now."""

    def model(self, model_id: str) -> ModelView | None:
        """The model with this id, or None."""
        for m in self.models:
            if m.id == model_id:
                return m
        return None

    def model_at(self, cell: Cell) -> ModelView | None:
        """The model standing on ``cell``, or None."""
        for m in self.models:
            if m.cell == cell and not m.removed:
                return m
        return None
