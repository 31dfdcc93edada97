"""Peak memory of refusing the worst hostile files: ``benchmarks/hostile_memory.py``.

Each case runs in a fresh process (so one case's garbage cannot hide another's peak) and
reports the process's peak resident memory (``ru_maxrss``) minus the interpreter's
baseline: a save at the size limit made of nothing but empty maps, empty lists, short
strings or small negative integers (each costs ~70 bytes once decoded), and a TOML file
at its limit of empty inline tables. Issue #18 promises any file under 200 MB.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository (the cases import the engine from here)."""

CASE = """
import resource, sys
sys.path.insert(0, {root!r})
from engine.errors import WargridError
from engine.save import MAX_SAVE_BYTES, decode
from engine.tomlfile import MAX_TOML_BYTES, parse_toml
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kind = {kind!r}
if kind == "toml":
    text = "a = [" + "{{}}," * (MAX_TOML_BYTES // 3 - 4) + "]"
    try:
        parse_toml(text, "x", WargridError)
    except WargridError:
        pass
else:
    shape = {{"maps": b"\\x80", "lists": b"\\x90", "strings": b"\\xa2ab", "ints": b"\\xe0"}}[kind]
    chunk = b"\\xdc" + (1000).to_bytes(2, "big") + shape * 1000  # lists under any length cap
    count = (MAX_SAVE_BYTES - 5) // len(chunk)
    raw = b"\\xdd" + count.to_bytes(4, "big") + chunk * count
    try:
        decode(raw, "x")
    except WargridError:
        pass
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((peak - base) // 1024)
"""


def main() -> None:
    """One line per case: the extra peak memory in MB."""
    for kind in ("maps", "lists", "strings", "ints", "toml"):
        size = "1 MiB TOML of empty tables" if kind == "toml" else f"16 MiB save of {kind}"
        out = subprocess.run(
            [sys.executable, "-c", CASE.format(root=str(ROOT), kind=kind)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        print(f"hostile file, peak memory to refuse a {size}: {out} MB")


if __name__ == "__main__":
    main()
