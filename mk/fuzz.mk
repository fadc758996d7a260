# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzing the firmware-table parsers: lib/boot/acpi.c through
# tests/fuzz/fuzz_acpi.c, lib/boot/smbios.c through tests/fuzz/fuzz_smbios.c.
# `make fuzz-acpi [FUZZ_TIME=60]` (and fuzz-smbios): libFuzzer (clang, with
# ASan and UBSan) for FUZZ_TIME seconds, starting from the committed corpus
# tests/fuzz/corpus/NAME/ and keeping what it finds in
# build/fuzz/NAME-corpus (a crash is written to build/fuzz/ and fails the
# target); not part of make check, and the only targets here that need clang.
# check-fuzz-corpus: the committed corpora replayed through the same targets
# built with gcc and the host sanitizers, with tests/fuzz/replay.c's main
# (part of check-host, a second at most).
# `make fuzz-acpi-seeds` (fuzz-smbios-seeds) rewrites the corpus's seeds from
# the unit tests' fixtures (tests/fuzz/NAME-seeds.c); copy a new finding by
# hand.

FUZZ_CC ?= clang
# clang is not in tools/deps.sh's list (make check never needs it): say so.
FUZZ_NEED_CC = @command -v $(FUZZ_CC) >/dev/null || { echo "make $@: needs $(FUZZ_CC): apt-get install clang" >&2; exit 1; }
FUZZ_TIME ?= 60
FUZZ_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -Ilib \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_ACPI_SRCS := tests/fuzz/fuzz_acpi.c lib/boot/acpi.c lib/fmt.c lib/string.c
FUZZ_ACPI_CORPUS := $(sort $(wildcard tests/fuzz/corpus/acpi/*))

$(B)/fuzz/fuzz_acpi: $(FUZZ_ACPI_SRCS) $(wildcard lib/*.h lib/boot/*.h)
	$(FUZZ_NEED_CC)
	$(call say,CLANG,$@)mkdir -p $(@D) && $(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_ACPI_SRCS)

$(B)/host/fuzz/replay_acpi: tests/fuzz/fuzz_acpi.c tests/fuzz/replay.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -o $@ \
		tests/fuzz/fuzz_acpi.c tests/fuzz/replay.c $(HOST_LINK) $(HOST_LDFLAGS)

$(B)/host/fuzz/acpi-seeds: tests/fuzz/acpi-seeds.c $(wildcard tests/unit/fixtures/*.h)
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		$(HOST_SAN) -o $@ $<

.PHONY: fuzz-acpi fuzz-acpi-seeds check-fuzz-corpus
fuzz-acpi: $(B)/fuzz/fuzz_acpi
	$(Q)mkdir -p $(B)/fuzz/acpi-corpus
	$(Q)$< -max_total_time=$(FUZZ_TIME) -max_len=16384 -print_final_stats=1 \
		-artifact_prefix=$(B)/fuzz/ $(B)/fuzz/acpi-corpus tests/fuzz/corpus/acpi

fuzz-acpi-seeds: $(B)/host/fuzz/acpi-seeds
	$(Q)mkdir -p tests/fuzz/corpus/acpi && $< tests/fuzz/corpus/acpi

FUZZ_SMBIOS_SRCS := tests/fuzz/fuzz_smbios.c lib/boot/smbios.c lib/fmt.c lib/string.c
FUZZ_SMBIOS_CORPUS := $(sort $(wildcard tests/fuzz/corpus/smbios/*))

$(B)/fuzz/fuzz_smbios: $(FUZZ_SMBIOS_SRCS) $(wildcard lib/*.h lib/boot/*.h)
	$(FUZZ_NEED_CC)
	$(call say,CLANG,$@)mkdir -p $(@D) && $(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SMBIOS_SRCS)

$(B)/host/fuzz/replay_smbios: tests/fuzz/fuzz_smbios.c tests/fuzz/replay.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -o $@ \
		tests/fuzz/fuzz_smbios.c tests/fuzz/replay.c $(HOST_LINK) $(HOST_LDFLAGS)

$(B)/host/fuzz/smbios-seeds: tests/fuzz/smbios-seeds.c $(wildcard tests/unit/fixtures/*.h)
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		$(HOST_SAN) -o $@ $<

.PHONY: fuzz-smbios fuzz-smbios-seeds
fuzz-smbios: $(B)/fuzz/fuzz_smbios
	$(Q)mkdir -p $(B)/fuzz/smbios-corpus
	$(Q)$< -max_total_time=$(FUZZ_TIME) -max_len=8192 -print_final_stats=1 \
		-artifact_prefix=$(B)/fuzz/ $(B)/fuzz/smbios-corpus tests/fuzz/corpus/smbios

fuzz-smbios-seeds: $(B)/host/fuzz/smbios-seeds
	$(Q)mkdir -p tests/fuzz/corpus/smbios && $< tests/fuzz/corpus/smbios

check-fuzz-corpus: $(B)/host/fuzz/replay_acpi $(B)/host/fuzz/replay_smbios
	$(Q)$(B)/host/fuzz/replay_acpi $(FUZZ_ACPI_CORPUS)
	$(Q)$(B)/host/fuzz/replay_smbios $(FUZZ_SMBIOS_CORPUS)

HOST_CHECKS += check-fuzz-corpus
