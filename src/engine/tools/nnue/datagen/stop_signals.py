"""How a datagen run meets Ctrl-C and SIGTERM: both stop it with its summary
(cli.py), and neither lands in the middle of writing a game (journal.py)."""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def handlers_swapped(handler, signals=STOP_SIGNALS):
    """`handler` for `signals` inside the block, the previous ones after it.
    Main thread only, as signal.signal is; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = [(signum, signal.signal(signum, handler)) for signum in signals]
    try:
        yield
    finally:
        for signum, old in previous:
            signal.signal(signum, signal.SIG_DFL if old is None else old)


def raise_interrupt(signum, frame):
    raise KeyboardInterrupt


@contextmanager
def stops_held():
    """A stop signal arriving inside the block is raised again when it ends,
    to the handlers in place before. Masking the signals would not do: the
    worker pool's threads in this process take them, and Python runs the
    handler in the main thread at once."""
    caught = []
    with handlers_swapped(lambda signum, frame: caught.append(signum)):
        yield
    for signum in caught[:1]:
        signal.raise_signal(signum)
