"""Measuring between units: distance, contact, command range, sight, obscured.

Digest apocalypse §11.2 (unit distance = nearest cells, 1-2-1 diagonals; base contact
= D 1), §6.3.1 and §6.7 (command range 12" to the Commander or its transport), §6.9.4
and §11.4 (visibility and obscuring).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.board import Cell
from engine.footprints import Grid, Rect, halo, rect_distance
from engine.rulesets.apocalypse.state import BATTLEFIELD, EMBARKED, UNDEPLOYED, ApocState, Unit

COMMAND_RANGE = 12
DESERTER_NOTE = (
    'More than 12" from its Commander in the Orders phase, a unit gets a Deserter marker; '
    "still marked in the Damage phase, it is destroyed (§6.3.1, §6.12.2)."
)


def distance(a: Unit, b: Unit) -> int:
    """D(U, V): inches between the nearest cells of two units on the battlefield (§11.2)."""
    return rect_distance(a.rect, b.rect)


def command_rect(state: ApocState, unit: Unit) -> Rect | None:
    """Where the unit's command range is measured from (§6.3.1 step 1, §6.8.4).

    The Commander itself, or the transport carrying it; None when the Commander is in
    Reserve (also inside a transport in Reserve), destroyed or not yet deployed.
    """
    commander = state.commander(state.detachment_of(unit))
    if commander is None:
        return None
    if commander.location == BATTLEFIELD:
        return commander.rect
    if commander.location == EMBARKED and commander.transport is not None:
        carrier = state.units[commander.transport]
        if carrier.location == BATTLEFIELD:
            return carrier.rect
    return None


def in_command(state: ApocState, unit: Unit) -> bool:
    """Within 12" of its Commander (or the Commander's transport) (§6.3.1, §6.7)."""
    origin = command_rect(state, unit)
    return origin is not None and rect_distance(unit.rect, origin) <= COMMAND_RANGE


def command_warning(state: ApocState, unit: Unit, anchor: Cell) -> str:
    """What ending at ``anchor`` does to command range (§6.3.1), or "" if nothing.

    A unit ending more than 12" from its Commander gets a Deserter marker in the Orders
    phase and is destroyed in the Damage phase (§6.12.2 step 1) unless back in range;
    a Commander (or its transport) leaving units of its detachment behind says how many.
    """
    return command_warnings(state, unit)(anchor)


def command_warnings(state: ApocState, unit: Unit) -> Callable[[Cell], str]:
    """`command_warning` for every anchor of one unit's options: the Commander, its
    range's origin and the units it may leave behind are looked up once, not per cell."""
    size = unit.sheet.footprint
    origin = command_rect(state, unit)
    commander = state.commander(state.detachment_of(unit))
    moves_origin = unit.is_commander or (
        commander is not None and commander.transport == unit.uid and origin is not None
    )
    if moves_origin:
        others = [
            u.rect
            for u in state.units.values()
            if u.detachment == unit.detachment
            and u is not unit
            and u is not commander
            and u.on_battlefield
        ]

        def leaving(anchor: Cell) -> str:
            left = sum(1 for rect in others if _gap(anchor, size, rect) > COMMAND_RANGE)
            if not left:
                return ""
            return f"leaves {left} unit{'s' * (left > 1)} out of command range"

        return leaving
    if origin is None:
        det = state.detachment_of(unit)
        waiting = [state.units[u] for u in det.unit_ids if state.units[u].is_commander]
        for holder in waiting:
            where = state.units[holder.transport] if holder.transport is not None else holder
            if where.location == UNDEPLOYED:
                return lambda anchor: ""  # the Commander is still to be deployed
        return lambda anchor: "out of command range: the Commander is not on the battlefield"

    def straying(anchor: Cell) -> str:
        gap = _gap(anchor, size, origin)
        return f'out of command range: {gap}" from the Commander' if gap > COMMAND_RANGE else ""

    return straying


def _gap(anchor: Cell, size: int, rect: Rect) -> int:
    """`rect_distance` from the ``size`` footprint at ``anchor`` to ``rect``, written out:
    a move's or a set-up's options warn cell by cell, hundreds of them, and building each
    footprint (`square`) cost more than measuring it."""
    x0, y0 = anchor
    bx0, by0, bx1, by1 = rect
    gx, other = bx0 - x0 - size + 1, x0 - bx1
    if other > gx:
        gx = other
    if gx < 0:
        gx = 0
    gy, other = by0 - y0 - size + 1, y0 - by1
    if other > gy:
        gy = other
    if gy < 0:
        gy = 0
    return gx + gy // 2 if gx >= gy else gy + gx // 2


def enemies(state: ApocState, unit: Unit) -> list[Unit]:
    """Enemy units on the battlefield."""
    return [u for u in state.units.values() if u.location == BATTLEFIELD and u.owner != unit.owner]


def contacts(state: ApocState, unit: Unit) -> list[Unit]:
    """Enemy units in base contact with ``unit`` (§11.2: D = 1), nearest cells first."""
    return [u for u in state.around(unit.rect) if u.owner != unit.owner]


def is_engaged(state: ApocState, unit: Unit) -> bool:
    """In base contact with at least one enemy unit (§11.2)."""
    return bool(contacts(state, unit))


def friends_in_contact(state: ApocState, target: Unit, shooter: Unit) -> bool:
    """The target touches a unit of the shooter's side other than the shooter (§6.9.2 3)."""
    return any(u.owner == shooter.owner and u is not shooter for u in state.around(target.rect))


def enemy_halo(state: ApocState, player: int, radius: int) -> Grid:
    """Cells within ``radius`` of any enemy unit of ``player`` (placement limits)."""
    rects = [u.rect for u in state.on_battlefield(1 - player)]
    return halo(state.cols, state.rows, rects, radius)


def visible(state: ApocState, shooter: Unit, target: Unit) -> bool:
    """The target is visible to the shooter (§11.4 steps 1-3; units never block)."""
    return state.terrain.visible(shooter.rect, target.rect)


def is_light_character(unit: Unit) -> bool:
    """LIGHT category and the CHARACTER keyword (§8.1)."""
    return unit.sheet.category == "LIGHT" and "CHARACTER" in unit.sheet.keywords


def obscured(state: ApocState, shooter: Unit, target: Unit) -> bool:
    """One -1 to hit for any of the reasons of §6.9.4 (never stacking, §10 A22).

    LIGHT CHARACTER not the closest visible enemy (ties count as closest, A23); not
    SUPER-HEAVY and inside or behind terrain (the SUPER-HEAVY exemption is FILL-IN);
    Smoke Screen against the shooter's detachment this activation.
    """
    if state.effects.smoke.get(target.uid) == shooter.detachment:
        return True
    if is_light_character(target):
        d = distance(shooter, target)
        if any(
            distance(shooter, e) < d and visible(state, shooter, e)
            for e in enemies(state, shooter)
            if e is not target
        ):
            return True
    if target.sheet.is_super_heavy:
        return False
    terrain = state.terrain
    return terrain.inside_terrain(target.rect) or terrain.behind_terrain(shooter.rect, target.rect)


def blocked_grid(state: ApocState, unit: Unit) -> Grid:
    """Cells the unit may not cover: impassable ground, and RUINS unless INFANTRY (§4.2)."""
    terrain = state.terrain
    if "INFANTRY" in unit.sheet.keywords:
        return terrain.impassable
    return terrain.impassable_or_ruins
