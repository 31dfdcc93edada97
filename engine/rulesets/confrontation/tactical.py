"""The Tactical roll: an opposed DIS test at deployment and every Strategic phase.

Digest confrontation §6.4.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.rolls import opposed_chance, opposed_test
from engine.rulesets.confrontation.state import CState, Fighter
from engine.wording import agrees


def tactical_roll(state: CState, ctx: RuleContext, *, deployment: bool) -> Procedure[int]:
    """§6.4 steps 1-2: each player picks a fighter's DIS (D5), then the opposed test.

    Any living fighter on the table may lend its DIS; at deployment any fighter of the
    army (§10 A10, PROPOSED). Returns the winner's seat, also stored in the state.
    """
    state.step = "Tactical roll"
    state.tactical_open = True
    chosen: list[Fighter] = []
    for player in (0, 1):
        pool = [f for f in state.fighters_of(player) if f.alive and (deployment or f.on_table)]
        rivals = [
            f for f in state.fighters_of(1 - player) if f.alive and (deployment or f.on_table)
        ]
        best = max((f.profile.dis for f in rivals), default=0)
        chosen.append((yield from _pick_discipline(player, pool, best)))
    a, b = chosen
    ctx.emit(
        "TacticalRollDeclared",
        f"Tactical roll: {a.name} (DIS {a.profile.dis}) against {b.name} (DIS {b.profile.dis})",
    )
    index = yield from opposed_test(
        ctx,
        (a.profile.dis, b.profile.dis),
        (0, 1),
        "Tactical roll",
        (state.side(0).name, state.side(1).name),
    )
    winner = (0, 1)[index]
    state.tactical_winner = winner
    state.tactical_open = False
    name = state.side(winner).name
    ctx.emit(
        "TacticalRollWon",
        f"{name} {agrees(name, 'wins')} the Tactical roll and {agrees(name, 'chooses')} who "
        + ("deploys first" if deployment else "takes the first activation turn"),
        player=winner,
    )
    return winner


def _pick_discipline(player: int, pool: list[Fighter], rival: int) -> Procedure[Fighter]:
    """D5: which fighter's DIS to use; one option per distinct DIS, highest first, with
    the chance to win against the best DIS the other side has (``rival``)."""
    by_dis: dict[int, Fighter] = {}
    for f in pool:
        by_dis.setdefault(f.profile.dis, f)
    ranked = sorted(by_dis.values(), key=lambda f: -f.profile.dis)
    if len(ranked) == 1:
        return ranked[0]
    choice = yield Decision(
        player,
        DecisionKind.PICK_MODEL,
        "Tactical roll: whose Discipline (DIS) do you use?",
        tuple(
            Option(
                f.id,
                f"{f.name}: DIS {f.profile.dis}",
                cell=f.cell,
                model=f.id,
                odds=Odds.of(
                    (
                        f"wins vs DIS {rival}",
                        opposed_chance((f.profile.dis, rival), (player, 1 - player)),
                    )
                ),
            )
            for f in ranked
        ),
    )
    return next(f for f in ranked if f.id == choice.key)


def choose_first(state: CState, winner: int, question: str) -> Procedure[int]:
    """The Tactical-roll winner chooses who goes first (D7 deployment, D9 activation)."""
    me, them = state.side(winner).name, state.side(1 - winner).name
    choice = yield Decision(
        winner,
        DecisionKind.PICK_OPTION,
        f"You won the Tactical roll: {question}",
        (Option("me", f"{me} (you)"), Option("them", f"{them}")),
    )
    return winner if choice.key == "me" else 1 - winner
