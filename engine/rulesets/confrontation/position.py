"""Confrontation positions: fighters, wounds, flags and decks at the start of a phase.

A position replaces the scenario's forces with the fighters it lists (profiles come from
the scenario). Phases (digest confrontation §5): "Deployment" (round 1, nobody placed
yet), "Strategic" (the start of a round), "Activation" (decks already stacked) and
"Combat". The ``[confrontation]`` table of a position file::

    tactical_winner = 1             # 1 or 2: winner of this round's Tactical roll
    decks = [["A2", "A1"], ["B1"]]  # Activation: face-down order, top first (default:
                                    # every card with a living fighter, in file order)
    [[confrontation.fighters]]
    player = 1
    profile = "spearman"            # a profile of the scenario
    card = "A2"                     # optional: fighters sharing a card activate together
    id = "A2.1"                     # optional: default the card id, or card.n when shared
    cell = [3, 4]                   # none in a Deployment position, or when killed
    facing = "N"                    # optional: N, NE, E, ... (default N for player 1, S)
    wound = "light"                 # optional: healthy, light, serious, critical, killed
    states = ["engaged"]            # optional, see STATES

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.board import Cell
from engine.facing import read_facing
from engine.position import Position
from engine.rulesets.confrontation.profiles import Profile
from engine.rulesets.confrontation.state import Card, CState, Fighter
from engine.rulesets.confrontation.tables import Wound
from engine.scenario import KeySpec, check_keys

PHASES = ("Deployment", "Strategic", "Activation", "Combat")

STATES: Mapping[str, str] = {
    "activated": "activated",
    "charged": "charged",
    "ran": "ran",
    "engaged": "engaged",
    "disengage failed": "disengage_failed",
    "fought": "fought",
    "free at reveal": "free_at_reveal",
    "shot": "shots",
}
"""Position state names -> Fighter flags (§3.5); "shot": it has shot this round (its one
shot, §6.9)."""


POSITION_KEYS: KeySpec = {
    **dict.fromkeys(("tactical_winner", "decks")),
    "fighters": dict.fromkeys(
        ("player", "profile", "card", "id", "states", "wound", "cell", "facing")
    ),
}
"""The keys of a position's [confrontation] table and its fighters (a misspelt one is
refused rather than silently left at its default)."""


def load_confrontation_position(
    state: CState, position: Position, profiles: Mapping[str, Profile]
) -> None:
    """Replace ``state``'s fighters, cards and round with the position's (validated)."""
    rules = position.rules
    check_keys(rules, POSITION_KEYS, position.source, "confrontation")
    if position.phase not in PHASES:
        raise position.error("phase", f"use one of: {', '.join(PHASES)}")
    if position.phase == "Deployment" and position.round != 1:
        raise position.error("round", "a Deployment position starts the game: use round 1")
    winner = rules.get("tactical_winner", 1)
    if winner not in (1, 2):
        raise position.error("confrontation.tactical_winner", "must be 1 or 2")
    state.tactical_winner = winner - 1
    state.round = position.round if position.phase != "Deployment" else 0
    state.phase = position.phase
    raw = rules.get("fighters")
    if not isinstance(raw, list) or not raw:
        raise position.error("confrontation.fighters", "list the fighters")
    state.fighters.clear()
    state.cards.clear()
    for side in state.sides:
        side.cards.clear()
    shared = Counter(s.get("card") for s in raw if isinstance(s, dict) and "card" in s)
    for i, spec in enumerate(raw):
        _fighter(state, position, profiles, spec, f"confrontation.fighters[{i}]", shared)
    if position.phase == "Activation":
        _decks(state, position, rules.get("decks"))


def _fighter(
    state: CState,
    position: Position,
    profiles: Mapping[str, Profile],
    spec: Any,
    key: str,
    shared: Counter[Any],
) -> None:
    if not isinstance(spec, dict):
        raise position.error(key, "must be a table")
    player = spec.get("player")
    if player not in (1, 2):
        raise position.error(f"{key}.player", "must be 1 or 2")
    seat = player - 1
    profile = profiles.get(spec.get("profile", ""))
    if profile is None:
        raise position.error(f"{key}.profile", f"use one of: {', '.join(profiles)}")
    side = state.side(seat)
    card_id = spec.get("card", f"{'AB'[seat]}{len(side.cards) + 1}")
    card = state.cards.get(card_id)
    if card is not None and (card.owner != seat or card.profile != profile):
        raise position.error(f"{key}.card", f"{card_id} holds other fighters")
    mates = () if card is None else card.fighters
    default = card_id if shared[card_id] <= 1 else f"{card_id}.{len(mates) + 1}"
    fid = spec.get("id", default)
    if not isinstance(fid, str) or fid in state.fighters:
        raise position.error(f"{key}.id", f"{fid!r} is not a new fighter id")
    fighter = Fighter(fid, seat, card_id, profile, facing=0 if seat == 0 else 4)
    _wound(fighter, position, spec, key)
    _place(state, position, fighter, spec, key)
    _states(fighter, position, spec.get("states", []), f"{key}.states")
    state.fighters[fid] = fighter
    if card is None:
        state.cards[card_id] = Card(card_id, seat, profile, (fid,))
        side.cards.append(card_id)
    else:
        state.cards[card_id] = Card(card_id, seat, profile, (*mates, fid))


def _wound(fighter: Fighter, position: Position, spec: Mapping[str, Any], key: str) -> None:
    name = spec.get("wound", "healthy")
    try:
        fighter.wound = Wound[str(name).upper()]
    except KeyError:
        raise position.error(
            f"{key}.wound", "use healthy, light, serious, critical or killed"
        ) from None


def _place(
    state: CState, position: Position, fighter: Fighter, spec: Mapping[str, Any], key: str
) -> None:
    absent = position.phase == "Deployment" or not fighter.alive
    if absent:
        if "cell" in spec:
            raise position.error(f"{key}.cell", "give no cell: the fighter is not on the table")
        return
    raw = spec.get("cell")
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise position.error(f"{key}.cell", "must be [x, y]")
    cell = Cell(raw[0], raw[1])
    if cell not in state.board or not state.board.is_standable(cell):
        raise position.error(f"{key}.cell", f"{cell} is off the map or impassable")
    if cell in state.occupied():
        raise position.error(f"{key}.cell", f"{cell} already holds a fighter")
    fighter.cell = cell
    try:
        fighter.facing = read_facing(spec.get("facing", fighter.facing * 45))
    except ValueError as exc:
        raise position.error(f"{key}.facing", str(exc)) from None


def _states(fighter: Fighter, position: Position, raw: Any, key: str) -> None:
    if not isinstance(raw, list) or any(s not in STATES for s in raw):
        raise position.error(key, f"list states among: {', '.join(STATES)}")
    for name in raw:
        setattr(fighter, STATES[name], 1 if name == "shot" else True)


def _decks(state: CState, position: Position, raw: Any) -> None:
    """Each side's face-down activation deck (default: its cards in file order)."""
    for side in state.sides:
        living = [c for c in side.cards if state.card_fighters(c)]
        order = living
        if raw is not None:
            key = f"confrontation.decks[{side.player}]"
            if not isinstance(raw, list) or len(raw) != 2:
                raise position.error("confrontation.decks", "give two lists of card ids")
            order = raw[side.player]
            if not isinstance(order, list) or not set(order) <= set(side.cards):
                raise position.error(key, f"list card ids of player {side.player + 1}")
        side.deck.stack(order)
