"""The garbage collector held off between the gate's last check and the send.

Python's cyclic garbage collector can start at any allocation, and a full collection walks every
object of the process: 6.8 - 8.4 ms for the ~38,000 objects of a process that has loaded both
reference crews and their gates, 17.7 - 22.3 ms for the ~57,000 of one that has also loaded the
service's and the MCP server's modules (measured on the development machine). One that started
between the gate's last check and the send would stall the send after the check had passed.
The dispatcher holds the collector for that window (microseconds); what was allocated in it is
collected afterwards.

The collector is the process's, and missions run on several threads: the holds are counted, the
collector is switched back on when the last one ends, and only if it was on when the first began
(a caller that had switched it off keeps it off).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Holds:
    def __init__(self) -> None:
        self.lock = threading.Lock()  # held for a few operations, never across a send
        self.count = 0
        self.was_on = False


_HOLDS = _Holds()


@contextmanager
def collector_held() -> Iterator[None]:
    """No garbage collection starts inside this block (on any thread)."""
    holds = _HOLDS
    held = False  # counted: released below whatever ends the block (a signal's exception too)
    try:
        with holds.lock:
            first = holds.count == 0
            if first:
                holds.was_on = gc.isenabled()
            holds.count += 1
            held = True
            if first:
                gc.disable()
        yield
    finally:
        if held:
            with holds.lock:
                holds.count -= 1
                if holds.count == 0 and holds.was_on:
                    gc.enable()
