"""Saves: round trip, verification, and every kind of bad file as one clear error."""

from __future__ import annotations

import os
from pathlib import Path

import msgpack
import pytest

from engine.bot import RandomBot
from engine.errors import ReplayMismatchError, SaveError
from engine.game import Game
from engine.save import autosave, decode, load_game, read_save, replay, to_bytes, write_save
from engine.scenario import load_scenario

CROSSROADS = Path(__file__).parents[2] / "scenarios" / "killteam-crossroads.toml"


def played(seed: int, steps: int | None = None) -> Game:
    game = Game(load_scenario(CROSSROADS), seed)
    bot = RandomBot(seed)
    while game.pending is not None and (steps is None or len(game.choices) < steps):
        game.choose(bot.choose(game.pending))
    return game


def test_round_trip_replays_identically(tmp_path: Path) -> None:
    game = played(4)
    path = tmp_path / "g.msgpack"
    write_save(game, path)
    loaded = load_game(path)
    assert loaded.rolls == game.rolls
    assert [e.text for e in loaded.events] == [e.text for e in game.events]
    assert loaded.state_hash() == game.state_hash()
    assert loaded.outcome == game.outcome


def test_autosave_writes_after_every_choice(tmp_path: Path) -> None:
    game = Game(load_scenario(CROSSROADS), 9)
    path = tmp_path / "auto.msgpack"
    autosave(game, path)
    assert read_save(path).choices == ()
    bot = RandomBot(9)
    for n in range(1, 6):
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
        assert len(read_save(path).choices) == n
    assert not list(tmp_path.glob("*.tmp"))


def test_unfinished_save_resumes_at_the_same_decision(tmp_path: Path) -> None:
    game = played(6, steps=40)
    path = tmp_path / "mid.msgpack"
    write_save(game, path)
    loaded = load_game(path)
    assert loaded.pending == game.pending
    assert loaded.state_hash() == game.state_hash()


def test_edited_die_is_reported_at_its_step(tmp_path: Path) -> None:
    game = played(5)
    doc = msgpack.unpackb(to_bytes(game))
    target = len(doc["rolls"]) // 2
    faces = doc["rolls"][target][4]
    faces[0] = faces[0] % 6 + 1
    data = decode(msgpack.packb(doc), "edited.msgpack")
    with pytest.raises(ReplayMismatchError, match=f"roll #{target + 1}: expected") as info:
        replay(data)
    step = info.value.step
    assert data.checkups[step - 1].rolls > target
    assert step == 1 or data.checkups[step - 2].rolls <= target


def test_edited_choice_is_reported(tmp_path: Path) -> None:
    game = played(5, steps=30)
    doc = msgpack.unpackb(to_bytes(game))
    doc["choices"][10][1] = "not-an-option"
    with pytest.raises(ReplayMismatchError, match="step 11: the recorded choice is refused"):
        replay(decode(msgpack.packb(doc), "x"))


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda b: b[: len(b) // 2], "damaged or not msgpack"),
        (lambda b: b"hello, I am a text file", "not a wargrid save"),
        (lambda b: msgpack.packb([1, 2, 3]), "no 'wargrid-save' header"),
        (lambda b: b"", "damaged or not msgpack"),
    ],
)
def test_damaged_files_give_one_clear_error(mangle, message: str) -> None:  # type: ignore[no-untyped-def]
    raw = to_bytes(played(3, steps=20))
    with pytest.raises(SaveError, match=message):
        decode(mangle(raw), "bad.msgpack")


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("format_version", 99, "newer wargrid"),
        ("format_version", "1", "'format_version' is missing or not an integer"),
        ("ruleset", "chess", "unknown ruleset 'chess'"),
        ("choices", [[1]], "'choices' has the wrong shape"),
        ("rolls", [[0, 0, "r", "1D6", ["six"]]], "non-integer faces"),
        ("seed", None, "'seed' is missing"),
        ("scenario", {"text": "rows = ["}, "embedded scenario"),
        (
            "scenario",
            {"text": CROSSROADS.read_text().replace('"killteam"', '"chess"', 1)},
            "unknown ruleset 'chess'",
        ),
    ],
)
def test_wrong_fields_give_one_clear_error(key: str, value: object, message: str) -> None:
    doc = msgpack.unpackb(to_bytes(played(3, steps=5)))
    doc[key] = value
    with pytest.raises(SaveError, match=message):
        decode(msgpack.packb(doc), "bad.msgpack")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="cannot read"):
        read_save(tmp_path / "none.msgpack")


def test_deeply_nested_file_is_refused_quickly() -> None:
    raw = b"\x91" * 100_000 + b"\xc0"  # 100,000 nested one-element arrays
    with pytest.raises(SaveError):
        decode(raw, "deep.msgpack")


def test_a_forged_checkup_cannot_make_verify_loop_or_break_lines() -> None:
    """The roll count and hash of a checkup come from the file (verify once looped to 2**62)."""
    doc = msgpack.unpackb(to_bytes(played(5, steps=60)))
    doc["checkups"][-1][0] = 2**62
    doc["checkups"][-1][2] = "forged hash"
    with pytest.raises(ReplayMismatchError, match=r"hash forged hash;"):
        replay(decode(msgpack.packb(doc), "forged.msgpack"))
    doc["checkups"][-1][2] = "forged\nhash"  # refused where it is read, named and escaped
    with pytest.raises(SaveError, match=r"'checkups\[59\]\[2\]': .* control character \\n") as info:
        decode(msgpack.packb(doc), "forged.msgpack")
    assert "\n" not in str(info.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_a_fifo_or_an_endless_device_is_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.msgpack"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(SaveError, match="not a regular file"):
            read_save(path)


def test_write_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    write_save(played(2, steps=3), tmp_path / "g.msgpack")
    assert [p.name for p in tmp_path.iterdir()] == ["g.msgpack"]
