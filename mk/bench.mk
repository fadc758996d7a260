# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmarks of bench/ (bench/README.md): `make bench` runs instruments
# 1-6 through bench/report.sh and prints one markdown report, also written to
# build/bench/report.md. Not part of `make check` (timings on a shared
# machine are noise); check-bench runs each instrument in its smoke mode,
# asserting that the scripts and parsers work, never a time. BENCH_ARGS
# passes options to bench/report.sh. The host bandwidth program compiles lib/
# once more, into build/bench/lib, with -O2, no sanitizers and the image's
# own accessor src/x86/memrw.h (MEMRW_USER_SPACE: no wbinvd) instead of
# tests/sim/memrw.h.

BENCH_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -MMD -MP -DMEMRW_USER_SPACE -iquote src/x86 -iquote lib
BENCH_LIB_OBJS := $(patsubst lib/%.c,$(B)/bench/lib/%.o,$(LIB_SRCS))

$(B)/bench/lib/%.o: lib/%.c
	$(call say,BENCHCC,$<)mkdir -p $(@D) && $(HOST_CC) $(BENCH_CFLAGS) -c $< -o $@
$(B)/bench/%.o: bench/%.c
	$(call say,BENCHCC,$<)mkdir -p $(@D) && $(HOST_CC) $(BENCH_CFLAGS) -c $< -o $@
$(B)/bench/libramsift-plain.a: $(BENCH_LIB_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

# --threads runs the tests in pthreads.
$(B)/bench/hostbw.o: BENCH_CFLAGS += -pthread
$(B)/bench/hostbw: $(B)/bench/hostbw.o $(B)/bench/libramsift-plain.a
	$(call say,BENCHLD,$@)$(HOST_CC) -pthread -o $@ $^
$(B)/bench/serial-clock: $(B)/bench/serial-clock.o
	$(call say,BENCHLD,$@)$(HOST_CC) -o $@ $^
$(B)/bench/badram-score: $(B)/bench/badram-score.o
	$(call say,BENCHLD,$@)$(HOST_CC) -o $@ $^

BENCH_DEPS := $(B)/ramsift.elf $(B)/host/ramsift-inject $(B)/bench-fold $(B)/coverage.md \
	$(B)/bench/hostbw $(B)/bench/serial-clock $(B)/bench/badram-score

.PHONY: bench check-bench
bench: $(BENCH_DEPS)
	$(Q)bench/report.sh $(BENCH_ARGS)

# The report's smoke run takes hostbw alone; the threaded path (the tests
# over shares with a barrier, the threaded references) gets its own.
check-bench: $(BENCH_DEPS)
	$(Q)bench/report.sh --quick
	$(Q)echo "  BENCH   hostbw --threads 2 (smoke: build/bench/hostbw-threads.md)"; \
		$(B)/bench/hostbw --size 16M --rounds 1 --threads 2 >$(B)/bench/hostbw-threads.md

CHECK_TARGETS += check-bench
