"""Keys stay with their options while a list is asked again with fewer (`OptionKeys`).

Half of wh40k6's "Which unit moves next?" lists used to shift: the player who had learnt
"Squad Beta is 2" pressed 2 after Alpha had moved and got the unit listed after Beta.
"""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option
from tests.tui.keys import send_key
from tests.tui.play import app_at, at_the_table, first_key, keys_of, press_for_choice
from tests.tui.test_option_room import on_screen
from tui.option_keys import OptionKeys, keyed_options

END = Option("end", "End the Movement phase", ends=True)
UNITS = [Option(f"move:{name}", f"Move {name}") for name in ("Alpha", "Beta", "Gamma", "Delta")]


def units(shown: list[Option], number: int, prompt: str = "Which unit moves next?") -> Decision:
    return Decision(0, DecisionKind.PICK_OPTION, prompt, (*shown, END), id=number)


def keys(rows: object) -> dict[str, str]:
    return {row.option.label: row.key for row in rows}  # type: ignore[attr-defined]


def test_a_list_asked_again_with_fewer_options_keeps_each_key() -> None:
    board = OptionKeys()
    first = board.rows(units(UNITS, 0))
    assert keys(first) == {
        "Move Alpha": "1", "Move Beta": "2", "Move Gamma": "3", "Move Delta": "4",
        "End the Movement phase": "e",
    }  # fmt: skip
    # Alpha's move asks for a cell in between: another list, which does not reset this one.
    cell = Option("3,4", "(3,4)", cell=Cell(3, 4))
    board.rows(Decision(0, DecisionKind.PICK_CELL, "Where does Alpha go?", (cell,), id=1))
    again = board.rows(units(UNITS[1:], 2))
    assert keys(again)["Move Beta"] == "2" and keys(again)["Move Delta"] == "4"
    assert board.option_for(units(UNITS[1:], 2), "2") == UNITS[1]
    assert board.option_for(units(UNITS[1:], 2), "1") is None  # Alpha's key picks nothing
    # Without the screen's memory the keys are dealt afresh: Beta would be 1.
    assert keyed_options(units(UNITS[1:], 2))[0].key == "1"


CELL = Option("3,4", "(3,4)", cell=Cell(3, 4))


def between(board: OptionKeys, number: int) -> None:
    """Another question asked between two showings of a list (a unit's cell)."""
    board.rows(Decision(0, DecisionKind.PICK_CELL, "Where does it go?", (CELL,), id=number))


def test_a_list_that_offers_an_option_new_to_it_is_dealt_afresh() -> None:
    board = OptionKeys()
    board.rows(units(UNITS[:3], 0))  # Alpha 1, Beta 2, Gamma 3
    between(board, 1)
    board.rows(units(UNITS[:2], 2))  # Gamma taken: Alpha 1, Beta 2
    between(board, 3)
    grown = board.rows(units([*UNITS[:2], UNITS[3]], 4))  # Delta joins: from 1 again
    assert [row.key for row in grown] == ["1", "2", "3", "e"]
    between(board, 5)
    back = board.rows(units(UNITS, 6))  # next turn, every unit back: their first keys
    assert [row.key for row in back] == ["1", "2", "3", "4", "e"]


def test_a_list_asked_again_straight_away_is_dealt_from_one() -> None:
    """Holding units in reserve one by one: the list is in front of the player, and a
    gap ("1 picks nothing here: the options' keys are 2, 3, 4 or 5") only surprised."""
    board = OptionKeys()
    board.rows(units(UNITS, 0, "Hold a unit in reserve?"))
    again = board.rows(units(UNITS[1:], 1, "Hold a unit in reserve?"))
    assert [row.key for row in again] == ["1", "2", "3", "e"]


def test_finishing_a_roster_is_0_never_the_key_of_an_add_just_taken() -> None:
    """Kill Team's roster: "3 Add a Militia Seer"; the Seer taken and the roster long
    enough, "Finish the roster" joined the list, and 3 would have finished it."""
    adds = [Option(f"add:{n}", f"Add a {n}") for n in ("Trooper", "Gunner", "Seer")]
    finish = Option("done", "Finish the roster (5 models, 60 pts)", neutral=True)
    board = OptionKeys()
    roster = "Roster: 4 models, 50/100 pts"
    board.rows(Decision(0, DecisionKind.PICK_OPTION, roster, tuple(adds), id=0))
    later = Decision(0, DecisionKind.PICK_OPTION, roster, (*adds[:2], finish), id=1)
    assert keys(board.rows(later)) == {
        "Add a Trooper": "1", "Add a Gunner": "2", "Finish the roster (5 models, 60 pts)": "0"
    }  # fmt: skip
    assert board.option_for(later, "3") is None


def test_counts_in_a_prompt_do_not_make_it_another_list_but_names_do() -> None:
    board = OptionKeys()
    board.rows(units(UNITS, 0, "Roster: 1 model, 6/100 pts"))
    between(board, 1)
    later = board.rows(units(UNITS[:1] + UNITS[2:], 2, "Roster: 2 models, 11/100 pts"))
    assert keys(later)["Move Gamma"] == "3"
    # "B2.2" and "B2.3" are two fighters: each one's list is its own, dealt from 1.
    board.rows(units(UNITS, 3, "Declare the action of Bogfen Cutthroat B2.2"))
    between(board, 4)
    other = board.rows(units(UNITS[1:], 5, "Declare the action of Bogfen Cutthroat B2.3"))
    assert [row.key for row in other] == ["1", "2", "3", "e"]


def test_another_models_list_is_dealt_from_one() -> None:
    """The same prompt about another model (`Decision.subject`) is another list."""
    board = OptionKeys()
    board.rows(Decision(0, DecisionKind.PICK_OPTION, "Shoot?", tuple(UNITS), id=0, subject="A1"))
    between(board, 1)
    other = Decision(0, DecisionKind.PICK_OPTION, "Shoot?", tuple(UNITS[1:]), id=2, subject="A2")
    assert [row.key for row in board.rows(other)] == ["1", "2", "3"]


NOTHING = Option("nothing", "Nothing", neutral=True)


def test_an_option_that_commits_to_nothing_is_0_in_every_list() -> None:
    """Confrontation: "Nothing" was 2 for one slinger and 4 for the next, and a player
    pressing 2 again declared a charge."""
    board = OptionKeys()
    one = Decision(0, DecisionKind.PICK_OPTION, "Declare", (UNITS[0], NOTHING, *UNITS[1:3]), id=0)
    assert keys(board.rows(one)) == {
        "Move Alpha": "1", "Move Beta": "2", "Move Gamma": "3", "Nothing": "0"
    }  # fmt: skip
    assert [row.option for row in board.rows(one)][-1] == NOTHING  # listed after the others
    two = Decision(0, DecisionKind.PICK_OPTION, "Declare", (UNITS[0], NOTHING), id=1)
    assert keys(board.rows(two)) == {"Move Alpha": "1", "Nothing": "0"}
    assert board.option_for(two, "0") == NOTHING and board.option_for(two, "2") is None


def test_each_player_and_each_question_keeps_its_own_keys() -> None:
    board = OptionKeys()
    board.rows(units(UNITS, 0))
    other = Decision(1, DecisionKind.PICK_OPTION, "Which unit moves next?", tuple(UNITS[2:]), id=1)
    assert [row.key for row in board.rows(other)] == ["1", "2"]
    asked = Decision(0, DecisionKind.PICK_OPTION, "Which unit shoots?", tuple(UNITS[2:]), id=2)
    assert [row.key for row in board.rows(asked)] == ["1", "2"]


def test_the_same_number_after_an_undo_is_another_decision() -> None:
    board = OptionKeys()
    board.rows(units(UNITS, 0))
    between(board, 1)
    board.rows(units(UNITS[1:], 3))
    between(board, 4)
    # Undone, and another unit moved: decision 3 now lists Alpha (back in it, so the
    # list is dealt afresh), Gamma and Delta, not decision 3's old rows.
    other = units([UNITS[0], *UNITS[2:]], 3)
    assert keys(board.rows(other)) == {
        "Move Alpha": "1", "Move Gamma": "2", "Move Delta": "3", "End the Movement phase": "e"
    }  # fmt: skip


POSITION = """scenario = "wh40k6-open-war.toml"
round = 2
phase = "Movement"

[wh40k6]
player = 1

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [10, 10] }, { cell = [11, 10] }]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [20, 10] }, { cell = [21, 10] }]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [30, 10] }, { cell = [31, 10] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [40, 40] }]
"""


async def test_the_unit_list_keeps_its_keys_on_screen_after_a_unit_moved(tmp_path: Path) -> None:
    app = app_at(tmp_path, POSITION, seed=5)
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await at_the_table(pilot)
        game = screen.game
        listed = game.pending
        assert listed is not None and listed.prompt == "Which unit moves next?"
        before = on_screen(screen.decision_panel)
        assert [line[:2] for line in before[:3]] == ["1 ", "2 ", "3 "]
        third = keys_of(pilot).rows(listed)[2].option.key
        await press_for_choice(pilot, "1", lambda: len(game.choices) == 1)
        while (pending := game.pending) is not None and pending.prompt != listed.prompt:
            made = len(game.choices)

            def answered(n: int = made) -> bool:
                return len(game.choices) > n

            await press_for_choice(pilot, first_key(pending, keys_of(pilot)), answered)
        await pilot.pause()
        after = on_screen(screen.decision_panel)
        assert after[:2] == before[1:3]  # the same rows, each with its key
        await send_key(pilot, "1")
        assert screen.decision_panel.refused == (
            "1 picks nothing here: the options' keys are 2, 3 or e."
        )
        made = len(game.choices)
        await press_for_choice(pilot, "3", lambda: len(game.choices) > made)
        assert game.choices[-1].key == third


def test_only_the_lists_asked_lately_are_remembered() -> None:
    board = OptionKeys()
    board.rows(units(UNITS, 0))
    for n in range(OptionKeys.LISTS):  # a facing question per model, each a list of its own
        board.rows(
            units(UNITS, n + 1, f"Which way does {chr(65 + n // 26)}{chr(65 + n % 26)} face?")
        )
    shrunk = units(UNITS[1:], 99)
    assert board.rows(shrunk)[0].key == "1"  # forgotten: dealt afresh
