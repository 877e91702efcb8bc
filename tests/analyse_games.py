"""Games built for the `vireo analyse` tests, each with a known bad move."""

HUNG_QUEEN = """[White "Hangs"]
[Black "Takes"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Qg4 Nxg4 *
"""
# Black walks into Re8# (the knight on d6 guarded e8), White then misses it.
MISSED_MATE = """[White "Mates"]
[Black "Misses"]
[Result "*"]
[SetUp "1"]
[FEN "6k1/5ppp/3n4/8/8/8/5PPP/4R1K1 b - - 0 1"]

1... Nb5 2. h3 *
"""
# Black is a queen and a rook down from the start; 4... Kh8 walks into Ra8# (4... Kxf7 took the queen).
ALREADY_LOST = """[White "Winning"]
[Black "Lost"]
[Result "1-0"]
[SetUp "1"]
[FEN "6k1/5pp1/7p/8/8/8/1Q3PPP/R5K1 b - - 0 1"]

1... Kh7 2. Qb1+ g6 3. Qb7 Kg8 4. Qxf7+ Kh8 5. Ra8# 1-0
"""
