# Builds a Vireo binary the way OpenBench (and engine testers used to C
# engines) expect:
#
#     make -j EXE=NAME [CC=gcc] [EVALFILE=net.nnue]
#
# NAME is a small launcher script. The engine itself is pip-installed
# (non-editable, compiled with CC) into a private virtual environment under
# $(VIREO_BUILD_HOME) keyed by the hash of the sources and the network, so
# NAME keeps working after this source tree is deleted, on this machine.
# openbench/build_launcher.py says how; docs/distributed.md says why.
# CXX is accepted (OpenBench may pass it) and unused: Vireo has no C++.

EXE ?= vireo
PYTHON ?= python3
EVALFILE ?=
VIREO_BUILD_HOME ?=

.PHONY: all clean FORCE
all: $(EXE)

# Always rerun: the script is cheap when the sources' environment exists.
$(EXE): FORCE
	CC="$(CC)" VIREO_BUILD_HOME="$(VIREO_BUILD_HOME)" \
	    $(PYTHON) openbench/build_launcher.py "$(EXE)" --evalfile "$(EVALFILE)"

FORCE:

clean:
	rm -f "$(EXE)"
