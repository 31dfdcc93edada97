"""Hostile saves, damaged byte by byte and field by field: one clear error, never a crash.

Extends ``tests/engine/test_save.py`` (one example of each damage) with Hypothesis
searches over where the damage is: every truncation length, flipped bits anywhere, any
field of the tree replaced by any msgpack type, forged versions, edited rolls and
checkups. Files, memory, the CLI and the TUI entry are in ``test_hostile_save_files.py``.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.save import FORMAT_VERSION, decode, replay
from tests.hardening.budget import scaled
from tests.hardening.hostile import (
    SOURCE,
    WRONG_SAVE_VALUES,
    mutated,
    open_save,
    packed,
    sample_doc,
    sample_save,
    tree_paths,
)
from tests.hardening.playouts import scenario_files

RULESET_NAMES = sorted({name for name, _ in scenario_files()})
rulesets = st.sampled_from(RULESET_NAMES)
OPTIONAL_KEYS = {"result", "position", "turn", "checkpoints", "start", "computer"}


@scaled(3)
@given(name=rulesets, data=st.data())
def test_every_truncation_is_refused(name: str, data: st.DataObject) -> None:
    raw = sample_save(name)
    cut = data.draw(st.integers(0, len(raw) - 1), label="cut")
    assert open_save(raw[:cut]) == "SaveError"


@scaled(10)
@given(name=rulesets, data=st.data())
def test_flipped_bits_anywhere_are_refused_or_harmless(name: str, data: st.DataObject) -> None:
    raw = bytearray(sample_save(name))
    for _ in range(data.draw(st.integers(1, 3), label="flips")):
        bit = data.draw(st.integers(0, len(raw) * 8 - 1), label="bit")
        raw[bit // 8] ^= 1 << (bit % 8)
    open_save(bytes(raw))  # "ok" when a flip only touched, e.g., a recorded event text


@scaled(10)
@given(name=rulesets, data=st.data())
def test_any_field_of_any_type_is_refused_or_harmless(name: str, data: st.DataObject) -> None:
    doc = sample_doc(name)
    path = data.draw(st.sampled_from(list(tree_paths(doc))), label="path")
    if data.draw(st.booleans(), label="delete"):
        doc = mutated(doc, path, delete=True)
    else:
        doc = mutated(doc, path, data.draw(st.sampled_from(WRONG_SAVE_VALUES), label="value"))
    open_save(packed(doc))


@pytest.mark.parametrize("name", RULESET_NAMES)
@pytest.mark.parametrize("key", list(sample_doc(RULESET_NAMES[0])))
def test_each_top_level_key_missing_or_mistyped_names_the_key(name: str, key: str) -> None:
    doc = sample_doc(name)
    outcome = open_save(packed(mutated(doc, (key,), delete=True)))
    assert outcome == ("ok" if key in OPTIONAL_KEYS else "SaveError"), key
    for value in WRONG_SAVE_VALUES:
        if value == doc[key] and type(value) is type(doc[key]):
            continue
        outcome = open_save(packed(mutated(doc, (key,), value)))
        # Another version string is legal: such a save is replayed without verification.
        other_version = key in ("engine_version", "ruleset_version") and isinstance(value, str)
        # The recorded events are for reading the file; a replay makes its own.
        no_events = key == "events" and value == []
        assert outcome != "ok" or key in OPTIONAL_KEYS or other_version or no_events, (
            f"{key} = {value!r} was accepted"
        )


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_missing_key_errors_name_the_key(name: str) -> None:
    for key in sample_doc(name):
        if key in OPTIONAL_KEYS:
            continue
        with pytest.raises(Exception, match=rf"^{SOURCE}: .*('{key}'|wargrid-save)"):
            decode(packed(mutated(sample_doc(name), (key,), delete=True)), SOURCE)


@pytest.mark.parametrize("version", [FORMAT_VERSION + 1, 99, 2**63 - 1, 2**64 - 1])
def test_a_newer_format_asks_for_an_upgrade(version: int) -> None:
    doc = mutated(sample_doc(RULESET_NAMES[0]), ("format_version",), version)
    with pytest.raises(Exception, match=rf"^{SOURCE}: written by a newer wargrid .* upgrade"):
        decode(packed(doc), SOURCE)


@pytest.mark.parametrize("version", [0, -1, -(2**63)])
def test_an_impossible_format_version_is_refused(version: int) -> None:
    doc = mutated(sample_doc(RULESET_NAMES[0]), ("format_version",), version)
    assert open_save(packed(doc)) == "SaveError"


@scaled(2)
@given(name=rulesets, data=st.data())
def test_an_edited_roll_is_caught_at_its_step(name: str, data: st.DataObject) -> None:
    """Change one face (or the reason, or the dice) of any roll: verify names that roll."""
    doc = msgpack.unpackb(sample_save(name))
    index = data.draw(st.integers(0, len(doc["rolls"]) - 1), label="roll")
    roll = doc["rolls"][index]
    field = data.draw(st.sampled_from(["face", "reason", "dice"]), label="field")
    if field == "face":
        die = data.draw(st.integers(0, len(roll[4]) - 1), label="die")
        roll[4][die] = roll[4][die] % 6 + 1 if roll[4][die] <= 6 else 1
    else:
        roll[2 if field == "reason" else 3] += "!"
    with pytest.raises(Exception, match=rf"roll #{index + 1}: expected") as info:
        replay(decode(packed(doc), SOURCE))
    assert "ReplayMismatchError" in type(info.value).__name__


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda d: d["rolls"].append(d["rolls"][-1]), id="extra-roll"),
        pytest.param(lambda d: d["rolls"].pop(), id="missing-roll"),
        pytest.param(lambda d: d["checkups"][-1].__setitem__(0, 2**62), id="huge-roll-count"),
        pytest.param(lambda d: d["checkups"][-1].__setitem__(0, -5), id="negative-roll-count"),
        pytest.param(lambda d: d["checkups"][1].__setitem__(0, -(2**62)), id="negative-start"),
        pytest.param(lambda d: d["checkups"][-1].__setitem__(1, 2**62), id="huge-event-count"),
        pytest.param(lambda d: d["checkups"][-1].__setitem__(2, "0" * 16), id="state-hash"),
        pytest.param(lambda d: d["checkups"].pop(), id="missing-checkup"),
        pytest.param(lambda d: d["choices"].append([len(d["choices"]), "x"]), id="extra-choice"),
        pytest.param(lambda d: d.__setitem__("seed", d["seed"] + 1), id="other-seed"),
        pytest.param(lambda d: d["choices"][3].__setitem__(0, 2**62), id="stale-choice"),
    ],
)
def test_forged_logs_diverge_quickly(forge: Any) -> None:
    """Counts come from the file: a forged 2**62 must not make verify loop (it did)."""
    for name in RULESET_NAMES:
        doc = msgpack.unpackb(sample_save(name))
        forge(doc)
        assert open_save(packed(doc), seconds=5.0) == "ReplayMismatchError"


@scaled(5)
@given(raw=st.binary(max_size=2048))
def test_random_bytes_are_refused(raw: bytes) -> None:
    assert open_save(raw) == "SaveError"


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda raw: b"", id="empty"),
        pytest.param(lambda raw: b"\x00" * 4096, id="zeros"),
        pytest.param(lambda raw: b"\x89PNG\r\n\x1a\n" + raw[:100], id="png"),
        pytest.param(lambda raw: msgpack.unpackb(raw)["scenario"]["text"].encode(), id="toml"),
        pytest.param(lambda raw: repr(msgpack.unpackb(raw)).encode(), id="python-repr"),
        pytest.param(lambda raw: __import__("gzip").compress(raw), id="gzip"),
        pytest.param(lambda raw: "save".encode("utf-16"), id="utf-16"),
        pytest.param(lambda raw: raw + b"\xc0", id="trailing-data"),
        pytest.param(lambda raw: packed([msgpack.unpackb(raw)]), id="wrapped-in-list"),
        pytest.param(lambda raw: packed({"format": "wargrid-save"}), id="header-only"),
    ],
)
def test_non_saves_are_refused(make: Any) -> None:
    assert open_save(make(sample_save(RULESET_NAMES[0]))) == "SaveError"
