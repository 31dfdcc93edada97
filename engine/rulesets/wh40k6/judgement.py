"""Choices the wh40k6 normal player takes by its own reckoning (`Wh40k6Evaluation.judge`):
which of equally close models takes a wound, what a unit that fights better than it
shoots shoots at.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.bot.evaluation import number
from engine.decisions import Decision
from engine.rulesets.wh40k6.view import CARRIES_RELIC
from engine.view import GameView

AIM = " at which unit?"
"""The end of the prompt where a unit picks what it shoots at (engine.rulesets.wh40k6.shooting)."""

CLOSE = 8
"""Inches within which a target is one to charge after shooting it (`closing`): 2D6
reaches it more often than not."""

NEXT_WOUND = "Equally close models: which one takes the next wound"
"""The prompt where the defender picks which of its equally close models a wound goes
to (engine.rulesets.wh40k6.damage)."""


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


def closing(decision: Decision, view: GameView) -> str | None:
    """A unit that fights better than it shoots (WS over BS: the Horde's) shoots at the
    nearest target within `CLOSE`, the one it may charge next: a unit that shot may charge
    only the unit it shot at (§6.11). Horde Mob Black fired its one rocket at the Warden
    Lexicar 17" away, the Warlord the quick worth prizes, and stood 2" from the Rangers it
    could then not charge (seed 40 against easy). None: no such unit or target."""
    name = decision.prompt.removesuffix(AIM).rpartition(" shoot")[0]
    lead = next(
        (m for m in view.models if m.player == decision.player and m.states[:1] == (name,)),
        None,
    )
    if lead is None:
        return None
    profile = dict(lead.profile)
    if number(profile.get("WS", "-")) <= number(profile.get("BS", "-")):
        return None
    near = []
    for option in decision.options:
        inches = option.label.partition(" (")[2].partition('"')[0]
        if inches.isdigit() and int(inches) <= CLOSE:
            near.append((int(inches), option.key))
    return min(near, key=lambda pair: pair[0])[1] if near else None
