# SPDX-License-Identifier: GPL-2.0-or-later
# The include rules of docs/design.md, checked on every source.

.PHONY: check-layers
check-layers:
	$(Q)sh dev/check-layers.sh
