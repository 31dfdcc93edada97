"""The warm zygote: one process with the session UI already imported, forking a session
process for each SSH session (``python -m tui.serve.zygote``, started by the server).

Starting Python and importing Textual, the UI and a ruleset costs a session ~0.5 s of
CPU before it draws anything (benchmarks/continue_join.py); a fork of a process that has
paid it once costs a few milliseconds. The forked session is what a new process was: its
own session and process group, the SSH client's PTY as its controlling terminal and
standard streams, the fixed session environment with the client's terminal type, the
heap ceiling, and one end of its own socket pair to the hub.

Isolation. The zygote is not the server: the server starts it like a session process
(the same small environment, no descriptor but its control socket), so it holds no host
key, no game, no other session's socket, and neither does any process forked from it.
The server sends a request only with the two descriptors of one session; the zygote
forks, closes them, and so holds nobody's descriptors when it forks the next one. The
forked session closes the control socket first thing, so it cannot ask for processes or
hear of other sessions. What sessions share is the zygote's memory as it was after the
imports (copy-on-write) and the string hash seed; ``random`` is reseeded in each fork
(and the game's dice come from the hub's seed, never a session's).

Control messages (msgpack maps over a SOCK_SEQPACKET socket pair):
  zygote to server ``ready`` once imported; ``pid`` (with the session's pidfd) for each
  request, or ``error``; ``exited`` + ``code`` when a session ends (the zygote reaps).
  server to zygote ``env`` (the session's environment), with the PTY's slave end and the
  session's end of its hub socket pair.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import select
import signal
import socket
import sys
import traceback
from typing import Any

import msgpack

MAX_CONTROL = 64 * 1024
"""Bytes of one control message (an environment of a dozen short variables)."""
WARM = (
    "tui.serve.client",
    "tui.serve.lobby",
    "tui.serve.seat",
    "tui.replay_screen",
    "tui.confirm",
    "textual.drivers.linux_driver",
    "textual.drivers._writer_thread",
    "textual._xterm_parser",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.scrollbar",
    "rich._emoji_codes",
    "tty",
)
"""Modules a session imports on its way to the lobby and a game (found by listing what a
session loaded after start-up); the rulesets come from the registry."""


def pack(message: dict[str, Any]) -> bytes:
    """One control message."""
    packed: bytes = msgpack.packb(message, use_bin_type=True)
    return packed


def warm() -> None:
    """Import what every session needs, so that no fork pays for it."""
    for name in WARM:
        importlib.import_module(name)
    from engine.rulesets import ENTRIES

    for entry in ENTRIES:
        entry.load()
    gc.collect()
    gc.freeze()  # the imported objects stay put: a fork's collections do not touch their pages


def serve(control: socket.socket) -> int:
    """Fork a session for each request until the server closes the control socket."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes select through the pipe
    try:
        while True:
            ready, _, _ = select.select([control.fileno(), wake_r], [], [])
            if wake_r in ready:
                with contextlib.suppress(BlockingIOError):
                    while os.read(wake_r, 512):
                        pass
            _reap(control)
            if control.fileno() in ready:
                try:
                    data, fds, _, _ = socket.recv_fds(control, MAX_CONTROL, 2)
                except OSError:
                    return 0
                if not data:
                    return 0  # the server is gone: its sessions run on alone
                _fork_session(control, data, fds, (wake_r, wake_w))
    finally:
        signal.set_wakeup_fd(-1)
        os.close(wake_r)
        os.close(wake_w)


def _reap(control: socket.socket) -> None:
    """Tell the server of every session that ended."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = os.waitstatus_to_exitcode(status)
        with contextlib.suppress(OSError):
            control.send(pack({"exited": pid, "code": code}))


def _request_env(data: bytes, fds: list[int]) -> dict[str, str] | None:
    """The session's environment, or None when the request is not one."""
    try:
        request = msgpack.unpackb(data, raw=False)
    except (ValueError, msgpack.UnpackException):
        return None
    env = request.get("env") if isinstance(request, dict) else None
    if len(fds) != 2 or not isinstance(env, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        return None
    return env


def _fork_session(
    control: socket.socket, data: bytes, fds: list[int], private: tuple[int, int]
) -> None:
    env = _request_env(data, fds)
    if env is None:
        for fd in fds:
            os.close(fd)
        control.send(pack({"error": "not a session request"}))
        return
    slave, hub = fds
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(slave)
        os.close(hub)
        control.send(pack({"error": f"cannot fork: {exc.strerror}"}))
        return
    if pid == 0:  # the session: never returns into the zygote's loop
        code = 1
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            control.close()
            for fd in private:
                os.close(fd)
            os.setsid()
            code = _session(slave, hub, env)
        except BaseException:
            with contextlib.suppress(Exception):
                traceback.print_exc()
                sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(slave)
    os.close(hub)
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:  # it is ours and unreaped, so this does not happen; the pid alone then
        control.send(pack({"pid": pid}))
        return
    try:
        socket.send_fds(control, [pack({"pid": pid})], [pidfd])
    finally:
        os.close(pidfd)


def _session(slave: int, hub: int, env: dict[str, str]) -> int:
    """In the forked process: take the PTY and run the session's UI."""
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    if slave > 2:
        os.close(slave)
    os.environ.clear()
    os.environ.update(env)
    # Streams as Python opens them on a terminal (the zygote's were /dev/null); Textual
    # writes to sys.__stderr__ and reads sys.__stdin__.
    streams = {
        "stdin": open(0, encoding="utf-8", closefd=False),  # noqa: SIM115
        "stdout": open(1, "w", buffering=1, encoding="utf-8", closefd=False),  # noqa: SIM115
        "stderr": open(  # noqa: SIM115
            2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False
        ),
    }
    for name, stream in streams.items():
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    from tui.serve.client import session

    return session(socket.socket(fileno=hub))


def main() -> int:
    """Entry point of the zygote (its control socket's descriptor in WARGRID_ZYGOTE_FD)."""
    fd = os.environ.get("WARGRID_ZYGOTE_FD", "")
    if not fd.isdigit():
        print("wargrid: this command is run by `wargrid serve`.", file=sys.stderr)
        return 2
    control = socket.socket(fileno=int(fd))
    warm()
    control.send(pack({"ready": True}))
    return serve(control)


if __name__ == "__main__":
    raise SystemExit(main())
