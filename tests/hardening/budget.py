"""Budgets for the hardening tests: examples per test, wall time and memory per case.

Each property test states its budget as a multiple of the active Hypothesis profile's
(``tests/conftest.py``), so ``make fuzz`` lengthens every one of them at once.
"""

from __future__ import annotations

import signal
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from hypothesis import settings

T = TypeVar("T")


def scaled(numerator: int, denominator: int = 1, *, most: int | None = None) -> settings:
    """Settings with the active profile's example budget times ``numerator/denominator``,
    at most ``most`` (short cases need many examples in CI, not fifty times more in fuzz)."""
    examples = max(1, settings().max_examples * numerator // denominator)
    return settings(max_examples=examples if most is None else min(most, examples))


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail with TimeoutError if the block runs longer than ``seconds`` (Unix timers).

    A hang is the bug these tests look for, so it must fail the test, not stall the run.
    """

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def peak_memory(action: Callable[[], T]) -> tuple[T | BaseException, int]:
    """Run ``action``; return its result (or the exception it raised) and the peak bytes
    Python allocated meanwhile."""
    tracemalloc.start()
    try:
        result: T | BaseException = action()
    except Exception as exc:
        result = exc
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return result, peak
