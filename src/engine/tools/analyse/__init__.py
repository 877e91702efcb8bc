"""`vireo analyse`: annotate the games of PGN files with an engine's judgement.

Modules, one concept each:
    winchance   centipawns -> win %, move and game accuracy (lichess's formulas)
    judgement   the marks ?!, ?, ?? from the win % a move loses
    games       reading the games, with clear messages for the bad ones
    analyser    one engine process analysing the positions of one game
    review      a game's evaluations turned into marks, losses and accuracy
    annotate    the annotated PGN: evals, WDL, NAGs, better lines, tags
    runner      several games at once, progress bar, Ctrl-C, failures
    report      the HTML page; report_chart draws its evaluation charts
    cli         `vireo analyse`
"""
