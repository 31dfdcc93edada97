"""Kill Team: "Pass with the remaining N models" in Fire at Will, pressed as a player
would (the option ends the player's part of the section, so it is ``e``, last, asked)."""

from __future__ import annotations

from pathlib import Path

from tests.tui.keys import send_key, wait_for
from tests.tui.play import game_screen
from tests.tui.test_input import advanced, app_on, listed
from tests.tui.test_log import plain
from tui.confirm import ConfirmScreen
from tui.log_panel import LogPanel

FIRE_AT_WILL = "Fire at Will: choose your next model"


async def test_e_passes_the_remaining_models_after_asking(saves_dir: Path) -> None:
    game = advanced("killteam-crossroads", 3, lambda d: d.prompt == FIRE_AT_WILL)
    decision = game.pending
    assert decision is not None
    mine = [o.key for o in decision.options if not o.ends]
    seat = decision.player
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: bool(listed(screen)), "the options")
        assert listed(screen)[-1] == f"e Pass with the remaining {len(mine)} models"
        made = len(screen.game.choices)
        await send_key(pilot, "e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "a question")
        await send_key(pilot, "y")
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "the pass")
        assert screen.game.choices[-1].key == "pass_all"
        passed = [e for e in screen.game.events if e.kind == "ModelsPassed"]
        assert passed and passed[-1].text.endswith(
            f"remaining {len(mine)} models ({', '.join(mine)})"
        )
        log = screen.query_one(LogPanel)
        await wait_for(pilot, lambda: "pass with their" in " ".join(plain(log)), "the log line")
        # the other player goes on with theirs; none of the passed models is asked again
        later = screen.game.pending
        assert later is not None
        if later.prompt == FIRE_AT_WILL:
            assert later.player == 1 - seat
        assert not {o.key for o in later.options} & set(mine)
