"""Choices the wh40k6 normal player takes by its own reckoning (`Wh40k6Evaluation.judge`):
which unit moves next, which of equally close models takes a wound, what a unit shoots
at.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.bot.evaluation import number
from engine.bot.heuristic import chance
from engine.decisions import Decision
from engine.rulesets.wh40k6.view import CARRIES_RELIC
from engine.view import GameView, ModelView

AIM = " at which unit?"
"""The end of the prompt where a unit picks what it shoots at (engine.rulesets.wh40k6.shooting)."""

CLOSE = 8
"""Inches within which a target is one to charge after shooting it (`target`): 2D6
reaches it more often than not."""

CHARGES = 18
"""Inches within which an enemy brawler may charge next turn (`target`): a 6" move and a
charge of up to 12"."""

MOVES_NEXT = "Which unit moves next?"
"""The prompt where the player picks the next unit to move (engine.rulesets.wh40k6.movement)."""

EMBARKED = "embarked"
"""The state of a model riding a transport (engine.rulesets.wh40k6.view)."""

NEXT_WOUND = "Equally close models: which one takes the next wound"
"""The prompt where the defender picks which of its equally close models a wound goes
to (engine.rulesets.wh40k6.damage)."""


def riders_first(decision: Decision, view: GameView) -> str | None:
    """A unit riding a transport moves (gets out) before the others: the transport that
    moves first may go too far for it to get out. The quick worth cannot tell one unit
    from another, the Scrap Hauler drove 9" on with its mob aboard, and the mob rode
    where it can hold no marker (test_a_mob_gets_out_of_its_transport). None: no
    unit of the seat rides one."""
    riding = {
        m.id.rpartition(".")[0]
        for m in view.models
        if m.player == decision.player and not m.removed and EMBARKED in m.states
    }
    return next((o.key for o in decision.options if o.key in riding), None)


def spared(decision: Decision, view: GameView) -> str | None:
    """Which of the equally close models takes the next wound, where one of them carries
    the Relic: another one, so the Relic stays carried (None: the search decides, as
    before). The first of the group took it, the carrier was the mob's boss at its head,
    and the Horde dropped the Relic to one rifle wound and lost 2-3 (seed 38 against
    easy, The Relic)."""
    carriers = {m.id for m in view.models if not m.removed and CARRIES_RELIC in m.states[1:]}
    picks = [(o.key, o.model) for o in decision.options if o.model is not None]
    if not carriers.intersection(model for _, model in picks):
        return None
    return next((key for key, model in picks if model not in carriers), None)


def target(decision: Decision, view: GameView) -> str | None:
    """What a unit shoots at, by the one rule of the charge that matters (§6.11: a unit
    that shot may charge only the unit it shot at; a charge reaches up to 12"):

    - a unit that fights better than it shoots (`brawler`: the Horde's) shoots the
      nearest target within `CLOSE`, the one it may charge next. Horde Mob Black fired
      its one rocket at the Warden Lexicar 17" away, the Warlord the quick worth prizes,
      and stood 2" from the Rangers it could then not charge (seed 40 against easy);
    - any other unit shoots the nearest brawler within `CHARGES` that its shots can
      hurt, the unit that would charge it next: normal as the Wardens against easy, odd
      seeds 1-199, 66-28-6 by the quick worth, 75-19-6 so (12": 70-25-5, 24": 71-22-7).

    None: no such target (the search decides)."""
    name = decision.prompt.removesuffix(AIM).rpartition(" shoot")[0]
    lead = next(
        (m for m in view.models if m.player == decision.player and m.states[:1] == (name,)),
        None,
    )
    if lead is None:
        return None
    closes = brawler(lead)
    near = []
    for option in decision.options:
        inches = option.label.partition(" (")[2].partition('"')[0]
        if not inches.isdigit() or int(inches) > (CLOSE if closes else CHARGES):
            continue
        if not closes:
            foe = next((m for m in view.models if m.cell == option.cell), None)
            hurts = option.odds is not None and chance(option.odds) > 0
            if foe is None or foe.player == decision.player or not brawler(foe) or not hurts:
                continue
        near.append((int(inches), option.key))
    return min(near, key=lambda pair: pair[0])[1] if near else None


def brawler(model: ModelView) -> bool:
    """The model fights better than it shoots: its WS is over its BS."""
    profile = dict(model.profile)
    return number(profile.get("WS", "-")) > number(profile.get("BS", "-"))
