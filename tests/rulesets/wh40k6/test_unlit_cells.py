"""Why a cell is not lit (`Decision.why_not`): a formation move lights only the cells
where every model of the unit can go, so the refusal names the model that cannot (a
player saw a cell 6" away refused with no reason: its formation would have entered
ruins)."""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell
from engine.decisions import Decision
from engine.game import Game
from engine.position import parse_position
from tests.rulesets.threats import SCENARIOS
from tests.tui.keys import send_key, wait_for, walk_cursor
from tests.tui.play import app_at, at_the_table, press_for_choice

EDGE = """scenario = "wh40k6-open-war.toml"
round = 2
phase = "Movement"

[wh40k6]
player = 1

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [1, 10] }, { cell = [0, 10] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [40, 40] }]
"""


def asked(game: Game, words: str) -> Decision:
    """Answer with the first option that is not "end" until a prompt holds ``words``."""
    for _ in range(10):
        decision = game.pending
        assert decision is not None
        if words in decision.prompt:
            return decision
        game.choose_key(next(o.key for o in decision.options if o.key != "end"))
    raise AssertionError(f"never asked {words!r}")


def game_at(position: str) -> Game:
    parsed = parse_position(position, "edge.toml", base=SCENARIOS)
    return Game(parsed.scenario, 3, position=parsed)


def test_a_formation_cell_names_the_model_that_could_not_go() -> None:
    decision = asked(game_at(EDGE), "keeping its formation")
    lit = {o.cell for o in decision.options}
    assert decision.why_not is not None
    assert Cell(1, 12) in lit and decision.why_not(Cell(1, 12)) == ""
    # The sergeant could go to (0,12), but the Warden to his left would leave the table.
    assert Cell(0, 12) not in lit
    assert decision.why_not(Cell(0, 12)) == (
        "keeping the formation, A1.2 Warden would be at (-1,12): out of A1.2 Warden's reach"
    )
    assert Cell(1, 30) not in lit  # 20" away
    assert decision.why_not(Cell(1, 30)) == "out of A1.1 Warden Sergeant's reach"


def test_model_by_model_a_cell_another_model_took_says_so() -> None:
    game = game_at(EDGE)
    asked(game, "keeping its formation")
    game.choose_key("one-by-one")
    first = asked(game, "model by model")
    game.choose_key("1,12")
    second = asked(game, "model by model")
    assert first.subject != second.subject and second.why_not is not None
    assert Cell(1, 12) not in {o.cell for o in second.options}
    assert second.why_not(Cell(1, 12)) == "another model of the unit is placed there"


async def test_enter_on_an_unlit_formation_cell_says_which_model_could_not_go(
    tmp_path: Path,
) -> None:
    app = app_at(tmp_path, EDGE, seed=3)
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await at_the_table(pilot)
        game = screen.game
        await press_for_choice(pilot, "1", lambda: len(game.choices) == 1)
        assert game.pending is not None and "keeping its formation" in game.pending.prompt
        screen.battlefield.focus()
        await walk_cursor(pilot, lambda: screen.battlefield.cursor, Cell(0, 12))
        await send_key(pilot, "enter")
        panel = screen.decision_panel
        await wait_for(pilot, lambda: bool(panel.refused), "the refusal")
        notice = panel.refused
        assert "(0,12) is not an option: keeping the formation, A1.2 Warden would be at" in notice
        assert len(game.choices) == 1
