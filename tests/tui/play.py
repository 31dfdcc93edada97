"""Playing through the app by keys, choosing among what the screen offers.

A "player" here reads only what the game screen shows (the pending Decision's options
in the list and the lit cells) and answers with the keys a person would press: the
cursor keys and Enter for cells, digits for list options, Enter at hand-over screens.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from engine.board import Cell
from engine.decisions import Decision, Option
from tests.tui.keys import gone, press_until, send_key, wait_for, walk_cursor
from tui.app import make_app
from tui.battlefield import Battlefield
from tui.confirm import ConfirmScreen
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen
from tui.modals import GameOverScreen, HandOverScreen
from tui.option_keys import OptionKeys, is_cell_pick


def app_at(folder: Path, position: str, *, seed: int) -> App[None]:
    """The app opening a new game at ``position`` (a position file's text, written to
    ``folder``, which holds the saves too), as `wargrid play --position` does."""
    path = folder / "position.toml"
    path.write_text(position)
    return make_app(position=path, seed=seed, saves_dir=folder)


async def opened_game(pilot: Pilot[Any]) -> GameScreen:
    """Wait until the app shows its game screen, and return it."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, GameScreen), "the game")
    return game_screen(pilot)


async def at_the_table(pilot: Pilot[Any]) -> GameScreen:
    """The game screen, past a hand-over screen it opens with."""
    app = pilot.app
    opened = lambda: any(isinstance(s, GameScreen) for s in app.screen_stack)  # noqa: E731
    await wait_for(pilot, opened, "the game")
    screen = game_screen(pilot)
    if isinstance(app.screen, HandOverScreen):
        await press_until(pilot, "enter", lambda: app.screen is screen)
    return screen


def game_screen(pilot: Pilot[Any]) -> GameScreen:
    """The game screen, wherever it is in the stack."""
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, GameScreen):
            return screen
    raise AssertionError("no game screen is open")


async def cursor_on(pilot: Pilot[Any], cell: Cell) -> tuple[GameScreen, Battlefield]:
    """Past an opening hand-over screen, the board focused and its cursor on ``cell``."""
    app = pilot.app
    await pilot.pause()
    screen = game_screen(pilot)
    if isinstance(app.screen, HandOverScreen):
        await press_until(pilot, "enter", lambda: app.screen is screen)
    field = screen.query_one(Battlefield)
    field.focus()
    await walk_cursor(pilot, lambda: field.cursor, cell)
    return screen, field


def keys_of(pilot: Pilot[Any]) -> OptionKeys:
    """The keys the game screen's option list shows (they stay with their options while
    a list is asked again with fewer, so they depend on what the screen showed before)."""
    return game_screen(pilot).decision_panel.keys


def key_of(decision: Decision, option: Option, keys: OptionKeys) -> str:
    """The key a player presses for ``option``: Enter on a cell picker (the cursor starts
    on a lit cell, so Enter takes that one), else the option's own key as the screen lists
    it (``e`` for an option that ends a phase)."""
    return "enter" if is_cell_pick(decision, option) else keys.key_for(decision, option.key)


def first_key(decision: Decision, keys: OptionKeys) -> str:
    """`key_of` the first offered option (a player in a hurry)."""
    return key_of(decision, decision.options[0], keys)


async def onto_a_lit_cell(pilot: Pilot[Any]) -> None:
    """Press ``n`` when the board's cursor is on no lit cell of a cell picker: a move
    that must leave its cell (a run) starts the cursor on the model, where Enter picks
    nothing (`tui.placement.moves_off`)."""
    screen = game_screen(pilot)
    decision = screen.game.pending
    if decision is None or not any(is_cell_pick(decision, o) for o in decision.options):
        return
    if all(o.cell != screen.battlefield.cursor for o in decision.options):
        await send_key(pilot, "n")
        lit = {o.cell for o in decision.options}
        await wait_for(pilot, lambda: screen.battlefield.cursor in lit, "a lit cell")


async def press_for_choice(pilot: Pilot[Any], key: str, taken: Callable[[], bool]) -> None:
    """Press ``key`` and see it through: confirm an "end the phase?" question with ``y``,
    and press Enter when the board handed over to the list (several options on a cell) or
    the key only pointed at its option (the game had just answered a prompt by itself)."""
    app = pilot.app
    if key == "enter":
        await onto_a_lit_cell(pilot)
    focused = app.focused
    await send_key(pilot, key)

    def to_list() -> bool:
        listed = getattr(app.focused, "id", "") == "options"
        armed = getattr(app.screen, "armed", None) is not None
        return listed and (app.focused is not focused or armed)

    def moved() -> bool:
        return taken() or isinstance(app.screen, ConfirmScreen) or to_list()

    await wait_for(pilot, moved, f"the effect of {key!r}")
    if isinstance(app.screen, ConfirmScreen):
        await send_key(pilot, "y")
    elif not taken():
        await send_key(pilot, "enter")
    await wait_for(pilot, taken, f"a choice after {key!r}")


async def choose_by_keys(pilot: Pilot[Any], rng: random.Random, hasty: float = 0.0) -> None:
    """Answer the pending Decision with keys, as a player would; wait until it is taken.

    With probability ``hasty``, a Decision that mixes cells with listed options (such as
    "End movement" or "Pass") is answered with the last listed one, as a player in a hurry
    would: it keeps whole-game tests short.
    """
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, GameScreen)
    game = screen.game
    decision = game.pending
    assert decision is not None
    before = len(game.choices)

    def taken() -> bool:
        return len(screen.game.choices) == before + 1

    cells = [o for o in decision.options if o.cell is not None]
    await wait_for(pilot, lambda: bool(screen.query(DecisionPanel)), "the option list")
    listed = [row.key for row in screen.decision_panel.keys.rows(decision) if row.key]
    if cells and listed and rng.random() < hasty:
        await press_for_choice(pilot, listed[-1], taken)
    elif cells and (not listed or rng.random() < 0.8):
        for _ in range(rng.randrange(min(len(cells), 4))):
            await send_key(pilot, "n")
        await onto_a_lit_cell(pilot)
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: taken() or getattr(app.focused, "id", "") == "options")
        if not taken():  # several options on that cell: the list took focus, Enter picks
            await send_key(pilot, "enter")
    else:
        await press_for_choice(pilot, listed[rng.randrange(min(10, len(listed)))], taken)
    await wait_for(pilot, taken, f"a choice for {decision.prompt!r}")
    assert screen.game.answered[-1] == decision


async def play_to_game_over(
    pilot: Pilot[Any],
    rng: random.Random,
    *,
    max_steps: int = 5000,
    handovers: int = 4,
    hasty: float = 0.0,
) -> int:
    """Play until the game-over screen; returns how many hand-over screens were seen.

    The first ``handovers`` hand-over screens are dismissed with Enter; the next one is
    switched off with ``o`` (as players tired of them would), so none may appear after.
    """
    app = pilot.app
    seen = 0
    for _ in range(max_steps):
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return seen
        if isinstance(screen, HandOverScreen):
            seen += 1
            assert seen <= handovers + 1, "a hand-over screen came back after 'o'"
            await send_key(pilot, "enter" if seen <= handovers else "o")
            await wait_for(pilot, gone(app, screen), "the hand-over to close")
            continue
        await choose_by_keys(pilot, rng, hasty)
    raise AssertionError(f"no game over after {max_steps} steps")


async def press_to_game_over(
    pilot: Pilot[Any],
    pick: Callable[[Decision, OptionKeys], str],
    *,
    handover: Callable[[HandOverScreen], str],
    limit: int = 5000,
) -> int:
    """Answer every Decision with the key ``pick`` names (given the screen's keys) until
    the game-over screen.

    ``handover`` names the key for each hand-over screen (Enter to pass it, ``o`` to turn
    the open ones off). Returns how many secret hand-over screens were passed.
    """
    app = pilot.app
    await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
    game = game_screen(pilot).game
    secrets = 0
    while not isinstance(app.screen, GameOverScreen):
        top = app.screen
        if isinstance(top, HandOverScreen):
            secrets += top.hidden
            await press_until(pilot, handover(top), gone(app, top))
            continue
        decision = game.pending
        assert decision is not None
        made = len(game.choices)
        assert made < limit, f"no game over after {limit} choices"

        def answered(n: int = made) -> bool:
            return len(game.choices) > n or isinstance(app.screen, GameOverScreen)

        await press_for_choice(pilot, pick(decision, keys_of(pilot)), answered)
    return secrets
