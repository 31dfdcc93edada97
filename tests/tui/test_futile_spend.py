"""A card or a point spent where its odds say it cannot help is asked first."""

from __future__ import annotations

from pathlib import Path

from engine.bot.players import RandomPlayer
from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.keys import send_key, wait_for
from tests.tui.play import at_the_table
from tests.tui.test_playtest_u14c import app_at
from tui.confirm import ConfirmScreen

ROOT = Path(__file__).resolve().parents[2]


def initiative_lost_to_a_twelve() -> Game:
    """Apocalypse, seed 1, random players: at choice 72 a player holding Tactical Insight
    rolled 1 for the initiative against the enemy's 12, which no re-roll can beat."""
    game = Game(load_scenario(ROOT / "scenarios" / "apocalypse-crossing.toml"), 1)
    bots = (RandomPlayer(1), RandomPlayer(2))
    for _ in range(72):
        assert game.pending is not None
        game.choose(bots[game.pending.player].decide(game))
    return game


async def test_a_card_its_odds_say_cannot_help_is_asked_first(saves_dir: Path) -> None:
    """Played against the computer: option 1 was "Tactical Insight: re-roll your 10 (the
    enemy has 2) [re-roll takes the Initiative 0%]", and a habitual 1 threw the card
    away. Now 1 asks, saying why; n keeps the card, y spends it."""
    game = initiative_lost_to_a_twelve()
    pending = game.pending
    assert pending is not None and pending.prompt.startswith("Initiative (your die 1")
    card = pending.options[0]
    assert card.key.startswith("tactical_insight") and card.spends
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_table(pilot)
        await send_key(pilot, "1")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        asked = app.screen
        assert isinstance(asked, ConfirmScreen)
        assert asked.question == f"{card.label}?"
        assert asked.why == (
            "Its odds say it cannot help (re-roll takes the Initiative 0%): it is spent "
            "for nothing."
        )
        await send_key(pilot, "n")
        await wait_for(pilot, lambda: app.screen is screen, "the game again")
        assert screen.game.pending is pending and not screen.game.choices[72:]
        await send_key(pilot, "1")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await send_key(pilot, "y")
        await wait_for(pilot, lambda: len(screen.game.choices) > 72, "the card played")
        assert screen.game.choices[72].key == card.key
