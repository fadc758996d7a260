// SPDX-License-Identifier: GPL-2.0-or-later
// A fold's result as JSON (see badram.h): one writer for ramsift's json:
// line and ramsift-fold --format json, so both use the same keys.
#include "badram/badram.h"
#include "json.h"

static void number(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

static void flag(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

// A line of format.c as a string (through buf, BADRAM_LINE_MAX bytes), or
// null when nothing failed.
static void line(struct json *j, const char *key, const struct badram_result *r,
		 int (*format)(char *, size_t, const struct badram_result *), char *buf)
{
	json_key(j, key);
	if (r->npairs == 0) {
		json_null(j);
		return;
	}
	format(buf, BADRAM_LINE_MAX, r);
	json_string(j, buf);
}

void badram_json(struct json *j, const struct badram_result *r, const char *mode, char *scratch)
{
	static const char *const limit[] = { "none", "pairs", "holes" };

	json_object_begin(j);
	json_key(j, "mode");
	json_string(j, mode);
	json_key(j, "pairs");
	json_array_begin(j);
	for (unsigned k = 0; k < r->npairs; k++) {
		json_object_begin(j);
		json_key(j, "addr");
		json_hex(j, r->pair[k].addr);
		json_key(j, "mask");
		json_hex(j, r->pair[k].mask);
		json_object_end(j);
	}
	json_array_end(j);
	line(j, "badram", r, badram_format_badram, scratch);
	line(j, "grub", r, badram_format_grub, scratch);
	line(j, "memmap", r, badram_format_memmap, scratch);
	line(j, "summary", r, badram_format_summary, scratch);
	json_key(j, "memmap_ranges");
	json_array_begin(j);
	for (size_t i = 0; i < r->nmemmap; i++) {
		json_object_begin(j);
		json_key(j, "start");
		json_hex(j, r->memmap[i].start);
		json_key(j, "end");
		json_hex(j, r->memmap[i].end);
		json_object_end(j);
	}
	json_array_end(j);
	number(j, "failing_pages", r->failing_pages);
	number(j, "ram_pages", r->ram_pages);
	number(j, "excluded_pages", r->excluded_pages);
	number(j, "sacrificed_pages", r->sacrificed_pages);
	number(j, "holes", r->holes);
	number(j, "exact_holes", r->exact_holes);
	number(j, "memmap_sacrificed_pages", r->memmap_sacrificed);
	number(j, "pairs_budget", r->pairs_budget);
	number(j, "holes_budget", r->holes_budget);
	json_key(j, "limit");
	json_string(j, limit[r->limit <= BADRAM_LIMIT_HOLES ? r->limit : BADRAM_LIMIT_NONE]);
	flag(j, "replace_advised", badram_replace_advised(r));
	flag(j, "grub_bios_safe", r->grub_safe);
	flag(j, "overflow", r->overflow);
	flag(j, "degraded", r->degraded);
	flag(j, "memmap_kaslr", r->memmap_kaslr);
	json_object_end(j);
}
