"""SVG charts shared by the HTML reports (`vireo match --report`, `vireo analyse --report`).

Modules, one concept each:
    ticks   round axis values ("nice numbers", Heckbert 1990)
    plot    the plot frame, axes, lines and points as SVG text
"""
