"""What the game answered by itself, over the prompt: a note said to both sides shows
once, and one answered while the computer played reads as earlier (playtest: "Done for
the other side: No unit can charge" over "Done for you: No unit can charge" at turn 3;
"Done for you: A3 ... is the last model to take its Nerve test." at round 3's first move)."""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option
from tests.tui.test_layout import PanelApp
from tui.decision_panel import DecisionPanel

CHARGES = "No unit can charge: the charges are over."
NERVE = "A3 Militia Gunner is the last model to take its Nerve test."


def asked(notes: tuple[str, ...] = (), told: tuple[str, ...] = ()) -> Decision:
    options = (Option("move", "Move"), Option("pass", "Pass"))
    return Decision(0, DecisionKind.PICK_OPTION, "Which unit moves next?", options).stamped(
        3, notes, told
    )


def notice(panel: DecisionPanel) -> list[str]:
    return str(panel.notice.render()).splitlines()


async def test_a_note_said_to_both_sides_shows_once_for_you() -> None:
    async with PanelApp().run_test(size=(100, 20)) as pilot:
        panel = pilot.app.query_one(DecisionPanel)
        panel.show(asked(notes=(CHARGES,), told=(CHARGES, "Horde Mob Red runs.")))
        await pilot.pause()
        assert notice(panel) == [
            "Done for the other side: Horde Mob Red runs.",
            f"Done for you: {CHARGES}",
        ]


async def test_a_note_answered_while_the_computer_played_reads_as_earlier() -> None:
    async with PanelApp().run_test(size=(100, 20)) as pilot:
        panel = pilot.app.query_one(DecisionPanel)
        panel.show(asked(told=(CHARGES,)), earlier=(NERVE, CHARGES))
        await pilot.pause()
        assert notice(panel) == [f"Earlier, done for you: (1 more) {CHARGES}"]
        panel.show(asked())  # the next Decision: the earlier notes are gone
        await pilot.pause()
        assert not "".join(notice(panel)).strip()
