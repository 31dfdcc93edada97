"""What the Confrontation computer player counts (engine.bot.evaluation).

The game is won on army points destroyed, so each fighter is worth its AP (12 AP = one
ordinary model); wounds lower a fighter's worth. A hero is worth its AP like any fighter
and is no leader to keep back: it is the best fighter of its side, and hidden in a corner
it destroys nothing (so it closes on the enemy like the rest). There are no objectives
and no cover in these rules.

What a side may inflict next counts too (`threats`), priced with the rules' own odds
(the parry chance of one defence die, the wound table, the shot's difficulty by range
band): each fight a fighter stands in, its attacks shared among the enemies it touches,
and the best shot each free shooter has at an enemy in its sight and range, and the
best charges its free fighters may make, each fighter in one charge, no more chargers
than the charged one has free contact cells (friends beside a fighter keep chargers
off), whole for fighters yet to act this round, else half (beyond the parries of the
charged one's dice, a gang-up's attacks meet no defence die; two or three chargers count
at least the fight's worth over every outcome, `melee_value`, which finds a gang-up
three times as costly as that sum did). So a fighter
seeks the fights it wins (three goblins on one spearman) and shuns those it loses, and a
crossbowman keeps its range and shoots rather than charging. Only the seat's own
fighters are drawn towards the enemy: the enemy closing in is priced by its threats.
A side also deploys its fighters together (`cohesion_weight`). The normal player moves a
fighter to the cell this evaluation likes best (`moves`): where a crossbowman sees its
target, not merely nearer it.

The activation deck's order is secret (a `SecretStack`): not in the view, never counted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from engine.board import Board, Cell, distance
from engine.bot.evaluation import SCALE, Evaluation, number
from engine.decisions import Decision
from engine.events import Event
from engine.rulesets.confrontation.attack import parry_chance
from engine.rulesets.confrontation.geometry import has_line_of_sight, in_contact, range_gap
from engine.rulesets.confrontation.melee_value import Fighter, opening_worth
from engine.rulesets.confrontation.shooting import success_chance
from engine.rulesets.confrontation.tables import (
    DIFFICULTY,
    Band,
    Wound,
    accumulate,
    range_band,
    read_wound_table,
)
from engine.view import GameView, ModelView

WEAPON = re.compile(r"STR (\d{1,2}),.*\((\d{1,3})-(\d{1,3})-(\d{1,3}) cells\)")
"""A weapon line as the view shows it: "Crossbow: STR 5, 15-30-45 cm (6-12-18 cells)"."""

FINE = 1000
"""Fights and shots are summed in thousandths of the evaluation's unit (integers are
quicker to sum than fractions, and as exact once rounded down at the end)."""

LEVELS = int(Wound.KILLED)
"""Wound levels from healthy to killed: a fighter's ``max_wounds`` in the view."""

CROWDED = "in reach if a contact cell is left"
"""How a declared charge's label says card-mates' charges may take its contact cells."""
CHARGES = ("charge:", "disengage_charge:")
"""Keys of the declarations that charge."""


class ConfrontationEvaluation(Evaluation):
    name = "confrontation"
    counts = (
        "army points of fighters left, by wounds (a hero by its AP, no leader kept back)",
        "what each side's fights, shots and charges may destroy next, by the rules' odds "
        "(each fighter in one charge, no more chargers than free contact cells; a "
        "gang-up of two or three by the fight's worth over every outcome, at least its "
        "attacks beyond the parries unparried; a charge by fighters yet to act "
        "this round counts whole, else half)",
        "its own fighters' closeness to the enemy (a shooter's: beyond its medium range)",
        "each side's fighters deployed together (cells beyond two from the nearest friend)",
        "a melee's split into fights, a hero's extra dice, combat and defence dice: by the "
        "fight's worth over every outcome of its exchanges (judgement, melee_value)",
    )

    kinds = False
    actions = True
    ties = False
    """Every tie (walking to each of many cells) did no better against the random bot
    (seeds 301-320) and costs looks the close calls need."""
    approach_weight = 3
    """Each inch nearer the enemy, for a side with nothing in reach: the fights and shots
    in reach are worth more."""
    depth = 12
    """Outside a fight a look-ahead ends at the other side's turn (`horizon`): deep
    enough to play out a card's declarations and actions."""
    rivals_approach = False
    cover_weight = 0
    """No cover in these rules: sight is blocked or not, which the shots count."""
    moves = "sample"
    budget = 300
    """Its choices are cheap to play: up to three futures of the dice for each close call."""
    charge_share = Fraction(1, 2)
    """Each enemy in charge reach of free fighters that would win the fight: that fight,
    half counted (the enemy may move first) where all of them have acted this round,
    whole where one has not (it may charge before the enemy moves again). It keeps a
    goblin out of the Captain's reach and a spearman out of three goblins', and brings a
    spearman to a lone goblin."""
    shot_share = Fraction(1, 2)
    """A shot in range and sight at the end of a look-ahead may still be turned from (the
    shooter's facing) or never taken: half its worth; a quarter once the shooter has
    acted this round (its next shot is a round away, and a shot taken shows as harm
    done)."""

    cohesion_weight = 1
    """At deployment, each cell a fighter stands beyond two of its nearest friend (up to
    24): a side spread over the table is charged one fighter at a time (the Lantern's
    spearmen went to one corner, its Captain to the other, and lost on points to the
    random bot). Counted in battle too, it kept fighters bunched where the easy player's
    rush caught them (Lantern against easy, seeds 1-12: 3 won, mean margin -32 AP,
    against 4 and -18)."""

    def is_leader(self, model: ModelView) -> bool:
        return False

    judging = True

    def judge(
        self, decision: Decision, view: GameView, board: Board, events: Sequence[Event]
    ) -> str | None:
        # imported here: the judgement reads the profiles as this module parses them
        from engine.rulesets.confrontation.judgement import judge

        return judge(decision, view, events)

    def needless(self, decision: Decision, view: GameView) -> frozenset[str]:
        """ "Nothing" where another option may still do nothing: a free fighter's
        declaration (its common actions offer "Nothing"), a fighter's common actions
        with a walk (a walk may stay, turning only). Weighed by a look-ahead that walked
        the fighter on by the quick worth (a crossbowman into the goblins' charge
        reach), "Nothing" won and crossbowmen never shot. A charge at a target whose
        free contact cells card-mates' charges take first: it falls short, leaving the
        charger stranded before the enemy (a spearman on Grish, seed 5018). A charge by
        a shooter that is no hero with a shot of one in three or better: crossbowmen
        (ATT 2) charged goblins and were ganged up on where they could have shot."""
        keys = {option.key: option for option in decision.options}
        labels = {key: option.label for key, option in keys.items()}
        needless = {key for key, label in labels.items() if CROWDED in label}
        common = keys.get("common")
        if labels.get("common", "").startswith("Common actions") or "walk" in keys:
            needless.add("nothing")
        model = view.model(decision.subject) if decision.subject else None
        shot = common.odds.hit if common is not None and common.odds is not None else None
        hero = model is None or dict(model.profile).get("Hero") == "yes"
        if not hero and shot is not None and shot * 3 >= 1:
            needless.update(key for key in keys if key.startswith(CHARGES))
        return frozenset(needless)

    def side_worth(self, view: GameView, player: int) -> int:
        if view.phase != "Deployment":
            return 0
        cells = [m.cell for m in view.models if m.player == player and not m.removed and m.cell]
        apart = 0
        for i, cell in enumerate(cells):
            gaps = [distance(cell, other) for j, other in enumerate(cells) if j != i]
            if gaps:
                apart += min(max(min(gaps) - 2, 0), 24)
        return -self.cohesion_weight * apart

    def model_value(self, model: ModelView) -> int:
        return _points(model)

    def standoff(self, model: ModelView) -> int:
        mine = card(model)
        return mine.weapon[2] if mine.weapon and mine.aim is not None else 0

    def horizon(self, view: GameView, player: int, seat: int) -> bool:
        """Outside a fight, a look-ahead stops where the other side must act: its own
        move played out, so doing nothing is never weighed against a walk seen through
        an enemy reply the quick worth guesses (a Captain did "Nothing" for a reply in
        one future of three); in a fight it plays on through both sides' dice."""
        return view.phase != "Combat"

    def threats(self, view: GameView, board: Board, player: int) -> int:
        alive = [m for m in view.models if not m.removed and m.cell is not None]
        mine = [m for m in alive if m.player == player]
        theirs = [m for m in alive if m.player != player]
        total = 0
        free = []
        for model in mine:
            assert model.cell is not None
            touching = [e for e in theirs if e.cell is not None and in_contact(model.cell, e.cell)]
            if touching:
                total += _fights(model, touching)
            else:
                share = self.shot_share / (2 if "activated" in model.states else 1)
                total += _share(share, _best_shot(model, theirs, board))
                free.append(model)
        occupied = {_at(m) for m in alive}
        rooms = {e.id: _room(board, _at(e), occupied) for e in theirs}
        for charge, ready in _charges(free, theirs, rooms):
            total += charge if ready else _share(self.charge_share, charge)
        return total // FINE


class Card(NamedTuple):
    """What the evaluation reads of a fighter's profile, parsed once per profile."""

    att: int | None
    strength: int | None
    def_: int | None
    res: int | None
    aim: int | None
    move: int
    points: int
    weapon: tuple[int, int, int, int] | None


@cache
def _card(profile: tuple[tuple[str, str], ...], weapons: tuple[str, ...]) -> Card:
    stats = dict(profile)
    return Card(
        _number(stats.get("ATT")),
        _number(stats.get("STR")),
        _number(stats.get("DEF")),
        _number(stats.get("RES")),
        _number(stats.get("AIM")),
        _move_of(stats.get("MOV", "")),
        SCALE * max(1, min(_number(stats.get("AP")) or 12, 200)) // 12,
        _weapon_of(weapons),
    )


def card(model: ModelView) -> Card:
    """``model``'s profile as the evaluation reads it."""
    return _card(model.profile, model.weapons)


def _fights(model: ModelView, touching: list[ModelView], dice: int = 1) -> int:
    """What ``model`` may destroy in its fight: its combat dice (one more than its
    enemies) half to attack, shared among the enemies it touches, each attack against
    ``dice`` defence dice."""
    mine = card(model)
    if mine.att is None or mine.strength is None:
        return 0
    total = 0
    for enemy in touching:
        theirs = card(enemy)
        if theirs.def_ is None or theirs.res is None:
            continue
        total += _blow(
            mine.att,
            mine.strength,
            len(touching),
            theirs.def_,
            theirs.res,
            _left(enemy),
            theirs.points,
            dice,
        )
    return total


@cache
def _blow(
    att: int, strength: int, count: int, def_: int, res: int, left: int, value: int, dice: int
) -> int:
    """What a fighter facing ``count`` enemies may destroy of one of them (in `FINE`
    parts): its combat dice (one more than its enemies) half to attack, shared among
    them, each attack against ``dice`` defence dice."""
    share = Fraction(count + 1, 2 * count)
    hit = 1 - parry_chance(att, def_, dice)
    return int(FINE * share * hit * _loss(strength, res, left, value))


def _charges(
    chargers: list[ModelView], enemies: list[ModelView], rooms: dict[str, int]
) -> list[tuple[int, bool]]:
    """The best charges ``chargers`` may make on ``enemies`` (`_best_charge`), each
    charger in one of them: the best first, then the best left to the others. A spearman
    in reach of three goblins charges one of them, not all three."""
    reach = {
        enemy.id: [
            model for model in chargers if range_gap(_at(model), _at(enemy)) <= 2 * card(model).move
        ]
        for enemy in enemies
    }
    left = [enemy for enemy in enemies if reach[enemy.id]]
    taken: set[str] = set()
    found = []
    while left:
        best: tuple[int, tuple[str, ...], ModelView] | None = None
        for enemy in left:
            free = [m for m in reach[enemy.id] if m.id not in taken]
            value, used = _best_charge(free, enemy, rooms[enemy.id])
            if value > 0 and (best is None or value > best[0]):
                best = (value, used, enemy)
        if best is None:
            break
        ready = any("activated" not in m.states for m in chargers if m.id in best[1])
        found.append((best[0], ready))
        taken.update(best[1])
        left.remove(best[2])
    return found


def _best_charge(
    near: list[ModelView], enemy: ModelView, room: int = 3
) -> tuple[int, tuple[str, ...]]:
    """The best fight the fighters ``near`` (in charge reach) may charge ``enemy`` into,
    and who charges: what the one to three of them that hurt it most gain by the fight
    (`_gain`), never below nothing (none need charge); no more of them than ``room`` (its
    free contact cells: friends beside it keep chargers off), so ganging up pays."""
    if not near:
        return 0, ()
    ranked = sorted(((_fights(m, [enemy]), m.id, m) for m in near), key=lambda t: (-t[0], t[1]))
    best: tuple[int, tuple[str, ...]] = (0, ())
    dealt = 0
    for count, (dealing, _, model) in enumerate(ranked[: min(3, room)], start=1):
        group = [m for _, _, m in ranked[:count]]
        dealt += dealing
        bare = (count - 1) * (_fights(model, [enemy], 0) - dealing) // 2
        value = dealt + bare - _fights(enemy, group)
        if count > 1:  # a gang-up: its fight's worth, where the odds of one blow miss most
            value = max(value, _gain(enemy, group) or 0)
        if value > best[0]:
            best = (value, tuple(m.id for m in group))
    return best


def _gain(enemy: ModelView, chargers: list[ModelView]) -> int | None:
    """What ``chargers`` gain (in `FINE` parts) fighting ``enemy`` as its leaves, by the
    fight's worth over every outcome of its exchanges (`fight_worth`): the sum of one
    blow's odds made one goblin on a spearman a loss for the goblin and two a small gain,
    where the fight's worth finds the duel even and two goblins three times the gain."""
    worth = fight_worth([enemy, *chargers])
    if worth is None:
        return None
    kept = _material(card(enemy).points, _left(enemy))
    kept -= sum(_material(card(m).points, _left(m)) for m in chargers)
    return int((kept - worth) * FINE)


def _room(board: Board, cell: Cell, occupied: set[Cell]) -> int:
    """Free cells in contact with ``cell``: how many chargers can reach a fighter there."""
    return sum(
        1
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if (c := Cell(cell.x + dx, cell.y + dy)) in board
        and board.is_standable(c)
        and c not in occupied
    )


def _at(model: ModelView) -> Cell:
    assert model.cell is not None
    return model.cell


def _best_shot(model: ModelView, enemies: list[ModelView], board: Board) -> int:
    """The worth the best shot ``model`` has may destroy: sight over the board, the
    difficulty of the range band, the wound table at the weapon's STR."""
    mine = card(model)
    weapon, aim = mine.weapon, mine.aim
    if weapon is None or aim is None or model.cell is None:
        return 0
    strength, ranges = weapon[0], weapon[1:]
    best = 0
    for enemy in enemies:
        res = card(enemy).res
        assert enemy.cell is not None
        band = range_band(range_gap(model.cell, enemy.cell), ranges)
        if res is None or band is Band.OUT:
            continue
        worth = _shot(DIFFICULTY[band] - aim, strength, res, _left(enemy), card(enemy).points)
        if worth > best and _sees(board, model.cell, enemy.cell):
            best = worth
    return best


@cache
def _shot(difficulty: int, strength: int, res: int, left: int, value: int) -> int:
    """What one shot may destroy, in `FINE` parts."""
    return int(FINE * success_chance(difficulty) * _loss(strength, res, left, value))


def _share(share: Fraction, value: int) -> int:
    """``share`` of ``value``, in whole `FINE` parts (integers: quick to sum)."""
    return value * share.numerator // share.denominator


def _sees(board: Board, a: Cell, b: Cell) -> bool:
    return has_line_of_sight(board, a, b)


@cache
def _loss(strength: int, res: int, left: int, value: int) -> Fraction:
    """The worth one damage roll of ``strength`` takes from a fighter of ``res`` with
    ``left`` wound levels to go, read from the wound table for all 36 throws."""
    before = _material(value, left)
    level = Wound(LEVELS - left)
    lost = 0
    for a in range(1, 7):
        for b in range(1, 7):
            after = accumulate(level, read_wound_table((a, b), strength, res))
            lost += before - _material(value, LEVELS - after)
    return Fraction(lost, 36)


def _material(value: int, left: int) -> int:
    """A fighter's worth with ``left`` wound levels to go, as `Evaluation` counts it."""
    return 0 if left <= 0 else value // 2 + value * left // (2 * LEVELS)


def _left(model: ModelView) -> int:
    return max(0, min(model.wounds, LEVELS))


def _points(model: ModelView) -> int:
    """Worth of a fighter at full health: its AP, 12 AP to an ordinary model."""
    return card(model).points


def _number(text: str | None) -> int | None:
    """A characteristic as the profile shows it; None for "-" or none."""
    if text is None or not text.strip()[:1].isdigit():
        return None
    return number(text)


def _move_of(text: str) -> int:
    """MOV in cells: the bracketed figure of "10 cm (4 cells)" (or "(4)")."""
    found = re.search(r"\((\d{1,2})(?: cells?)?\)", text)
    return int(found.group(1)) if found else 0


def _weapon_of(weapons: tuple[str, ...]) -> tuple[int, int, int, int] | None:
    """(STR, short, medium, long range in cells) of the model's ranged weapon, if any."""
    for line in weapons:
        found = WEAPON.search(line)
        if found:
            s, short, medium, long_ = (int(g) for g in found.groups())
            return s, short, medium, long_
    return None


def fighter_of(model: ModelView, side: int, extra: int = 0) -> Fighter | None:
    """``model`` as a fight's worth reckons it (`melee_value`), on ``side`` (0 the
    center's), with ``extra`` hero dice taken; None without ATT, DEF, STR or RES."""
    mine = card(model)
    if mine.att is None or mine.def_ is None or mine.strength is None or mine.res is None:
        return None
    hero = dict(model.profile).get("Hero") == "yes"
    plain = Fighter(side, mine.att, mine.def_, mine.strength, mine.res, mine.points, hero)
    return plain.with_extra(extra)


def fight_worth(models: list[ModelView]) -> Fraction | None:
    """The worth to the center's side (``models[0]``) of its fight against the others,
    before the Initiative test: what it and they keep (`melee_value.opening_worth`)."""
    fighters = [fighter_of(m, 0 if i == 0 else 1) for i, m in enumerate(models)]
    team = tuple(f for f in fighters if f is not None)
    if len(team) != len(models) or len(models) < 2:
        return None
    forced = tuple(
        i for i, m in enumerate(models) if "failed disengagement: all defence" in m.states
    )
    return opening_worth(
        team,
        tuple(_ini(m) for m in models),
        (models[0].player, models[1].player),
        tuple(_left(m) for m in models),
        forced,
    )


def _ini(model: ModelView) -> int:
    text = dict(model.profile).get("INI", "0")
    return int(text) if text.isdigit() else 0
