# SPDX-License-Identifier: GPL-2.0-or-later
# The fault-coverage simulator (tests/sim): build/coverage-sim runs every
# memory test of lib/memtest/memtest.c over a simulated faulty memory and asserts the
# coverage the theory promises; `make check-coverage` runs it, writing its
# tables to build/coverage.md.

COVERAGE_OBJS := $(B)/host/tests/sim/coverage.c.o $(B)/host/tests/sim/faults.c.o \
	$(B)/host/tests/sim/pairmodel.c.o $(B)/host/tests/sim/schedule.c.o

# The parallel schedule (tests/sim/par.c) joins the simulator's archive, for
# the coverage simulator and the unit tests alike (the archive's recipe
# takes every prerequisite, $^).
$(B)/host/libmemtest-sim.a: $(B)/host/tests/sim/par.c.o

$(B)/coverage-sim: $(COVERAGE_OBJS) $(HOST_LIBS)
	$(call say,HOSTLD,$@)$(HOST_CC) -o $@ $(COVERAGE_OBJS) $(HOST_LINK) $(HOST_LDFLAGS)

# Its tables, once, for check-coverage and for bench/passtime.sh.
$(B)/coverage.md: $(B)/coverage-sim
	$(call say,COVER,$<)$< >$@.tmp; status=$$?; cat $@.tmp; [ $$status = 0 ] && mv $@.tmp $@

.PHONY: check-coverage
check-coverage: $(B)/coverage.md

HOST_CHECKS += check-coverage
