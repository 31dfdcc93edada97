"""Traps found playing wh40k6 and Apocalypse in tmux as a new player would (issue #14):
each test presses the keys that showed the problem and reads the screen."""

from __future__ import annotations

from pathlib import Path

from tests.tui.keys import reached, send_key, wait_for
from tests.tui.play import opened_game
from tui.app import make_app
from tui.panels import DecisionPanel

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def shown(panel: DecisionPanel) -> str:
    """The prompt and the listed options as the player reads them."""
    rows = [str(option.prompt) for option in panel.option_list.options]
    return " | ".join([str(panel.prompt.content), *rows])


async def test_the_roster_builder_counts_one_unit_and_one_detachment_in_the_singular(
    tmp_path: Path,
) -> None:
    """Played: "Roster: 1 detachments", "Finish the army (1 detachments)"."""
    app = make_app(scenario=SCENARIOS / "apocalypse-crossing.toml", seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        for key, after in (("2", "Legion Detachment 1 (empty)"), ("1", "Close")):
            count = len(screen.game.choices)
            await send_key(pilot, key)
            await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1))
            await wait_for(pilot, lambda a=after: a in shown(panel), after)  # type: ignore[misc]
        assert "(1 unit, 20 pts)" in shown(panel)
        row = next(str(r.prompt) for r in panel.option_list.options if "Close" in str(r.prompt))
        count = len(screen.game.choices)
        await send_key(pilot, row[0])  # the row starts with its key
        await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1))
        await wait_for(pilot, lambda: "Roster: 1 detachment," in shown(panel), "the roster")
        assert "Finish the army (1 detachment)" in shown(panel)
        assert "detachments" not in shown(panel)
