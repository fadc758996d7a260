# SPDX-License-Identifier: GPL-2.0-or-later
# The include rules of docs/design.md, checked on every source; the smoke
# test then shows that an include cycle among src/ modules fails the check.

.PHONY: check-layers
check-layers:
	$(Q)sh dev/check-layers.sh
	$(Q)sh tests/layers/cycle-smoke.sh
