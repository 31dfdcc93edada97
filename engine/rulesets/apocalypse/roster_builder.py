"""Choosing rosters at the table (digest apocalypse §7 #1, under the §4.1 army-building rules).

Offered when the scenario sets ``roster_building = true`` in ``[apocalypse]``. Each
player in turn keeps the scenario's prepared roster (the §12.3 default) or builds a
custom one within the scenario's points limit: detachment by detachment he adds units
of his faction, closes the detachment and picks its Commander, then opens another
detachment or finishes the army. Every offer is already legal (affordable, of his
faction, within the §4.1 item 3 size limits and the maximum number of detachments), so
the builder always ends with an army that passes the loader's §4.1 validation: the
result is handed to the same `build_army` the scenario goes through. The Warlord follows
from the Commander (§4.1 item 5): a CHARACTER Commander is its detachment's Warlord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.profiles import Datasheet
from engine.rulesets.apocalypse.roster import MAX_SUPER_HEAVY_UNITS, MAX_UNITS, build_army
from engine.rulesets.apocalypse.state import ApocState, Detachment, Unit
from engine.wording import counted, says


@dataclass(frozen=True, slots=True)
class RosterRules:
    """What the builder needs from the scenario: the catalogue and the §4.1 limits."""

    sheets: dict[str, Datasheet]
    points: int
    max_detachments: int
    source: str


def choose_rosters(state: ApocState, ctx: RuleContext, rules: RosterRules) -> Procedure[None]:
    """§7 #1 for both players in seat order; built armies replace the prepared ones."""
    forces: list[dict[str, Any] | None] = []
    for player in (0, 1):
        forces.append((yield from choose_roster(state, player, rules)))
    if any(f is not None for f in forces):
        install(state, forces, rules)
    for player, force in enumerate(forces):
        announce(state, ctx, player, built=force is not None)


def choose_roster(
    state: ApocState, player: int, rules: RosterRules
) -> Procedure[dict[str, Any] | None]:
    """Keep the prepared roster (returns None) or build one (returns its force table)."""
    side = state.side(player)
    units = state.units_of(player)
    catalogue = faction_sheets(rules.sheets, side.faction)
    options = [
        Option(
            "keep",
            f"Use the prepared roster ({counted(len(units), 'unit')}, "
            f"{counted(len(_dets_of(state, player)), 'detachment')}, {side.points} pts)",
        )
    ]
    if catalogue and min(s.points for s in catalogue) <= rules.points:
        options.append(Option("build", f"Build a new roster (up to {rules.points} pts)"))
    pick = yield Decision(
        player, DecisionKind.PICK_OPTION, f"Your {side.name} roster", tuple(options)
    )
    if pick.key == "keep":
        return None
    return (yield from build_force(player, side.faction, catalogue, rules))


def build_force(
    player: int, faction: str, catalogue: list[Datasheet], rules: RosterRules
) -> Procedure[dict[str, Any]]:
    """Detachments one after another until the player finishes (§4.1 items 3-5)."""
    detachments: list[dict[str, Any]] = []
    spent = 0
    while True:
        if detachments:
            can_open = len(detachments) < rules.max_detachments and any(
                s.points <= rules.points - spent for s in catalogue
            )
            made = counted(len(detachments), "detachment")
            options = [Option("done", f"Finish the army ({made})", neutral=True)]
            if can_open:
                options.insert(0, Option("more", "Add another detachment"))
            pick = yield Decision(
                player,
                DecisionKind.PICK_OPTION,
                f"Roster: {made}, {spent}/{rules.points} pts",
                tuple(options),
            )
            if pick.key == "done":
                return {"faction": faction, "detachments": detachments}
        name = f"{faction.title()} Detachment {len(detachments) + 1}"
        members = yield from _fill_detachment(player, name, catalogue, rules.points - spent)
        boss = yield from pick_commander(player, name, members)
        spent += sum(s.points for s in members)
        order = [boss] + [i for i in range(len(members)) if i != boss]
        units = [{"datasheet": members[i].id, "commander": i == boss} for i in order]
        detachments.append({"name": name, "units": units})


def _fill_detachment(
    player: int, name: str, catalogue: list[Datasheet], budget: int
) -> Procedure[list[Datasheet]]:
    """Units one at a time; the detachment closes when the player says so (§4.1 item 3)."""
    members: list[Datasheet] = []
    while True:
        cost = sum(s.points for s in members)
        offers = legal_additions(members, catalogue, budget - cost)
        options = [Option(s.id, f"Add {s.name} ({s.points} pts, {_kind(s)})") for s in offers]
        if members:
            options.append(
                Option("close", f"Close {name} ({counted(len(members), 'unit')}, {cost} pts)")
            )
        listed = ", ".join(s.name for s in members) or "empty"
        pick = yield Decision(
            player,
            DecisionKind.PICK_OPTION,
            f"Roster: {name} ({listed}); {budget - cost} pts left",
            tuple(options),
        )
        if pick.key == "close":
            return members
        members.append(next(s for s in offers if s.id == pick.key))


def legal_additions(
    members: list[Datasheet], catalogue: list[Datasheet], budget: int
) -> list[Datasheet]:
    """Datasheets that fit the points left and the detachment's size limit (§4.1 item 3).

    A detachment holds 1-6 units, or 1-3 if all of them are SUPER-HEAVY.
    """
    found = []
    for sheet in catalogue:
        all_super_heavy = sheet.is_super_heavy and all(s.is_super_heavy for s in members)
        limit = MAX_SUPER_HEAVY_UNITS if all_super_heavy else MAX_UNITS
        if sheet.points <= budget and len(members) + 1 <= limit:
            found.append(sheet)
    return found


def commander_candidates(members: list[Datasheet]) -> list[int]:
    """Who may command: a CHARACTER if the detachment has one, else anyone (§4.1 item 4)."""
    characters = [i for i, s in enumerate(members) if "CHARACTER" in s.keywords]
    return characters or list(range(len(members)))


def pick_commander(player: int, name: str, members: list[Datasheet]) -> Procedure[int]:
    """§7 #1: the detachment's Commander; a CHARACTER Commander is its Warlord (§4.1 item 5)."""
    candidates = commander_candidates(members)
    if len(candidates) == 1:
        return candidates[0]
    labels = _numbered([s.name for s in members])
    pick = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        f"Roster: the Commander of {name}",
        tuple(
            Option(
                str(i),
                labels[i] + (" (Warlord)" if "CHARACTER" in members[i].keywords else ""),
                detail=f"Ld {members[i].leadership}",
            )
            for i in candidates
        ),
    )
    return int(pick.key)


def install(state: ApocState, forces: list[dict[str, Any] | None], rules: RosterRules) -> None:
    """Replace the prepared armies of the players who built one (seat order kept)."""
    units: dict[str, Unit] = {}
    dets: dict[str, Detachment] = {}
    for seat, force in enumerate(forces):
        if force is None:
            units.update((u.uid, u) for u in state.units_of(seat))
            dets.update((d.id, d) for d in _dets_of(state, seat))
            continue
        _, army_dets, army_units = build_army(
            force, seat, rules.sheets, rules.source, max_detachments=rules.max_detachments
        )
        units.update((u.uid, u) for u in army_units)
        dets.update((d.id, d) for d in army_dets)
        state.side(seat).points = sum(u.sheet.points for u in army_units)
    state.units.clear()
    state.units.update(units)
    state.detachments.clear()
    state.detachments.update(dets)


def announce(state: ApocState, ctx: RuleContext, player: int, *, built: bool) -> None:
    """Tell both players the army a player takes (rosters are open information)."""
    side = state.side(player)
    count = len(_dets_of(state, player))
    plural = "detachment" if count == 1 else "detachments"
    if not built:
        ctx.emit(
            "RosterKept",
            f"{says(side.name, 'keeps')} the prepared roster ({side.points} pts)",
            player=player,
            points=side.points,
        )
        return
    ctx.emit(
        "RosterBuilt",
        f"{says(side.name, 'builds')} a {side.points}-pt army of {count} {plural}",
        player=player,
        points=side.points,
    )


def faction_sheets(sheets: dict[str, Datasheet], faction: str) -> list[Datasheet]:
    """The player's datasheets, in catalogue order (§4.1 item 2: one faction per army)."""
    return [s for s in sheets.values() if s.faction == faction]


def _dets_of(state: ApocState, player: int) -> list[Detachment]:
    return [d for d in state.detachments.values() if d.owner == player]


def _kind(sheet: Datasheet) -> str:
    words = [sheet.category.replace("_", "-")]
    words += [k for k in ("CHARACTER", "TRANSPORT") if k in sheet.keywords]
    return " ".join(words)


def _numbered(names: list[str]) -> list[str]:
    """Tell apart units that share a name (Brute Mob 1, Brute Mob 2)."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(f"{name} {seen[name]}" if names.count(name) > 1 else name)
    return out
