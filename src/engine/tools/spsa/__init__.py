"""SPSA tuning by games: `vireo spsa`.

Simultaneous perturbation stochastic approximation (Spall 1992) as fishtest
and OpenBench run it for engine parameters: each game pair plays the engine
with every parameter nudged up or down at random (theta + c*delta) against
the same engine nudged the other way (theta - c*delta), from one opening
with both colours, and the pair's result moves theta along delta.

Modules, one concept each:
    params     the parameters: parsing, OpenBench's text format, bounds
    schedule   the gain sequences a_k and c_k
    state      the resumable JSON state file
    runner     the workers: engine pairs playing perturbed game pairs
    cli        `vireo spsa`
"""
