# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzing: every tests/fuzz/fuzz_NAME.c is one libFuzzer harness (NAME: acpi,
# smbios, multiboot, cmdline, reserve, foldinput, fold, qr, record, usbdesc;
# docs/testing.md, "Fuzzing"), built by the same rules: build/fuzz/fuzz_NAME
# with clang, libFuzzer, ASan and UBSan over lib/ built likewise, and
# build/host/fuzz/replay_NAME with gcc and the host sanitizers around
# tests/fuzz/replay.c's main, which runs the harness once on each file given.
# make fuzz-NAME [FUZZ_SECONDS=60] fuzzes one harness from its committed
# corpus (and tests/fuzz/NAME.dict), keeping finds in build/fuzz/NAME-corpus
# and failing on a crash (build/fuzz/NAME-crash-...); make fuzz runs them
# all; check-fuzz (make check) each for FUZZ_CHECK_SECONDS; check-fuzz-corpus
# (check-host, no clang) replays the corpora; make fuzz-NAME-seeds rewrites
# the acpi, smbios and multiboot seeds from tests/fuzz/NAME-seeds.c.

FUZZ_NAMES := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SEEDERS := $(sort $(patsubst tests/fuzz/%-seeds.c,%,$(wildcard tests/fuzz/*-seeds.c)))
FUZZ_SECONDS ?= 60
FUZZ_CHECK_SECONDS ?= 5

FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -MMD -MP $(FUZZ_SAN) \
	-fsanitize=fuzzer-no-link -Ilib
FUZZ_CFLAGS := $(filter-out -Ilib,$(FUZZ_LIB_CFLAGS)) -iquote lib -fsanitize=fuzzer
REPLAY_CFLAGS := $(filter-out -Ilib,$(HOST_CFLAGS)) -iquote lib

# lib/ as the host build has it: the memory tests over tests/sim's memory.
FUZZ_LIB_OBJS := $(patsubst %,$(B)/fuzz/obj/%.o,$(LIB_SRCS) tests/sim/simmem.c)
$(B)/fuzz/obj/lib/memtest/%: FUZZ_LIB_CFLAGS += -iquote tests/sim
# lib/memstr.c's byte loops as the C library's calls, which ASan checks
# whole: with coverage and UBSan's checks in every step, clearing a struct
# bootinfo (100 KB) took 90 % of a Multiboot run.
$(B)/fuzz/obj/lib/memstr.c.o: FUZZ_LIB_CFLAGS := $(filter-out -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link,\
	$(FUZZ_LIB_CFLAGS)) -O2 -fsanitize=address
# lib/fmt.c compares the characters of constant format strings: hints
# about them lead nowhere, and they took 15 % of an ACPI run (its warnings).
# lib/json.c likewise, each character of a string against the few that need
# escaping (10 % of a fold run: the lines it writes into the JSON object);
# and lib/crc32.c, whose table steps compare nothing of the input (half of
# a record run: the harness takes each input's CRC, the decoder checks it).
$(B)/fuzz/obj/lib/fmt.c.o $(B)/fuzz/obj/lib/json.c.o $(B)/fuzz/obj/lib/crc32.c.o: \
	FUZZ_LIB_CFLAGS += -fno-sanitize-coverage=trace-cmp
$(B)/fuzz/obj/%.c.o: %.c
	$(call say,CLANG,$<)mkdir -p $(@D) && $(FUZZ_CC) $(FUZZ_LIB_CFLAGS) -c $< -o $@
$(B)/fuzz/libramsift.a: $(FUZZ_LIB_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

# The QR harness decodes with zbar. Any payload is valid, so the encoder
# gains nothing from libFuzzer's comparison hints, which cost 70 % of a run
# (the mask scoring's loops).
$(B)/fuzz/fuzz_qr $(B)/host/fuzz/replay_qr: FUZZ_LDLIBS := -lzbar
$(B)/fuzz/fuzz_qr: FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp
$(B)/fuzz/obj/lib/qr/%: FUZZ_LIB_CFLAGS += -fno-sanitize-coverage=trace-cmp
# The fold harness likewise: the fold compares pages and cubes it computes,
# not input bytes, and the hints took 70 % of a run (the merger's heap,
# the harness's page scans).
$(B)/fuzz/fuzz_fold: FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp
$(B)/fuzz/obj/lib/badram/%: FUZZ_LIB_CFLAGS += -fno-sanitize-coverage=trace-cmp

# The ACPI and SMBIOS harnesses' own loops (checksums fixed, the CPU table's
# untouched tail, warnings measured) compare what they computed, not input
# bytes: their hints took a third of a run. lib/boot's keep theirs.
$(B)/fuzz/fuzz_acpi $(B)/fuzz/fuzz_smbios: FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp
# The record harness's checks likewise: the bytes re-encoded, the pages
# matched against the fold's pairs.
$(B)/fuzz/fuzz_record: FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(B)/fuzz/libramsift.a
	$(call say,CLANG,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(B)/fuzz/libramsift.a $(FUZZ_LDLIBS)

$(B)/host/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(REPLAY_CFLAGS) -o $@ \
		$< tests/fuzz/replay.c $(HOST_LINK) $(HOST_LDFLAGS) $(FUZZ_LDLIBS)

$(B)/host/fuzz/%-seeds: tests/fuzz/%-seeds.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		-MMD -MP $(HOST_SAN) -o $@ $<

# The options of one harness's runs: the longest input; for the QR harness no
# leak check (zbar keeps its scanner's results from one run to the next, lib/qr
# allocates nothing).
FUZZ_OPTS_acpi := -max_len=16384
FUZZ_OPTS_smbios := -max_len=8192
FUZZ_OPTS_multiboot := -max_len=8192
FUZZ_OPTS_cmdline := -max_len=4096
FUZZ_OPTS_foldinput := -max_len=4096
FUZZ_OPTS_fold := -max_len=2048
FUZZ_OPTS_qr := -max_len=1024 -detect_leaks=0
FUZZ_OPTS_reserve := -max_len=4096
FUZZ_OPTS_record := -max_len=4100
FUZZ_OPTS_usbdesc := -max_len=1024
# fuzz_run NAME SECONDS: one harness for that long. An input that runs for
# FUZZ_TIMEOUT seconds is a hang and fails like a crash (libFuzzer's
# default, 20 minutes, hid one in parse_mb2).
FUZZ_TIMEOUT ?= 30
fuzz_run = mkdir -p $(B)/fuzz/$(1)-corpus && $(B)/fuzz/fuzz_$(1) -max_total_time=$(2) \
	-timeout=$(FUZZ_TIMEOUT) -print_final_stats=1 $(FUZZ_OPTS_$(1)) $(if $(wildcard tests/fuzz/$(1).dict),-dict=tests/fuzz/$(1).dict) \
	-artifact_prefix=$(B)/fuzz/$(1)- $(B)/fuzz/$(1)-corpus tests/fuzz/corpus/$(1)

FUZZ_RUNS := $(addprefix fuzz-,$(FUZZ_NAMES))
.PHONY: fuzz check-fuzz check-fuzz-corpus $(FUZZ_RUNS) $(addprefix fuzz-,$(addsuffix -seeds,$(FUZZ_SEEDERS)))
$(FUZZ_RUNS): fuzz-%: $(B)/fuzz/fuzz_%
	$(Q)$(call fuzz_run,$*,$(FUZZ_SECONDS))

fuzz: $(addprefix $(B)/fuzz/fuzz_,$(FUZZ_NAMES))
	$(Q)set -e; $(foreach n,$(FUZZ_NAMES),echo "  FUZZ    $(n) $(FUZZ_SECONDS) s"; $(call fuzz_run,$(n),$(FUZZ_SECONDS));)

check-fuzz: $(addprefix $(B)/fuzz/fuzz_,$(FUZZ_NAMES))
	$(Q)set -e; $(foreach n,$(FUZZ_NAMES),echo "  FUZZ    $(n) $(FUZZ_CHECK_SECONDS) s"; \
		$(call fuzz_run,$(n),$(FUZZ_CHECK_SECONDS)) 2>$(B)/fuzz/$(n).log || \
		{ tail -40 $(B)/fuzz/$(n).log; exit 1; };)

$(addprefix fuzz-,$(addsuffix -seeds,$(FUZZ_SEEDERS))): fuzz-%-seeds: $(B)/host/fuzz/%-seeds
	$(Q)mkdir -p tests/fuzz/corpus/$* && $< tests/fuzz/corpus/$*

check-fuzz-corpus: $(addprefix $(B)/host/fuzz/replay_,$(FUZZ_NAMES))
	$(Q)set -e; $(foreach n,$(FUZZ_NAMES),$(B)/host/fuzz/replay_$(n) $(sort $(wildcard tests/fuzz/corpus/$(n)/*));)

HOST_CHECKS += check-fuzz-corpus
CHECK_TARGETS += check-fuzz
