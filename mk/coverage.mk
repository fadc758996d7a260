# SPDX-License-Identifier: GPL-2.0-or-later
# The fault-coverage simulator (tests/sim): build/coverage-sim runs every
# memory test of lib/memtest.c over a simulated faulty memory and asserts the
# coverage the theory promises; `make check-coverage` runs it.

# The host build of lib/ includes tests/sim/memrw.h, whose accessors call the
# simulated memory: put it in the host archive, so the unit tests and
# coverage-sim link it like any lib/ object.
$(B)/host/libramsift.a: $(B)/host/tests/sim/simmem.c.o

COVERAGE_OBJS := $(B)/host/tests/sim/coverage.c.o $(B)/host/tests/sim/faults.c.o

$(B)/coverage-sim: $(COVERAGE_OBJS) $(B)/host/libramsift.a
	$(call say,HOSTLD,$@)$(HOST_CC) -o $@ $(COVERAGE_OBJS) $(B)/host/libramsift.a $(HOST_LDFLAGS)

.PHONY: check-coverage
check-coverage: $(B)/coverage-sim
	$(Q)echo "  COVER   $<"; $<

CHECK_TARGETS += check-coverage
