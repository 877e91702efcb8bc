"""Kept self-play: whole games in a compact, compressed file (docs/selfplay.md).

layout.py    the bytes of one game: packed start position, 4 bytes a move
expand.py    a game -> the Marlinformat records trained on (the position filter)
files.py     reading and writing .games.xz files, and counting them fast
pgn.py       PGN games (fastchess, cutechess-cli, vireo match) -> kept games
manifest.py  data/selfplay/MANIFEST.tsv: what each kept file is and holds
cli.py       `vireo selfplay add|check`: keep the manifest
"""
