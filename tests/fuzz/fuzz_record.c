// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of lib/record: arbitrary bytes to record_decode, as they
// are and again with their length and CRC made right (so that mutations
// reach the fields: a CRC-32 is nothing libFuzzer can forge). After each
// decode, what record.h promises is checked (fail.h's FAIL_IF if not): an
// error's offset within the bytes; an accepted record encodes to the same
// bytes (one encoding a record) of record_size's length, lists at most
// RECORD_PAGES_MAX pages, is the machine it names (and no record naming
// nothing is any), and gives its result line and date within their
// lengths. Its pages go into a table of TABLE_SLOTS slots (record_table:
// at most RECORD_PAGES_MAX adds, so overflow is reached); records listing
// at most FOLD_PAGES pages are folded as the pre-loader folds them
// (record_fold) and every listed page must match a pair. Built by clang
// with -fsanitize=fuzzer (make fuzz-record), or by gcc with
// tests/fuzz/replay.c's main (make check-fuzz-corpus).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crc32.h"
#include "record/record.h"
#include "fail.h"

#define TABLE_SLOTS 64
#define FOLD_PAGES 64
#define FOLD_SLOTS 128

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct record rec;
static uint8_t fixed[RECORD_MAX_BYTES], again[RECORD_MAX_BYTES];
static uint64_t slots[FOLD_SLOTS];
static uint8_t scratch[BADRAM_FOLD_SCRATCH_BYTES(FOLD_SLOTS)];
static struct badram_result fold;
static struct smbios_info machine;

static bool matched(const struct badram_result *r, uint64_t a)
{
	for (unsigned k = 0; k < r->npairs; k++)
		if ((a & r->pair[k].mask) == r->pair[k].addr)
			return true;
	return false;
}

static void check_fold(const struct record *r)
{
	bool exact = record_fold(r, slots, FOLD_SLOTS, scratch, sizeof(scratch), &fold);

	FAIL_IF(exact == r->pages_cut);
	FAIL_IF(r->pages_cut && (fold.npairs != r->npairs ||
				 memcmp(fold.pair, r->pair, sizeof(r->pair[0]) * r->npairs) != 0));
	FAIL_IF(!r->pages_cut && fold.npairs > r->budget.pairs);
	for (size_t i = 0; i < r->nranges; i++)
		for (uint64_t a = r->range[i].start; a < r->range[i].end; a += PAGE_SIZE)
			FAIL_IF(!matched(&fold, a));
}

static void check_machine(const struct record *r)
{
	bool names = r->manufacturer[0] || r->product[0] || r->serial[0] || r->uuid_known;

	memset(&machine, 0, sizeof(machine));
	machine.status = SMBIOS_FOUND;
	memcpy(machine.manufacturer, r->manufacturer, sizeof(machine.manufacturer));
	memcpy(machine.product, r->product, sizeof(machine.product));
	memcpy(machine.serial, r->serial, sizeof(machine.serial));
	machine.uuid_known = r->uuid_known;
	memcpy(machine.uuid, r->uuid, sizeof(machine.uuid));
	FAIL_IF(record_same_machine(r, &machine) != names);
	machine.uuid_known = !r->uuid_known;
	FAIL_IF(record_same_machine(r, &machine));
	machine.uuid_known = r->uuid_known;
	machine.status = SMBIOS_NO_TABLE;
	FAIL_IF(record_same_machine(r, &machine));
}

static void check_accepted(const struct record *r, const uint8_t *bytes, size_t len)
{
	static uint64_t table_slots[TABLE_SLOTS];
	struct badram_table t;
	char line[256];
	uint64_t listed = record_listed_pages(r);

	FAIL_IF(record_size(r) != len);
	FAIL_IF(record_encode(r, again, sizeof(again)) != len || memcmp(again, bytes, len) != 0);
	FAIL_IF(record_encode(r, again, len - 1) != 0);
	FAIL_IF(listed > RECORD_PAGES_MAX || listed > r->failing_pages);
	FAIL_IF(r->pages_cut != (r->npairs != 0));
	FAIL_IF(record_result_line(line, sizeof(line), r) >= (int)sizeof(line));
	FAIL_IF(record_date_text(line, sizeof(line), &r->date) >= (int)sizeof(line));
	check_machine(r);
	badram_table_init(&t, table_slots, TABLE_SLOTS);
	FAIL_IF(record_table(r, &t) != (listed <= t.max_n));
	if (listed <= FOLD_PAGES)
		check_fold(r);
}

static void check(const uint8_t *bytes, size_t len)
{
	size_t at = SIZE_MAX;
	enum record_error e = record_decode(&rec, bytes, len, &at);

	if (e == RECORD_OK)
		check_accepted(&rec, bytes, len);
	else
		FAIL_IF(at > len || at > RECORD_MAX_BYTES || e > RECORD_INCONSISTENT);
}

// The input is a record's bytes, decoded as they are; then, when it is
// long enough to have them and not too long, with the length field and
// the CRC rewritten.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t crc;

	check(data, size);
	if (size < RECORD_MIN_BYTES || size > RECORD_MAX_BYTES)
		return 0;
	memcpy(fixed, data, size);
	for (unsigned i = 0; i < 4; i++)
		fixed[8 + i] = (uint8_t)(size >> (8 * i));
	crc = crc32(fixed, size - 4);
	for (unsigned i = 0; i < 4; i++)
		fixed[size - 4 + i] = (uint8_t)(crc >> (8 * i));
	check(fixed, size);
	return 0;
}
