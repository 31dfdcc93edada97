"""Traps found playing Kill Team and fatigue in tmux as a new player would (issue #14):
each test presses the keys that showed the problem and reads the screen."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import msgpack
from textual.pilot import Pilot

from engine.board import Cell, Terrain
from engine.game import Game
from engine.position import position_from_data
from engine.rulesets.killteam.ruleset import KillTeam
from engine.save import read_save, replay, to_bytes
from engine.scenario import load_scenario
from tests.tui.keys import reached, send_key, wait_for, walk_cursor
from tests.tui.play import game_screen, opened_game
from tests.tui.test_game import shown as phase_shown
from tests.tui.test_log import past_handover
from tests.tui.test_playtest_u14b import shown
from tui.app import WargridApp, make_app
from tui.battlefield import Battlefield
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen
from tui.menu import MainMenu
from tui.option_keys import keyed_options
from tui.panels import ModelPanel, PhasePanel

SCENARIOS = Path(__file__).parents[2] / "scenarios"
CASES = Path(__file__).parents[1] / "cases" / "fatigue"
KT_CASES = Path(__file__).parents[1] / "cases" / "killteam"
D5 = KT_CASES / "d5-injury-in-melee.toml"
"""Kill Team case D5: a Seer beside a Brute in the Fight phase, another fight elsewhere."""


def played_to(name: str, prompt: str, seed: int = 3) -> Game:
    """``name``'s scenario played by the engine (first ordinary options) up to ``prompt``."""
    game = Game(load_scenario(SCENARIOS / f"{name}.toml"), seed)
    while game.pending is not None and not game.pending.prompt.startswith(prompt):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    return game


def case_table(path: Path) -> dict[str, Any]:
    """A rule case's position table, to edit before `case_game`."""
    table: dict[str, Any] = tomllib.loads(path.read_text())["position"]
    return table


def case_game(
    path: Path, table: dict[str, Any] | None = None, choices: tuple[str, ...] = ()
) -> Game:
    """The game at a rule case's position (or ``table``, edited from it), after
    ``choices``."""
    position = position_from_data(table or case_table(path), path.stem, "", base=path.parent)
    game = Game(position.scenario, 5, position=position)
    for key in choices:
        game.choose_key(key)
    return game


async def asked(pilot: Pilot[Any], words: str) -> DecisionPanel:
    """The game screen's decision panel, once it shows ``words`` (the question the test
    is about)."""
    panel = (await opened_game(pilot)).decision_panel
    await wait_for(pilot, lambda: words in shown(panel), words)
    return panel


def app_at(game: Game, saves_dir: Path) -> WargridApp:
    """An app showing ``game``, hand-over screens off."""
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(game, handover=False)
    return app


async def test_n_from_an_unlit_cell_goes_to_the_nearest_lit_cell(saves_dir: Path) -> None:
    """Played at 80x24: placing the Reaver Boss, the cursor walked off the zone and Enter
    was refused; `n` then took it to (0,16), the far corner of the zone."""
    game = played_to("killteam-crossroads", "Deployment: place")
    decision = game.pending
    assert decision is not None
    lit = {o.cell for o in decision.options if o.cell is not None}
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        start = field.cursor
        assert start in lit
        rows = 1 if start.y < game.board.height // 2 else -1  # towards the other zone
        outside = start
        while outside in lit:
            outside = Cell(outside.x, outside.y + rows)
        assert outside not in lit
        await walk_cursor(pilot, lambda: field.cursor, outside)
        await send_key(pilot, "n")
        await wait_for(pilot, lambda: field.cursor != outside, "the cursor to hop")
        assert field.cursor == Cell(outside.x, outside.y - rows)  # was the zone's corner


async def test_building_a_kill_team_roster_takes_the_only_leader_and_says_so(
    saves_dir: Path,
) -> None:
    """Played at 80x24: "Roster: choose your Leader" listed one option, the Militia
    Sergeant, and waited for a key."""
    app = make_app(scenario=SCENARIOS / "killteam-crossroads.toml", seed=3, saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        for key in ("1", "1", "2"):  # 100 points; agreed; build a new roster
            await past_handover(pilot)
            count = len(screen.game.choices)
            await send_key(pilot, key)
            await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1))
        await past_handover(pilot)
        await wait_for(pilot, lambda: "wargear of the Militia Sergeant" in shown(panel))
        notice = str(panel.notice.render())
        # not "Done for you: The Militia Sergeant ...", a capital mid-sentence
        assert "Done for you: Militia Sergeant is your Leader: the only one you can take" in notice
        # the roster being built has no cap: "Models 0/10" (the scenario's roster) read as one
        sides = phase_shown(screen.query_one(PhasePanel))
        assert "0/10" not in sides
        assert sides.count("min 3") == 2, sides


async def test_a_fatigue_move_shows_its_first_model_where_it_goes_before_the_rest_follow(
    saves_dir: Path,
) -> None:
    """Played at 80x24: the Road Spears' A2 was moved two cells south, then "how should
    the rest of Road Spears follow?" was asked over a board (and card) with A2 where it
    stood."""
    game = Game(load_scenario(SCENARIOS / "fatigue-crossroads.toml"), 3)
    while (decision := game.pending) is not None and not decision.prompt.startswith(
        "Move Road Spears: where"
    ):
        spears = [o.key for o in decision.options if o.label.startswith(("Road Spears", "Move"))]
        game.choose_key(spears[0] if spears else next(o.key for o in decision.options))
    assert decision is not None and decision.subject is not None
    lead = decision.subject
    old = game.view().model(lead).cell  # type: ignore[union-attr]
    view = game.view()
    new = next(o.cell for o in decision.options if o.cell and not view.model_at(o.cell))
    game.choose_key(next(o.key for o in decision.options if o.cell == new))
    assert game.pending is not None and "how should the rest" in game.pending.prompt
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await wait_for(pilot, lambda: field.model_at(new) is not None, "the lead drawn")
        assert field.model_at(new).id == lead  # type: ignore[union-attr]
        assert field.model_at(old) is None  # type: ignore[arg-type]
        glyph = game.view().model(lead).glyph  # type: ignore[union-attr]
        assert glyph in "".join(s.text for s in field._draw_cell([new], None))
        card = str(screen.query_one(ModelPanel).render())
        assert f"at ({new.x},{new.y})" in card
    # The move itself, once the rest follow, is as before.
    game.choose_key("auto")
    assert game.view().model(lead).cell == new  # type: ignore[union-attr]


async def test_activating_a_fatigue_unit_shows_its_card_not_the_last_one_looked_at(
    saves_dir: Path,
) -> None:
    """Played at 80x24: Road Spears activated (2), and "Road Spears: choose the action"
    was asked beside the Warden-Captain's card, the cursor still on the Captain."""
    game = played_to("fatigue-crossroads", "Dustroad Wardens (")  # activate a unit or pass
    decision = game.pending
    assert decision is not None
    spears = next(o for o in decision.options if o.label.startswith("Road Spears"))
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        card = screen.query_one(ModelPanel)
        captain = next(o for o in decision.options if o.label.startswith("Warden-Captain"))
        await walk_cursor(pilot, lambda: field.cursor, captain.cell)
        await wait_for(pilot, lambda: "Warden-Captain" in str(card.render()), "the first card")
        key = next(row.key for row in keyed_options(decision) if row.option is spears)
        await send_key(pilot, key)
        await wait_for(pilot, lambda: "choose the action" in shown(screen.decision_panel))
        await wait_for(pilot, lambda: "Road Spears" in str(card.render()), "the unit's card")
        assert "Warden-Captain" not in str(card.render())
        assert field.cursor == spears.cell  # its first model


async def test_a_fatigue_attack_on_the_only_enemy_in_reach_is_not_asked_and_says_so(
    saves_dir: Path,
) -> None:
    """Played at 200x60: the Relic Longguns chose Shoot, then "choose the target unit"
    listed one unit and waited for a key. Here (case T1's table) the Warden-Captain
    attacks: the Ashfang Chief is the only enemy in reach."""
    # The Captain attacks, with Whirlwind of Steel.
    game = case_game(CASES / "t1-whirlwind-first-activation.toml", choices=("u1", "ATTACK", "yes"))
    decision = game.pending
    assert decision is not None and "choose the contact cell" in decision.prompt
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = await asked(pilot, "contact cell")
        notice = str(panel.notice.render())
        assert "Ashfang Chief is the only enemy Warden-Captain can attack." in notice


async def test_the_kill_team_melee_weapon_question_reads_as_english(saves_dir: Path) -> None:
    """Played at 80x24: "which weapon for the 2 attack(s) on B1", and under the list
    "Chain blade — Chain blade: Melee S User AP 0 Dmg 1 [extra_attack]"."""
    table = case_table(D5)
    table["killteam"]["models"][0]["datasheet"] = "sergeant"  # a chain blade
    game = case_game(D5, table, ("A1", "fight", "6,9"))  # he fights, staying where he is
    decision = game.pending
    assert decision is not None and "which weapon" in decision.prompt
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = await asked(pilot, "which weapon")
        assert "for the 2 attacks on B1" in shown(panel).replace("\n", " ")
        await send_key(pilot, "tab")  # to the list: its highlighted weapon explained below
        await wait_for(pilot, lambda: "Melee" in str(panel.detail.render()), "the detail")
        detail = str(panel.detail.render()).replace("\n", " ")
        assert "Melee S User AP 0 Dmg 1 [+1 attack]" in detail
        assert "Chain blade" not in detail  # its row above says it
        assert "attack(s)" not in shown(panel) and "extra_attack" not in detail


def visible_rows(panel: DecisionPanel) -> str:
    """The option list's lines as the screen shows them (its scroll window)."""
    options = panel.option_list
    height = options.scrollable_content_region.height
    return " ".join(options.render_line(y).text.rstrip() for y in range(height))


async def test_at_80x24_a_note_and_the_detail_leave_every_option_of_a_short_list_in_view(
    saves_dir: Path,
) -> None:
    """Played at 80x24: the Sergeant's weapon question under "Done for you: B1 ... is the
    only enemy ... can attack." showed "1 Chain blade" alone (two lines); option 2, the
    Improvised attack, was below the list with nothing saying so."""
    table = case_table(D5)
    table["killteam"]["models"][0]["datasheet"] = "sergeant"
    table["killteam"]["models"][2]["datasheet"] = "boss"  # words that wrap
    game = case_game(D5, table, ("A1", "fight", "6,9"))
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = await asked(pilot, "which weapon")
        assert "Done for you" in str(panel.notice.render())
        await pilot.pause()
        rows = visible_rows(panel)
        assert "1 Chain blade" in rows and "2 Improvised attack" in rows, rows


async def test_a_kill_team_fight_with_one_model_to_pick_does_not_ask_which(
    saves_dir: Path,
) -> None:
    """Played at 80x24: "Hammer of Wrath: choose your next model" listed the Sergeant
    alone, and waited for its key."""
    table = case_table(D5)
    del table["killteam"]["models"][1]  # the Seer is the Militia's one fighter
    game = case_game(D5, table)
    decision = game.pending
    assert decision is not None and decision.prompt.startswith("A1 Militia Seer: fight now")
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = await asked(pilot, "fight now")
        notice = str(panel.notice.render()).replace("\n", " ")
        assert "A1 Militia Seer is your only model left to act." in notice
        assert "choose your next model" not in shown(panel)


async def test_continuing_a_save_an_older_kill_team_wrote_says_why_it_cannot_go_on(
    saves_dir: Path,
) -> None:
    """Played: Continue on a game saved before a rules update said only "step 4: the
    recorded choice is refused: 'sergeant' is not an option of decision #3 (Roster:
    wargear of the Militia Sergeant); options: 0, 1" - no cause, no way out."""
    game = Game(load_scenario(SCENARIOS / "killteam-crossroads.toml"), 4)
    for key in ("100", "yes", "build"):
        game.choose_key(key)
    doc = msgpack.unpackb(to_bytes(game))
    doc["ruleset_version"] = "3"  # it asked for the Leader then: the answer is recorded
    doc["choices"].append([3, "sergeant"])
    old = saves_dir / "before-the-update.wargrid"
    old.write_bytes(msgpack.packb(doc))
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await send_key(pilot, "c")
        await wait_for(pilot, lambda: bool(app._notifications), "the refusal")
        said = " ".join(str(n.message) for n in app._notifications)
        assert "saved by Kill Team (2018) rules version 3" in said
        now = KillTeam.INFO.version  # the version this wargrid plays, whatever it is now
        assert f"plays version {now}" in said and "Open it as a replay" in said
        assert "'sergeant' is not an option" in said  # the step that failed, for a report
        assert isinstance(app.screen, MainMenu)


async def test_a_finished_fatigue_game_shows_no_step_after_game_over(saves_dir: Path) -> None:
    """Played at 80x24 to the end: the phase line read "R5 · Game over · End-of-round
    actions", the last step still shown after the game ended."""
    game = replay(read_save(Path(__file__).parents[1] / "replays" / "fatigue.wargrid"))
    # Its last round ends in "Round end", which has no step (it had "End-of-round
    # actions"); whatever the engine leaves, the panel shows none after the game.
    assert game.pending is None
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        panel = game_screen(pilot).query_one(PhasePanel)
        await wait_for(pilot, lambda: "Game over" in phase_shown(panel), "the phase line")
        assert "End-of-round actions" not in phase_shown(panel)


async def test_psybolt_with_no_enemy_in_reach_says_so_before_it_is_cast(
    saves_dir: Path,
) -> None:
    """Played at 200x60: the Hex-caller was offered "Psybolt (5+) [manifests 83%]", cast
    it, and the log said "Psybolt finds no visible enemy within 18"": nothing had said the
    power would be wasted."""
    table = case_table(KT_CASES / "s16-psybolt-fails.toml")
    for brute in table["killteam"]["models"][1:]:
        brute["cell"] = [brute["cell"][0], 21]  # both Brutes 19" away or more
    game = case_game(KT_CASES / "s16-psybolt-fails.toml", table, ("A1",))
    decision = game.pending
    assert decision is not None and decision.prompt.endswith("which power?")
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = await asked(pilot, "which power")
        assert '1 Psybolt (5+) (no visible enemy within 18")' in shown(panel)


async def test_enter_on_a_wall_or_a_model_says_what_is_there(saves_dir: Path) -> None:
    """Played at 80x24: moving the Reaver Boss, Enter on (14,8) and on (14,16) said only
    "(14,8) is not an option": a wall, and the Militia Seer standing there."""
    game = played_to("killteam-crossroads", "Deployment: place")
    while (asked := game.pending) is not None and not asked.prompt.startswith("Normal Move"):
        normal = [o.key for o in asked.options if o.label == "Normal Move"]
        game.choose_key(normal[0] if normal else next(o.key for o in asked.options))
    decision = game.pending
    assert decision is not None
    lit = {o.cell for o in decision.options if o.cell is not None}
    board, view = game.board, game.view()
    wall = next(c for c in board.cells() if board.kind(c) is Terrain.BLOCKING and c not in lit)
    other = next(m for m in view.models if m.cell not in lit and m.cell is not None)
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        panel = screen.decision_panel
        for cell, said in ((wall, ": wall."), (other.cell, f": {other.name} stands there.")):
            await walk_cursor(pilot, lambda: field.cursor, cell)
            await send_key(pilot, "enter")
            await wait_for(pilot, lambda c=cell: str(c) in str(panel.notice.render()))  # type: ignore[misc]
            assert f"{cell} is not an option{said}" in str(panel.notice.render()).replace("\n", " ")
