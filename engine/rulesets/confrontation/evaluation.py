"""What the Confrontation computer player counts (engine.bot.evaluation).

The game is won on army points destroyed, so each fighter is worth its AP (12 AP = one
ordinary model); wounds lower a fighter's worth. A hero is worth its AP like any fighter
and is no leader to keep back: it is the best fighter of its side, and hidden in a corner
it destroys nothing (so it closes on the enemy like the rest). There are no objectives
and no cover in these rules.

What a side may inflict next counts too (`threats`), priced with the rules' own odds
(the parry chance of one defence die, the wound table, the shot's difficulty by range
band): each fight a fighter stands in, its attacks shared among the enemies it touches,
and the best shot each free shooter has at an enemy in its sight and range. So a fighter
seeks the fights it wins (three goblins on one spearman) and shuns those it loses, and a
crossbowman keeps its range and shoots rather than charging. Only the seat's own
fighters are drawn towards the enemy: the enemy closing in is priced by its threats.

The activation deck's order is secret (a `SecretStack`): not in the view, never counted.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

from engine.board import Board, Cell
from engine.bot.evaluation import SCALE, Evaluation, number
from engine.rulesets.confrontation.attack import parry_chance
from engine.rulesets.confrontation.geometry import has_line_of_sight, in_contact, range_gap
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

LEVELS = int(Wound.KILLED)
"""Wound levels from healthy to killed: a fighter's ``max_wounds`` in the view."""


class ConfrontationEvaluation(Evaluation):
    name = "confrontation"
    counts = (
        "army points of fighters left, by wounds (a hero by its AP, no leader kept back)",
        "what each side's fights and shots may destroy next, by the rules' odds",
        "its own fighters' closeness to the enemy (a shooter's: beyond its medium range)",
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
    budget = 300
    """Its choices are cheap to play: up to three futures of the dice for each close call."""
    charge_share = Fraction(1, 2)
    """Each enemy in charge reach of free fighters that would win the fight: that fight,
    half counted (the enemy may move first). It keeps a goblin out of the Captain's
    reach and a spearman out of three goblins', and brings a spearman to a lone goblin."""
    shot_share = Fraction(1, 2)
    """A shot in range and sight at the end of a look-ahead may still be turned from (the
    shooter's facing) or never taken: half its worth; a quarter once the shooter has
    acted this round (its next shot is a round away, and a shot taken shows as harm
    done)."""

    def is_leader(self, model: ModelView) -> bool:
        return False

    def model_value(self, model: ModelView) -> int:
        return _points(model)

    def standoff(self, model: ModelView) -> int:
        weapon = _weapon(model)
        return weapon[2] if weapon and _stat(model, "AIM") is not None else 0

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
        total = Fraction(0)
        free = []
        for model in mine:
            assert model.cell is not None
            touching = [e for e in theirs if e.cell is not None and in_contact(model.cell, e.cell)]
            if touching:
                total += _fights(model, touching)
            else:
                share = self.shot_share / (2 if "activated" in model.states else 1)
                total += share * _best_shot(model, theirs, board)
                free.append(model)
        for enemy in theirs:
            total += self.charge_share * _best_charge(free, enemy)
        return int(total)


def _fights(model: ModelView, touching: list[ModelView]) -> Fraction:
    """What ``model`` may destroy in its fight: its combat dice (one more than its
    enemies) half to attack, shared among the enemies it touches, each attack against one
    defence die."""
    att, strength = _stat(model, "ATT"), _stat(model, "STR")
    if att is None or strength is None:
        return Fraction(0)
    share = Fraction(len(touching) + 1, 2 * len(touching))
    total = Fraction(0)
    for enemy in touching:
        def_, res = _stat(enemy, "DEF"), _stat(enemy, "RES")
        if def_ is None or res is None:
            continue
        hit = 1 - parry_chance(att, def_, 1)
        total += share * hit * _loss(strength, res, _left(enemy), _points(enemy))
    return total


def _best_charge(chargers: list[ModelView], enemy: ModelView) -> Fraction:
    """The best fight ``chargers`` may charge ``enemy`` into: what they would destroy less
    what it would, for the one to three of them within twice their move (the rules'
    charge allowance) that hurt it most, never below nothing (none need charge).
    Counted per enemy, so a fighter left where several may gang up on it, or in reach of
    a better one, is a loss in the making."""
    near = []
    for model in chargers:
        assert model.cell is not None and enemy.cell is not None
        if range_gap(model.cell, enemy.cell) <= 2 * _move(model):
            near.append((_fights(model, [enemy]), model.id, model))
    near.sort(key=lambda t: (-t[0], t[1]))
    best, dealt = Fraction(0), Fraction(0)
    for count, (dealing, _, _) in enumerate(near[:3], start=1):
        dealt += dealing
        best = max(best, dealt - _fights(enemy, [m for _, _, m in near[:count]]))
    return best


def _best_shot(model: ModelView, enemies: list[ModelView], board: Board) -> Fraction:
    """The worth the best shot ``model`` has may destroy: sight over the board, the
    difficulty of the range band, the wound table at the weapon's STR."""
    weapon, aim = _weapon(model), _stat(model, "AIM")
    if weapon is None or aim is None or model.cell is None:
        return Fraction(0)
    strength, ranges = weapon[0], weapon[1:]
    best = Fraction(0)
    for enemy in enemies:
        res = _stat(enemy, "RES")
        assert enemy.cell is not None
        band = range_band(range_gap(model.cell, enemy.cell), ranges)
        if res is None or band is Band.OUT:
            continue
        chance = success_chance(DIFFICULTY[band] - aim)
        worth = chance * _loss(strength, res, _left(enemy), _points(enemy))
        if worth > best and _sees(board, model.cell, enemy.cell):
            best = worth
    return best


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
    return SCALE * max(1, min(_stat(model, "AP") or 12, 200)) // 12


def _stat(model: ModelView, label: str) -> int | None:
    """A characteristic from the profile the view shows; None for "-" or none."""
    text = dict(model.profile).get(label)
    if text is None or not text.strip()[:1].isdigit():
        return None
    return number(text)


def _move(model: ModelView) -> int:
    """MOV in cells: the bracketed figure of "10 cm (4 cells)" (or "(4)")."""
    found = re.search(r"\((\d{1,2})(?: cells?)?\)", dict(model.profile).get("MOV", ""))
    return int(found.group(1)) if found else 0


def _weapon(model: ModelView) -> tuple[int, int, int, int] | None:
    """(STR, short, medium, long range in cells) of the model's ranged weapon, if any."""
    for line in model.weapons:
        found = WEAPON.search(line)
        if found:
            s, short, medium, long_ = (int(g) for g in found.groups())
            return s, short, medium, long_
    return None
