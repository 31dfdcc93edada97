"""Confrontation's army list at 80x24: "Done" ends the army (`Option.ends`), so it is
on ``e`` and asked first while fighters may still be added.

The playtest: a new player pressed 1 for spearman after spearman; once 7 AP were left
the list was only "1 Done (4 fighters, 68 AP)", and the next 1 ended the army unwarned.
"""

from __future__ import annotations

from pathlib import Path

from tests.tui.keys import press_until, send_key, wait_for
from tests.tui.play import first_key, keys_of, opened_game, press_for_choice
from tests.tui.test_option_room import on_screen
from tui.app import make_app
from tui.confirm import ConfirmScreen
from tui.modals import HandOverScreen
from tui.text import decision_hint

MUSTER = Path(__file__).parents[2] / "scenarios" / "confrontation-muster.toml"


async def test_a_repeated_1_is_refused_once_only_done_is_left(tmp_path: Path) -> None:
    app = make_app(scenario=MUSTER, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        game = screen.game

        async def answer(key: str) -> None:
            if isinstance(app.screen, HandOverScreen):
                await press_until(pilot, "enter", lambda: app.screen is screen)
            made = len(game.choices)
            await press_for_choice(pilot, key, lambda: len(game.choices) > made)

        await answer("1")  # propose 75 AP
        while (pending := game.pending) is not None and "add a fighter" not in pending.prompt:
            await answer(first_key(pending, keys_of(pilot)))  # agree
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", lambda: app.screen is screen)
        await send_key(pilot, "e")  # Done while fighters may be added: nothing is added yet
        assert screen.decision_panel.refused.startswith("e picks nothing here")
        await answer("1")  # a Lantern Spearman, 12 AP
        await send_key(pilot, "e")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await press_until(pilot, "n", lambda: app.screen is screen)
        assert game.pending is not None and "63 AP left" in game.pending.prompt
        for _ in range(5):
            await answer("1")
        assert game.pending is not None and "3 AP left" in game.pending.prompt
        await pilot.pause()
        rows = on_screen(screen.decision_panel)
        assert any(row.startswith("e Done (6 fighters, 72 AP)") for row in rows), rows
        assert decision_hint(game.pending).endswith(" e ends.")  # the only option: no question
        made = len(game.choices)
        await send_key(pilot, "1")  # once too often: refused, the army not ended
        assert screen.decision_panel.refused == (
            "1 picks nothing here: the only option's key is e."
        )
        assert len(game.choices) == made and "3 AP left" in game.pending.prompt
        await answer("e")  # the only option: taken without a question
        assert game.choices[-1].key == "done"
