"""Hostile save files end to end: huge claims, deep nesting, memory, special files, CLI.

Every refusal through ``wargrid replay`` is one line on stderr with exit code 2 (1 when a
replay diverged), never a traceback, and leaves the folder exactly as it was: no file
rewritten, none added.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from engine.errors import SaveError
from engine.save import MAX_SAVE_BYTES, decode, read_save
from tests.hardening.budget import peak_memory, time_limit
from tests.hardening.hostile import (
    SOURCE,
    mutated,
    open_save,
    packed,
    sample_doc,
    sample_save,
)
from tests.hardening.playouts import ROOT, scenario_files
from tui.cli import main

NAME = scenario_files()[0][0]
HUGE_HEADERS = {
    "array": b"\xdd\xff\xff\xff\xff",
    "map": b"\xdf\xff\xff\xff\xff",
    "str": b"\xdb\xff\xff\xff\xff",
    "bin": b"\xc6\xff\xff\xff\xff",
    "ext": b"\xc9\xff\xff\xff\xff\x01",
}
PEAK_PER_BYTE = 100
"""Decoding may take this many bytes of memory per file byte at worst (a file of empty
maps takes ~75: Python objects are that much larger than msgpack's one-byte encodings),
so MAX_SAVE_BYTES bounds what any file can cost."""


def _with_raw(key: str, raw_value: bytes) -> bytes:
    """The sample save with the value of ``key`` replaced by raw msgpack bytes."""
    marker = "\x00MARKER\x00"
    raw = packed(mutated(sample_doc(NAME), (key,), marker))
    return raw.replace(packed(marker), raw_value, 1)


@pytest.mark.parametrize("header", HUGE_HEADERS, ids=str)
@pytest.mark.parametrize("where", ["top", "choices", "events", "seed"])
def test_huge_length_claims_allocate_nothing(header: str, where: str) -> None:
    tail = HUGE_HEADERS[header] + b"\x00" * 64
    raw = tail if where == "top" else _with_raw(where, tail)
    outcome, peak = peak_memory(lambda: open_save(raw, seconds=2.0))
    assert outcome == "SaveError"
    assert peak < 2**20 + 20 * len(raw), f"{peak} bytes for a {len(raw)}-byte file"


@pytest.mark.parametrize("depth", [100, 1_000, 100_000])
@pytest.mark.parametrize(("opener", "closer"), [(b"\x91", b"\xc0"), (b"\x81\xa1k", b"\xc0")])
@pytest.mark.parametrize("where", ["top", "result", "events", "scenario"])
def test_deep_nesting_is_refused_quickly(
    depth: int, opener: bytes, closer: bytes, where: str
) -> None:
    nest = opener * depth + closer
    raw = nest if where == "top" else _with_raw(where, nest)
    outcome = open_save(raw, seconds=2.0)
    # A nested 'result' is only decoration (the TUI checks it is a map): ok when a map.
    assert outcome == "SaveError" or (where == "result" and opener.startswith(b"\x81"))


@pytest.mark.parametrize(
    "shape",
    [
        pytest.param(b"\x80", id="empty-maps"),
        pytest.param(b"\x90", id="empty-arrays"),
        pytest.param(b"\xa1a", id="one-letter-strings"),
        pytest.param(b"\xcd\x01\x01", id="large-ints"),
        pytest.param(b"\x00", id="small-ints"),
    ],
)
def test_memory_stays_proportional_to_the_file(shape: bytes) -> None:
    count = 2**19 // len(shape)
    raw = b"\xdd" + count.to_bytes(4, "big") + shape * count
    with time_limit(10):
        outcome, peak = peak_memory(lambda: decode(raw, SOURCE))
    assert isinstance(outcome, SaveError)
    assert peak < PEAK_PER_BYTE * len(raw), f"{peak / len(raw):.0f} bytes per file byte"


def test_an_oversized_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.wargrid"
    with big.open("wb") as handle:
        handle.truncate(MAX_SAVE_BYTES + 1)  # sparse: costs no disk
    outcome, peak = peak_memory(lambda: read_save(big))
    assert isinstance(outcome, SaveError) and "too large" in str(outcome)
    assert peak < 2**20


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_special_files_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.wargrid"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.wargrid"
    loop.symlink_to(loop)
    for path in [fifo, tmp_path, loop, tmp_path / "missing.wargrid", Path("/dev/zero")]:
        with time_limit(2), pytest.raises(SaveError, match=rf"^{path}: "):
            read_save(path)


def _hostile_files() -> dict[str, bytes]:
    doc = msgpack.unpackb(sample_save(NAME))
    doc["rolls"][len(doc["rolls"]) // 2][4][0] = doc["rolls"][len(doc["rolls"]) // 2][4][0] % 6 + 1
    newer = mutated(sample_doc(NAME), ("format_version",), 3)
    raw = sample_save(NAME)
    return {
        "truncated": raw[: len(raw) // 3],
        "flipped": raw[:40] + bytes([raw[40] ^ 0x10]) + raw[41:],
        "wrong-type": packed(mutated(sample_doc(NAME), ("choices",), {"a": 1})),
        "huge-length": HUGE_HEADERS["array"] + b"\x00",
        "deep": b"\x91" * 100_000 + b"\xc0",
        "newer": packed(newer),
        "edited-roll": packed(doc),
        "text": b"name = 'not a save'\n",
        "empty": b"",
        "newline-in-ruleset": packed(mutated(sample_doc(NAME), ("ruleset",), "x\nTraceback")),
    }


HOSTILE = _hostile_files()


@pytest.mark.parametrize("mode", ["--verify", "--text"])
@pytest.mark.parametrize("kind", HOSTILE)
def test_cli_refuses_in_one_line_and_touches_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, mode: str
) -> None:
    path = tmp_path / f"{kind}.wargrid"
    path.write_bytes(HOSTILE[kind])
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    with time_limit(10):
        code = main(["replay", str(path), mode])
    out, err = capsys.readouterr()
    # An edited roll is well-formed: --verify finds it, --text shows the game replayed.
    expected = {"--verify": 1, "--text": 0}[mode] if kind == "edited-roll" else 2
    assert code == expected, err
    if code:
        assert out == "" and err.startswith("wargrid: ") and err.count("\n") == 1, err
    else:
        assert out and err == ""
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert after == before


def test_the_tui_entry_refuses_a_hostile_save_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``wargrid play --load BAD``: one line, exit 2, no save written anywhere."""
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.wargrid"
    bad.write_bytes(HOSTILE["truncated"])
    assert main(["play", "--load", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wargrid: ") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["bad.wargrid"]
    assert bad.read_bytes() == HOSTILE["truncated"]


def test_the_real_command_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.wargrid"
    path.write_bytes(HOSTILE["flipped"])
    run = subprocess.run(
        [sys.executable, "-m", "tui.cli", "replay", str(path), "--verify"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert run.returncode in (1, 2), run.stderr
    assert run.stderr.startswith("wargrid: ") and run.stderr.count("\n") == 1, run.stderr
    assert "Traceback" not in run.stderr
