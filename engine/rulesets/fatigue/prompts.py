"""Small helpers to ask Decisions in the shape Roads of the Apocalypse needs.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.wording import counted, says


def pick(
    player: int,
    kind: DecisionKind,
    prompt: str,
    options: Sequence[Option],
    *,
    subject: str | None = None,
) -> Procedure[str]:
    """Ask one Decision and return the key picked."""
    choice = yield Decision(player, kind, prompt, tuple(options), subject=subject)
    return choice.key


def unit_option(
    unit: Unit, label: str | None = None, detail: str = "", odds: Odds | None = None
) -> Option:
    """An option naming a unit; the UI highlights its first model in play."""
    alive = unit.alive()
    lead = alive[0] if alive else None
    return Option(
        f"u{unit.id}",
        label or unit.name,
        cell=None if lead is None else lead.cell,
        model=None if lead is None else lead.id,
        detail=detail,
        odds=odds,
    )


def lead_of(unit: Unit) -> str | None:
    """The model a Decision about ``unit`` is about (its first in play): the UI selects it,
    so the card and cursor follow the unit being activated, not the last one looked at."""
    alive = unit.alive()
    return alive[0].id if alive else None


def model_option(model: Model, label: str | None = None) -> Option:
    return Option(model.id, label or model.name, cell=model.cell, model=model.id)


def cell_option(cell: Cell, label: str = "") -> Option:
    return Option(f"{cell.x},{cell.y}", label or f"cell {cell}", cell=cell)


def parse_cell(key: str) -> Cell:
    x, y = key.split(",")
    return Cell(int(x), int(y))


def unit_id(key: str) -> int:
    """The unit id of a `unit_option` key."""
    return int(key[1:])


def pick_target_unit(
    state: FState,
    ctx: RuleContext,
    unit: Unit,
    targets: Sequence[Unit],
    verb: str,
    odds: Callable[[Unit], Odds] | None = None,
) -> Procedure[Unit]:
    """The enemy unit ``unit`` ``verb``s (attacks, shoots): asked, or, where only one may
    be, taken and said, with its odds, so the player's next key means what it shows."""
    if len(targets) == 1:
        target = targets[0]
        if odds is None:
            note = f"{says(target.name, 'is')} the only enemy {unit.name} can {verb}."
        else:
            odds_text = odds(target).describe()
            note = f"{says(target.name, 'is')} the only target of {unit.name} [{odds_text}]."
        ctx.answered(note, unit.player)
        return target
    key = yield from pick(
        unit.player,
        DecisionKind.PICK_TARGET,
        f"{says(unit.name, verb + 's')}: choose the target unit",
        [
            unit_option(
                t,
                f"{t.name} ({counted(len(t.alive()), 'model')})",
                odds=None if odds is None else odds(t),
            )
            for t in targets
        ],
        subject=lead_of(unit),
    )
    return state.units[unit_id(key)]
