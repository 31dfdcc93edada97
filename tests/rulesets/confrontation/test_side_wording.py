"""The Confrontation log as players read it: verbs agree with a plural side name ("Bogfen
Raiders"; "Order of the Lantern" is one order), and a damage line does not repeat the
STR and RES its dice line just gave (issue #14)."""

from __future__ import annotations

import re

from engine.transcript import transcript
from tests.replays.make import play


def test_side_names_take_agreeing_verbs() -> None:
    game = play("confrontation-crossing.toml", 1)
    texts = [e.text for e in game.events]
    assert any(
        re.fullmatch(r"Bogfen Raiders stack \d+ cards face down for the .*", t) for t in texts
    )
    assert any(re.match(r"Bogfen Raiders reveal B\d", t) for t in texts)
    assert any(re.match(r"Order of the Lantern (reveals|stacks|wins) ", t) for t in texts)
    wrong = re.compile(
        r"^Bogfen Raiders (is|has|[a-z]+(?<!s)s)\b|^Order of the Lantern (are|have) "
    )
    assert not [t for t in texts if wrong.search(t)]


def test_damage_lines_say_what_the_dice_did_not() -> None:
    lines = list(transcript(play("confrontation-crossing.toml", 1)))
    damage = [n for n, line in enumerate(lines) if "* Attack damage on " in line]
    assert damage
    for n in damage:
        assert "for attack damage:" in lines[n - 1] and "STR" in lines[n - 1]
        assert "STR" not in lines[n]
        assert re.search(r"Attack damage on .+: dice \d/\d \(.+\): ", lines[n])
