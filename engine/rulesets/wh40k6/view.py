"""What the TUI draws: models, sides and zones of a wh40k6 game (engine.view shapes).

Multi-cell models (walkers, tanks) appear on every cell of their footprint
(`engine.footprints.footprint_views`). Zones tint the deployment zones while setting up;
every terrain feature the rules know (the map's, pieces placed while setting up, wrecks,
craters) is listed by name with its own glyph, and objective markers by number, so the
generic TUI draws and names what the rules use.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell, Terrain
from engine.footprints import footprint_views, square
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.morale import is_gone_to_ground, locked_units
from engine.rulesets.wh40k6.profiles import Profile
from engine.rulesets.wh40k6.relic import is_scoring, relic_cell
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.vehicles import is_snap_only, is_stunned
from engine.view import GameView, ModelView, ObjectiveView, SideView, TerrainView

RELIC_ZONE = "The Relic"
"""The zone naming where the Relic is (on the ground, or its carrier's cells)."""
CARRIES_RELIC = "carries the Relic"
"""The state of the model carrying it."""
FALLING_BACK = "falling back"
"""The state of a model whose unit falls back."""
GROUND = "gone to ground"
"""The state of a model whose unit has gone to ground."""
CARRYING = "carrying "
"""The start of a transport's state naming a unit aboard it ("carrying Horde Mob Red"):
a player sees who rides where, and so does the computer player."""
SCORING = "scoring unit"
"""The state of a model whose unit may hold an objective now (§4.6: Troops, or the
mission's bonus slot, not falling back): a player sees which units take a marker, and so
does the computer player (engine.rulesets.wh40k6.evaluation)."""


UnitFacts = tuple[bool, bool, bool, bool, bool]
"""What `model_states` says of a whole unit: (scoring, gone to ground, locked in combat,
Iron Ward, Dread Hex)."""


def unit_facts(state: State, unit: Unit, locked: frozenset[str]) -> UnitFacts:
    """The unit's part of its models' states, worked out once for all its models (each
    model asked again: a third of a view, built after every choice)."""
    return (
        is_scoring(state, unit),
        is_gone_to_ground(state, unit),
        unit.id in locked,
        unit.effect("iron_ward") > 0,
        unit.effect("dread_hex") > 0,
    )


def model_states(
    state: State, m: Model, locked: frozenset[str], facts: dict[str, UnitFacts] | None = None
) -> tuple[str, ...]:
    """Conditions in the digest's words, for the model panel (``facts``: `unit_facts`
    kept by unit id while one view is built)."""
    unit = state.unit_of(m)
    found = None if facts is None else facts.get(unit.id)
    if found is None:
        found = unit_facts(state, unit, locked)
        if facts is not None:
            facts[unit.id] = found
    scoring, ground, in_combat, iron_ward, dread_hex = found
    out = [unit.name]
    flags = [
        ("Warlord", m.id == state.side(m.player).warlord),
        (SCORING, m.on_table and scoring),
        (FALLING_BACK, unit.falling_back),
        (GROUND, ground),
        ("locked in combat", m.on_table and in_combat),
        ("moved", m.moved),
        ("ran", unit.ran),
        ("charged", unit.charged),
        ("in reserve", unit.in_reserve),
        ("embarked", unit.embarked_in is not None),
        (CARRIES_RELIC, m.carries_relic),
        ("Iron Ward 5++", iron_ward),
        ("Dread Hex -2 Ld", dread_hex),
    ]
    if m.is_vehicle:
        flags += [
            (m.speed, True),
            ("Crew Shaken", is_snap_only(state, m) and not is_stunned(state, m)),
            ("Crew Stunned", is_stunned(state, m)),
            ("Immobilised", m.immobilised),
            ("wrecked", m.wrecked),
        ]
        flags += [
            (CARRYING + u.name, True)
            for u in state.units.values()
            if u.embarked_in == m.id and not u.destroyed
        ]
    out += [name for name, on in flags if on]
    return tuple(out)


TYPE_NOTES: dict[str, str] = {
    "tank": "Tank: fires 1 weapon at full BS at combat speed, none at cruising speed",
    "walker": (
        "Walker: pivots freely to fire; fires every weapon after moving; charges and fights "
        "in close combat (hit on its front armour)"
    ),
    "skimmer": "Skimmer: flies over models and terrain",
    "fast": 'Fast: fires every weapon at combat speed, 2 at cruising speed; flat out 12"',
    "heavy": "Heavy: fires every weapon after moving; never moves flat out",
    "open_topped": (
        "Open-topped: passengers fire out all round and may charge after getting out; "
        "+1 on the Vehicle Damage table"
    ),
    "flyer": "Flyer: zooms; hit only by snap shots, never charged",
    "bike": 'Bike: moves 12"; may turbo-boost 12" instead of shooting',
    "jump": 'Jump infantry: moves 12" over models and terrain',
    "fleet": "Fleet: may re-roll Run and charge dice",
    "infiltrate": "Infiltrate: deploys after the armies, out of sight or far from the enemy",
    "scout": "Scout: moves before the first turn",
    "fearless": "Fearless: never falls back or goes to ground",
    "assault_grenades": "Assault grenades: charges through difficult terrain at full Initiative",
    "character": "Character",
    "psyker": "Psyker: manifests psychic powers",
    "relentless": "Relentless: fires heavy weapons at full BS after moving",
    "smoke_launchers": "Smoke launchers: once per game, 5+ cover until its next turn",
}
"""What a vehicle type, unit type or special rule allows, for the model card (§3.4, §8)."""


def model_notes(p: Profile) -> tuple[str, ...]:
    """The card's notes: unit or vehicle types and special rules, each with what it allows."""
    notes = [TYPE_NOTES[k] for k in sorted(p.vehicle_types) if k in TYPE_NOTES]
    if "transport" in p.vehicle_types:
        notes.append(
            f'Transport: carries {p.capacity} models; they get in within 2" and out within 6"'
        )
    if not p.is_vehicle and p.unit_type.value in TYPE_NOTES:
        notes.append(TYPE_NOTES[p.unit_type.value])
    notes += [TYPE_NOTES[k] for k in sorted(p.rules) if k in TYPE_NOTES]
    return tuple(notes)


def _notes(state: State, p: Profile) -> tuple[str, ...]:
    """`model_notes`, kept in the cache (profiles never change)."""
    notes = state.cache.setdefault("notes", {})
    found = notes.get(p.id)
    if found is None:
        found = notes[p.id] = model_notes(p)
    assert isinstance(found, tuple)
    return found


def _lines(state: State, p: Profile) -> tuple[tuple[str, str], ...]:
    """`Profile.lines`, kept in the cache: built for every model of every view, it was a
    fifth of a crowded playout's views."""
    lines = state.cache.setdefault("profile-lines", {})
    found = lines.get(p.id)
    if found is None:
        found = lines[p.id] = p.lines()
    assert isinstance(found, tuple)
    return found


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


def _under_placed(state: State, m: Model, placing: dict[str, Cell]) -> bool:
    """Whether a unit-mate's tentative footprint covers this model's cells."""
    mine = set(m.rect.cells())
    return any(
        c in mine
        for mid, at in placing.items()
        for c in square(at, state.models[mid].profile.size).cells()
    )


def model_view(
    state: State, m: Model, locked: frozenset[str], facts: dict[str, UnitFacts] | None = None
) -> tuple[ModelView, ...]:
    p = m.profile
    weapons = tuple(
        line + (" (destroyed)" if n in m.destroyed_weapons else "")
        for n, line in enumerate(_weapon_lines(state, p))
    )
    wounds, most = (max(0, m.hp), p.hp) if p.is_vehicle else (max(0, m.wounds), p.w)
    states = model_states(state, m, locked, facts)
    placing = state.unit_of(m).placing
    cell = placing.get(m.id)
    if cell is not None:
        states += ("being placed",)
    elif placing and m.cell is not None and _under_placed(state, m, placing):
        cell = None  # a unit-mate is being put where it stands; it is still to be placed
        states += ("being placed",)
    else:
        cell = m.cell
    view = ModelView(
        m.id,
        m.player,
        f"{m.id} {p.name}",
        p.glyph,
        cell,
        wounds,
        most,
        states,
        _lines(state, p),
        weapons,
        m.facing if p.is_vehicle else None,
        m.removed,
        _notes(state, p),
    )
    if cell is not None and p.size > 1 and not m.removed:
        return footprint_views(view, square(cell, p.size))
    return (view,)


FEATURE_GLYPHS: dict[str, str] = {
    "woods": "&",
    "ruins": ":",
    "ruin_wall": "#",
    "crater": ";",
    "razor_wire": "!",
    "barricade": "=",
    "fortification": "]",
    "rock": "X",
    "wreck": "%",
}
"""One character per terrain feature (§4.5), none a model's letter or another's."""


def feature_detail(feature: t.Feature) -> str:
    """What a feature does, in the digest's words: "difficult, dangerous, 5+ cover"."""
    parts = []
    if feature.impassable:
        parts.append("impassable")
    if feature.difficult:
        parts.append("difficult")
    if feature.dangerous:
        parts.append("dangerous" + (" to infantry" if feature.dangerous == "infantry" else ""))
    if feature.cover is not None:
        parts.append(f"{feature.cover}+ cover")
    if feature.blocks_sight:
        parts.append("blocks sight")
    return ", ".join(parts) or "no effect"


def _kind(feature: t.Feature) -> Terrain:
    if feature.impassable:
        return Terrain.BLOCKING if feature.blocks_sight else Terrain.IMPASSABLE
    if feature.difficult:
        return Terrain.DIFFICULT
    return Terrain.OPEN if feature.cover is None else Terrain.COVER


def terrain_views(state: State) -> tuple[TerrainView, ...]:
    """Every feature on the table by kind (kept until the terrain changes, §4.5)."""
    cached = state.cache.get("terrain-views")
    if cached is None:
        cells: dict[str, set[Cell]] = {}
        for cell, key in state.terrain.items():
            if key != "open":
                cells.setdefault(key, set()).add(cell)
        cached = tuple(
            TerrainView(
                t.FEATURES[key].name,
                FEATURE_GLYPHS.get(key, "?"),
                _kind(t.FEATURES[key]),
                feature_detail(t.FEATURES[key]),
                frozenset(found),
            )
            for key, found in sorted(cells.items())
        )
        state.cache["terrain-views"] = cached
    assert isinstance(cached, tuple)
    return cached


def deployment_zone(side: str) -> str:
    """The name of ``side``'s deployment zone among the view's zones and areas."""
    return f"{side} deployment zone"


def game_view(state: State, round_word: str = "Round") -> GameView:
    sides = tuple(
        SideView(
            s.player,
            s.name,
            (
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
    facts: dict[str, UnitFacts] = {}
    models = tuple(v for m in state.models.values() for v in model_view(state, m, locked, facts))
    areas = tuple((deployment_zone(s.name), s.zone) for s in state.sides if s.zone)
    zones = list(areas) if state.phase in ("Setup", "Deployment") else []
    relic = relic_cell(state)
    if relic is not None:
        zones.append((RELIC_ZONE, frozenset(relic.cells())))
    objectives = tuple(
        ObjectiveView(f"O{n + 1}", f"objective {n + 1} ({state.objective_values[n]} VP)", cell)
        for n, cell in enumerate(state.objectives)
    )
    return GameView(
        state.game_turn,
        state.phase,
        state.step,
        (sides[0], sides[1]),
        models,
        tuple(zones),
        terrain_views(state),
        objectives,
        round_word=round_word,
        areas=areas,
    )
