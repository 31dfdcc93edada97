"""Ending wargrid when its terminal goes away (a closed window, a killed tmux session).

A closed window hangs the terminal up: reads return end of input at once (Textual's input
thread then spins on them at full speed), writes fail, and the kernel's SIGHUP reaches only
the terminal's session leader. Under ``make play`` that leader is make, which waits for its
child: nothing would ever end wargrid. Every choice is saved the moment it is made, so losing
the terminal loses nothing: wargrid notices the loss three ways (SIGHUP, the terminal
reporting hang-up or error to ``poll``, a read error in the input thread) and exits with
status 0 within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

WATCH_SECONDS = 0.25
"""How often the watcher looks at the terminal (a poll; no input is read)."""

GRACE_SECONDS = 0.7
"""How long Textual gets to shut down on a lost terminal before the process just ends.

Its output thread dies on a write to a dead terminal, and then a full output queue would
block the app forever; the autosave is atomic and done when the choice is, so ending the
process cannot cost a choice."""


def run_in_terminal(app: App[Any]) -> None:
    """Run ``app`` (a full-screen Textual app) so that losing its terminal ends it cleanly."""
    if sys.platform != "win32" and "TEXTUAL_DRIVER" not in os.environ:
        app.driver_class = _hang_up_driver()
    app.run()


def _hang_up_driver() -> type[Any]:
    """Textual's Linux driver, watching for the terminal to go away.

    Built on demand: the driver module needs ``termios``, which Windows lacks.
    """
    from textual.drivers.linux_driver import LinuxDriver

    class HangUpDriver(LinuxDriver):
        """Ends the app when the terminal hangs up, fails or sends SIGHUP."""

        _lost = threading.Event()
        """Set once, for the whole process: the terminal is gone, wargrid is ending."""

        def start_application_mode(self) -> None:
            super().start_application_mode()  # type: ignore[no-untyped-call]  # Textual
            self._loop = asyncio.get_running_loop()
            self._loop.add_signal_handler(signal.SIGHUP, self.terminal_lost)
            self._watching = threading.Event()
            self._watching.set()
            watcher = threading.Thread(target=self._watch, name="wargrid-hang-up", daemon=True)
            watcher.start()

        def stop_application_mode(self) -> None:
            self._watching.clear()  # also on Ctrl+Z: resuming starts a new watcher
            super().stop_application_mode()

        def run_input_thread(self) -> None:
            try:
                super().run_input_thread()
            except OSError:  # EIO and friends: the terminal cannot be read any more
                self.terminal_lost()

        def _watch(self) -> None:
            """Wait for the terminal to report hang-up or error (poll always reports those)."""
            poller = select.poll()
            poller.register(self.fileno, 0)
            while self._watching.is_set():
                if poller.poll(WATCH_SECONDS * 1000):
                    self.terminal_lost()
                    return

        def terminal_lost(self) -> None:
            """End the app; safe from any thread, and more than once."""
            if self._lost.is_set():
                return
            self._lost.set()
            if _dead(self.fileno):
                _silence(self.fileno)
            ender = threading.Timer(GRACE_SECONDS, os._exit, (0,))
            ender.daemon = True
            ender.start()
            # On the app's own loop, so a choice being saved right now is saved first.
            self._loop.call_soon_threadsafe(self._app.exit)

    return HangUpDriver


def _dead(fd: int) -> bool:
    """True when ``fd`` is a terminal no longer there (a hung-up terminal refuses ioctls)."""
    import termios

    try:
        termios.tcgetattr(fd)
    except termios.error:
        return True
    return False


def _silence(terminal: int) -> None:
    """Point stdout and stderr at /dev/null where they are the dead terminal.

    Writes there fail, and a failed flush at exit would make Python print an error and exit
    with status 120; output redirected to a file is left alone.
    """
    try:
        dead = os.fstat(terminal)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) == (dead.st_dev, dead.st_ino):
                os.dup2(null, fd)
    os.close(null)
