"""The open-ended d6 tests and the damage roll (digest confrontation §6.1).

A characteristic test is d6 + stat. A natural 1 fails automatically; a 6 may be
re-rolled and added, again and again, but a 1 on a re-roll fails too. With several dice
only the best counts and all the 6s are re-rolled together (§10 A6). The owner decides
every re-roll (Decision D6), even when the test already succeeds (example X8 re-rolls
a success); "stop" is then listed first, the digest's UI default.

Kept in this ruleset rather than the core: no other system of wargrid rolls open-ended
d6 tests.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from engine.checks import Check, Modifier, percent
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.tables import Result, read_wound_table


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """The outcome of one characteristic test."""

    natural: int
    """Pips that count: the best die plus any re-rolled 6s (0 when failed)."""
    stat: int
    failed: bool
    """Automatic failure (a natural 1, or every re-rolled die a 1)."""
    faces: tuple[int, ...]
    """Every die thrown for this test, in order."""

    @property
    def final(self) -> int:
        """Natural result + stat."""
        return self.natural + self.stat

    def succeeds(self, difficulty: int) -> bool:
        """Final >= difficulty and no automatic failure (§6.1.1 step 5)."""
        return not self.failed and self.final >= difficulty

    def describe(self) -> str:
        faces = ", ".join(str(f) for f in self.faces)
        if self.failed:
            return f"rolled {faces}: automatic failure"
        return f"rolled {faces}: natural {self.natural} + {self.stat} = {self.final}"


def stat_check(
    stat: int, difficulty: int | None, *, dice: int = 1, banked: int = 0, stat_name: str = ""
) -> Check:
    """One throw of a characteristic test: the best of ``dice`` d6 + ``stat`` against
    ``difficulty``, 6s re-rolled and added (§6.1.1, §6.1.2); ``banked`` pips are the 6s
    already re-rolled. With no difficulty (the attack test) it only says what it is for."""
    name = stat_name or "stat"
    if difficulty is None:
        return Check.purpose(
            f"open-ended, {name} {stat}" + (f", {banked} banked" if banked else "")
        )
    modifiers = (Modifier(stat, name), Modifier(banked, "re-rolled 6s"))
    return Check(
        "test",
        difficulty,
        f"difficulty {difficulty}",
        modifiers,
        dice=dice,
        best_of=True,
        open_ended=True,
        words=("succeeds", "fails"),
    )


def characteristic_test(
    ctx: RuleContext,
    player: int,
    stat: int,
    reason: str,
    *,
    dice: int = 1,
    difficulty: int | None = None,
    subject: str | None = None,
    stat_name: str = "",
) -> Procedure[RollOutcome]:
    """Roll ``dice`` d6 + ``stat`` (§6.1.1 single die, §6.1.2 several dice).

    ``difficulty`` None is the attack test: its final result becomes the defence's
    difficulty, so re-rolls are always offered.
    """
    check = stat_check(stat, difficulty, dice=dice, stat_name=stat_name)
    faces = list(ctx.dice.roll(dice, 6, player=player, reason=reason, check=check).faces)
    current = list(faces)
    if all(f == 1 for f in current):
        return RollOutcome(0, stat, True, tuple(faces))
    banked = 0
    while True:
        sixes = current.count(6)
        if not sixes:
            return RollOutcome(banked + max(current), stat, False, tuple(faces))
        natural = banked + 6
        what = "the 6" if sixes == 1 else f"the {sixes} sixes"
        check = stat_check(stat, difficulty, dice=sixes, banked=natural, stat_name=stat_name)
        odds = f", {percent(check.chance())} to make it" if difficulty is not None else ""
        again = yield from ask_reroll(
            player,
            f"{reason}: natural {natural}, final {natural + stat}"
            + (f" (needs {difficulty}{odds})" if difficulty is not None else "")
            + f". Re-roll {what} and add?",
            ahead=difficulty is not None and natural + stat >= difficulty,
            subject=subject,
        )
        if not again:
            return RollOutcome(natural, stat, False, tuple(faces))
        banked = natural
        again_reason = reason + " re-roll"
        current = list(
            ctx.dice.roll(sixes, 6, player=player, reason=again_reason, check=check).faces
        )
        faces.extend(current)
        if all(f == 1 for f in current):
            return RollOutcome(0, stat, True, tuple(faces))


def ask_reroll(
    player: int, prompt: str, *, ahead: bool, subject: str | None = None
) -> Procedure[bool]:
    """D6: re-roll the 6(s) and add, or stop; "stop" first (and highlighted) when already
    successful. Stop is neutral: it has the same key in every re-roll question."""
    reroll = Option("yes", "Re-roll and add")
    label = "Stop (already successful)" if ahead else "Stop"
    stop = Option("no", label, neutral=True, suggested=ahead)
    choice = yield Decision(
        player,
        DecisionKind.YES_NO,
        prompt,
        (stop, reroll) if ahead else (reroll, stop),
        subject=subject,
    )
    return choice.key == "yes"


@dataclass(slots=True)
class _Side:
    player: int
    stat: int
    natural: int
    last: int
    failed: bool
    faces: list[int]
    open: bool

    @property
    def final(self) -> int:
        return self.natural + self.stat


def opposed_test(
    ctx: RuleContext,
    stats: tuple[int, int],
    players: tuple[int, int],
    reason: str,
    names: tuple[str, str] = ("", ""),
) -> Procedure[int]:
    """Opposed test of two sides; returns the index (0 or 1) of the winning side (§6.1.3).

    A natural 1 loses (§10 A8); both failing, or equal finals, repeat the whole test.
    Re-roll decisions follow the wait-to-see rule: the side behind decides first, and
    on equal finals the side of the second seat decides first (§10 A9, PROPOSED); the
    decision is asked again after every new 6, so the side behind always acts.
    """
    while True:
        sides = []
        for stat, player in zip(stats, players, strict=True):
            face = ctx.dice.d6(player=player, reason=reason, check=_opposed(stat))
            sides.append(_Side(player, stat, face, face, face == 1, [face], face == 6))
        yield from _open_ended_rerolls(ctx, sides, reason)
        a, b = sides
        ctx.emit(
            "OpposedTestRolled",
            f"{reason}: {_scored(names[0], a)} against {_scored(names[1], b)}",
            a=None if a.failed else a.final,
            b=None if b.failed else b.final,
        )
        if a.failed != b.failed:
            return 1 if a.failed else 0
        if a.failed or a.final == b.final:
            ctx.emit("OpposedTestTied", f"{reason}: no winner, both sides roll again")
            continue
        return 0 if a.final > b.final else 1


def _open_ended_rerolls(ctx: RuleContext, sides: list[_Side], reason: str) -> Procedure[None]:
    """Offer re-rolls of 6s in wait-to-see order until no side may re-roll (§6.1.3 step 3)."""
    while True:
        open_sides = [i for i, s in enumerate(sides) if s.open]
        if not open_sides:
            return
        if len(open_sides) == 2:
            a, b = sides
            # The side behind decides first; on equal finals the second seat (A9).
            behind = a.final < b.final or (a.final == b.final and a.player == 1)
            i = 0 if behind else 1
        else:
            i = open_sides[0]
        me, other = sides[i], sides[1 - i]
        again = yield from ask_reroll(
            me.player,
            f"{reason}: your final {me.final} against {_show(other)}. Re-roll the 6 and add? "
            + _reroll_odds(me, other),
            ahead=not other.open and (other.failed or me.final > other.final),
        )
        if not again:
            me.open = False
            continue
        check = _opposed(me.stat, me.natural)
        face = ctx.dice.d6(player=me.player, reason=reason + " re-roll", check=check)
        me.faces.append(face)
        if face == 1:
            me.failed, me.open = True, False
        else:
            me.natural += face
            me.open = face == 6


REROLL_DEPTH = 8
"""Re-rolls `opposed_chance` follows before calling the test as it stands: a chain this
long has a chance of 6**-8, far below the 0.1% the odds are shown to."""


@cache
def opposed_chance(stats: tuple[int, int], players: tuple[int, int] = (0, 1)) -> Fraction:
    """The exact chance (to 0.1%) that the first side wins an opposed test (§6.1.3).

    It follows `opposed_test`'s wait-to-see order (the side behind decides first; on
    equal finals the side of the second seat), each side re-rolling its 6 exactly while
    not ahead; a tie or a double failure repeats the test, so the answer is the share of
    the decided outcomes that the first side wins. Only the stats' difference counts
    (finals are compared), so the two stats are asked as one gap.
    """
    return _gap_chance(stats[0] - stats[1], players[0] == 1)


@cache
def _gap_chance(gap: int, first_is_second_seat: bool) -> Fraction:
    """`opposed_chance` of a first side ``gap`` ahead in stat: each opening pair of dice
    settled by `_settler`, whose counts are over the same 6**REROLL_DEPTH ends."""
    settle = _settler(gap, first_is_second_seat)
    win = lose = 0
    for a in range(1, 7):
        for b in range(1, 7):
            w, lost = settle(a, a == 1, a == 6, b, b == 1, b == 6, REROLL_DEPTH)
            win, lose = win + w, lose + lost
    return Fraction(win, win + lose) if win + lose else Fraction(1, 2)


Settle = Callable[[int, bool, bool, int, bool, bool, int], tuple[int, int]]
"""(naturals, failed, open of each side, re-rolls left) -> (first wins, second wins)."""


def _settler(gap: int, first_is_second_seat: bool) -> Settle:
    """Ways the test ends, from a moment of it, when the first side's stat is ``gap``
    above the second's: of the 6**depth equally likely ways the re-rolls left can fall,
    how many the first side wins and how many the second (ties and double failures
    repeat the test: not counted). Whole numbers, not fractions, and each moment worked
    out once (the same sums are met along many orders of dice)."""

    @cache
    def settle(
        an: int, af: bool, ao: bool, bn: int, bf: bool, bo: bool, depth: int
    ) -> tuple[int, int]:
        fa, fb = an + gap, bn
        # Who decides: the side behind if both may re-roll (on equal finals the second
        # seat), else the one that may.
        first = (fa < fb or (fa == fb and first_is_second_seat)) if ao and bo else ao
        ahead = (bf or fa > fb) if first else (af or fb > fa)
        if not (ao or bo) or depth == 0 or ahead:
            ends = 6**depth
            if af != bf:
                return (0, ends) if af else (ends, 0)
            if af or fa == fb:
                return 0, 0
            return (ends, 0) if fa > fb else (0, ends)
        win = lose = 0
        for face in range(1, 7):
            if first:
                w, lost = (
                    settle(an, True, False, bn, bf, bo, depth - 1)
                    if face == 1
                    else settle(an + face, False, face == 6, bn, bf, bo, depth - 1)
                )
            else:
                w, lost = (
                    settle(an, af, ao, bn, True, False, depth - 1)
                    if face == 1
                    else settle(an, af, ao, bn + face, False, face == 6, depth - 1)
                )
            win, lose = win + w, lose + lost
        return win, lose

    return settle


def _reroll_odds(me: _Side, other: _Side) -> str:
    """What a re-roll of the 6 needs to take the lead, and its chance (6s re-rolled on)."""
    need = 1 if other.failed else other.final - me.final + 1
    if need <= 1:
        return f"(ahead already; a 1 fails: {percent(Fraction(1, 6))})"
    return f"(the lead needs {need} more: {percent(stat_check(0, need).chance())})"


def _opposed(stat: int, banked: int = 0) -> Check:
    """One side's die of an opposed test: no threshold, its final is compared."""
    return Check.purpose(f"opposed, +{stat}" + (f", {banked} banked" if banked else ""))


def _scored(name: str, side: _Side) -> str:
    """ "with" keeps a group's count apart from its score: "B2 and 3 more with 8 (2 + 6)"."""
    return f"{name} with {_show(side)}" if name else _show(side)


def _show(side: _Side) -> str:
    faces = "+".join(str(f) for f in side.faces)
    return "automatic failure" if side.failed else f"{side.final} ({faces} + {side.stat})"


def damage_roll(
    ctx: RuleContext, player: int, strength: int, resilience: int, reason: str
) -> tuple[tuple[int, int], Result]:
    """2d6 on the wound table: no automatic failure, no re-roll (§6.1.4 steps 1-3)."""
    check = Check.purpose(f"wound table, STR {strength} vs RES {resilience}", dice=2)
    faces = ctx.dice.roll(2, 6, player=player, reason=reason, check=check).faces
    dice = (faces[0], faces[1])
    return dice, read_wound_table(dice, strength, resilience)
