"""Read-only views of a game, the same shape for every ruleset.

A UI draws only from these (and the Board), so one TUI serves all five rule systems and
never computes a rule itself. Rulesets build them from their own state.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Cell, Terrain


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
    notes: tuple[str, ...] = ()
    """Its type and special rules in plain words, each with what it allows."""


@dataclass(frozen=True, slots=True)
class SideView:
    """One player's side: name, resources and score."""

    player: int
    name: str
    resources: tuple[tuple[str, str], ...] = ()
    """("CP", "2"), ("broken", "no")..."""
    score: int = 0


@dataclass(frozen=True, slots=True)
class TerrainView:
    """One kind of terrain on the table as the rules name it, and the cells it covers.

    A `Board` knows five kinds of cell; rules know woods that give a 5+ cover save, razor
    wire that is dangerous, wrecks and craters the battle leaves behind, pieces placed
    while setting up. A ruleset lists them here so the UI draws and names what its rules
    use, not only the scenario's map.
    """

    name: str
    """In the digest's words: "woods", "razor wire", "vehicle wreck"."""
    glyph: str
    """One character for the battlefield, distinct from the other kinds of this view."""
    kind: Terrain
    """How it plays in the Board's terms (sets the cell's colour)."""
    detail: str
    """What it does: "difficult, 5+ cover"."""
    cells: frozenset[Cell]


@dataclass(frozen=True, slots=True)
class ObjectiveView:
    """An objective marker the game placed (scenario-map markers are on the Board)."""

    name: str
    """Short mark drawn on the battlefield: "O1"."""
    label: str
    """Plain words: "objective 1 (3 VP)"."""
    cell: Cell


@dataclass(frozen=True, slots=True)
class RangeView:
    """An area a model projects, shown on request: a Commander's command range."""

    name: str
    """ "Command range of Legion Captain (12\")"."""
    models: frozenset[str]
    """The models it concerns (the Commander and its detachment): selecting one shows it."""
    cells: frozenset[Cell]


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
    terrain: tuple[TerrainView, ...] = ()
    """Terrain as the rules see it, drawn over the scenario's map (empty: the map is all)."""
    objectives: tuple[ObjectiveView, ...] = ()
    """Objective markers placed during the game, besides the map's."""
    ranges: tuple[RangeView, ...] = ()
    """Areas shown when the player asks (command range), not always tinted."""
    round_word: str = "Round"
    """What the ruleset's spec calls ``round`` ("Turn" in Apocalypse): the header names it
    as the log does, never "Round 1" over a log of "Turn 1: ..."."""
    areas: tuple[tuple[str, frozenset[Cell]], ...] = ()
    """Named areas the rules score by, whether tinted now or not (wh40k6's deployment
    zones all game: Linebreaker scores a unit in the other side's at the end). The map
    tints `zones` only; the computer player reads these (a player knows the map)."""

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
