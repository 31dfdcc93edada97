"""Threat and sight: where a model can go, and which enemies can see or reach it.

A player deciding where to stand asks two things the rules answer and the board does not
show: "how far can this model get (moving, charging)?" and "who can shoot or charge it
where it stands, and is it in cover from them?". Each ruleset answers with a `Threat`
built from its own move, charge and sight functions (`Ruleset.threat`), so the TUI draws
the answer and computes no rule of its own.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Cell


@dataclass(frozen=True, slots=True)
class Menace:
    """One enemy model that can see the model, or reach it in melee."""

    model: str
    """The enemy model's id."""
    cells: frozenset[Cell]
    """Where it stands (every cell of its footprint)."""
    sees: bool
    """It has line of sight to the model (a shot may be possible)."""
    reaches: bool
    """It can get into base contact now: a charge or a move in reach."""
    cover: str = ""
    """What shelters the model from this enemy, in the rules' words ("obscured", "4+
    cover"); empty when it stands in the open to it (or the rules have no cover)."""


@dataclass(frozen=True, slots=True)
class Threat:
    """What threatens one model, and where it can go, right now."""

    model: str
    move: frozenset[Cell]
    """Cells (the anchor of a footprint) its ordinary move reaches."""
    charge: frozenset[Cell]
    """Cells a charge (or attack move) can end on, beyond ``move``; empty where the
    rules have no charge."""
    menaces: tuple[Menace, ...]
    charge_word: str = "charge"
    """What the rules call the move into contact ("charge", "attack"); empty for none."""
    notes: tuple[str, ...] = ()
    """What the query assumed, in plain words ("move 6\" (Normal Move)")."""

    @property
    def menace_cells(self) -> frozenset[Cell]:
        return frozenset().union(*(m.cells for m in self.menaces))
