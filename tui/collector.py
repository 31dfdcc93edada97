"""The cyclic garbage collector held off while the UI starts, until its first frame.

Starting ``wargrid play`` builds some 100,000 objects (Textual, the engine, a ruleset, a
save's game and the screen's widgets) and nearly none is garbage; the collector walked
them over and over while they were built (~150 collections, one of the whole heap: 60
of 450 ms of CPU on a loaded machine, to the first frame of Continue). Held off, then
frozen once the first frame is out, they are never walked again; the few hundred
objects of cyclic garbage that start-up leaves are kept (a few kilobytes).

Only a process that holds the collector (`hold`) has it frozen and turned back on
(`release`): a test that runs many apps in one process keeps its collector as it is.
"""

from __future__ import annotations

import gc

_held = False


def hold() -> None:
    """Turn the collector off until `release` (if it is on)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release(*, freeze: bool = True) -> None:
    """Turn the collector back on if `hold` turned it off, with what start-up built
    frozen (``freeze``: not when start-up failed); else nothing."""
    global _held
    if _held:
        _held = False
        if freeze:
            gc.freeze()
        gc.enable()
