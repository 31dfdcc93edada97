"""The game-over summary: winner, why, and a few numbers counted from the game's logs.

Counts only what the engine recorded (its `Outcome`, the models its view marks as
removed, its roll log); it judges nothing itself.
"""

from __future__ import annotations

from rich.text import Text

from engine.game import Game
from engine.luck import luck_table
from engine.wording import counted
from tui.replay_text import luck_lines
from tui.text import seat_name, side_style


def headline(game: Game) -> Text:
    """ "Player 1 (Vanguard Militia) wins" and the reason."""
    outcome = game.outcome
    if outcome is None:
        return Text("The game is not over.", "bold")
    sides = game.scenario.sides
    if outcome.winner is None:
        text = Text("A draw", "bold")
    else:
        text = Text(
            f"{seat_name(game.players, sides, outcome.winner)} wins", side_style(outcome.winner)
        )
    text.append("\n" + outcome.reason)
    return text


def summary(game: Game) -> Text:
    """Per side: score, enemy models removed, dice rolled; luck; then the game's length."""
    view = game.view()
    outcome = game.outcome
    text = Text()
    for side in view.sides:
        seat = side.player
        score = outcome.scores[seat] if outcome is not None else side.score
        kills = sum(1 for m in view.models if m.player != seat and m.removed)
        rolls = [r for r in game.rolls if r.player == seat]
        dice = sum(len(r.faces) for r in rolls)
        text.append(f"{seat_name(game.players, game.scenario.sides, seat)}\n", side_style(seat))
        text.append(
            f"  score {score} · enemy models removed {kills} · {counted(len(rolls), 'roll')} "
            f"({counted(dice, 'die', 'dice')})\n"
        )
    text.append_text(luck_lines(luck_table(game.events, game.rolls), game.players))
    text.append(
        f"\n{len(game.choices)} choices over {view.round} {view.round_word.lower()}s.", "dim"
    )
    return text
