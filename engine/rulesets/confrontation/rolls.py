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

from dataclasses import dataclass

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


def characteristic_test(
    ctx: RuleContext,
    player: int,
    stat: int,
    reason: str,
    *,
    dice: int = 1,
    difficulty: int | None = None,
    subject: str | None = None,
) -> Procedure[RollOutcome]:
    """Roll ``dice`` d6 + ``stat`` (§6.1.1 single die, §6.1.2 several dice).

    ``difficulty`` None is the attack test: its final result becomes the defence's
    difficulty, so re-rolls are always offered.
    """
    faces = list(ctx.dice.roll(dice, 6, player=player, reason=reason).faces)
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
        again = yield from ask_reroll(
            player,
            f"{reason}: natural {natural}, final {natural + stat}"
            + (f" (needs {difficulty})" if difficulty is not None else "")
            + f". Re-roll {what} and add?",
            ahead=difficulty is not None and natural + stat >= difficulty,
            subject=subject,
        )
        if not again:
            return RollOutcome(natural, stat, False, tuple(faces))
        banked = natural
        current = list(ctx.dice.roll(sixes, 6, player=player, reason=reason + " re-roll").faces)
        faces.extend(current)
        if all(f == 1 for f in current):
            return RollOutcome(0, stat, True, tuple(faces))


def ask_reroll(
    player: int, prompt: str, *, ahead: bool, subject: str | None = None
) -> Procedure[bool]:
    """D6: re-roll the 6(s) and add, or stop; "stop" first when already successful."""
    reroll = Option("yes", "Re-roll and add")
    stop = Option("no", "Stop (already successful)" if ahead else "Stop")
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
            face = ctx.dice.d6(player=player, reason=reason)
            sides.append(_Side(player, stat, face, face, face == 1, [face], face == 6))
        yield from _open_ended_rerolls(ctx, sides, reason)
        a, b = sides
        ctx.emit(
            "OpposedTestRolled",
            f"{reason}: {names[0]} {_show(a)} against {names[1]} {_show(b)}".replace("  ", " "),
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
            f"{reason}: your final {me.final} against {_show(other)}. Re-roll the 6 and add?",
            ahead=not other.open and (other.failed or me.final > other.final),
        )
        if not again:
            me.open = False
            continue
        face = ctx.dice.d6(player=me.player, reason=reason + " re-roll")
        me.faces.append(face)
        if face == 1:
            me.failed, me.open = True, False
        else:
            me.natural += face
            me.open = face == 6


def _show(side: _Side) -> str:
    faces = "+".join(str(f) for f in side.faces)
    return "automatic failure" if side.failed else f"{side.final} ({faces} + {side.stat})"


def damage_roll(
    ctx: RuleContext, player: int, strength: int, resilience: int, reason: str
) -> tuple[tuple[int, int], Result]:
    """2d6 on the wound table: no automatic failure, no re-roll (§6.1.4 steps 1-3)."""
    faces = ctx.dice.roll(2, 6, player=player, reason=reason).faces
    dice = (faces[0], faces[1])
    return dice, read_wound_table(dice, strength, resilience)
