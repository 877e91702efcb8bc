"""Match runner: games between UCI/xboard engines, with statistics and SPRT.

Modules, one concept each:
    spec          engine specifications (cmd=, tc=, option.X=, ...)
    timecontrol   time controls and the runner's own clocks
    player        one engine process and its faults
    openings      EPD/PGN opening suites
    adjudication  resign/draw by score, Syzygy
    game          one game
    pgn_writer    PGN output
    stats         Elo, error bars, LOS, draw ratio, pentanomial
    sprt          generalised SPRT
    results       the running score and the report
    rescore       the report from PGN files (shards of one match)
    runner        concurrency, progress, stopping
    interrupt     Ctrl-C on the asyncio loop (shared with `vireo analyse`)
    cli           `vireo match`
"""
