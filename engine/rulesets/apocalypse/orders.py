"""The Initiative and Orders phases (digest apocalypse §6.2, §6.3).

Initiative: a D12 each (A first), higher wins; a tie goes to the player who did not
have it last turn, or in turn 1 to the player who finished deploying first (A2).
Orders: (a) Deserter markers, (b) Reserves one unit at a time, (c) asset draws, (d)
secret orders revealed together.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.hidden import ask_secretly
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.assets import draw_assets, open_window
from engine.rulesets.apocalypse.attacks import ROLL_OFF
from engine.rulesets.apocalypse.command import check_deserters, mark, place_deserters
from engine.rulesets.apocalypse.geometry import command_warnings, in_command
from engine.rulesets.apocalypse.placement import (
    cell_options,
    parse_cell,
    pick_cell,
    reserve_cells,
)
from engine.rulesets.apocalypse.state import (
    BATTLEFIELD,
    ORDER_NAMES,
    ORDERS,
    RESERVE,
    ApocState,
    Detachment,
    Unit,
)
from engine.rulesets.apocalypse.window import Window
from engine.wording import agreeing, agrees, says


def initiative_winner(state: ApocState, dice: list[int]) -> int:
    """Who holds the Initiative for these dice (§6.2 steps 2-4)."""
    if dice[0] != dice[1]:
        return 0 if dice[0] > dice[1] else 1
    if state.prev_initiative is None:
        return state.first_deployed
    return 1 - state.prev_initiative


def initiative_phase(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """Roll, window W-INIT (loser first), settle (§6.2)."""
    dice = [
        ctx.dice.roll(1, 12, player=p, reason="initiative", check=ROLL_OFF).faces[0] for p in (0, 1)
    ]
    winner = initiative_winner(state, dice)
    ctx.emit(
        "InitiativeRolled",
        "",  # the two dice lines say it; the winner is logged once the window closes
        a=dice[0],
        b=dice[1],
    )
    ties = initiative_winner(state, [1, 1])
    win = Window("W-INIT", (1 - winner, winner), dice=dice, tie=ties)
    yield from open_window(state, ctx, win)
    state.initiative = initiative_winner(state, win.dice)
    tie = ""
    if win.dice[0] == win.dice[1]:  # say why the tie went this way (§6.2 steps 3-4)
        tie = " (a tie: " + (
            "it deployed first)"
            if state.prev_initiative is None
            else "it did not have it last turn)"
        )
    ctx.emit(
        "InitiativeWon",
        f"{says(state.side(state.initiative).name, 'has')} the Initiative{tie}",
        player=state.initiative,
    )


def orders_phase(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """Steps (a)-(d) of §6.3."""
    first = (state.initiative, 1 - state.initiative)
    state.step = "Deserters"
    place_deserters(state, ctx)
    yield from open_window(state, ctx, Window("W-DESERT", first))
    state.step = "Reserves"
    yield from reserves(state, ctx)
    state.step = "Assets"
    draw_assets(state, ctx)
    state.step = "Orders"
    yield from give_orders(state, ctx)


def _waiting(state: ApocState, player: int, tried: set[str]) -> list[Unit]:
    """Units the player could bring in now (passengers arrive with their transport)."""
    return [
        u
        for u in state.units_of(player)
        if u.location == RESERVE
        and u.uid not in tried
        and reserve_cells(state, u, deep=u.sheet.reserve == "DEEP" or _ambush_cards(state, player))
    ]


def _ambush_cards(state: ApocState, player: int) -> bool:
    """Holding Ambush makes a DEEP set-up possible (§12.4 card 3)."""
    return bool(state.side(player).deck.holding("ambush"))


def reserves(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """Alternate arrivals, one unit at a time; a pass ends a player's arrivals (§6.3.2)."""
    done = [False, False]
    tried: set[str] = set()
    player = state.initiative
    while not all(done):
        if not done[player]:
            units = _waiting(state, player, tried)
            if not units:
                done[player] = True
            else:
                arrived = yield from _arrive_one(state, ctx, player, units, tried)
                done[player] = not arrived
        if not done[1 - player]:
            player = 1 - player


def _arrive_one(
    state: ApocState, ctx: RuleContext, player: int, units: list[Unit], tried: set[str]
) -> Procedure[bool]:
    """Pick a unit, window W-RESERVE, place it; False when the player passes."""
    choice = yield Decision(
        player,
        DecisionKind.PICK_MODEL,
        "Reserves: bring in a unit?",
        (
            *tuple(Option(u.uid, u.name, model=u.uid) for u in units),
            Option("pass", "No more arrivals this turn", neutral=True),
        ),
    )
    if choice.key == "pass":
        return False
    unit = state.units[choice.key]
    tried.add(unit.uid)
    win = Window("W-RESERVE", (player,), unit=unit.uid)
    yield from open_window(state, ctx, win)
    deep = unit.sheet.reserve == "DEEP" or win.ambush
    cells = reserve_cells(state, unit, deep=deep)
    if not cells:
        ctx.emit(
            "ArrivalFailed",
            f"{says(unit.name, 'finds')} no room and {agrees(unit.name, 'stays')} in Reserve",
            player=player,
        )
        return True
    where = 'anywhere more than 9" from the enemy' if deep else 'within 6" of your edge'
    pick = yield pick_cell(
        player,
        f"Set up {unit.name} {where}",
        cell_options(cells, "Arrive at", command_warnings(state, unit)),
        unit.uid,
    )
    state.put(unit, BATTLEFIELD, parse_cell(pick.key))
    ctx.emit(
        "UnitArrived",
        f"{says(unit.name, 'arrives')} from Reserve at {unit.anchor}",
        player=player,
        unit=unit.uid,
    )
    if not unit.is_commander and not in_command(state, unit):
        mark(ctx, unit)
    check_deserters(state, ctx)
    return True


def eligible(state: ApocState, det: Detachment) -> bool:
    """Not destroyed, and the Commander is not in Reserve (§6.3.4 step 1)."""
    commander = state.commander(det)
    return not det.destroyed and commander is not None and not state.in_reserve(commander)


def give_orders(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """Secret orders, then all revealed together (§6.3.4 steps 2-4, A12).

    Every order is a hidden Decision; the events only say that orders were placed
    face down until the reveal.
    """
    for player in (state.initiative, 1 - state.initiative):
        dets = [d for d in state.detachments.values() if d.owner == player]
        for det in dets:
            det.order = None
            det.order_revealed = False
            if not eligible(state, det):
                continue
            det.order = yield from ask_secretly(
                player,
                f"Secret order for {det.name}",
                [Option(o, ORDER_NAMES[o], detail=_ORDER_TEXT[o]) for o in ORDERS],
            )
        ctx.emit(
            "OrdersGiven",
            f"{state.side(player).name} "
            f"{agreeing(state.side(player).name, 'has placed its orders face down')}",
            player=player,
        )
    revealed = []
    for det in state.detachments.values():
        det.order_revealed = True
        revealed.append(f"{det.name}: {ORDER_NAMES[det.order] if det.order else 'no order'}")
    ctx.emit("OrdersRevealed", "Orders revealed: " + "; ".join(revealed))


_ORDER_TEXT = {
    "ADVANCE": "Move (up to M), then shoot or fight",
    "AIMED_FIRE": "No move; shoot at +1 to hit or fight at -1 to hit",
    "ASSAULT": "Double move (up to 2M), then fight",
}
