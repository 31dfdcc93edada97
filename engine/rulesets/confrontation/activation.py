"""The Activation phase: alternating card turns, declarations, charges first.

Digest confrontation §5, §6.3.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.actions import (
    best_shot_odds,
    common_actions,
    may_disengage_and_walk,
)
from engine.rulesets.confrontation.charge import charge_reach, resolve_charge
from engine.rulesets.confrontation.disengage import can_disengage, disengage_chance
from engine.rulesets.confrontation.geometry import enemies_in_contact, free_contact_cells, is_free
from engine.rulesets.confrontation.state import Card, CState, Fighter
from engine.rulesets.confrontation.tactical import choose_first
from engine.wording import says


@dataclass(frozen=True, slots=True)
class Declaration:
    """What a fighter of the revealed card will do (§6.3 step 2, D11)."""

    kind: str
    """"charge", "disengage_charge", "common" or "nothing"."""
    target: str = ""


def activation_phase(state: CState, ctx: RuleContext, *, fresh: bool = True) -> Procedure[None]:
    """§5 ACT_CHOOSE_FIRST .. END_TURN: alternate reveals until both decks are empty.

    ``fresh`` False: a position's engaged flags stand (play_game ``held``)."""
    state.phase = "Activation"
    ctx.enter(state.round, "Activation")
    for f in state.fighters.values():
        f.engaged = f.engaged and not fresh
    assert state.tactical_winner is not None
    current = yield from choose_first(
        state, state.tactical_winner, "who takes the first activation turn?"
    )
    ctx.emit(
        "FirstPlayerChosen",
        f"{says(state.side(current).name, 'plays')} first",
        player=current,
    )
    while any(len(s.deck) for s in state.sides):
        if len(state.side(current).deck):
            state.current_player = current
            yield from activation_turn(state, ctx, current)
        current = 1 - current
    state.current_player = None


def activation_turn(state: CState, ctx: RuleContext, player: int) -> Procedure[None]:
    """§6.3: reveal the top card (D10, forced), declare, resolve charges, then the rest."""
    side = state.side(player)
    card = state.cards[side.deck.reveal()]
    state.step = f"{card.label}"
    fighters = [f for f in state.card_fighters(card.id) if f.on_table]
    ctx.emit(
        "CardRevealed",
        f"{says(side.name, 'reveals')} {card.label}"
        + ("" if fighters else ": nobody left, empty turn"),
        player=player,
        card=card.id,
    )
    if not fighters:
        return
    for f in fighters:
        f.activated = True
        f.free_at_reveal = is_free(state, f)
    through = set(card.fighters)
    declared: dict[str, Declaration] = {}
    for f in fighters:
        charged = [d.target for d in declared.values() if d.target]
        declared[f.id] = yield from _declare(state, ctx, f, card, charged)
    # §6.3 step 4: only living fighters act. A shot's distribution roll (T6) can kill a
    # card-mate who is still waiting, so the queue is re-filtered before each pick.
    chargers = [f for f in fighters if declared[f.id].kind in ("charge", "disengage_charge")]
    asked = False
    while chargers := [f for f in chargers if f.on_table]:
        asked = asked or len(chargers) > 1
        f = yield from _next(
            ctx, player, chargers, "Which charge is resolved next?", asked, "charge"
        )
        chargers.remove(f)
        d = declared[f.id]
        yield from resolve_charge(
            state, ctx, f, d.target, through, after_disengage=d.kind == "disengage_charge"
        )
    others = [f for f in fighters if declared[f.id].kind == "common"]
    asked = False
    while others := [f for f in others if f.on_table]:
        asked = asked or len(others) > 1
        f = yield from _next(ctx, player, others, "Which fighter acts next?", asked, "act")
        others.remove(f)
        yield from common_actions(state, ctx, f, through)


def _next(
    ctx: RuleContext, player: int, pool: list[Fighter], prompt: str, asked: bool, step: str
) -> Procedure[Fighter]:
    """The owner picks the order of the card's fighters (D13, D14); ``asked`` when the
    order was asked before, so the last one is said to be taken. ``step`` names the
    queue: the last "charge" is not the card's last fighter when card-mates declared
    common actions (the note read "B2.3 is the last fighter of the card" over the
    question to B2.2)."""
    if len(pool) == 1:
        if asked:
            name = pool[0].name
            said = (
                f"{name}'s charge is the last of the card: it is resolved now."
                if step == "charge"
                else f"{name} is the last fighter of the card: it goes now."
            )
            ctx.answered(said, player)
        return pool[0]
    choice = yield Decision(
        player,
        DecisionKind.ORDER,
        prompt,
        tuple(Option(f.id, f.name, cell=f.cell, model=f.id) for f in pool),
    )
    return next(f for f in pool if f.id == choice.key)


def _declare(
    state: CState, ctx: RuleContext, f: Fighter, card: Card, charged: Sequence[str] = ()
) -> Procedure[Declaration]:
    """D11: charge (target), disengage-then-charge (target), common actions or nothing.
    ``charged``: the targets of the card-mates' charges declared before.

    PROPOSED (A14): a charge needs a target with a free contact cell. A fighter in
    contact charges only enemies it is not touching (it is leaving those).
    """
    options = _declaration_options(state, f, card, charged)
    if len(options) == 1:
        choice_key = options[0].key
        ctx.answered(f"{f.name} can only declare: {options[0].label}.", f.player)
    else:
        choice = yield Decision(
            f.player,
            DecisionKind.PICK_OPTION,
            f"Declare the action of {f.name}",
            tuple(options),
            subject=f.id,
        )
        choice_key = choice.key
    kind, _, target = choice_key.partition(":")
    declaration = Declaration(kind, target)
    text = {
        "charge": "declares a charge",
        "disengage_charge": "declares a disengagement and a charge",
        "common": "declares common actions",
        "nothing": "does nothing",
    }[kind]
    if target:
        text += f" on {state.fighters[target].name}"
    ctx.emit("ActionDeclared", f"{f.name} {text}", model=f.id, action=kind, target=target)
    return declaration


def _declaration_options(
    state: CState, f: Fighter, card: Card, charged: Sequence[str] = ()
) -> list[Option]:
    """What a player usually wants first: common actions, then the charges that reach,
    then nothing; charges out of reach (legal: the charger moves its whole allowance
    towards the target, §6.6 step 5) come last, so a long list never hides the rest.

    A target is sure to be reached only if more of its free contact cells lie in reach
    than the card-mates' charges declared before (``charged``) can take: one each, of
    those charging it or an enemy sharing one of those cells (card-mates pass through
    each other; enemies do not move during the charges). Else success depends on
    the order the charges are resolved and the cells taken: no chance is given (it said
    100% for a second charger at a target with one free contact cell)."""
    free = is_free(state, f)
    options: list[Option] = []
    if free:
        label = "Common actions: walk, run or shoot"
        options.append(Option("common", label, odds=best_shot_odds(state, f)))
    elif may_disengage_and_walk(state, f):
        options.append(Option("common", "Disengage, then walk (and maybe shoot)"))
    failing: list[Option] = []
    touching = {e.id for e in enemies_in_contact(state, f)}
    if free or can_disengage(state, f):
        kind = "charge" if free else "disengage_charge"
        allowance = 2 * f.profile.mov if free else f.profile.mov
        reach = charge_reach(state, f, allowance, set(card.fighters))
        ends = {t: set(free_contact_cells(state, state.fighters[t])) for t in set(charged)}
        for e in state.on_table(1 - f.player):
            contacts = free_contact_cells(state, e)
            if e.id in touching or not contacts:
                continue
            near = {c for c in contacts if c in reach}
            cells = len(near)
            reaches = cells > 0
            note = "in reach" if reaches else "out of reach"  # the odds say it fails
            verb = "Charge" if free else "Disengage, then charge"
            chance = Fraction(int(reaches)) * (1 if free else disengage_chance(state, f))
            odds: Odds | None = Odds.of(("charge succeeds", chance))
            mates = sum(1 for t in charged if t == e.id or near & ends.get(t, set()))
            if reaches and cells <= mates:
                who = "a card-mate charges" if mates == 1 else f"{mates} card-mates charge"
                note = f"in reach if a contact cell is left: {cells} free, {who} there too"
                odds = None
            option = Option(
                f"{kind}:{e.id}", f"{verb} {e.name} ({note})", cell=e.cell, model=e.id, odds=odds
            )
            (options if reaches else failing).append(option)
    options.append(Option("nothing", "Nothing", neutral=True))
    return options + failing
