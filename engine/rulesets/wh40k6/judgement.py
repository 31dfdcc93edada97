"""Choices the wh40k6 normal player takes by its own reckoning (`Wh40k6Evaluation.judge`,
`needless`): which unit moves next and how far a loaded transport goes, which of equally
close models takes a wound, what a unit shoots at, whether it goes to ground, which
charges it leaves.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from fractions import Fraction

from engine.board import Cell, distance
from engine.bot.evaluation import number
from engine.bot.heuristic import chance
from engine.decisions import Decision, Option
from engine.footprints import footprint_owner
from engine.rulesets.wh40k6.relic import PICK_UP
from engine.rulesets.wh40k6.view import CARRIES_RELIC, CARRYING, RELIC_ZONE, SCORING
from engine.view import GameView, ModelView

AIM = " at which unit?"
"""The end of the prompt where a unit picks what it shoots at (engine.rulesets.wh40k6.shooting)."""

CLOSE = 8
"""Inches within which a target is one to charge after shooting it (`target`): 2D6
reaches it more often than not."""

CHARGES = 18
"""Inches within which an enemy brawler may charge next turn (`target`): a 6" move and a
charge of up to 12"."""

FINISH = Fraction(1, 2)
"""Expected unsaved wounds, as a share of the target's wounds left, from which a unit
shoots to destroy it (`finishing`)."""

SHOTS = re.compile(r"(?:Assault|Heavy|Pistol|Salvo|Ordnance) (\d+)")
"""A gun's type and shots in a weapon line ('36" S 5 AP 4 Heavy 3')."""

CHARGE = "Declare a charge?"
"""The prompt where the player declares its next charge (engine.rulesets.wh40k6.charge)."""

MOVES_NEXT = "Which unit moves next?"
"""The prompt where the player picks the next unit to move (engine.rulesets.wh40k6.movement)."""

HOLD = 3
"""Inches within which a model holds a marker or keeps it from the other side (§4.6)."""

COMBAT_SPEED = 6
"""Inches a transport may move and still let its riders get out (§6.15)."""

EMBARKED = "embarked"
"""The state of a model riding a transport (engine.rulesets.wh40k6.view)."""

NEXT_WOUND = "Equally close models: which one takes the next wound"
"""The prompt where the defender picks which of its equally close models a wound goes
to (engine.rulesets.wh40k6.damage)."""


LAST_ROUNDS = 5
"""The first round after which the game may end (§4.2: a D6 from turn 5): markers score
at the end, so a marker held then may be the game."""

NEAR_MARKER = HOLD + 3
"""Inches from a marker within which a charge's target stands close enough that the
charging unit fights by the marker."""


def stays_on(decision: Decision, view: GameView) -> frozenset[str]:
    """Charges (keys "UNIT>TARGET") that would take off a marker the unit alone stands by
    for its side (a model of it within `HOLD`, no other scoring unit of the side there:
    it holds the marker, or keeps it from the other side if it is no scoring unit) at a
    target standing away from that marker, once the game may end after this round
    (`LAST_ROUNDS`): Horde Mob Black charged the Warden Lexicar 6" off the marker it had
    held since turn 1 in turn 5, the game ended, and the Horde lost 1-4 (seed 624
    against easy). As the Horde against easy, even seeds 602-800: 53-33-14 before,
    55-31-14 so."""
    if view.round < LAST_ROUNDS or decision.prompt != CHARGE:
        return frozenset()
    standing = [m for m in view.models if not m.removed and m.cell is not None]
    needless = set()
    for option in decision.options:
        unit, _, target = option.key.partition(">")
        if not target:
            continue
        mine = [m.cell for m in standing if unit_of(m.id) == unit and m.cell is not None]
        theirs = [m.cell for m in standing if unit_of(m.id) == target and m.cell is not None]
        for marker in view.objectives:
            if not any(distance(c, marker.cell) <= HOLD for c in mine):
                continue
            others = any(
                m.player == decision.player
                and SCORING in m.states
                and unit_of(m.id) != unit
                and distance(m.cell, marker.cell) <= HOLD
                for m in standing
                if m.cell is not None
            )
            away = all(distance(c, marker.cell) > NEAR_MARKER for c in theirs)
            if not others and away:
                needless.add(option.key)
    return frozenset(needless)


def relic_cells(view: GameView) -> list[Cell]:
    """The Relic's cells as the view shows them (mission 6): its cell on the ground, or
    its carrier's; none in another mission."""
    return sorted(c for name, cells in view.zones if name == RELIC_ZONE for c in cells)


def unit_of(model_id: str) -> str:
    """The unit of a model ("B2" of "B2.3"; a big model's part "B4.1~2" is of "B4")."""
    return footprint_owner(model_id).rpartition(".")[0]


GROUND = " wounded: Go to Ground"
"""In the question whether a unit wounded by shots goes to ground (§6.8.11)."""


def grounds(decision: Decision, view: GameView, goals: Sequence[Cell]) -> str:
    """Go to Ground (§6.8.11) only where the unit holds a marker or the Relic (within
    `HOLD` of one of ``goals``) and would stay anyway: else it is pinned for its next
    turn. Normal's look-ahead went to ground each time (its few choices played on
    resolved fewer wounds after the saves it added) and its Horde mobs never reached the
    Wardens (seed 5021 against easy)."""
    name = decision.prompt.partition(GROUND)[0].rpartition(" ")[0]
    cells = [
        m.cell
        for m in view.models
        if m.player == decision.player and m.cell is not None and m.states[:1] == (name,)
    ]
    holds = any(distance(c, g) <= HOLD for c in cells for g in goals)
    return "yes" if holds else "no"


def loaded(model: ModelView) -> bool:
    """A transport with a unit aboard (engine.rulesets.wh40k6.view)."""
    return any(state.startswith(CARRYING) for state in model.states)


def carried_first(decision: Decision, view: GameView) -> str | None:
    """A transport with a unit aboard moves first, no more than 6" (`too_far`), then its
    riders get out, up to 6" on from where it stopped (§6.15). The quick worth cannot
    tell one unit from another: the Scrap Hauler drove 9" on with its mob aboard, too far
    for it to get out, and the mob rode where it can hold no marker
    (test_a_mob_gets_out_of_its_transport). Riders first got out where the transport
    stood: as the Horde against easy, even seeds 2-200, 60-30-10 so, 63-29-8 with the
    transport first. None: no unit of the seat rides one."""
    mine = [m for m in view.models if m.player == decision.player and not m.removed]
    carriers = {m.id.rpartition(".")[0] for m in mine if m.cell is not None and loaded(m)}
    riders = {m.id.rpartition(".")[0] for m in mine if EMBARKED in m.states}
    keys = [o.key for o in decision.options]
    return next((k for k in keys if k in carriers), next((k for k in keys if k in riders), None))


def too_far(decision: Decision, view: GameView) -> frozenset[str]:
    """A move of more than 6" for a transport with a unit aboard: its riders could not
    get out (§6.15)."""
    mover = view.model(decision.subject) if decision.subject else None
    if mover is None or not loaded(mover):
        return frozenset()
    return frozenset(
        o.key
        for o in decision.options
        if (inches := o.label.rpartition("(")[2].partition('"')[0]).isdigit()
        and int(inches) > COMBAT_SPEED
    )


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


def target(
    decision: Decision,
    view: GameView,
    goals: Sequence[Cell] = (),
    relic: Collection[Cell] = (),
) -> str | None:
    """What a unit shoots at, by the one rule of the charge that matters (§6.11: a unit
    that shot may charge only the unit it shot at; a charge reaches up to 12"):

    - a unit that fights better than it shoots (`brawler`: the Horde's) shoots the
      nearest target within `CLOSE`, the one it may charge next. Horde Mob Black fired
      its one rocket at the Warden Lexicar 17" away, the Warlord the quick worth prizes,
      and stood 2" from the Rangers it could then not charge (seed 40 against easy).
      Of those, one standing by a marker or the Relic (``goals``) first: its models
      there keep the marker from the side (as the Horde against easy, even seeds
      602-800: 55-31-14 nearest first, 57-30-13 so);
    - any other unit shoots first what its shots are likely to destroy (`finishing`),
      else the Relic's carrier or a unit in the way of it (``relic``: its cells,
      `blocking`), else the nearest brawler within `CHARGES` that its shots can hurt,
      the unit that would charge it next: normal as the Wardens against easy, odd
      seeds 1-199, 66-28-6 by the quick worth, 75-19-6 so (12": 70-25-5, 24": 71-22-7);
    - else (`keeper`) the unit standing by a marker or the Relic (``goals``) it is the
      likeliest to hurt: one model there keeps the marker from the other side.

    None: no such target (the search decides)."""
    name = decision.prompt.removesuffix(AIM).rpartition(" shoot")[0]
    shooters = [
        m
        for m in view.models
        if m.player == decision.player and m.cell is not None and m.states[:1] == (name,)
    ]
    if not shooters:
        return None
    closes = brawler(shooters[0])
    if not closes and (doomed := finishing(decision, view, shooters)) is not None:
        return doomed
    if not closes and (blocker := blocking(decision, view, relic)) is not None:
        return blocker
    near = []
    for option in decision.options:
        inches = option.label.partition(" (")[2].partition('"')[0]
        if not inches.isdigit() or int(inches) > (CLOSE if closes else CHARGES):
            continue
        if not closes:
            foe = _aimed_at(option, view, decision.player)
            hurts = option.odds is not None and chance(option.odds) > 0
            if not foe or not brawler(foe[0]) or not hurts:
                continue
        marked = closes and _by_goal(option, view, decision.player, goals)
        near.append((not marked, int(inches), option.key))
    if near:
        return min(near)[2]
    return keeper(decision, view, goals)


def finishing(decision: Decision, view: GameView, shooters: list[ModelView]) -> str | None:
    """The target the shots are likeliest to destroy, where they are expected to take
    at least `FINISH` of its wounds left: a destroyed unit shoots no more, and the first
    one destroyed gives First Blood. Normal against easy, seeds 201-400, gave First Blood
    in 83 of 198 games and won 23 of them; it took it in 115 and won 95."""
    shots = sum(_shots(m) for m in shooters)
    best: tuple[Fraction, str] | None = None
    for option in decision.options:
        foe = _aimed_at(option, view, decision.player)
        if not foe or option.odds is None:
            continue
        left = sum(m.wounds for m in foe if footprint_owner(m.id) == m.id)
        share = _firing(option, shots) * chance(option.odds) / max(left, 1)
        if share >= FINISH and (best is None or share > best[0]):
            best = (share, option.key)
    return best[1] if best else None


def blocking(decision: Decision, view: GameView, relic: Collection[Cell]) -> str | None:
    """The target with a model within `PICK_UP` of the Relic (``relic``: its cell on the
    ground or its carrier's) that the shots are likeliest to hurt: its carrier, or a unit
    in the way, as no model may end a move within 1" of an enemy. The Horde's Scrap
    Hauler parked on the Relic from turn 4 to the end, whole, while two Warden squads
    stood 3" from it and shot at mobs, and the game ended 1-2 (seed 917 against easy).
    None: nothing stands there."""
    return _likeliest(decision, view, relic, PICK_UP)


def keeper(decision: Decision, view: GameView, goals: Sequence[Cell]) -> str | None:
    """The target with a model within `HOLD` of one of ``goals`` (a marker, the Relic's
    cells) that the shots are likeliest to hurt. The Horde ended a Crusade 1-8 with two
    mobs, its Warlord, walker and transport standing, a single Warden Outrider on one of
    its markers and the Bastion Tank on the other (seed 316 against easy): the quick
    worth spread its shots elsewhere. None: no target stands by one."""
    return _likeliest(decision, view, goals, HOLD)


def _likeliest(
    decision: Decision, view: GameView, cells: Collection[Cell], reach: int
) -> str | None:
    """The option whose target has a model within ``reach`` of one of ``cells`` that the
    shots are likeliest to hurt (None: no target the shots can hurt stands there)."""
    best: tuple[Fraction, str] | None = None
    for option in decision.options:
        if option.odds is None or (odds := chance(option.odds)) <= 0:
            continue
        there = _by_goal(option, view, decision.player, cells, reach)
        if there and (best is None or odds > best[0]):
            best = (odds, option.key)
    return best[1] if best else None


def _by_goal(
    option: Option, view: GameView, player: int, goals: Collection[Cell], reach: int = HOLD
) -> bool:
    """A model of the unit ``option`` aims at stands within ``reach`` of one of ``goals``."""
    cells = [m.cell for m in _aimed_at(option, view, player) if m.cell is not None]
    return any(distance(c, g) <= reach for c in cells for g in goals)


def _aimed_at(option: Option, view: GameView, player: int) -> list[ModelView]:
    """The standing models of the enemy unit ``option`` aims at (a big one on each cell
    of its footprint)."""
    foe = next((m for m in view.models if m.cell == option.cell and m.cell is not None), None)
    if foe is None or foe.player == player:
        return []
    unit = foe.id.rpartition(".")[0] + "."
    return [m for m in view.models if m.id.startswith(unit) and not m.removed]


def _shots(model: ModelView) -> int:
    """The most shots one of the model's guns fires ("Heavy 3"; Rapid Fire one beyond
    half range), as its weapon lines say."""
    counts = [int(n) for line in model.weapons for n in SHOTS.findall(line)]
    return max(counts + [1 for line in model.weapons if "Rapid Fire" in line], default=0)


def _firing(option: Option, shots: int) -> int:
    """``shots`` of the unit, cut to its models in range ("1 of 5 models in range")."""
    part = option.label.partition(" models in range")[0].rpartition(", ")[2]
    some, _, every = part.partition(" of ")
    if option.label != part and some.isdigit() and every.isdigit() and int(every):
        return shots * int(some) // int(every)
    return shots


def brawler(model: ModelView) -> bool:
    """The model fights better than it shoots: its WS is over its BS."""
    profile = dict(model.profile)
    return number(profile.get("WS", "-")) > number(profile.get("BS", "-"))
