"""Checks: what a roll needs, written once for resolving it, for its odds and for the log.

A ruleset describes each roll it makes as a `Check` (the dice, the base target and the
reason for it, the modifiers with theirs, the faces that always fail or pass, the faces
re-rolled once) and uses that one value three ways: `Check.passes` decides the roll,
`Check.chance` gives its exact odds before the player commits, and the dice box records
`Check.read` on the `Roll` so every log line says what was needed and why. No ruleset
keeps a second copy of a rule for its odds.

A check with no target (`Check.purpose`) names what an unthresholded roll is for:
"roll-off", "distance", "opposed".

Exact: chances are `Fraction`s over integer counts of throws (no floats): the spread of a
sum is built die by die (each die's faces convolved into the totals so far), the spread of
a best-of from how many throws stay at or under each face, so a pool of many dice costs a
few thousand sums, never one step per throw. Pure: it must not depend on tui, textual,
rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

MAX_DICE = 200
"""Most dice one check's odds are counted for (a sum of 200 d6 is some 240,000 steps):
a bound on what a forged or runaway pool can cost, far above any roll a ruleset makes."""


@dataclass(frozen=True, slots=True)
class Modifier:
    """One modifier to the roll, with the rule that gives it."""

    amount: int
    """Added to the roll (a -1 to hit makes a 5 count as a 4)."""
    reason: str
    """The rule in a few words ("long range", "cover")."""

    def describe(self) -> str:
        return f"{self.amount:+d} {self.reason}"


@dataclass(frozen=True, slots=True)
class Reading:
    """How one roll read against its check: carried by the `Roll` to the logs and luck.

    ``tests`` and ``successes`` count checks (one per die, or one per throw when the dice
    are summed); ``chance`` is the chance of one success, or None when the roll has no
    threshold (roll-offs, distances), so luck statistics skip it.
    """

    need: str
    """What was needed and why: "5+ (BS 4+, -1 long range)", or what the roll is for."""
    outcome: str
    """How it came out: "miss", "2 of 3 hit", "fails"; empty when there is no threshold."""
    kind: str = ""
    """The luck statistics' name for the roll ("hit"); empty to leave it out."""
    tests: int = 0
    successes: int = 0
    chance: Fraction | None = None
    value: str = ""
    """What the faces count as, when not one per die: "= 7" summed, "best 6"."""


@dataclass(frozen=True, slots=True)
class Check:
    """One kind of roll: success when the dice total plus modifiers reaches ``target``
    (or, ``at_most``, stays at or under it)."""

    kind: str
    """What is tested, in the ruleset's words ("hit", "wound", "charge")."""
    target: int | None
    """Base number needed before modifiers; None for a roll with no threshold."""
    basis: str = ""
    """Why the base number is what it is ("BS 4+", "S4 vs T4", "distance 8")."""
    modifiers: tuple[Modifier, ...] = ()
    dice: int = 1
    """Dice summed for one test (2 for a 2D6 test)."""
    sides: int = 6
    at_most: bool = False
    """Success when the modified total is at most ``target`` (Leadership-style tests)."""
    fails_on: frozenset[int] = frozenset({1})
    """Unmodified totals that always fail (a natural 1)."""
    passes_on: frozenset[int] = frozenset()
    """Unmodified totals that always succeed."""
    rerolls: frozenset[int] = frozenset()
    """Unmodified totals re-rolled once before reading (a Sniper re-rolls 1s)."""
    reroll_failures: bool = False
    """Every failed test is re-rolled once (a rule that re-rolls every miss)."""
    words: tuple[str, str] = ("passes", "fails")
    """Outcome words for one success and one failure ("hit", "miss")."""
    best_of: bool = False
    """The best of the ``dice`` thrown counts, as one test (not their sum)."""
    open_ended: bool = False
    """With ``best_of``: a 6 may be re-rolled and added while the test is short; a re-roll
    showing only 1s fails. `chance` assumes the player re-rolls exactly while short."""

    @staticmethod
    def purpose(what: str, dice: int = 1, sides: int = 6) -> Check:
        """A roll with no threshold: a roll-off, a distance, one side of an opposed test."""
        return Check(what, None, dice=dice, sides=sides, fails_on=frozenset())

    @staticmethod
    def at_least(kind: str, target: int, basis: str, words: tuple[str, str]) -> Check:
        """A plain die that succeeds on ``target`` or more, with no automatic failure."""
        return Check(kind, target, basis, fails_on=frozenset(), words=words)

    @property
    def modifier(self) -> int:
        return sum(m.amount for m in self.modifiers)

    @property
    def needed(self) -> int | None:
        """The unmodified total needed (at least, or at most when ``at_most``)."""
        return None if self.target is None else self.target - self.modifier

    def passes(self, total: int) -> bool:
        """Does an unmodified dice total of ``total`` succeed?"""
        if self.target is None or total in self.fails_on:
            return False
        if total in self.passes_on:
            return True
        value = total + self.modifier
        return value <= self.target if self.at_most else value >= self.target

    def rerolled(self, total: int) -> bool:
        """Is a first throw showing ``total`` re-rolled before reading?"""
        return total in self.rerolls or (self.reroll_failures and not self.passes(total))

    def first_chance(self) -> Fraction:
        """The chance that one throw succeeds, before any re-roll."""
        spread = _spread(self.dice, self.sides, self.best_of)
        ways = sum(count for total, count in spread.items() if self.passes(total))
        return Fraction(ways, self.sides**self.dice)

    def better(self, total: int) -> Fraction:
        """The chance that one fresh throw does better than an unmodified ``total``
        already thrown (what a re-roll buys): passing where it failed; a better passing
        total where it passed (or, with no threshold, a higher total: a longer move)."""
        spread = _spread(self.dice, self.sides, self.best_of)
        if self.target is not None and not self.passes(total):
            ways = sum(c for t, c in spread.items() if self.passes(t))
        else:
            ways = sum(
                c
                for t, c in spread.items()
                if (self.target is None or self.passes(t))
                and (t < total if self.at_most else t > total)
            )
        return Fraction(ways, self.sides**self.dice)

    def chance(self) -> Fraction:
        """The chance that one test succeeds, its re-rolls included.

        It depends on the numbers alone (not on the words or the reasons), and the same
        few checks are priced for every option of every decision: each is counted once."""
        key = (
            self.target,
            self.modifier,
            self.dice,
            self.sides,
            self.at_most,
            self.fails_on,
            self.passes_on,
            self.rerolls,
            self.reroll_failures,
            self.best_of,
            self.open_ended,
        )
        found = _CHANCES.get(key)
        if found is None:
            found = self._counted_chance()
            if len(_CHANCES) >= _CHANCES_KEPT:
                _CHANCES.clear()
            _CHANCES[key] = found
        return found

    def _counted_chance(self) -> Fraction:
        """`chance`, counted from the spread of the throws."""
        if self.open_ended and self.needed is not None:
            if self.at_most:
                raise ValueError("an open-ended check counts up, never at most")
            return _open_ended(self.dice, self.needed, self.sides)
        spread = _spread(self.dice, self.sides, self.best_of)
        den = self.sides**self.dice
        first = self.first_chance()
        again = Fraction(sum(c for t, c in spread.items() if self.rerolled(t)), den)
        kept = Fraction(
            sum(c for t, c in spread.items() if self.passes(t) and not self.rerolled(t)), den
        )
        return kept + again * first

    def describe(self) -> str:
        """What is needed and why: "5+ (BS 4+, -1 long range)"; a purpose says only what
        the roll is for."""
        if self.needed is None:
            return self.kind
        # A bonus beyond what a die needs still leaves the faces that always fail.
        least = min(set(range(1, self.sides + 1)) - self.fails_on, default=1)
        need = f"{self.needed} or less" if self.at_most else f"{max(self.needed, least)}+"
        reasons = [self.basis] if self.basis else []
        # At most: a modifier moves the roll, not the stat ("Ld 6, -2 nerve" read as a 4
        # needed, beside "8 or less"), so it says so.
        reasons += [
            f"{m.amount:+d} to the roll for {m.reason}" if self.at_most else m.describe()
            for m in self.modifiers
            if m.amount
        ]
        if self.rerolls:
            reasons.append("re-roll " + "/".join(str(t) for t in sorted(self.rerolls)) + "s")
        if self.reroll_failures:
            reasons.append("re-roll failures")
        if self.open_ended:
            reasons.append("6s re-rolled and added")
        return need + (f" ({', '.join(reasons)})" if reasons else "")

    def read(self, faces: Sequence[int]) -> Reading:
        """How ``faces`` read: one test per die, or one per ``dice`` faces summed.

        The reading's chance is that of the throw itself: a re-roll is a roll of its own,
        with its own reading, so luck statistics count each throw once.
        """
        value = ""
        if self.best_of:
            groups = [max(faces)]
            value = f"best {groups[0]}" if len(faces) > 1 else ""
        else:
            groups = [sum(faces[i : i + self.dice]) for i in range(0, len(faces), self.dice)]
            value = f"= {groups[0]}" if self.dice > 1 and len(groups) == 1 else ""
        if self.needed is None:
            return Reading(self.describe(), "", value=value)
        good = sum(1 for total in groups if self.passes(total))
        yes, no = self.words
        single = yes if good else no
        if self.open_ended and not good and groups[0] == self.sides:
            single = f"short, {self.sides}s may be re-rolled"
        outcome = single if len(groups) == 1 else f"{good} of {len(groups)} {yes}"
        chance = self.first_chance()
        return Reading(self.describe(), outcome, self.kind, len(groups), good, chance, value)

    def odds_text(self) -> str:
        """ "needs 5+ (BS 4+, -1 long range): 33%" for prompts."""
        return f"needs {self.describe()}: {percent(self.first_chance())}"


ROLL_OFF = Check.purpose("roll-off")
DISTANCE = Check.purpose("distance")
TABLE = Check.purpose("table roll")
"""Rolls with no threshold that every ruleset makes: roll-offs, distances, table rolls."""


def percent(value: Fraction) -> str:
    """A chance as a whole percentage (exact rounding of the exact fraction)."""
    return f"{round(value * 100)}%"


def at_least_one(chance: Fraction, tries: int) -> Fraction:
    """The chance that at least one of ``tries`` independent tests succeeds."""
    return 1 - (1 - chance) ** tries


_CHANCES: dict[tuple[object, ...], Fraction] = {}
"""`Check.chance` by the numbers that decide it (Fractions: shared, never changed)."""
_CHANCES_KEPT = 4096


@cache
def _spread(dice: int, sides: int, best: bool = False) -> dict[int, int]:
    """How many of the ``sides ** dice`` throws give each total (or best face): exact.

    A best face of ``f`` is every throw at or under ``f`` less those at or under ``f - 1``;
    a sum adds one die at a time to the counts of the totals so far.
    """
    if not 0 <= dice <= MAX_DICE:
        raise ValueError(f"a check of {dice} dice is more than {MAX_DICE} to count")
    if best:
        return {f: f**dice - (f - 1) ** dice for f in range(1, sides + 1)} if dice else {0: 1}
    counts = {0: 1}
    for _ in range(dice):
        after: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, sides + 1):
                after[total + face] = after.get(total + face, 0) + ways
        counts = after
    return counts


@cache
def _open_ended(dice: int, needed: int, sides: int) -> Fraction:
    """The chance that the best of ``dice`` open-ended dice reaches ``needed`` pips,
    re-rolling every top face together while short; a throw of only 1s fails."""
    top = sides
    if needed <= top:
        low = max(needed, 2) - 1  # faces that fall short (a lone 1 always fails)
        return 1 - Fraction(low**dice, sides**dice)
    total = Fraction(0)
    for tops in range(1, dice + 1):
        ways = comb(dice, tops) * (sides - 1) ** (dice - tops)
        total += Fraction(ways, sides**dice) * _open_ended(tops, needed - top, sides)
    return total
