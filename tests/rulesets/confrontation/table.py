"""A tabletop for Confrontation rule tests: place fighters, script the dice, answer Decisions.

Worked examples of the digest (confrontation §9) become tests by building the situation
they describe on a small open map, scripting the dice they name, and driving one
procedure to its end with the answers the example's players give.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, TypeVar

from engine.board import Cell
from engine.decisions import Decision, Procedure
from engine.dice import Dice
from engine.events import Event
from engine.hidden import SecretStack
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.combatants import Combatant, Engagement
from engine.rulesets.confrontation.profiles import Profile, RangedWeapon, Size
from engine.rulesets.confrontation.state import Card, CState, Fighter, Side
from engine.scenario import parse_scenario
from tests.driver import Answer, drive

T = TypeVar("T")

OPEN_MAP = ["." * 16] * 16


def profile(name: str = "Fighter", **stats: Any) -> Profile:
    """A reference card with middling stats; keywords override (``str`` as ``strength``)."""
    base: dict[str, Any] = dict(
        id=name.lower().replace(" ", "_"),
        name=name,
        glyph=name[0],
        is_hero=False,
        mov_cm=Fraction(10),
        ini=3,
        att=3,
        strength=3,
        def_=3,
        res=3,
        aim=None,
        dis=2,
        size=Size.MEDIUM,
        ap_printed=10,
    )
    base.update(stats)
    return Profile(**base)


def weapon(name: str, strength: int, s: int, m: int, long_: int) -> RangedWeapon:
    """A ranged weapon with ranges in cm."""
    return RangedWeapon(name, strength, (Fraction(s), Fraction(m), Fraction(long_)))


class Table:
    """A Confrontation state on a small map, with scripted dice and recorded events."""

    def __init__(
        self, dice: Sequence[int | tuple[int, str]] = (), rows: Sequence[str] = OPEN_MAP
    ) -> None:
        text = "\n".join(
            [
                'name = "test"',
                'ruleset = "confrontation"',
                'description = "rule test"',
                "rounds = 10",
                'sides = ["A", "B"]',
                "[map]",
                "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]",
            ]
        )
        board = parse_scenario(text, "<table>").board
        south = frozenset(Cell(x, y) for x in range(board.width) for y in range(3))
        north = frozenset(
            Cell(x, y) for x in range(board.width) for y in range(board.height - 3, board.height)
        )
        self.state = CState(
            board,
            (
                Side(0, "A", [], SecretStack(0), "South"),
                Side(1, "B", [], SecretStack(1), "North"),
            ),
            {},
            {},
            zones={"South": south, "North": north},
        )
        self.state.round = 1
        self.state.phase = "Test"
        self.state.tactical_winner = 0
        self.dice = Dice.scripted(dice)
        self.events: list[Event] = []
        self.ctx = RuleContext(self.dice, self.events.append)
        self.decisions: list[Decision] = []

    def add(
        self,
        player: int,
        cell: tuple[int, int] | None,
        card: str = "",
        *,
        facing: int = 0,
        prof: Profile | None = None,
        **stats: Any,
    ) -> Fighter:
        """Put a fighter on the table; fighters sharing ``card`` are activated together."""
        count = sum(1 for f in self.state.fighters.values() if f.player == player)
        fid = f"{'AB'[player]}{count + 1}"
        card = card or fid
        p = prof or profile(**stats)
        fighter = Fighter(fid, player, card, p, Cell(*cell) if cell else None, facing)
        self.state.fighters[fid] = fighter
        if card in self.state.cards:
            old = self.state.cards[card]
            self.state.cards[card] = Card(card, player, old.profile, (*old.fighters, fid))
        else:
            self.state.cards[card] = Card(card, player, p, (fid,))
            self.state.side(player).cards.append(card)
        return fighter

    def engagement(self, center: Fighter, leaves: Sequence[Fighter], first: int) -> Engagement:
        """A fight already set up: combat dice per T7, Initiative won by seat ``first``."""
        return Engagement(
            Combatant(center, len(leaves) + 1),
            [Combatant(f, 2) for f in leaves],
            first,
        )

    def run(self, procedure: Procedure[T], answers: Sequence[Answer] = ()) -> T:
        """Drive ``procedure``, answering its Decisions in order (see `tests.driver`)."""
        return drive(procedure, answers, self.decisions)

    def kinds(self) -> list[str]:
        """Kinds of the events so far, in order."""
        return [e.kind for e in self.events]

    def find(self, kind: str) -> list[Event]:
        """Events of one kind."""
        return [e for e in self.events if e.kind == kind]

    def all_dice_used(self) -> bool:
        """True when every scripted face was rolled."""
        assert isinstance(self.dice, Dice)
        return getattr(self.dice, "unused", 0) == 0
