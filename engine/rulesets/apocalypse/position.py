"""Apocalypse positions: detachments, units, markers and hands at the start of a phase.

A position replaces the scenario's armies with the detachments it lists (datasheets come
from the shipped catalogue, the scenario's ``datasheets`` and the position's own). It
starts at the beginning of the Initiative, Orders, Action or Damage phase of a turn
(digest apocalypse §5.3). Unit ids are A1, A2.. / B1, B2.. in file order per player, and
detachment ids A-D1.. / B-D1.. as in a scenario roster. The ``[apocalypse]`` table::

    initiative = 1                  # who holds the Initiative this turn (1 or 2)
    prev_initiative = 2             # optional: last turn's holder (ties, §6.2)
    first_deployed = 1              # optional: who finished deploying first (turn-1 tie)
    [[apocalypse.sides]]            # player 1, then player 2 (all keys optional)
    vp = 0
    hand = 2                        # a count dealt from the shuffled deck, or card ids or
                                    # kinds: ["smoke_screen", "ambush#2"] (default none)
    discard = ["ambush#1"]          # optional face-up discard pile
    deck = ["smoke_screen#2"]       # optional: the top of the draw pile, in order (the
                                    # rest stays shuffled below; a hand count deals
                                    # from this top)
    assets_quiet = false            # optional: this player asked for no asset offers
                                    # until one of his detachments activates (§6.4.2)
    [apocalypse.datasheets.tough_mob]   # optional extra datasheets (as in datasheets.toml)
    [[apocalypse.detachments]]
    player = 1
    name = "Legion Cohort"
    order = "ASSAULT"               # Action/Damage positions: the revealed order
    activated = false
    [[apocalypse.detachments.units]]
    datasheet = "legion_captain"
    commander = true                # exactly one per detachment (§3.4)
    warlord = false                 # optional: a CHARACTER Commander is the Warlord
                                    # (§4.1 item 5); false after a succession (§6.13.2)
    cell = [3, 4]                   # anchor (lowest x, lowest y of the footprint, §11.1)
    # or: reserve = true | embarked = "A3" (a transport's id) | destroyed = true
    damage = 1
    blast_small = 1                 # 0 or 1 (two smalls make a large, §3.7)
    blast_large = 2
    states = ["deserter", "moved"]  # see STATES
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.board import Cell
from engine.cards import Deck, card_kind
from engine.errors import ScenarioError
from engine.footprints import square
from engine.position import Position, PositionError
from engine.rulesets.apocalypse.profiles import (
    DATASHEET_KEYS,
    Datasheet,
    load_catalogue,
    parse_datasheets,
)
from engine.rulesets.apocalypse.roster import _detachment, _name_duplicates
from engine.rulesets.apocalypse.state import (
    BATTLEFIELD,
    DESTROYED,
    EMBARKED,
    ORDERS,
    RESERVE,
    ApocState,
    Detachment,
    Unit,
)
from engine.rulesets.apocalypse.transports import can_carry
from engine.scenario import KeySpec, check_keys

PHASES = ("Deployment", "Initiative", "Orders", "Action", "Damage")
"""Phases a position may start at (§5.3); orders exist only from the Action phase on.
"Deployment" is the start of the game (turn 1, §4.3): the deployment roll-off, then each
unit is placed, embarked or held in Reserve by its player, so the position gives units no
cell, reserve or embarked key."""

STATES: Mapping[str, str] = {
    "critical damage": "critical",
    "deserter": "deserter",
    "move done": "move_done",
    "moved": "moved",
    "fell back": "fell_back",
    "step two done": "step2_done",
    "shot": "shot",
    "fought": "fought",
    "embarked this turn": "embarked_this_turn",
    "disembarked this turn": "disembarked_this_turn",
}
"""Position state names -> Unit flags (§3.3, §3.7)."""

ROOT = "apocalypse"

POSITION_KEYS: KeySpec = {
    **dict.fromkeys(("initiative", "prev_initiative", "first_deployed")),
    "datasheets": DATASHEET_KEYS,
    "sides": dict.fromkeys(("vp", "hand", "discard", "deck", "assets_quiet")),
    "detachments": {
        **dict.fromkeys(("player", "name", "order", "activated")),
        "units": dict.fromkeys(
            (
                *("datasheet", "name", "start", "at", "commander", "warlord", "states"),
                *("damage", "blast_small", "blast_large"),
                *("cell", "reserve", "embarked", "destroyed"),
            )
        ),
    },
}
"""The keys of a position's [apocalypse] table, its sides, detachments and units (a
misspelt one is refused rather than silently left at its default)."""


class Dealing(NamedTuple):
    """What the position leaves for the start of play, after the decks' secret shuffles."""

    deal: tuple[int, int]
    """Cards each player is dealt from the top of his draw pile (a hand given as a count)."""
    top: tuple[tuple[str, ...], tuple[str, ...]]
    """Cards each player's draw pile starts with, top first (the rest stay shuffled)."""


def load_apocalypse_position(state: ApocState, position: Position) -> Dealing:
    """Replace ``state``'s armies, markers and resources with the position's.

    Returns the cards to put on top of each shuffled deck and how many each player is
    still dealt from it when play starts (hands given as counts).
    """
    rules = position.rules
    check_keys(rules, POSITION_KEYS, position.source, ROOT)
    if position.phase not in PHASES:
        raise position.error(
            "phase",
            f"{position.phase!r} is not an Apocalypse phase (use one of: "
            + ", ".join(PHASES)
            + ")",
        )
    if position.phase == "Deployment" and position.round != 1:
        raise position.error("round", "a Deployment position starts the game: use round 1")
    state.turn = 0 if position.phase == "Deployment" else position.round
    state.phase = position.phase
    state.initiative = _player(position, rules, "initiative", 1)
    prev = rules.get("prev_initiative")
    state.prev_initiative = None if prev is None else _player(position, rules, "prev_initiative")
    state.first_deployed = _player(position, rules, "first_deployed", 1)
    sheets = _sheets(position)
    _armies(state, position, sheets)
    return _sides(state, position, rules.get("sides", []))


def stack(deck: Deck, top: tuple[str, ...]) -> None:
    """Put ``top`` on the shuffled draw pile, in order (a position's deck order)."""
    deck.draw_pile = [*top, *(c for c in deck.draw_pile if c not in top)]


def _player(position: Position, rules: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = rules.get(key, default)
    if value not in (1, 2) or isinstance(value, bool):
        raise position.error(f"{ROOT}.{key}", "must be 1 or 2")
    return int(value) - 1


def _sheets(position: Position) -> dict[str, Datasheet]:
    sheets = load_catalogue()
    try:
        extra = position.scenario.rules.get("datasheets")
        if extra is not None:
            sheets.update(parse_datasheets(extra, position.scenario.source, "apocalypse."))
        own = position.rules.get("datasheets")
        if own is not None:
            sheets.update(parse_datasheets(own, position.source, f"{ROOT}.datasheets."))
    except PositionError:
        raise
    except ScenarioError as exc:
        raise PositionError(str(exc)) from None
    return sheets


def _armies(state: ApocState, position: Position, sheets: dict[str, Datasheet]) -> None:
    raw = position.rules.get("detachments")
    if not isinstance(raw, list) or not raw:
        raise position.error(f"{ROOT}.detachments", "list the detachments")
    state.units.clear()
    state.detachments.clear()
    state.index.clear()
    counts = [0, 0]
    per_seat: list[list[Unit]] = [[], []]
    specs: list[tuple[Unit, Mapping[str, Any], str]] = []
    for d, spec in enumerate(raw):
        key = f"{ROOT}.detachments[{d}]"
        if not isinstance(spec, dict) or spec.get("player") not in (1, 2):
            raise position.error(f"{key}.player", "must be 1 or 2")
        seat = spec["player"] - 1
        det, units = _build(position, spec, seat, counts[seat], len(per_seat[seat]), sheets, key)
        counts[seat] += 1
        _order(position, det, spec, key)
        state.detachments[det.id] = det
        for i, unit in enumerate(units):
            state.units[unit.uid] = unit
            per_seat[seat].append(unit)
            specs.append((unit, spec["units"][i], f"{key}.units[{i}]"))
    for seat in (0, 1):
        if not per_seat[seat]:
            raise position.error(f"{ROOT}.detachments", f"player {seat + 1} has no detachment")
        _name_duplicates(per_seat[seat])
    for unit, spec, key in specs:
        _markers(position, unit, spec, key)
        _place(state, position, unit, spec, key)
    for unit, spec, key in specs:
        _embark(state, position, unit, spec, key)


def _build(
    position: Position,
    spec: Mapping[str, Any],
    seat: int,
    d: int,
    first: int,
    sheets: dict[str, Datasheet],
    key: str,
) -> tuple[Detachment, list[Unit]]:
    """The detachment and its units, checked as a roster's (§4.1, via the roster code)."""
    try:
        return _detachment(spec, seat, d, first, sheets, position.source, key)
    except ScenarioError as exc:
        raise PositionError(str(exc)) from None


def _order(position: Position, det: Detachment, spec: Mapping[str, Any], key: str) -> None:
    order = spec.get("order")
    if order is not None:
        if order not in ORDERS:
            raise position.error(f"{key}.order", f"use one of: {', '.join(ORDERS)}")
        if position.phase in ("Deployment", "Initiative", "Orders"):
            raise position.error(
                f"{key}.order", "orders are given in the Orders phase: start at Action or Damage"
            )
        det.order, det.order_revealed = order, True
    activated = spec.get("activated", False)
    if not isinstance(activated, bool):
        raise position.error(f"{key}.activated", "must be true or false")
    det.activated = activated


def _count(position: Position, spec: Mapping[str, Any], key: str, top: int) -> int:
    value = spec.get(key.rsplit(".", 1)[-1], 0)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
        raise position.error(key, f"must be a whole number from 0 to {top}")
    return value


def _markers(position: Position, unit: Unit, spec: Mapping[str, Any], key: str) -> None:
    """Damage, blast markers and state flags (§3.3, §3.7); critical follows damage (§6.14)."""
    unit.damage = _count(position, spec, f"{key}.damage", unit.sheet.wounds - 1)
    unit.blast_small = _count(position, spec, f"{key}.blast_small", 1)
    unit.blast_large = _count(position, spec, f"{key}.blast_large", 99)
    unit.critical = 2 * unit.damage > unit.sheet.wounds
    warlord = spec.get("warlord", unit.is_warlord)
    if not isinstance(warlord, bool) or (warlord and not unit.is_warlord):
        raise position.error(
            f"{key}.warlord", "true or false; only a CHARACTER Commander is a Warlord (§4.1)"
        )
    unit.is_warlord = warlord
    states = spec.get("states", [])
    if not isinstance(states, list):
        raise position.error(f"{key}.states", "must be a list of state names")
    for name in states:
        if name not in STATES:
            raise position.error(
                f"{key}.states",
                f"unknown state {name!r} (Apocalypse knows: {', '.join(STATES)})",
            )
        setattr(unit, STATES[name], True)


def _place(
    state: ApocState, position: Position, unit: Unit, spec: Mapping[str, Any], key: str
) -> None:
    """On the battlefield at ``cell``, in Reserve, destroyed, or (later) embarked."""
    where = [k for k in ("cell", "reserve", "embarked", "destroyed") if spec.get(k)]
    if position.phase == "Deployment":
        if where:
            raise position.error(
                f"{key}.{where[0]}", "give none: its player deploys it (a Deployment position)"
            )
        return
    if len(where) != 1:
        raise position.error(
            key, "give exactly one of: cell, reserve = true, embarked = ID, destroyed = true"
        )
    if where[0] == "reserve":
        state.put(unit, RESERVE)
    elif where[0] == "destroyed":
        if unit.is_commander:
            raise position.error(
                f"{key}.destroyed", "a destroyed unit holds no Commander marker (§6.13.2)"
            )
        state.put(unit, DESTROYED)
        unit.destroyed_turn = position.round
    elif where[0] == "cell":
        state.put(unit, BATTLEFIELD, _cell(state, position, unit, spec["cell"], f"{key}.cell"))


def _cell(state: ApocState, position: Position, unit: Unit, raw: Any, key: str) -> Cell:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise position.error(key, "must be [x, y]")
    rect = square(Cell(raw[0], raw[1]), unit.sheet.footprint)
    if rect.x0 < 0 or rect.y0 < 0 or rect.x1 >= state.cols or rect.y1 >= state.rows:
        raise position.error(key, f"{unit.name} would lie off the map")
    terrain = state.terrain
    blocked = (
        terrain.impassable if "INFANTRY" in unit.sheet.keywords else terrain.impassable_or_ruins
    )
    if blocked.any_in(rect):
        raise position.error(key, f"{unit.name} would stand on terrain it cannot enter")
    for cell in rect.cells():
        other = state.index.get(cell.y * state.cols + cell.x)
        if other is not None:
            raise position.error(
                key, f"{unit.name} would overlap {other.name} ({other.uid}) at {cell}"
            )
    return Cell(raw[0], raw[1])


def _embark(
    state: ApocState, position: Position, unit: Unit, spec: Mapping[str, Any], key: str
) -> None:
    """Passengers go into their transport once every unit exists (§6.8)."""
    ride = spec.get("embarked")
    if not ride:
        return
    carrier = state.units.get(ride) if isinstance(ride, str) else None
    if (
        carrier is None
        or carrier.location not in (BATTLEFIELD, RESERVE)
        or not can_carry(carrier, unit)
    ):
        raise position.error(
            f"{key}.embarked",
            f"{ride!r} must be the id of a friendly transport on the battlefield or in "
            f"Reserve, with room for {unit.name} (§6.8)",
        )
    state.put(unit, EMBARKED)
    unit.transport = carrier.uid
    carrier.passengers.append(unit.uid)


def _sides(state: ApocState, position: Position, raw: Any) -> Dealing:
    """VP, hands, discard piles and the top of the decks (§3.5)."""
    deal = [0, 0]
    top: list[tuple[str, ...]] = [(), ()]
    for seat, key, spec in position.side_tables(ROOT, raw):
        side = state.side(seat)
        side.vp = _count(position, spec, f"{key}.vp", 999)
        side.assets_quiet = spec.get("assets_quiet", False)
        if not isinstance(side.assets_quiet, bool):
            raise position.error(f"{key}.assets_quiet", "must be true or false")
        deck = side.deck
        for pile in ("discard", "hand"):
            cards = spec.get(pile, [])
            if pile == "hand" and isinstance(cards, int) and not isinstance(cards, bool):
                if not 0 <= cards <= len(deck.draw_pile):
                    raise position.error(f"{key}.hand", "too many cards for the deck")
                deal[seat] = cards
                continue
            if not isinstance(cards, list):
                raise position.error(f"{key}.{pile}", "must be a list of card ids or kinds")
            for card in cards:
                found = [c for c in deck.draw_pile if card in (c, card_kind(c))]
                if not found:
                    raise position.error(
                        f"{key}.{pile}", f"no card {card!r} left in player {seat + 1}'s deck"
                    )
                deck.draw_pile.remove(found[0])
                (deck.hand if pile == "hand" else deck.discard).append(found[0])
        top[seat] = _deck_top(position, deck, spec.get("deck", []), f"{key}.deck")
        if deal[seat] > len(deck.draw_pile):
            raise position.error(f"{key}.hand", "too many cards for the deck")
    return Dealing((deal[0], deal[1]), (top[0], top[1]))


def _deck_top(position: Position, deck: Deck, raw: Any, key: str) -> tuple[str, ...]:
    """Cards (ids or kinds) still in the draw pile, to lie on top of it in this order."""
    if not isinstance(raw, list):
        raise position.error(key, "must be a list of card ids or kinds, top first")
    chosen: list[str] = []
    for card in raw:
        found = [c for c in deck.draw_pile if card in (c, card_kind(c)) and c not in chosen]
        if not found:
            raise position.error(key, f"no card {card!r} left in the draw pile")
        chosen.append(found[0])
    return tuple(chosen)
