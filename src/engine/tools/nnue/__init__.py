"""The NNUE tool chain: the network file format and its integer reference
(network_file.py), self-play data (datagen), training (train). The core's
inference (src/engine/core/nnue/) must equal network_file.reference_eval
exactly; docs/nnue.md describes the whole loop.
"""
