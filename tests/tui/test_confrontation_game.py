"""A whole Confrontation game played through the TUI, key by key, to the game-over screen.

The players charge whenever they can (the first charge offered, in reach or not) and
otherwise take the first option (all-out attacks come first), so the game ends by a
wipe-out well before the round cap; they answer secret deck stacking behind the
hand-over screen with Enter, and switch the open hand-over screens off.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.decisions import Decision
from tests.tui.play import first_key, game_screen, key_of, press_to_game_over
from tui.app import make_app
from tui.option_keys import OptionKeys

SCENARIO = Path(__file__).parents[2] / "scenarios" / "confrontation-crossing.toml"


def charging_key(decision: Decision, keys: OptionKeys) -> str:
    """The key of the first charge offered (the declare list puts them after common
    actions), else of the first option."""
    charges = [o for o in decision.options if o.key.partition(":")[0].endswith("charge")]
    return key_of(decision, charges[0], keys) if charges else first_key(decision, keys)


@pytest.mark.slow
async def test_a_full_confrontation_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        secrets = await press_to_game_over(
            pilot, charging_key, handover=lambda top: "enter" if top.hidden else "o"
        )
        game = game_screen(pilot).game
        assert game.outcome is not None and game.outcome.winner is not None
        assert "no fighter left" in game.outcome.reason
        assert secrets >= 2
