"""The UCI protocol layer: the loop that reads stdin (loop.py), command
parsing (parse.py), options (options.py), what one `go` does (go.py), the
search worker thread (runner.py), output lines (output.py), time management
(timeman.py, clock.py), UCI_LimitStrength (strength.py), the WDL model
(wdl.py), the extension commands (commands.py) and the `bench` signature
(bench.py).

It turns text into calls on the core (engine._core) and the integrations
(engine.book, engine.syzygy), and their results into text; nothing below it
imports it.
"""
