# SPDX-License-Identifier: GPL-2.0-or-later
# The DRAM geometry's host side (issue #29): build/ramsift-dram, which runs
# lib/dram's learning on this machine (root, huge pages, pagemap, rdtsc) or
# against the simulated controller of tools/dram/ (--simulate MAP), built
# -O2 with Debian's hardening flags as ramsift-fold is; the unit tests of
# the learning (tests/unit/test_dram_learn*.c), which link the simulator
# besides lib/ (a static pattern rule, as mk/usb.mk's); check-dram runs them
# and tests/dram/dram-smoke.sh; bench-dram times the learning (bench/dram.sh).

DRAM_TOOL_SRCS := tools/ramsift-dram.c $(sort $(wildcard tools/dram/*.c))
DRAM_LIB_SRCS := $(sort $(wildcard lib/dram/*.c)) lib/range.c lib/memstr.c lib/fmt.c
# One compiler run over several sources leaves no usable .d: the headers are listed.
DRAM_HDRS := $(wildcard tools/dram/*.h lib/dram/*.h lib/*.h)
DRAM_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -iquote lib -iquote tools \
	-D_FORTIFY_SOURCE=2 -fstack-protector-strong -Wformat -Werror=format-security \
	-Wl,-z,relro -Wl,-z,now

$(B)/ramsift-dram: $(DRAM_TOOL_SRCS) $(DRAM_LIB_SRCS) $(DRAM_HDRS)
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(DRAM_CFLAGS) -o $@ $(DRAM_TOOL_SRCS) \
		$(DRAM_LIB_SRCS)

all: $(B)/ramsift-dram

# The simulator and the MAP parser, with the sanitizers, for the unit tests.
DRAM_SIM_OBJS := $(B)/host/tools/dram/sim.c.o $(B)/host/tools/dram/mapfile.c.o
$(DRAM_SIM_OBJS): $(B)/host/%.c.o: %.c
	$(call say,HOSTCC,$<)mkdir -p $(@D) && $(HOST_CC) $(filter-out -Ilib,$(HOST_CFLAGS)) -iquote lib \
		-c $< -o $@
DRAM_UNIT_BINS := $(filter $(B)/host/unit/test_dram_learn%,$(UNIT_BINS))
# The row hammer test in simulation (issue #30) links the simulator too.
DRAM_UNIT_BINS += $(filter $(B)/host/unit/test_dram_hammer_sim%,$(UNIT_BINS))
$(DRAM_UNIT_BINS): $(B)/host/unit/%: tests/unit/%.c $(DRAM_SIM_OBJS) $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -iquote tools -o $@ $< \
		$(DRAM_SIM_OBJS) $(HOST_LINK) $(HOST_LDFLAGS) -lcmocka

.PHONY: check-dram bench-dram
check-dram: $(B)/ramsift-dram $(DRAM_UNIT_BINS)
	$(Q)set -e; for t in $(DRAM_UNIT_BINS); do echo "  UNIT    $$t"; $$t; done
	$(Q)sh tests/dram/dram-smoke.sh $(B)/ramsift-dram

bench-dram: $(B)/ramsift-dram
	$(Q)sh bench/dram.sh $(B)/ramsift-dram

HOST_CHECKS += check-dram
