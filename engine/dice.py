"""Deterministic, recorded dice: the only source of chance in the engine.

Every die face is a pure function of ``(seed, draw index)``: BLAKE2b over
``"{seed}:{index}:{attempt}"`` gives a 64-bit word, and words at or above the largest
multiple of ``sides`` below 2**64 are rejected (a new ``attempt``) so faces are exactly
uniform. hashlib's BLAKE2b is in ``algorithms_guaranteed``, so the faces are the same on
every platform and Python version (``random`` guarantees no such thing for ``randint``).

Every throw is appended to ``Dice.rolls`` as a frozen `Roll`, so saves can record them and
replays can check them. Re-rolls are simply new rolls with their own reason.

This module must not import anything from ``tui`` or any ruleset.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.checks import Check, Reading
from engine.errors import DiceScriptError

_WORD = 1 << 64


D3 = " (D3)"
"""Ends the reason of a D6 thrown as a D3 (`Dice.d3`): its log line reads the D3 too."""


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded throw of one or more dice."""

    index: int
    """Position of this roll in the game's roll log (0-based)."""
    player: int
    """Seat (0 or 1) who rolled, or -1 for rolls no player owns."""
    reason: str
    """Why the dice were thrown, in plain words ("hit roll", "charge distance")."""
    dice: str
    """The dice thrown, in rulebook notation ("2D6")."""
    faces: tuple[int, ...]
    """The faces that came up, in throw order."""
    reading: Reading | None = field(default=None, compare=False)
    """What the roll needed and how it read, when it was rolled for a `Check`. Not
    compared: a save written before checks existed replays to the same rolls."""

    @property
    def total(self) -> int:
        """Sum of the faces, as a rulebook "2D6 roll" means."""
        return sum(self.faces)

    def describe(self) -> str:
        """One line for the dice log."""
        return f"{self.dice} for {self.reason}: {self.result()}"

    def result(self) -> str:
        """The faces, then what they needed and how they read: "4 vs 5+ (BS 4+, -1 long
        range): miss"; a roll with no threshold names its purpose: "4 (roll-off)"."""
        faces = ", ".join(str(f) for f in self.faces)
        if self.reason.endswith(D3) and len(self.faces) == 1:
            faces += f" → {(self.faces[0] + 1) // 2}"  # "(D3): 6" read as a 6 on a D3
        reading = self.reading
        if reading is None:
            return faces
        if reading.value:
            faces += f" {reading.value}"
        if not reading.outcome:
            return f"{faces} ({reading.need})" if reading.need else faces
        return f"{faces} vs {reading.need}: {reading.outcome}"


def face(seed: int, index: int, sides: int) -> int:
    """The face of draw ``index`` of a ``sides``-sided die under ``seed`` (1-based)."""
    limit = _WORD - _WORD % sides
    attempt = 0
    while True:
        digest = hashlib.blake2b(f"{seed}:{index}:{attempt}".encode(), digest_size=8).digest()
        word = int.from_bytes(digest, "big")
        if word < limit:
            return word % sides + 1
        attempt += 1


class Dice:
    """The dice box of one game: seeded, counter-based, and recording every roll."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.draws = 0
        """How many single dice have been drawn so far (the counter of the generator)."""
        self.rolls: list[Roll] = []

    def _draw(self, sides: int, reason: str) -> int:
        value = face(self.seed, self.draws, sides)
        self.draws += 1
        return value

    def roll(
        self,
        count: int,
        sides: int = 6,
        *,
        player: int,
        reason: str,
        check: Check | None = None,
    ) -> Roll:
        """Throw ``count`` dice of ``sides`` sides and record the throw, read against
        ``check`` when the roll has one."""
        if count < 1:
            raise ValueError(f"cannot roll {count} dice")
        faces = tuple(self._draw(sides, reason) for _ in range(count))
        reading = None if check is None else check.read(faces)
        roll = Roll(len(self.rolls), player, reason, f"{count}D{sides}", faces, reading)
        self.rolls.append(roll)
        return roll

    def d6(self, *, player: int, reason: str, check: Check | None = None) -> int:
        """Throw one D6 and return its face."""
        return self.roll(1, 6, player=player, reason=reason, check=check).faces[0]

    def d3(self, *, player: int, reason: str, check: Check | None = None) -> int:
        """Throw a D3: a D6 halved and rounded up (digest killteam §6.1, PROPOSED)."""
        face = self.roll(1, 6, player=player, reason=reason + D3, check=check).faces[0]
        return (face + 1) // 2

    @staticmethod
    def scripted(faces: Sequence[int | tuple[int, str]]) -> ScriptedDice:
        """Dice that show the given faces in order, for tests built from worked examples."""
        return ScriptedDice(faces)


class ScriptedDice(Dice):
    """Dice whose faces come from a script; running out of faces is an error.

    A script entry may be a bare face or ``(face, label)``: the label must occur in the
    reason of the roll that consumes it, so a test notices when the engine rolls for
    something else than the worked example expects.
    """

    def __init__(self, faces: Sequence[int | tuple[int, str]]) -> None:
        super().__init__(seed=0)
        self.script: list[tuple[int, str | None]] = [
            (f, None) if isinstance(f, int) else (f[0], f[1]) for f in faces
        ]

    def _draw(self, sides: int, reason: str) -> int:
        if self.draws >= len(self.script):
            raise DiceScriptError(
                f"script ran out: die #{self.draws + 1} for {reason!r} "
                f"(the script has {len(self.script)} faces)"
            )
        value, label = self.script[self.draws]
        if label is not None and label not in reason:
            raise DiceScriptError(
                f"die #{self.draws + 1} is labelled {label!r} but the engine rolled it "
                f"for {reason!r}"
            )
        if not 1 <= value <= sides:
            raise DiceScriptError(f"die #{self.draws + 1}: face {value} is not on a D{sides}")
        self.draws += 1
        return value

    @property
    def unused(self) -> int:
        """How many scripted faces were never rolled."""
        return len(self.script) - self.draws
