"""What the TUI draws: models, sides and zones of a wh40k6 game (engine.view shapes).

Multi-cell models (walkers, tanks) appear on every cell of their footprint
(`engine.footprints.footprint_views`). Zones tint the deployment zones while setting up,
and always show the objectives and any terrain not drawn on the scenario's map
(auto-placed pieces, wrecks, craters), so the generic TUI shows it all.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.footprints import footprint_views
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.morale import is_gone_to_ground, locked_units
from engine.rulesets.wh40k6.profiles import Profile
from engine.rulesets.wh40k6.relic import relic_cell
from engine.rulesets.wh40k6.state import Model, State
from engine.rulesets.wh40k6.vehicles import is_snap_only, is_stunned
from engine.view import GameView, ModelView, SideView


def model_states(state: State, m: Model, locked: frozenset[str]) -> tuple[str, ...]:
    """Conditions in the digest's words, for the model panel."""
    unit = state.unit_of(m)
    out = [unit.name]
    flags = [
        ("Warlord", m.id == state.side(m.player).warlord),
        ("falling back", unit.falling_back),
        ("gone to ground", is_gone_to_ground(state, unit)),
        ("locked in combat", m.on_table and unit.id in locked),
        ("moved", m.moved),
        ("ran", unit.ran),
        ("charged", unit.charged),
        ("in reserve", unit.in_reserve),
        ("embarked", unit.embarked_in is not None),
        ("carries the Relic", m.carries_relic),
        ("Iron Ward 5++", unit.effect("iron_ward") > 0),
        ("Dread Hex -2 Ld", unit.effect("dread_hex") > 0),
    ]
    if m.is_vehicle:
        flags += [
            (m.speed, True),
            ("Crew Shaken", is_snap_only(state, m) and not is_stunned(state, m)),
            ("Crew Stunned", is_stunned(state, m)),
            ("Immobilised", m.immobilised),
            ("wrecked", m.wrecked),
        ]
    out += [name for name, on in flags if on]
    return tuple(out)


def _weapon_lines(state: State, p: Profile) -> tuple[str, ...]:
    """One line per weapon of a profile (profiles never change, so kept in the cache)."""
    lines = state.cache.setdefault("weapon-lines", {})
    found = lines.get(p.id)
    if found is None:
        found = tuple(
            mount.weapon.describe()
            + ("" if mount.mount == "hull" or not p.is_vehicle else f" [{mount.mount}]")
            for mount in p.weapons
        )
        lines[p.id] = found
    assert isinstance(found, tuple)
    return found


def model_view(state: State, m: Model, locked: frozenset[str]) -> tuple[ModelView, ...]:
    p = m.profile
    weapons = tuple(
        line + (" (destroyed)" if n in m.destroyed_weapons else "")
        for n, line in enumerate(_weapon_lines(state, p))
    )
    wounds, most = (max(0, m.hp), p.hp) if p.is_vehicle else (max(0, m.wounds), p.w)
    view = ModelView(
        m.id,
        m.player,
        f"{m.id} {p.name}",
        p.glyph,
        m.cell,
        wounds,
        most,
        model_states(state, m, locked),
        p.lines(),
        weapons,
        m.facing if p.is_vehicle else None,
        m.removed,
    )
    if m.cell is not None and p.size > 1 and not m.removed:
        return footprint_views(view, m.rect)
    return (view,)


def game_view(state: State, base_terrain: dict[Cell, str]) -> GameView:
    sides = tuple(
        SideView(
            s.player,
            s.name,
            (
                ("VP", str(s.vp)),
                ("Warlord trait", t.WARLORD_TRAITS[s.trait][0] if s.trait else "-"),
                ("Units", str(len(state.deployed(s.player)))),
                (
                    "First turn",
                    "yes" if state.game_turn and state.first_player == s.player else "-",
                ),
            ),
            s.vp,
        )
        for s in state.sides
    )
    locked = locked_units(state)
    models = tuple(v for m in state.models.values() for v in model_view(state, m, locked))
    zones: list[tuple[str, frozenset[Cell]]] = []
    if state.phase in ("Setup", "Deployment"):
        zones += [(f"{s.name} deployment zone", s.zone) for s in state.sides if s.zone]
    for n, cell in enumerate(state.objectives):
        zones.append((f"Objective {n + 1} ({state.objective_values[n]} VP)", frozenset({cell})))
    relic = relic_cell(state)
    if relic is not None:
        zones.append(("The Relic", frozenset(relic.cells())))
    added: dict[str, set[Cell]] = {}
    for cell, kind in state.terrain.items():
        if base_terrain.get(cell) != kind:
            added.setdefault(t.FEATURES[kind].name, set()).add(cell)
    zones += [(name.capitalize(), frozenset(cells)) for name, cells in sorted(added.items())]
    return GameView(
        state.game_turn,
        state.phase,
        state.step,
        (sides[0], sides[1]),
        models,
        tuple(zones),
    )
