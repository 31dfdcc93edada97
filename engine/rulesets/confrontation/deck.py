"""Reference cards as activation decks: clean-up and secret stacking (digest confrontation §6.2).

The stacking Decisions are hidden (hot-seat hand-over) and the only public trace of a
deck is its size and the cards already revealed: no event names an unrevealed card.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Procedure
from engine.hidden import order_secretly
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.state import CState
from engine.wording import says


def remove_dead_cards(state: CState, ctx: RuleContext) -> None:
    """§6.2 step 1 (§10 A33): a card whose fighters are all dead leaves play now."""
    for card in state.cards.values():
        if card.in_play and not state.card_fighters(card.id):
            card.in_play = False
            ctx.emit(
                "CardRemoved",
                f"{card.label} leaves play: all its fighters are dead",
                player=card.owner,
                card=card.id,
            )


def stack_decks(state: CState, ctx: RuleContext, what: str) -> Procedure[None]:
    """§6.2 step 2 / §4.3 step 1: each player in turn secretly orders his cards (D4, D8)."""
    state.step = f"Stack the {what}"
    for side in state.sides:
        cards = [state.cards[c] for c in side.cards if state.cards[c].in_play]
        order = yield from order_secretly(
            side.player, [(c.id, c.label) for c in cards], f"{what} cards"
        )
        side.deck.stack(order)
        ctx.emit(
            "DeckStacked",
            f"{says(side.name, 'stacks')} {len(order)} cards face down for the {what}",
            player=side.player,
            private=True,
            cards=len(order),
        )
