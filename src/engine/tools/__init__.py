"""The tools behind `vireo`'s subcommands: perft suites (perft.py,
perft_suite.py), EPD suites (epd.py), opening-book building (book.py), the
match runner (match/), evaluation tuning (tuning/), and the measuring
scripts for UCI_LimitStrength and Syzygy probes. Tools use the public faces
of the layers below (engine._core, engine.book, engine.syzygy, engine.uci);
nothing below imports a tool.
"""
