"""Hostile inputs: sample saves to damage, tree mutators, and the loaders under test.

A hostile file may be refused or (when the damage is harmless) accepted, but every refusal
must be a `WargridError` with a one-line message, in bounded time. `open_save` runs a save
through exactly what ``wargrid replay`` and the TUI run (decode, replay, verify when the
versions match; Continue's start at the file's checkpoint, re-run after) and reports the
outcome as a word.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Iterator
from functools import cache
from typing import Any

import msgpack

from engine.errors import ReplayMismatchError, SaveError, WargridError
from engine.game import Game
from engine.resumption import adopt, check_save
from engine.resumption import open_save as open_checkpoint
from engine.save import decode, replay, to_bytes
from tests.hardening.budget import time_limit
from tests.hardening.playouts import make_picker, scenario, scenario_files

SOURCE = "hostile.wargrid"
SECONDS = 10.0
"""Longest a hostile file may take to be refused or loaded (the samples load in ~50 ms)."""

WRONG_SAVE_VALUES: tuple[Any, ...] = (
    None,
    True,
    -1,
    2**64 - 1,
    -(2**63),
    1.5,
    "",
    "\x00\n\u202e",
    b"\xff",
    [],
    [None],
    {},
    {"text": 1},
)
"""Values of every msgpack type (and awkward ones of the right type) to put anywhere."""

WRONG_TOML_VALUES: tuple[Any, ...] = (
    "",
    "text",
    0,
    -1,
    10**9,
    True,
    3.5,
    float("nan"),
    dt.date(2020, 1, 1),
    [],
    [1],
    {},
    {"a": 1},
)
"""Values of every TOML type to put in place of a scenario value."""


Path_ = tuple[str | int, ...]


def tree_paths(node: Any, prefix: Path_ = ()) -> Iterator[Path_]:
    """Every key and index path in a tree of dicts and lists, parents before children."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key)
            yield from tree_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*prefix, index)
            yield from tree_paths(value, (*prefix, index))


def mutated(tree: Any, path: Path_, value: Any = None, *, delete: bool = False) -> Any:
    """A deep copy of ``tree`` with the node at ``path`` replaced (or deleted)."""
    tree = copy.deepcopy(tree)
    node = tree
    for step in path[:-1]:
        node = node[step]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return tree


def dotted(path: Path_) -> str:
    """``killteam.forces[0].faction`` style, as the scenario errors write keys."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


@cache
def sample_save(name: str) -> bytes:
    """A save of a bot game of ruleset ``name``, cut once it has rolled some dice."""
    path = next(p for n, p in scenario_files() if n == name)
    game = Game(scenario(path), 11)
    picker = make_picker("uniform", 11)
    while game.pending is not None and (len(game.rolls) < 6 or len(game.choices) < 12):
        game.choose_key(picker(game.pending))
    return to_bytes(game)


@cache
def sample_doc(name: str) -> dict[str, Any]:
    """The sample save as the decoded msgpack tree (copy before changing it)."""
    doc: dict[str, Any] = msgpack.unpackb(sample_save(name))
    return doc


def packed(doc: Any) -> bytes:
    """``doc`` encoded the way saves are."""
    raw: bytes = msgpack.packb(doc, use_bin_type=True)
    return raw


def open_save(raw: bytes, seconds: float = SECONDS) -> str:
    """Load ``raw`` as the CLI and TUI do; the outcome's class name, or ``"ok"``.

    Fails the test if anything but a WargridError escapes, if a message is not one line,
    or if it takes longer than ``seconds``.
    """
    with time_limit(seconds):
        try:
            data = decode(raw, SOURCE)
            game = replay(data, verify=data.same_version)
            if data.same_version:  # Continue: from the file's checkpoint, checked after
                opened = open_checkpoint(data)
                shown = opened.game if opened.checked else adopt(opened.game, check_save(data))
                assert shown.state_hash() == game.state_hash(), "a checkpoint beat the choices"
                assert shown.rolls == game.rolls
        except SaveError as exc:
            assert_one_line(exc)
            assert str(exc).startswith(SOURCE), f"the error does not name the file: {exc}"
            return "SaveError"
        except ReplayMismatchError as exc:
            assert_one_line(exc)
            assert str(exc).startswith(("step ", "end: ")), exc
            return "ReplayMismatchError"
        except WargridError as exc:
            assert_one_line(exc)
            assert SOURCE in str(exc), f"the error does not name the file: {exc}"
            return type(exc).__name__
    return "ok"


def assert_one_line(exc: BaseException) -> None:
    """A message a terminal shows as one line: no line breaks of any kind, not empty."""
    text = str(exc)
    assert text.strip(), f"empty message from {type(exc).__name__}"
    assert len(text.splitlines()) == 1, f"message spans lines: {text!r}"
