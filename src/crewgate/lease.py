"""A process's lease on a journal: a lock that dies with the process.

A mission is journaled by the process that runs it. Whether that process is still alive is what
``crewgate recover`` must know before it closes a mission as crashed and secures its robots; a
heartbeat heard (or not) on a network is a guess with a time window. The lease is certain on one
machine: the process that starts a mission holds an exclusive ``flock`` on a file of its own
beside the journal (``<journal>.leases/<token>.lock``) for as long as it has the journal open,
and the kernel lets go of the lock when the process ends, however it ends (exit, exception,
SIGKILL, power loss). The mission's record names the token. A lease that can be taken is its
holder's no more: the holder is gone.

The file is locked under a temporary name and renamed into place, so a lease is never seen
unlocked while its holder starts. Processes forked by the holder (a pool's workers) hold the
lock with it until they exit too. Without ``fcntl`` (Windows) there is no lease, and recovery
goes by the backend's own signals alone.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".lock"


def folder(journal: str) -> Path:
    """Where the leases on a journal are kept."""
    return Path(f"{journal}.leases")


class Lease:
    """This process's lease on one journal, held until :meth:`release`."""

    def __init__(self, journal: str) -> None:
        self.token = secrets.token_hex(8)
        where = folder(journal)
        where.mkdir(parents=True, exist_ok=True)
        self.path = where / f"{self.token}{SUFFIX}"
        taking = where / f".{self.token}.taking"
        # readable by all: another user's ``crewgate recover`` can test it (flock needs no
        # write access)
        self._fd: int | None = os.open(taking, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            if fcntl is not None:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.write(self._fd, f"{os.getpid()}\n".encode())  # for people; the lock decides
            os.replace(taking, self.path)
        except BaseException:
            os.close(self._fd)
            taking.unlink(missing_ok=True)
            raise

    def release(self) -> None:
        """Let go of the lease (the journal closes): its file goes first, so that nobody takes
        the lease of a process that is still running."""
        if self._fd is None:
            return
        self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None


def held(journal: str, token: str) -> bool:
    """Whether a live process holds the lease ``token`` on the journal. A lease found free is
    removed (its holder is gone); one with no file was released (its journal closed). One that
    cannot be tested (no access to its file) counts as held: a mission is never taken for
    dead unless that is known."""
    if fcntl is None or not token.isalnum():
        return False
    path = folder(journal) / f"{token}{SUFFIX}"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        with contextlib.suppress(OSError):  # another's folder: the file stays, free
            path.unlink(missing_ok=True)
        return False
    finally:
        os.close(fd)


def sweep(journal: str) -> int:
    """Remove the leases on the journal whose holders are gone (a process killed between
    missions leaves its file); how many. Held leases stay."""
    where = folder(journal)
    if fcntl is None or not where.is_dir():
        return 0
    tokens = [p.name[:-len(SUFFIX)] for p in where.glob(f"*{SUFFIX}")]
    return sum(not held(journal, token) for token in tokens)


def available() -> bool:
    """Whether this platform has leases (``flock``)."""
    return fcntl is not None
