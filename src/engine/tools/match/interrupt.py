"""Ctrl-C for the tools that run engines on an asyncio loop (match, analyse).

The first Ctrl-C calls `on_interrupt` (which cancels the work in progress
so the finished part can be kept); a second one aborts at once. While the
work is being cancelled, python-chess resolves futures that are already
cancelled; that noise is dropped as long as `stopping()` is true.
"""
import asyncio
import contextlib
import signal
from typing import Callable, Iterator


@contextlib.contextmanager
def ctrl_c_stops(loop: asyncio.AbstractEventLoop, on_interrupt: Callable[[], None],
                 stopping: Callable[[], bool]) -> Iterator[None]:
    def interrupted():
        loop.remove_signal_handler(signal.SIGINT)   # a second Ctrl-C aborts at once
        on_interrupt()

    loop.set_exception_handler(lambda lp, context: None if stopping() else lp.default_exception_handler(context))
    try:
        loop.add_signal_handler(signal.SIGINT, interrupted)
    except (NotImplementedError, RuntimeError):   # not the main thread, or Windows
        pass
    try:
        yield
    finally:
        try:
            loop.remove_signal_handler(signal.SIGINT)
        except (NotImplementedError, RuntimeError):
            pass
