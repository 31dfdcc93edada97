"""Army building at the table: the AP budget, the army lists and the card grouping.

Digest confrontation §4.1 steps 1-3, Decisions D1 and D2 (D3, the map, is the scenario).
Used when a scenario gives each side a ``roster`` of profiles instead of fixed cards.

FILL-IN (the seed only says the players "agree" a budget): player 1 proposes one of the
scenario's budgets and player 2 accepts or proposes another, in turn; after three
refusals each, the scenario's default budget applies. Army lists are chosen secretly,
one after the other, and shown together (so the second player gains nothing from
going second). PROPOSED (A36): a hero is alone on its card; grouping is fixed for the
game.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.hidden import ask_secretly
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.profiles import Profile
from engine.rulesets.confrontation.state import Card, CState, Fighter
from engine.wording import counted

PROPOSALS = 3
"""Refusals allowed to each player before the default budget applies."""


def muster_armies(
    state: CState,
    ctx: RuleContext,
    pools: tuple[Sequence[Profile], Sequence[Profile]],
    budget: int,
    budgets: Sequence[int],
) -> Procedure[None]:
    """D1 then D2 for both players; fills the state's cards and fighters."""
    state.phase = "Army building"
    ctx.enter(0, "Army building")
    if budgets:
        budget = yield from agree_budget(ctx, budgets, budget)
    lists: list[list[Profile]] = []
    for player in (0, 1):
        state.step = "Choose your army (secret)"
        lists.append((yield from choose_army(player, pools[player], budget)))
    for player in (0, 1):
        yield from group_cards(state, ctx, player, lists[player])


def agree_budget(ctx: RuleContext, budgets: Sequence[int], default: int) -> Procedure[int]:
    """D1 (FILL-IN protocol): proposals in turn until one is accepted."""
    for turn in range(2 * PROPOSALS):
        proposer = turn % 2
        choice = yield Decision(
            proposer,
            DecisionKind.PICK_OPTION,
            "Army building: propose the army-point budget",
            tuple(Option(str(b), f"{b} AP") for b in budgets),
        )
        budget = int(choice.key)
        if (yield from ask_yes_no(1 - proposer, f"Army building: play at {budget} AP?")):
            ctx.emit("BudgetAgreed", f"The armies will cost at most {budget} AP", budget=budget)
            return budget
    ctx.emit("BudgetAgreed", f"No agreement: the scenario's {default} AP apply", budget=default)
    return default


def choose_army(player: int, pool: Sequence[Profile], budget: int) -> Procedure[list[Profile]]:
    """D1 (army list): add fighters one by one within the budget, secretly (§4.1 step 2)."""
    army: list[Profile] = []
    while True:
        left = budget - sum(p.ap for p in army)
        heroes = {p.id for p in army if p.is_hero}
        options = [
            Option(p.id, f"Add {p.name} ({p.ap} AP)")
            for p in _listed(pool)
            if p.ap <= left and p.id not in heroes  # PROPOSED: each hero is unique
        ]
        if army:  # ends the list: a key pressed once too often must not end it (TUI asks)
            spent = f"{counted(len(army), 'fighter')}, {budget - left} AP"
            options.append(Option("done", f"Done ({spent})", ends=True))
        if not options:
            return army
        key = yield from ask_secretly(
            player, f"Army building: add a fighter ({left} AP left)", options
        )
        if key == "done":
            return army
        army.append(next(p for p in pool if p.id == key))


def _listed(pool: Sequence[Profile]) -> list[Profile]:
    """The pool in the order it is offered: fighters by cost, heroes last, so that what
    leaves the list (a hero once taken, whatever the budget no longer affords) leaves
    from its end and a player pressing 2 twice adds two of the same fighter (a hero
    first in the list moved every key down by one once chosen)."""
    return sorted(pool, key=lambda p: (p.is_hero, p.ap))


def cards_label(parts: Sequence[int]) -> str:
    """ "one card of 3", "3 cards of 1", "2 cards: 2 + 1": the bare "2" or "1 + 1"
    read as option numbers beside the option's key."""
    if len(parts) == 1:
        return f"one card of {parts[0]}"
    if len(set(parts)) == 1:
        return f"{len(parts)} cards of {parts[0]}"
    return f"{len(parts)} cards: " + " + ".join(map(str, parts))


def group_cards(
    state: CState, ctx: RuleContext, player: int, army: list[Profile]
) -> Procedure[None]:
    """D2: identical fighters onto cards of 1-3; heroes alone (§4.1 step 3, A36)."""
    counts = Counter(p.id for p in army)
    profiles = {p.id: p for p in army}
    side = state.side(player)
    for pid, count in counts.items():
        p = profiles[pid]
        sizes: tuple[int, ...] = (1,) * count
        if not p.is_hero and count > 1:
            choice = yield Decision(
                player,
                DecisionKind.PICK_OPTION,
                f"Army building: group your {count} {p.name} fighters onto cards",
                tuple(
                    Option("+".join(map(str, parts)), cards_label(parts))
                    for parts in partitions(count)
                ),
            )
            sizes = tuple(int(n) for n in choice.key.split("+"))
        for size in sizes:
            _add_card(state, side.cards, player, p, size)
    ctx.emit(
        "ArmyMustered",
        f"{side.name}: "
        + ", ".join(state.cards[c].label for c in side.cards)
        + f" ({sum(p.ap for p in army)} AP)",
        player=player,
    )


def _add_card(state: CState, cards: list[str], player: int, p: Profile, size: int) -> None:
    cid = f"{'AB'[player]}{len(cards) + 1}"
    fids = tuple(cid if size == 1 else f"{cid}.{n}" for n in range(1, size + 1))
    for fid in fids:
        state.fighters[fid] = Fighter(fid, player, cid, p)
    state.cards[cid] = Card(cid, player, p, fids)
    cards.append(cid)


def partitions(n: int, largest: int = 3) -> Iterator[tuple[int, ...]]:
    """Ways to split ``n`` identical fighters into cards of at most ``largest``, biggest first."""
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, first):
            yield (first, *rest)
