# SPDX-License-Identifier: GPL-2.0-or-later
# lib/record, the UEFI NVRAM result record, from the outside:
# build/host/ramsift-mkrecord writes records from a text description and
# reads them back (tests/record/mkrecord.c), for the tests of the image,
# the pre-loader and ramsift-apply; check-record (tests/record/record-smoke.sh)
# round-trips descriptions through it and holds the decoder to each broken
# record's error. The library's own unit tests run in check-unit, its fuzz
# harness in check-fuzz. Built like the unit tests, with the sanitizers.

$(B)/host/ramsift-mkrecord: tests/record/mkrecord.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(filter-out -Ilib,$(HOST_CFLAGS)) -iquote lib \
		-o $@ $< $(HOST_LINK) $(HOST_LDFLAGS)

.PHONY: check-record
check-record: $(B)/host/ramsift-mkrecord
	$(Q)sh tests/record/record-smoke.sh $<

HOST_CHECKS += check-record

# The fuzz corpus's seeds (tests/fuzz/corpus/record/): one record for each
# description in tests/record/seeds/, rewritten by make fuzz-record-seeds.
.PHONY: fuzz-record-seeds
fuzz-record-seeds: $(B)/host/ramsift-mkrecord
	$(Q)mkdir -p tests/fuzz/corpus/record && set -e; for f in tests/record/seeds/*.txt; do \
		$< <$$f >tests/fuzz/corpus/record/$$(basename $$f .txt); done
