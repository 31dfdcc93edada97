"""The GameView of a Roads of the Apocalypse game (what the generic TUI draws).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.fatigue.deployment import Setup
from engine.rulesets.fatigue.psychology import rout_threshold
from engine.rulesets.fatigue.state import FState, Model, Side, Unit
from engine.view import GameView, ModelView, SideView
from engine.wording import counted


def game_view(state: FState, setup: Setup) -> GameView:
    """Sides with FP and rout counts, every model with its unit's states (§3.8)."""
    sides = tuple(
        SideView(
            s.player,
            s.name,
            (
                ("Force", _force(s)),
                ("FP", str(s.fp)),
                ("Passed", "yes" if s.passed else "no"),
                (
                    "Out of action",
                    f"{state.out_of_action(s.player)} (rout at {rout_threshold(s.start_models)})",
                ),
                ("Initiative", "yes" if state.round and state.initiative == s.player else "-"),
                ("Edge", s.edge or "-"),
            ),
            s.vp,
        )
        for s in state.sides
    )
    models = tuple(_model_view(state, state.units[m.unit], m) for m in state.models.values())
    zones: tuple[tuple[str, frozenset[Cell]], ...] = ()
    if state.phase == "Deployment":
        names = list(setup.zones) + list(setup.forward or ())
        zones = tuple((n, state.zones[n]) for n in names if n in state.zones)
    return GameView(state.round, state.phase, state.step, (sides[0], sides[1]), models, zones)


def _force(side: Side) -> str:
    """The status's force: its name, or (named as its side, which the panel already
    heads) its size; before the force is chosen, that it is not yet ("-" read as none)."""
    if not side.force:
        return "not chosen yet"
    if side.force == side.name:
        return counted(side.start_models, "model")
    return side.force


def _shown_cell(state: FState, model: Model) -> Cell | None:
    """Where the board draws the model: during a move being placed, the moved models stand
    where they go, and a follower whose cell one of them took is in motion (on no cell)
    until placed, so no cell shows two models."""
    moving = state.moving
    if not moving:
        return model.cell
    if model.id in moving:
        return moving[model.id]
    return None if model.cell in moving.values() else model.cell


def _model_view(state: FState, unit: Unit, model: Model) -> ModelView:
    roles = []
    if model.profile.leader:
        roles.append("Leader")
    if model.profile.commander:
        roles.append("commander")
    weapons = [model.profile.melee.describe()]
    ranged = model.profile.ranged
    if ranged is not None:
        state_text = ""
        if model.weapon_destroyed:
            state_text = " [destroyed]"
        elif model.jammed_until >= state.round > 0:
            state_text = f" [jammed to round {model.jammed_until}]"
        weapons.append(ranged.describe() + state_text)
    name = model.profile.name  # a lone hero's unit bears its name: not said twice
    return ModelView(
        model.id,
        model.player,
        name if unit.name == name else f"{name} ({unit.name})",
        model.profile.glyph,
        _shown_cell(state, model),
        model.wounds_left,
        model.profile.resilience,
        tuple(roles) + unit.states(state.round) + unit.spec.keywords(),
        model.profile.lines(),
        tuple(weapons),
        facing=unit.facing,
        removed=model.out_of_action,
    )
