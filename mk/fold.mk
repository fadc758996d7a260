# SPDX-License-Identifier: GPL-2.0-or-later
# The BadRAM fold's host programs: build/ramsift-fold (the CLI that refolds a
# ramsift or memtest86+ log, or a list of addresses) and build/bench-fold
# (ramsift's fold against a greedy baseline on synthetic DRAM faults). Both
# compile the fold's lib/ sources with -O2 and no sanitizers, so the bench
# times what the image runs. check-fold runs a quick smoke run of both
# programs (the fold's unit tests run with every other in check-unit).

FOLD_LIB_SRCS := $(sort $(wildcard lib/badram/*.c lib/*.c))
# One compiler run over several sources leaves a .d for the last one only, so
# the headers are listed here: a constant changed in one must rebuild both.
FOLD_LIB_HDRS := $(wildcard lib/badram/*.h lib/*.h)
FOLD_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -MMD -MP -iquote lib

# ramsift-fold is installed (make install, make deb): Debian's hardening flags.
$(B)/ramsift-fold: FOLD_CFLAGS += -D_FORTIFY_SOURCE=2 -fstack-protector-strong -Wformat \
	-Werror=format-security -Wl,-z,relro -Wl,-z,now
$(B)/ramsift-fold: tools/ramsift-fold.c $(FOLD_LIB_SRCS) $(FOLD_LIB_HDRS)
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(FOLD_CFLAGS) -o $@ $< $(FOLD_LIB_SRCS)

$(B)/bench-fold: bench/fold.c $(FOLD_LIB_SRCS) lib/memtest/prng.c $(FOLD_LIB_HDRS)
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(FOLD_CFLAGS) -o $@ $< $(FOLD_LIB_SRCS) lib/memtest/prng.c

.PHONY: check-fold bench-fold
check-fold: $(B)/ramsift-fold $(B)/bench-fold $(B)/host/ramsift-jsoncheck
	$(Q)sh tests/fold/fold-smoke.sh $(B)/ramsift-fold $(B)/host/ramsift-jsoncheck
	$(Q)sh tests/fold/fold-badinput.sh $(B)/ramsift-fold $(B)/host/ramsift-jsoncheck
	$(Q)echo "  BENCH   $(B)/bench-fold --quick"; $(B)/bench-fold --quick >/dev/null

bench-fold: $(B)/bench-fold
	$(Q)$(B)/bench-fold

HOST_CHECKS += check-fold
