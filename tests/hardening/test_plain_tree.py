"""The quick check of a whole save (`plain_tree`) never passes what the close one
(`check_tree`) refuses: it only lets a save skip the close one, which then names what is
wrong and where."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.save import read_save
from engine.untrusted import MAX_DEPTH, check_tree, plain_tree

REPLAYS = sorted((Path(__file__).parents[1] / "replays").glob("*.wargrid"))
LIMIT = 2**64

texts = st.sampled_from(["", "ok", "a b", "x\ny", "\t", "\x1b[2J", "\u202e", "\x85", "é"])
keys = st.one_of(texts, st.sampled_from(["text", "description", "seed", "draws", "state"]))
scalars = st.one_of(
    texts,
    st.none(),
    st.booleans(),
    st.sampled_from([0, -1, LIMIT, LIMIT + 1, -LIMIT - 1, 2**100, 2**63 - 1]),
    st.integers(),
    st.just(b"\xff"),
    st.just(1.5),
)
trees = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=30,
)


def deep(levels: int, leaf: Any) -> Any:
    for _ in range(levels):
        leaf = [leaf]
    return {"a": leaf}


def refused(doc: Any) -> bool:
    try:
        check_tree(doc, str, number_limit=LIMIT, bounded=False)
    except ValueError:
        return True
    return False


@settings(max_examples=400, deadline=None)
@given(tree=st.dictionaries(keys, trees, max_size=5))
def test_what_the_quick_check_passes_the_close_check_passes(tree: dict[str, Any]) -> None:
    if plain_tree(tree, number_limit=LIMIT):
        assert not refused(tree)


@pytest.mark.parametrize(
    "doc",
    [
        {"name": "\x1b]0;owned\x07"},
        {"text": "\u202egnp.exe"},
        {"events": [[1, {"text": "a\x00b"}]]},
        {"draws": 2**65},
        {"n": -(2**64) - 1},
        deep(MAX_DEPTH, [1]),
        deep(MAX_DEPTH - 1, [b"state"]),
    ],
)
def test_the_quick_check_leaves_every_doubt_to_the_close_one(doc: Any) -> None:
    assert refused(doc)
    assert not plain_tree(doc, number_limit=LIMIT)


def test_what_the_quick_check_does_not_know_it_leaves_to_the_close_one() -> None:
    for doc in ({"x": 0.5}, {b"key": 1}):  # no save holds them; the close check passes them
        assert not plain_tree(doc, number_limit=LIMIT)
        assert not refused(doc)


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.stem)
def test_a_saved_game_takes_the_quick_way(path: Path) -> None:
    """Every real save is plain: its scenario's text has newlines, its seed may be wide."""
    doc = msgpack.unpackb(path.read_bytes(), raw=False, strict_map_key=True)
    doc["seed"] = 2**127 + 5  # what a hosted game's secret seed looks like
    assert plain_tree(doc, number_limit=LIMIT)
    assert not refused(doc)
    assert read_save(path).choices  # and it still reads
