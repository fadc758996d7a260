// SPDX-License-Identifier: GPL-2.0-or-later
// A fold's result as JSON (see badram.h): one writer for ramsift's json:
// line and ramsift-fold --format json, so both use the same keys.
#include "badram/badram.h"
#include "json.h"

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
	json_member_string(j, "mode", mode);
	json_key(j, "pairs");
	json_array_begin(j);
	for (unsigned k = 0; k < r->npairs; k++) {
		json_object_begin(j);
		json_member_hex(j, "addr", r->pair[k].addr);
		json_member_hex(j, "mask", r->pair[k].mask);
		json_object_end(j);
	}
	json_array_end(j);
	line(j, "badram", r, badram_format_badram, scratch);
	line(j, "grub", r, badram_format_grub, scratch);
	line(j, "memmap", r, badram_format_memmap, scratch);
	line(j, "summary", r, badram_format_summary, scratch);
	json_member_ranges(j, "memmap_ranges", r->memmap, r->nmemmap);
	json_member_u64(j, "failing_pages", r->failing_pages);
	json_member_u64(j, "ram_pages", r->ram_pages);
	json_member_u64(j, "excluded_pages", r->excluded_pages);
	json_member_u64(j, "sacrificed_pages", r->sacrificed_pages);
	json_member_u64(j, "holes", r->holes);
	json_member_u64(j, "exact_holes", r->exact_holes);
	json_member_u64(j, "memmap_sacrificed_pages", r->memmap_sacrificed);
	json_member_u64(j, "pairs_budget", r->pairs_budget);
	json_member_u64(j, "holes_budget", r->holes_budget);
	json_member_string(j, "limit",
			   limit[r->limit <= BADRAM_LIMIT_HOLES ? r->limit : BADRAM_LIMIT_NONE]);
	json_member_bool(j, "replace_advised", badram_replace_advised(r));
	json_member_bool(j, "grub_bios_safe", r->grub_safe);
	json_member_bool(j, "overflow", r->overflow);
	json_member_bool(j, "degraded", r->degraded);
	json_member_bool(j, "memmap_kaslr", r->memmap_kaslr);
	json_object_end(j);
}
