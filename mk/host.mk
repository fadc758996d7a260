# SPDX-License-Identifier: GPL-2.0-or-later
# Checks of the tree itself: the include rules of docs/design.md on every
# source, the limits of the docs and of the file names; each then shows
# that it can fail.

.PHONY: check-layers
check-layers:
	$(Q)sh dev/check-layers.sh
	$(Q)sh tests/layers/cycle-smoke.sh

# The docs' limits (table cells, bench/README.md's length) and one file a
# name among the product's sources.
.PHONY: check-docs
check-docs:
	$(Q)sh dev/check-docs.sh
	$(Q)sh tests/docs/check-docs-smoke.sh
