"""Saves record which seats the computer played; a file's claim is checked where read."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from engine.errors import SaveError
from engine.game import Game
from engine.save import read_save, replay, to_bytes
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def short_game() -> Game:
    scenario = load_scenario(ROOT / "scenarios" / "fatigue-crossroads.toml")
    game = Game(scenario, 4, computer=("", "normal"))
    for _ in range(3):
        assert game.pending is not None
        game.choose_key(game.pending.options[0].key)
    return game


def test_the_seats_survive_saving_replaying_and_undo(tmp_path: Path) -> None:
    game = short_game()
    assert game.undone().computer == ("", "normal")
    path = tmp_path / "g.wargrid"
    path.write_bytes(to_bytes(game))
    data = read_save(path)
    assert data.computer == ("", "normal")
    assert replay(data, verify=True).computer == ("", "normal")


def test_an_older_file_without_seats_is_two_people(tmp_path: Path) -> None:
    doc = msgpack.unpackb(to_bytes(short_game()))
    del doc["computer"]
    path = tmp_path / "old.wargrid"
    path.write_bytes(msgpack.packb(doc))
    assert read_save(path).computer == ("", "")


@pytest.mark.parametrize(
    "claim", [["", "grandmaster"], ["normal"], "normal", [1, ""], [["x"], ""], None]
)
def test_a_bad_seat_claim_is_refused_by_name(tmp_path: Path, claim: object) -> None:
    doc = msgpack.unpackb(to_bytes(short_game()))
    doc["computer"] = claim
    path = tmp_path / "bad.wargrid"
    path.write_bytes(msgpack.packb(doc))
    with pytest.raises(SaveError, match="'computer' must give each seat one of"):
        read_save(path)
