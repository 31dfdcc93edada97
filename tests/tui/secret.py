"""A tiny ruleset with secret decisions, to test what Kill Team never asks for.

Each player secretly picks a card, twice, then both are revealed: enough to show that the
hand-over screen covers the battlefield before and after every hidden Decision, and that
the app drives any ruleset through the generic Decision/GameView API alone.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import engine.game
from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import Outcome, RuleContext, Ruleset, RulesetInfo
from engine.rulesets import find_ruleset
from engine.scenario import Scenario, parse_scenario
from engine.view import GameView, ModelView, SideView

SCENARIO = """
name = "Secret cards"
ruleset = "secret"
description = "Two players pick cards in secret."
rounds = 1
sides = ["Red", "Blue"]
[map]
rows = ["....", "....", "....", "...."]
"""


class SecretCards(Ruleset):
    """Pick a card in secret, twice each, alternating; higher total wins."""

    INFO: ClassVar[RulesetInfo] = RulesetInfo("secret", "Secret cards", "1", "none")

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        self.picks: list[list[int]] = [[], []]

    def play(self, ctx: RuleContext) -> Procedure[Outcome]:
        for player in (0, 1, 0, 1):
            choice = yield Decision(
                player,
                DecisionKind.PICK_OPTION,
                "Pick a card (the other player must not see)",
                tuple(Option(str(n), f"Card {n}") for n in (1, 2, 3)),
                hidden=True,
            )
            self.picks[player].append(int(choice.key))
            ctx.emit("CardPicked", f"Player {player + 1} picked a card", player=player)
        totals = (sum(self.picks[0]), sum(self.picks[1]))
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        return Outcome(winner, f"Totals {totals[0]} to {totals[1]}.", totals)

    def view(self) -> GameView:
        return GameView(
            1,
            "Cards",
            "",
            (
                SideView(0, "Red", (("cards", str(len(self.picks[0]))),)),
                SideView(1, "Blue", (("cards", str(len(self.picks[1]))),)),
            ),
            (ModelView("R", 0, "Red dealer", "r", Cell(0, 0), 1, 1),),
        )

    def snapshot(self) -> dict[str, Any]:
        return {"picks": self.picks}


def install(monkeypatch: pytest.MonkeyPatch) -> Scenario:
    """Let `Game` find the test ruleset; returns its scenario."""

    def find(name: str) -> type[Ruleset]:
        return SecretCards if name == "secret" else find_ruleset(name)

    monkeypatch.setattr(engine.game, "find_ruleset", find)
    return parse_scenario(SCENARIO, "<secret test scenario>")
