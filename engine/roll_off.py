"""Roll-offs: each player rolls one die, the higher wins, a tie is rolled again.

Kill Team, fatigue and wh40k6 (D6) and Apocalypse (D12) settle who deploys, who picks a
zone or who has the initiative this way. The log line names both sides, both dice, the
winner and what the winner now decides: the other player reads why it is not their turn
("Deployment roll-off: Red 4, Blue 2 — Red wins and chooses the deployment zone"); the
line "deployment roll-off: 4 against 2" said none of it.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.checks import ROLL_OFF, Check
from engine.ruleset import RuleContext
from engine.wording import agreeing, agrees


def roll_off(
    ctx: RuleContext,
    sides: Sequence[str],
    title: str,
    prize: str,
    *,
    die: int = 6,
    check: Check = ROLL_OFF,
    kind: str = "RollOffWon",
) -> int:
    """Roll until the dice differ; returns the winner's seat. ``sides`` are the two side
    names, ``title`` names the roll-off ("Deployment roll-off") and is each roll's reason,
    ``prize`` what the winner does ("chooses the deployment zone"); ``kind`` the winner's
    event (an initiative roll-off's line is its "InitiativeWon": one line, not two)."""
    while True:
        a, b = (
            ctx.dice.roll(1, die, player=p, reason=title.lower(), check=check).faces[0]
            for p in (0, 1)
        )
        scores = f"{title}: {sides[0]} {a}, {sides[1]} {b}"
        if a != b:
            winner = 0 if a > b else 1
            name = sides[winner]
            ctx.emit(
                kind,
                f"{scores} — {name} {agrees(name, 'wins')} and {agreeing(name, prize)}",
                player=winner,
                winner=winner,
                a=a,
                b=b,
            )
            return winner
        ctx.emit("RollOffTied", f"{scores} — a tie, rolling again", a=a, b=b)
