"""Deployment: the deployment sequence, its Tactical roll and card-by-card placement.

Digest confrontation §4.3, §6.12.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from functools import lru_cache

from engine.board import Board, Cell
from engine.decisions import Decision, DecisionKind, Procedure, cell_options
from engine.facing import ask_facing, name
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.deck import stack_decks
from engine.rulesets.confrontation.geometry import parse_cell
from engine.rulesets.confrontation.state import CState, Fighter
from engine.rulesets.confrontation.tactical import choose_first, tactical_roll
from engine.wording import says


def deploy(state: CState, ctx: RuleContext) -> Procedure[None]:
    """§4.3 steps 1-4: secret sequence, Tactical roll, alternate revealing one card (A11, A13)."""
    state.phase = "Deployment"
    ctx.enter(0, "Deployment")
    yield from stack_decks(state, ctx, "deployment sequence")
    winner = yield from tactical_roll(state, ctx, deployment=True)
    current = yield from choose_first(state, winner, "who deploys first?")
    ctx.emit(
        "FirstDeployerChosen",
        f"{says(state.side(current).name, 'deploys')} first",
        player=current,
    )
    while any(len(s.deck) for s in state.sides):
        side = state.side(current)
        if len(side.deck):
            card = state.cards[side.deck.reveal()]
            ctx.emit(
                "CardRevealed",
                f"{says(side.name, 'reveals')} {card.label} to deploy",
                player=current,
                card=card.id,
            )
            for fid in card.fighters:
                yield from _place(state, ctx, state.fighters[fid])
        current = 1 - current


@lru_cache(maxsize=8)
def _standable(board: Board, zone: frozenset[Cell]) -> tuple[Cell, ...]:
    """The zone's cells a fighter may stand on, row by row (the board never changes:
    worked out once, not for each fighter placed)."""
    return tuple(sorted((c for c in zone if board.is_standable(c)), key=lambda c: (c.y, c.x)))


def _place(state: CState, ctx: RuleContext, fighter: Fighter) -> Procedure[None]:
    """Put one fighter on a free cell of its zone with a chosen facing (D7)."""
    state.step = f"Deploy {fighter.name}"
    zone = state.zones[state.side(fighter.player).zone]
    taken = state.occupied()
    free = [c for c in _standable(state.board, zone) if c not in taken]
    choice = yield Decision(
        fighter.player,
        DecisionKind.PICK_CELL,
        f"Deployment: place {fighter.name} in your zone",
        cell_options(free, "cell "),
        subject=fighter.id,
    )
    fighter.cell = parse_cell(choice.key)
    fighter.facing = yield from ask_facing(
        fighter.player,
        f"Deployment: which way does {fighter.name} face?",
        marked=_towards_enemy(state, fighter.cell),
        mark="towards the enemy",
        subject=fighter.id,
    )
    ctx.emit(
        "FighterDeployed",
        f"{fighter.name} deploys at {fighter.cell}, facing {name(fighter.facing)}",
        model=fighter.id,
        x=fighter.cell.x,
        y=fighter.cell.y,
        facing=fighter.facing,
    )


def _towards_enemy(state: CState, cell: Cell) -> int:
    """UI default facing: towards the far edge (§11, Facing)."""
    return 0 if 2 * cell.y < state.board.height else 4
