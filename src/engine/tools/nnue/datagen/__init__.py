"""`vireo datagen`: self-play training data, kept as whole games (.games.xz,
docs/selfplay.md) or as Marlinformat records (.bin, docs/nnue-data.md).

starts.py        where games begin: start position, opening files, Chess960
adjudication.py  when a game is decided early (score, length, Syzygy)
game.py          one self-play game: the searches, the filters, the records
journal.py       the games already written, for resuming a killed run
stop_signals.py  Ctrl-C and SIGTERM: a stop with a summary, never mid-write
run.py           seeds, shards, worker processes, the output file, progress
cli.py           the command line
"""
