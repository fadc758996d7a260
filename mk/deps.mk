# SPDX-License-Identifier: GPL-2.0-or-later
# Where the build's and the tests' programs come from. check-deps (run first
# by `make check`, in a few seconds) resolves every program and file of
# tools/deps.files to its Debian package and fails on one that tools/deps.sh
# does not install and the base system lacks, or on a program the scripts
# call that the list does not name; tests/deps/deps-smoke.sh then shows that it
# fails on both. check-fresh (as root; long: a Debian root once, then the
# whole of .ci/run in it) proves on a fresh Debian 12 root that .ci/run
# installs all it needs and passes; not part of `make check`.

.PHONY: check-deps check-fresh
check-deps:
	$(Q)bash dev/check-deps.sh
	$(Q)sh tests/deps/deps-smoke.sh

check-fresh: deps
	$(Q)bash dev/check-fresh.sh
