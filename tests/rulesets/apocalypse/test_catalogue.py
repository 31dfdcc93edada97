"""The shipped datasheets are read once per process; each game gets a catalogue of its
own, so a scenario's datasheets never reach the next game."""

from __future__ import annotations

from engine.rulesets.apocalypse.profiles import load_catalogue


def test_a_scenarios_datasheets_stay_out_of_the_next_catalogue() -> None:
    first = load_catalogue()
    sheet = next(iter(first.values()))
    first["homebrew"] = sheet
    del first[sheet.id]
    second = load_catalogue()
    assert "homebrew" not in second and sheet.id in second
    assert second[sheet.id] is sheet  # read once: the frozen sheets are shared
