"""Splitting melees into fights (digest confrontation §6.11.1, D18)."""

from __future__ import annotations

from engine.rulesets.confrontation.split import (
    auto_split,
    choose_split,
    contact_graph,
    melees,
    valid_splits,
)
from engine.rulesets.confrontation.state import Fight
from tests.rulesets.confrontation.table import Table


def _valid(graph: dict[str, frozenset[str]], component: list[str], split: list[Fight]) -> bool:
    """Rules (a)-(d): everyone exactly once, stars only, fighters touch their opponents."""
    seen = [m for f in split for m in f.members]
    if sorted(seen) != sorted(component):
        return False
    return all(leaf in graph[f.center] for f in split for leaf in f.leaves)


def test_a_chain_of_four() -> None:
    """A1 - B1 - A2 - B2 in a row: two duels, or one 1-vs-2 and ... nothing else is valid."""
    t = Table()
    t.add(0, (1, 1))  # A1
    t.add(1, (2, 1))  # B1
    t.add(0, (3, 1))  # A2
    t.add(1, (4, 1))  # B2
    graph = contact_graph(t.state)
    [component] = melees(graph)
    splits = valid_splits(graph, component)
    assert all(_valid(graph, component, s) for s in splits)
    assert [Fight("A1", ("B1",)), Fight("A2", ("B2",))] in splits
    assert len(splits) == 1


def test_a_star_of_one_against_three() -> None:
    t = Table()
    t.add(0, (5, 5))
    for cell in [(4, 5), (6, 5), (5, 6)]:
        t.add(1, cell)
    graph = contact_graph(t.state)
    [component] = melees(graph)
    assert auto_split(graph, component) == [Fight("A1", ("B1", "B2", "B3"))]
    assert len(valid_splits(graph, component)) == 1


def test_the_winner_chooses_among_valid_splits() -> None:
    """Two A and two B in a square: only two pairs of duels leave nobody out."""
    t = Table()
    t.add(0, (1, 1))  # A1
    t.add(1, (2, 1))  # B1
    t.add(1, (1, 2))  # B2
    t.add(0, (2, 2))  # A2
    graph = contact_graph(t.state)
    [component] = melees(graph)
    splits = valid_splits(graph, component)
    assert all(_valid(graph, component, s) for s in splits)
    assert len(splits) == 2  # a 1-vs-2 would strand the other fighter of that side
    chosen = t.run(choose_split(t.state, 0, graph, component, "Split"), ["1"])
    assert chosen == splits[1]
    assert t.decisions[0].options[0].detail == "auto-split"


def test_auto_split_is_valid_on_a_larger_melee() -> None:
    t = Table()
    cells_a = [(2, 2), (4, 2), (3, 3), (5, 3), (3, 5)]
    cells_b = [(3, 2), (2, 3), (4, 3), (3, 4), (5, 2)]
    for c in cells_a:
        t.add(0, c)
    for c in cells_b:
        t.add(1, c)
    graph = contact_graph(t.state)
    for component in melees(graph):
        assert _valid(graph, component, auto_split(graph, component))
        assert all(_valid(graph, component, s) for s in valid_splits(graph, component))


def test_three_ways_to_split() -> None:
    """A1 touches B1, B2, B3; A2 touches B2 and B3: three valid splits, all offered."""
    t = Table()
    t.add(0, (5, 5))  # A1
    t.add(0, (6, 6))  # A2
    for cell in [(4, 5), (6, 5), (5, 6)]:
        t.add(1, cell)  # B1, B2, B3
    graph = contact_graph(t.state)
    [component] = melees(graph)
    splits = valid_splits(graph, component)
    assert len(splits) == 3 and all(_valid(graph, component, s) for s in splits)
    assert [Fight("A1", ("B1",)), Fight("A2", ("B2", "B3"))] in splits
    assert [Fight("A1", ("B1", "B2")), Fight("A2", ("B3",))] in splits
