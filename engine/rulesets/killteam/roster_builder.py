"""Choosing the points format and building rosters at the table (killteam §4.1-§4.2, §7 #1-#4).

Offered when the scenario sets ``roster_building = true``. Player 1 proposes a points
format and player 2 confirms it or picks another (PROPOSED §7 #1: the second answer is
final, so setup always ends). Then each player keeps the scenario's prepared roster (if
it fits the format) or builds one: the Leader first (a roster needs exactly one; a faction
with one Leader datasheet takes it unasked, with a note), then models one at a time with
their wargear and specialism, each offer already within the §4.2 rules (points, Max, at
most 4 specialists, no repeats), until he finishes with at least 3 models.
"""

from __future__ import annotations

from collections import Counter

from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.ruleset import RuleContext
from engine.rulesets.killteam.profiles import Datasheet, Faction, Weapon
from engine.rulesets.killteam.roster import RosterEntry, equip
from engine.wording import agrees, counted

FORMATS = (100, 125, 200)
MAX_SPECIALISTS = 4
MIN_MODELS = 3


def choose_format(ctx: RuleContext, proposed: int) -> Procedure[int]:
    """§7 #1: player 1 proposes, player 2 confirms or picks (PROPOSED)."""
    options = tuple(
        Option(str(f), f"{f} points" + (" (the scenario's)" if f == proposed else ""))
        for f in FORMATS
    )
    pick = yield Decision(0, DecisionKind.PICK_OPTION, "Propose the points format", options)
    points = int(pick.key)
    if not (yield from ask_yes_no(1, f"Your opponent proposes {points} points. Agree?")):
        pick = yield Decision(1, DecisionKind.PICK_OPTION, "Choose the points format", options)
        points = int(pick.key)
    ctx.emit("FormatAgreed", f"The game is played at {points} points", points=points)
    return points


def choose_roster(
    ctx: RuleContext,
    player: int,
    faction: Faction,
    prepared: list[RosterEntry],
    limit: int,
    side: str,
) -> Procedure[list[RosterEntry]]:
    """§7 #2-#4: keep the prepared roster or build a new one within ``limit`` points;
    ``side`` names the team in the log, as every other line does."""
    cost = sum(e.points for e in prepared)
    if cost <= limit:
        keep = yield Decision(
            player,
            DecisionKind.PICK_OPTION,
            f"Your {faction.name} roster",
            (
                Option(
                    "keep",
                    f"Use the prepared roster ({counted(len(prepared), 'model')}, {cost} pts)",
                ),
                Option("build", f"Build a new roster (up to {limit} pts)"),
            ),
        )
        if keep.key == "keep":
            return prepared
    roster = yield from build_roster(ctx, player, faction, limit)
    total = sum(e.points for e in roster)
    ctx.emit(
        "RosterBuilt",
        f"{side} {agrees(side, 'builds')} a roster of {counted(len(roster), 'model')} ({total} pts"
        + ("" if side == faction.name else f", {faction.name}")
        + ")",
        player=player,
        points=total,
    )
    return roster


def build_roster(
    ctx: RuleContext, player: int, faction: Faction, limit: int
) -> Procedure[list[RosterEntry]]:
    """The Leader, then more models, until the player finishes (§4.2)."""
    leaders = [s for s in faction.datasheets.values() if "Leader" in s.specialisms]
    roster: list[RosterEntry] = []
    leader = leaders[0]
    if len(leaders) == 1:
        # Said after "Done for you: ", so a name first, not "The" mid-sentence.
        ctx.answered(f"{leader.name} is your Leader: the only one you can take.", player)
    else:
        pick = yield Decision(
            player,
            DecisionKind.PICK_OPTION,
            "Roster: choose your Leader",
            tuple(Option(s.id, f"{s.name} ({_price(faction, s)})") for s in leaders),
        )
        leader = faction.datasheets[pick.key]
    roster.append((yield from _equip(ctx, player, faction, leader, limit, roster, "Leader")))
    while True:
        spent = sum(e.points for e in roster)
        counts = Counter(e.sheet.id for e in roster)
        # Keep enough points for the cheapest models still needed to reach 3 (§4.2 item 2).
        still_needed = max(0, MIN_MODELS - len(roster) - 1)
        reserve = still_needed * min(_cheapest(faction, s) for s in faction.datasheets.values())
        options = [
            Option(s.id, f"Add a {s.name} ({_price(faction, s)})")
            for s in faction.datasheets.values()
            if counts[s.id] < s.max and spent + _cheapest(faction, s) + reserve <= limit
        ]
        if len(roster) >= MIN_MODELS or not options:
            options.append(
                Option(
                    "done",
                    f"Finish the roster ({counted(len(roster), 'model')}, {spent} pts)",
                    neutral=True,  # on 0: never on the key of an Add just taken
                )
            )
        pick = yield Decision(
            player,
            DecisionKind.PICK_OPTION,
            f"Roster: {counted(len(roster), 'model')}, {spent}/{limit} pts",
            tuple(options),
        )
        if pick.key == "done":
            return roster
        entry = yield from _equip(ctx, player, faction, faction.datasheets[pick.key], limit, roster)
        roster.append(entry)


def _equip(
    ctx: RuleContext,
    player: int,
    faction: Faction,
    sheet: Datasheet,
    limit: int,
    roster: list[RosterEntry],
    specialism: str | None = None,
) -> Procedure[RosterEntry]:
    """Wargear (§7 #3) and specialism (§7 #4) of one new model."""
    budget = limit - sum(e.points for e in roster)
    loadouts = [equip(faction, sheet, [])] + [
        equip(faction, sheet, [o.with_[0]]) for o in sheet.options
    ]
    affordable = [w for w in loadouts if sheet.points + sum(x.points for x in w) <= budget]
    weapons = affordable[0]
    if len(affordable) == 1 < len(loadouts):
        names = ", ".join(x.name for x in weapons)
        ctx.answered(f"{sheet.name} takes {names}: the only wargear within the points.", player)
    elif len(affordable) > 1:
        pick = yield Decision(
            player,
            DecisionKind.PICK_OPTION,
            f"Roster: wargear of the {sheet.name}",
            tuple(
                Option(
                    str(i),
                    ", ".join(x.name for x in w)
                    + f" ({sheet.points + sum(x.points for x in w)} pts)",
                )
                for i, w in enumerate(affordable)
            ),
        )
        weapons = affordable[int(pick.key)]
    if specialism is None:
        specialism = yield from _specialism(player, sheet, roster)
    return RosterEntry(sheet, weapons, specialism)


def _specialism(player: int, sheet: Datasheet, roster: list[RosterEntry]) -> Procedure[str | None]:
    taken = {e.specialism for e in roster if e.specialism}
    free = [s for s in sheet.specialisms if s not in taken and s != "Leader"]
    if not free or len(taken) >= MAX_SPECIALISTS:
        return None
    pick = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        f"Roster: specialism of the {sheet.name} ({len(taken)}/{MAX_SPECIALISTS} specialists)",
        (Option("none", "No specialism"), *(Option(s, s) for s in free)),
    )
    return None if pick.key == "none" else pick.key


def _price(faction: Faction, sheet: Datasheet) -> str:
    """ "8 pts", or "8-9 pts" when its wargear options cost more."""
    costs = [sheet.points + sum(w.points for w in gear) for gear in _loadouts(faction, sheet)]
    low, high = min(costs), max(costs)
    return f"{low} pts" if low == high else f"{low}-{high} pts"


def _loadouts(faction: Faction, sheet: Datasheet) -> list[tuple[Weapon, ...]]:
    return [equip(faction, sheet, [])] + [
        equip(faction, sheet, [o.with_[0]]) for o in sheet.options
    ]


def _cheapest(faction: Faction, sheet: Datasheet) -> int:
    loadouts = [equip(faction, sheet, [])] + [
        equip(faction, sheet, [o.with_[0]]) for o in sheet.options
    ]
    return sheet.points + min(sum(w.points for w in gear) for gear in loadouts)
