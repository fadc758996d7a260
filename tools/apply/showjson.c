// SPDX-License-Identifier: GPL-2.0-or-later
// --json (apply.h): the record as one JSON object (RFC 8259, one line),
// written with lib/json.h, for provisioning systems that collect results.
// Keys the json: line of a run has keep its names and meanings there
// (docs/output-contract.md); "fold" is the object lib/badram writes for it
// and for ramsift-fold --format json. ramsift-apply(8) lists every key.
#include <stdio.h>

#include "apply.h"
#include "json.h"

#define SCHEMA 1
// 2048 page ranges and 256 RAM ranges of about 50 bytes, the fold's object
// (its four lines, 64 pairs, 96 ranges), with room to spare.
#define JSON_MAX (256 * 1024)

static void date(struct json *j, const struct record_date *d)
{
	char iso[32];

	json_key(j, "date");
	if (!record_date_valid(d)) {
		json_null(j);
		return;
	}
	snprintf(iso, sizeof(iso), "%04u-%02u-%02uT%02u:%02u:%02uZ", d->year, d->month, d->day,
		 d->hour, d->minute, d->second);
	json_string(j, iso);
}

static void machine(struct json *j, const struct apply *a, const struct record *r)
{
	char uuid[SMBIOS_UUID_LEN], why[1024];

	json_key(j, "machine");
	json_object_begin(j);
	json_member_string(j, "manufacturer", r->manufacturer);
	json_member_string(j, "product", r->product);
	json_member_string(j, "serial", r->serial);
	json_member_string(j, "uuid", r->uuid_known ? smbios_uuid_text(uuid, r->uuid) : NULL);
	json_object_end(j);
	json_key(j, "this_machine");
	switch (machine_compare(a, r, why, sizeof(why))) {
	case MACHINE_SAME:
		json_bool(j, true);
		break;
	case MACHINE_OTHER:
		json_bool(j, false);
		break;
	case MACHINE_UNKNOWN:
		json_null(j);
		break;
	}
}

static void budget(struct json *j, const struct badram_budget *b)
{
	json_key(j, "budget");
	json_object_begin(j);
	json_member_u64(j, "patterns", b->pairs);
	json_member_u64(j, "holes", b->holes);
	json_member_u64(j, "memmap_chars", b->memmap_chars);
	json_member_bool(j, "uefi_only", b->uefi_only);
	json_object_end(j);
}

static void pages(struct json *j, const struct record *r)
{
	json_key(j, "failing_pages");
	json_object_begin(j);
	json_member_u64(j, "count", r->failing_pages);
	json_member_u64(j, "listed_pages", record_listed_pages(r));
	json_member_bool(j, "cut", r->pages_cut);
	json_member_ranges(j, "ranges", r->range, r->nranges);
	json_object_end(j);
}

static void render(struct json *j, const struct apply *a, const struct record *r,
		   const struct lines *l, char *scratch)
{
	json_object_begin(j);
	json_member_u64(j, "ramsift_record", SCHEMA);
	json_member_u64(j, "record_format", RECORD_FORMAT);
	json_member_string(j, "version", r->version);
	json_member_string(j, "result", status_result_name(r->result));
	json_member_u64(j, "passes", r->passes);
	json_member_u64(j, "errors", r->errors);
	json_member_u64(j, "tested_bytes", r->tested_bytes);
	json_member_u64(j, "usable_bytes", r->usable_bytes);
	json_key(j, "elapsed_s");
	json_ms_as_s(j, r->elapsed_ms);
	json_member_hex(j, "seed", r->seed);
	date(j, &r->date);
	machine(j, a, r);
	budget(j, &r->budget);
	json_key(j, "ram");
	json_object_begin(j);
	json_member_bool(j, "approx", r->ram_approx);
	json_member_ranges(j, "ranges", r->ram, r->nram);
	json_object_end(j);
	pages(j, r);
	json_key(j, "fold");
	if (l->failed)
		badram_json(j, &l->fold, r->budget.uefi_only ? "uefi" : "bios", scratch);
	else
		json_null(j);
	json_member_bool(j, "fold_whole", l->whole);
	json_object_end(j);
}

enum status show_json(const struct apply *a, const struct record *r, const struct lines *l)
{
	static char buf[JSON_MAX], scratch[BADRAM_LINE_MAX];
	struct json j;

	json_init(&j, buf, sizeof(buf));
	render(&j, a, r, l, scratch);
	if (!json_end(&j)) {
		say(LEVEL_ERROR, "the JSON object needs %zu bytes, more than the %d it was given: "
		    "report this as a bug of ramsift-apply", j.n, JSON_MAX);
		return STATUS_FAILED;
	}
	puts(buf);
	return STATUS_OK;
}
