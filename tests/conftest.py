"""Test-wide settings: the Hypothesis profiles, and a test process's last garbage collections.

``ci`` (the default, used by ``make test``) is derandomized with a fixed example budget, so
every run takes the same time and checks the same cases; it keeps no example database, so
CI writes nothing into the tree. ``fuzz`` (``make fuzz``) draws fresh random cases with a
budget fifty times larger, and keeps the database so a failure it finds is replayed first
next time. Pick one with ``HYPOTHESIS_PROFILE=fuzz``. Tests that need a different budget
scale the profile's (``tests.hardening.budget.scaled``) rather than fixing a number, so
the fuzz profile lengthens them too.
"""

from __future__ import annotations

import gc
import os

import pytest
from hypothesis import HealthCheck, settings

_SLOW_IS_FINE = (HealthCheck.too_slow, HealthCheck.data_too_large)

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=10,
    database=None,
    suppress_health_check=_SLOW_IS_FINE,
    print_blob=True,
)
settings.register_profile(
    "fuzz",
    deadline=None,
    max_examples=500,
    suppress_health_check=_SLOW_IS_FINE,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish() -> None:
    """Collect the session's garbage before an xdist worker says it has finished, then
    freeze what is left.

    After a worker's last test pytest collects five times over (its check for exceptions
    raised in finalizers), each pass walking the whole heap: 0.9 to 1.4 million objects
    after the engine and ruleset tests alone (chiefly what the engine's bounded caches
    keep: melee playouts, sight pairs, the boards they name), 3.5 to 6.4 s on a loaded
    2-core machine. The controller
    ends the last worker as soon as it reports and execnet gives it 5 s before sending it
    a SIGINT, whose KeyboardInterrupt then fell inside Hypothesis's gc callback (the only
    Python a collection runs): a PytestUnraisableExceptionWarning after every full run.
    Here, before the report (xdist sends it after this hook), nothing is timed; frozen,
    the survivors are not walked again, so pytest's passes only see what comes after.
    Garbage and its finalizers' exceptions are still collected and reported as before.
    """
    for _ in range(5):  # as pytest's own check: a finalizer may leave more garbage
        if not gc.collect():
            break
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests marked ``slow`` first, the others after in their order.

    The xdist workers took tests in collection order, in chunks of hundreds, and the
    longest (the whole games through the TUI, tests/tui/test_wh40k6_game.py's among them)
    came last: one worker played a 40-second game alone while the other had finished.
    Now each worker is sent two tests at a time (``--maxschedchunk 2``), the long ones
    first, so they share the workers and the short ones fill the gaps at the end.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
