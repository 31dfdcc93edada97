"""Command assets: the §12.4 deck, asset windows and the hand limit (digest apocalypse §6.4).

Hands are secret (PROPOSED A11): every Decision that shows a hand is hidden, and events
only name a card once it is played or discarded (both public). In a window the listed
players alternately get an offer: play one eligible card or pass; the window closes
when every participant has passed in a row, and nobody plays two copies of one card in
one window (§6.4.2). A player is offered a window only while he holds a card he could
play in it, so the hot-seat hand-over screen appears for real choices only (this tells
the opponent that some playable card is held, no more). An offer may also be answered
"no assets until my next activation": the player is then offered nothing (and no
hand-over screen appears) until his own next activation begins.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card, card_kind, copies
from engine.decisions import Option, Procedure
from engine.hidden import ask_secretly
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.card_effects import EFFECTS, PLAYABLE, tactical_odds
from engine.rulesets.apocalypse.card_words import card_words, window_prompt
from engine.rulesets.apocalypse.state import ApocState
from engine.rulesets.apocalypse.window import Window
from engine.wording import says

CARDS: dict[str, Card] = {
    c.kind: c
    for c in (
        Card("tactical_insight", "Tactical Insight", "W-INIT", "Re-roll your initiative die."),
        Card(
            "hold_the_line",
            "Hold the Line",
            "W-DESERT",
            "Remove the Deserter markers from up to 2 of your units.",
        ),
        Card(
            "ambush",
            "Ambush",
            "W-RESERVE",
            'The unit arriving from Reserve is set up anywhere more than 9" from every enemy.',
        ),
        Card(
            "forced_march",
            "Forced March",
            "W-ACT-OWN",
            "Choose: this detachment's Move actions get +3\" this activation, or its units "
            "re-roll wound rolls of natural 1 this activation.",
        ),
        Card(
            "smoke_screen",
            "Smoke Screen",
            "W-ACT-ENEMY",
            "One of your units is obscured against the activating detachment's attacks.",
        ),
        Card(
            "precision_barrage",
            "Precision Barrage",
            "W-PREACT",
            "3 wound rolls (SAP 6+, SAT 9+) against an enemy unit one of yours can see.",
        ),
        Card(
            "opportunity_fire",
            "Opportunity Fire",
            "W-PREACT",
            "A unit of an already activated detachment makes a free Shoot action.",
        ),
        Card("fortitude", "Fortitude", "W-DMG-SELECT", "+1 to every save of that unit."),
        Card("steady_nerves", "Steady Nerves", "W-MORALE", "The morale test is passed."),
        Card(
            "field_repairs",
            "Field Repairs",
            "W-DMG-END",
            "Remove 1 damage marker from one of your units (and its critical marker if "
            "damage is then at most half its W).",
        ),
    )
}
"""The ten asset types of the standard deck (§12.4, FILL-IN)."""

DECK_LIST = tuple((kind, 2) for kind in CARDS)
"""Two copies of each type: 20 cards (§6.4.3)."""
HAND_LIMIT = 10
QUIET = "quiet"
"""The answer to an offer that silences the player's offers until his next activation."""


def deck_cards() -> list[str]:
    """Card ids of one standard deck, before shuffling."""
    return copies(DECK_LIST)


def card_name(card_id: str) -> str:
    """The display name of a card copy."""
    return CARDS[card_kind(card_id)].name


@dataclass(slots=True)
class _Offer:
    played: dict[int, set[str]] = field(default_factory=lambda: {0: set(), 1: set()})


def _option(state: ApocState, card: str, player: int, win: Window) -> Option:
    """A card offered in ``win``, saying on whom it works (`card_words`); a re-roll of
    the initiative die shows its odds and spends the card (`Option.spends`: taken by the
    computer only on better than even)."""
    info = CARDS[card_kind(card)]
    whom, detail = card_words(state, info.kind, player, win, info.text)
    label = f"{info.name}: {whom}" if whom else info.name
    if card_kind(card) == "tactical_insight" and len(win.dice) == 2:
        return Option(card, label, detail=detail, odds=tactical_odds(player, win), spends=True)
    return Option(card, label, detail=detail)


def open_window(state: ApocState, ctx: RuleContext, win: Window) -> Procedure[None]:
    """Offer the window's participants their eligible assets in turn (§6.4.2)."""
    offer = _Offer()
    passes = 0
    turn = 0
    while passes < len(win.players):
        player = win.players[turn % len(win.players)]
        turn += 1
        hand = _eligible(state, win, player, offer.played[player])
        if not hand or state.side(player).assets_quiet:
            passes += 1
            continue
        options = [_option(state, c, player, win) for c in hand]
        options.append(Option("pass", "Play no asset"))
        options.append(
            Option(
                QUIET,
                "No assets until my next activation",
                detail="No more offers (and no hand-over screens for them) until one of "
                "your detachments activates; the opponent is not told.",
            )
        )
        key = yield from ask_secretly(player, window_prompt(state, win, player), options)
        if key in ("pass", QUIET):
            state.side(player).assets_quiet = key == QUIET
            passes += 1
            continue
        passes = 0
        kind = card_kind(key)
        offer.played[player].add(kind)
        state.side(player).deck.play(key)
        ctx.emit(
            "AssetPlayed",
            f"{says(state.side(player).name, 'plays')} {CARDS[kind].name}",
            player=player,
            card=kind,
        )
        yield from EFFECTS[kind](state, ctx, player, win)


def _eligible(state: ApocState, win: Window, player: int, used: set[str]) -> list[str]:
    """One copy of each playable card kind in the player's hand, in hand order."""
    out: list[str] = []
    seen: set[str] = set()
    for card in state.side(player).deck.hand:
        kind = card_kind(card)
        if kind in seen or kind in used or CARDS[kind].timing != win.name:
            continue
        seen.add(kind)
        if PLAYABLE[kind](state, player, win):
            out.append(card)
    return out


def draw_assets(state: ApocState, ctx: RuleContext) -> None:
    """Orders step (c): 1 card, +1 per Warlord on the battlefield or embarked (§6.3.3)."""
    for side in state.sides:
        warlords = sum(
            1
            for u in state.units_of(side.player)
            if u.is_warlord and u.alive and not state.in_reserve(u)
        )
        drawn, reshuffled = side.deck.draw(1 + warlords, state.seed)
        ctx.emit(
            "AssetsDrawn",
            f"{says(side.name, 'draws')} {len(drawn)} asset{'s' * (len(drawn) != 1)}"
            + (" (discards shuffled into a new deck)" if reshuffled else "")
            + f": {len(side.deck.hand)} in hand",
            player=side.player,
            drawn=len(drawn),
            hand=len(side.deck.hand),
        )


def hand_limit(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """End of a phase: discard down to 10, initiative player first (§6.4.4)."""
    for player in (state.initiative, 1 - state.initiative):
        deck = state.side(player).deck
        while len(deck.hand) > HAND_LIMIT:
            key = yield from ask_secretly(
                player,
                f"Hand limit: you hold {len(deck.hand)} assets; discard one",
                [Option(c, card_name(c), detail=CARDS[card_kind(c)].text) for c in deck.hand],
            )
            deck.play(key)
            ctx.emit(
                "AssetDiscarded",
                f"{says(state.side(player).name, 'discards')} {card_name(key)} (hand limit)",
                player=player,
                card=card_kind(key),
            )
