"""`vireo train`: the NNUE trainer (PyTorch, the optional `train` extra).

features.py  Marlinformat records -> feature index lists, targets (numpy only)
data.py      the record files, the train/validation split, shuffled batches
model.py     the float perspective network and its weight clipping
export.py    quantization into the network file (network_file.py)
loop.py      loss, optimiser, schedule, validation, checkpoints
cli.py       the command line (imports torch only when run)
"""
