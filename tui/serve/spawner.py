"""Starting session processes: forked by the warm zygote, else a new Python.

Each SSH session's UI runs in its own process (`bridge`). A new Python has to import
Textual, the UI and a ruleset before it draws (~0.5 s of CPU, 6.9 s of wall time when 30
log in at once on two cores), so the server keeps one process that has done that, the
zygote (`tui.serve.zygote`), and asks it to fork each session. Whatever goes wrong with
the zygote (it is still importing and fails, dies, stops answering) the session is
started the old way, as a new process, and the zygote is started again later: a login
never fails for want of it.

A forked session is not the server's child but the zygote's; the zygote reaps it and
reports its exit status, and hands over a pidfd with which the server still learns of
the exit if the zygote is gone by then. Signals reach it by process group as before
(`bridge.PtySession.hang_up`): a fork calls ``setsid``, so its group is its pid.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import socket
import sys
import time
from collections.abc import Mapping
from typing import Protocol

import msgpack

from tui.serve.zygote import MAX_CONTROL, pack

log = logging.getLogger("wargrid.serve")

READY_WAIT = 30.0
"""Seconds a login waits for a zygote that is still importing (it will be ready before a
new process would be: it started earlier)."""
FORK_WAIT = 5.0
"""Seconds for the zygote to answer a fork; past that it is deemed stuck and replaced."""
RESTART_GAP = 30.0
"""Seconds between starts of a zygote that keeps failing (logins start cold meanwhile)."""


class Child(Protocol):
    """A running session process, as `asyncio.subprocess.Process` describes one."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


class ZygoteError(Exception):
    """The zygote cannot fork this session (it is gone, stuck or refused)."""


class Forked:
    """A session process forked by the zygote."""

    def __init__(self, pid: int, pidfd: int | None) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd = pidfd
        self._done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def wait(self) -> int:
        """Its exit status (negative: the signal that ended it)."""
        return await asyncio.shield(self._done)

    def exited(self, code: int) -> None:
        """It ended with ``code`` (reported by the zygote)."""
        if self.returncode is not None:
            return
        self.returncode = code
        if not self._done.done():
            self._done.set_result(code)
        self._close_pidfd()

    def orphaned(self) -> None:
        """The zygote is gone: learn of the exit from the pidfd (status unknown: 1)."""
        if self.returncode is not None:
            return
        if self._pidfd is None:
            self.exited(1)
            return
        asyncio.get_running_loop().add_reader(self._pidfd, self.exited, 1)

    def _close_pidfd(self) -> None:
        if self._pidfd is not None:
            asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None


class Zygote:
    """The server's end of one zygote process."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.process: asyncio.subprocess.Process | None = None
        self.ready: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.children: dict[int, Forked] = {}
        self.forks = 0
        """Sessions forked so far (tests and logs)."""
        self._control: socket.socket | None = None
        self._replies: collections.deque[asyncio.Future[Forked]] = collections.deque()

    @property
    def alive(self) -> bool:
        """True until the zygote is known to be gone."""
        return not (self.ready.done() and not self.ready.result())

    async def start(self) -> None:
        """Start the zygote process (it imports on its own; `ready` says when done)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tui.serve.zygote",
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,  # the server's terminal's Ctrl+C is not for it
                env={**self.env, "WARGRID_ZYGOTE_FD": str(theirs.fileno())},
            )
        except OSError as exc:
            ours.close()
            log.error("cannot start the session zygote: %s", exc)
            self._lost()
            return
        finally:
            theirs.close()
        ours.setblocking(False)
        self._control = ours
        asyncio.get_running_loop().add_reader(ours, self._readable)

    async def fork(self, slave: int, hub: socket.socket, env: Mapping[str, str]) -> Forked:
        """A session process on PTY ``slave`` with ``hub`` as its hub socket.

        Raises:
            ZygoteError: the zygote could not fork it (the caller starts one cold).
        """
        control = self._control
        if control is None or not self.alive:
            raise ZygoteError("the zygote is gone")
        reply: asyncio.Future[Forked] = asyncio.get_running_loop().create_future()
        try:
            socket.send_fds(control, [pack({"env": dict(env)})], [slave, hub.fileno()])
        except OSError as exc:
            self._lost()
            raise ZygoteError(f"cannot reach the zygote: {exc}") from exc
        self._replies.append(reply)
        try:
            return await asyncio.wait_for(asyncio.shield(reply), FORK_WAIT)
        except TimeoutError:
            log.error("the session zygote did not answer in %.0f s: replacing it", FORK_WAIT)
            self.kill()
            raise ZygoteError("the zygote did not answer") from None

    def kill(self) -> None:
        """Stop the zygote at once (its sessions run on)."""
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        self._lost()

    async def close(self) -> None:
        """Stop the zygote: it exits when its control socket closes."""
        self._lost()
        if self.process is not None:
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
                await self.process.wait()

    def _readable(self) -> None:
        control = self._control
        while control is not None:
            try:
                data, fds, _, _ = socket.recv_fds(control, MAX_CONTROL, 1)
            except BlockingIOError:
                return
            except OSError:
                data, fds = b"", []
            if not data:
                self._lost()
                return
            try:
                self._message(msgpack.unpackb(data, raw=False), fds)
            except (ValueError, TypeError, KeyError, msgpack.UnpackException):
                log.error("the session zygote sent a malformed message: replacing it")
                for fd in fds:
                    os.close(fd)
                self.kill()
                return

    def _message(self, message: dict[str, object], fds: list[int]) -> None:
        if message.get("ready") is True:
            if not self.ready.done():
                self.ready.set_result(True)
            return
        if "exited" in message:
            child = self.children.pop(int(message["exited"]), None)  # type: ignore[call-overload]
            if child is not None:
                child.exited(int(message["code"]))  # type: ignore[call-overload]
            return
        reply = self._replies.popleft()
        if "pid" in message:
            child = Forked(int(message["pid"]), fds[0] if fds else None)  # type: ignore[call-overload]
            self.children[child.pid] = child
            self.forks += 1
            if not reply.done():
                reply.set_result(child)
            return
        if not reply.done():
            reply.set_exception(ZygoteError(str(message.get("error"))))

    def _lost(self) -> None:
        """The zygote is gone (or being stopped): no more forks through it."""
        if not self.ready.done():
            self.ready.set_result(False)
        elif self.ready.result():
            self.ready = asyncio.get_running_loop().create_future()
            self.ready.set_result(False)
        control, self._control = self._control, None
        if control is not None:
            asyncio.get_running_loop().remove_reader(control)
            control.close()
        while self._replies:
            reply = self._replies.popleft()
            if not reply.done():
                reply.set_exception(ZygoteError("the zygote is gone"))
        for child in self.children.values():
            child.orphaned()
        self.children.clear()


class Spawner:
    """Starts each session's process: a fork of the zygote, else a new Python."""

    def __init__(self, env: Mapping[str, str], *, zygote: bool = True) -> None:
        self.env = dict(env)
        """The environment every session starts from (the zygote's own)."""
        self.use_zygote = zygote
        self.zygote: Zygote | None = None
        self.cold = 0
        """Sessions started as a new process (no zygote to fork them)."""
        self._started = -RESTART_GAP

    async def start(self) -> None:
        """Start the zygote (sessions arriving before it is ready wait for it)."""
        if self.use_zygote:
            self._started = time.monotonic()
            self.zygote = Zygote(self.env)
            await self.zygote.start()

    async def spawn(self, slave: int, hub: socket.socket, env: Mapping[str, str]) -> Child:
        """A session process on PTY ``slave`` (which becomes its controlling terminal)."""
        zygote = await self._ready_zygote()
        if zygote is not None:
            try:
                return await zygote.fork(slave, hub, env)
            except ZygoteError as exc:
                log.warning("starting a session without the zygote: %s", exc)
        self.cold += 1
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tui.serve.client",
            stdin=slave,
            stdout=slave,
            stderr=slave,
            pass_fds=(hub.fileno(),),
            start_new_session=True,
            env={**env, "WARGRID_HUB_FD": str(hub.fileno())},
        )

    async def close(self) -> None:
        """Stop the zygote (running sessions are not its to stop)."""
        if self.zygote is not None:
            await self.zygote.close()

    async def _ready_zygote(self) -> Zygote | None:
        zygote = self.zygote
        if zygote is not None and not zygote.alive:
            zygote = None
            if time.monotonic() - self._started >= RESTART_GAP:
                log.warning("the session zygote is gone: starting it again")
                await self.start()  # this login starts cold; the next ones fork
        if zygote is None:
            return None
        try:
            ready = await asyncio.wait_for(asyncio.shield(zygote.ready), READY_WAIT)
        except TimeoutError:
            return None
        return zygote if ready else None
