"""Hidden information helpers (engine/hidden.py)."""

from __future__ import annotations

import pytest

from engine.decisions import Choice, DecisionKind, Option
from engine.hidden import SecretStack, ask_secretly, order_secretly


def test_order_secretly_asks_hidden_decisions_and_returns_top_first() -> None:
    proc = order_secretly(0, [("a", "Card A"), ("b", "Card B"), ("c", "Card C")], "cards")
    first = next(proc)
    assert first.hidden and first.kind is DecisionKind.ORDER and first.player == 0
    assert first.keys() == ("a", "b", "c")
    second = proc.send(Choice(0, "c"))
    assert second.hidden and second.keys() == ("a", "b")
    with pytest.raises(StopIteration) as stop:
        proc.send(Choice(1, "a"))
    assert stop.value.value == ("c", "a", "b")


def test_a_single_item_needs_no_question() -> None:
    proc = order_secretly(1, [("x", "X")], "cards")
    with pytest.raises(StopIteration) as stop:
        next(proc)
    assert stop.value.value == ("x",)


def test_secret_stack_shows_only_count_and_reveals() -> None:
    stack = SecretStack(0)
    stack.stack(["a", "b", "c"])
    assert stack.public() == (3, ())
    assert stack.reveal() == "a"
    assert stack.public() == (2, ("a",))
    assert stack.secret_order(0) == ("b", "c")
    with pytest.raises(PermissionError):
        stack.secret_order(1)
    assert len(stack) == 2
    stack.stack(["c"])
    assert stack.revealed == ()
    with pytest.raises(ValueError):
        stack.stack(["a", "a"])
    stack.reveal()
    with pytest.raises(IndexError):
        stack.reveal()


def test_ask_secretly_marks_the_decision_hidden() -> None:
    proc = ask_secretly(1, "Secret order?", [Option("adv", "Advance"), Option("fire", "Fire")])
    decision = next(proc)
    assert decision.hidden and decision.player == 1
    with pytest.raises(StopIteration) as stop:
        proc.send(Choice(0, "fire"))
    assert stop.value.value == "fire"
