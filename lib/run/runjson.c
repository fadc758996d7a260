// SPDX-License-Identifier: GPL-2.0-or-later
// The run's JSON line (see runjson.h), written with lib/json.c; the fold's
// part by lib/badram's own writer, which ramsift-fold shares.
#include "fmt.h"
#include "json.h"
#include "memtest/memtest.h"
#include "run/plan.h"
#include "run/runjson.h"

// How much of the object a rendering holds.
enum detail {
	FULL,		// everything
	NO_LISTS,	// no failing pages listed, no DIMMs
	COUNTERS,	// the result line's counters and the seed only
};

static void config(struct json *j, const struct config *cfg)
{
	const struct mt_test *tests[CMDLINE_MAX_TESTS];
	size_t n = plan_tests(cfg, tests, CMDLINE_MAX_TESTS);

	json_key(j, "config");
	json_object_begin(j);
	json_member_u64(j, "passes", cfg->passes);
	json_key(j, "tests");
	json_array_begin(j);
	for (size_t i = 0; i < n; i++)
		json_string(j, tests[i]->name);
	json_array_end(j);
	json_member_string(j, "onexit", cmdline_onexit_name(cfg->onexit));
	json_member_u64(j, "errors", cfg->error_lines);
	json_member_u64(j, "bitfade_s", cfg->bitfade_s);
	json_member_u64(j, "patterns", cfg->patterns);
	json_member_u64(j, "holes", cfg->holes);
	json_key(j, "seed");
	if (cfg->seed_set)
		json_hex(j, cfg->seed);
	else
		json_null(j);
	json_object_end(j);
}

static void failing_pages(struct json *j, const struct runjson *in, enum detail d)
{
	size_t listed = d == FULL ? in->npages : 0;

	json_key(j, "failing_pages");
	json_object_begin(j);
	json_member_u64(j, "count", in->failing_pages);
	json_member_bool(j, "lower_bound", in->pages_lower_bound);
	json_key(j, "listed");
	json_array_begin(j);
	for (size_t i = 0; i < listed; i++)
		json_hex(j, in->pages[i]);
	json_array_end(j);
	json_member_u64(j, "left_out", in->failing_pages > listed ? in->failing_pages - listed : 0);
	json_object_end(j);
}

static void machine(struct json *j, const struct smbios_info *s, enum detail d)
{
	char uuid[SMBIOS_UUID_LEN], version[8];	// "255.255" at most
	bool found = s && s->status == SMBIOS_FOUND;
	size_t n = found && d == FULL ? s->ndimms : 0;

	json_key(j, "machine");
	if (!found) {
		json_null(j);
	} else {
		json_object_begin(j);
		json_member_string(j, "manufacturer", s->manufacturer);
		json_member_string(j, "product", s->product);
		json_member_string(j, "version", s->version);
		json_member_string(j, "serial", s->serial);
		json_member_string(j, "uuid",
				   s->uuid_known ? smbios_uuid_text(uuid, s->uuid) : NULL);
		fmt_snprintf(version, sizeof(version), "%u.%u", s->major, s->minor);
		json_member_string(j, "smbios", version);
		json_member_string(j, "entry", smbios_from_name(s->from));
		json_object_end(j);
	}
	json_key(j, "dimms");
	json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct smbios_dimm *m = &s->dimm[i];
		json_object_begin(j);
		json_member_string(j, "locator", m->locator);
		json_member_string(j, "bank", m->bank);
		json_member_bool(j, "installed", m->installed);
		json_key(j, "size_mib");
		if (!m->installed || m->size_known)
			json_u64(j, m->size_mib);
		else
			json_null(j);
		json_key(j, "speed_mts");
		if (m->speed_mts)
			json_u64(j, m->speed_mts);
		else
			json_null(j);
		json_member_string(j, "manufacturer", m->manufacturer);
		json_member_string(j, "serial", m->serial);
		json_member_string(j, "part_number", m->part_number);
		json_object_end(j);
	}
	json_array_end(j);
	json_member_u64(j, "dimms_left_out", found ? s->ndimms - n + s->dimms_beyond : 0);
}

static void nvram(struct json *j, const struct runjson_nvram *n)
{
	json_key(j, "nvram");
	if (!n) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_member_bool(j, "kept", n->kept);
	json_member_u64(j, "bytes", n->bytes);
	json_member_u64(j, "pages", n->pages);
	json_member_u64(j, "ranges", n->ranges);
	json_member_bool(j, "pages_cut", n->pages_cut);
	json_member_string(j, "why", n->why);
	json_object_end(j);
}

// The DRAM geometry learning: how it ended, and the map it learned.
static void dram(struct json *j, const struct runjson *in)
{
	const struct dram_map *m = in->dram_map;

	json_key(j, "dram");
	if (!in->dram_status) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_member_string(j, "status", in->dram_status);
	json_key(j, "functions");
	json_array_begin(j);
	for (unsigned i = 0; m && i < m->nfuncs; i++)
		json_hex(j, m->funcs[i]);
	json_array_end(j);
	json_key(j, "row_bits");
	if (m) {
		json_array_begin(j);
		json_u64(j, m->row_lo);
		json_u64(j, m->row_hi);
		json_array_end(j);
	} else {
		json_null(j);
	}
	json_object_end(j);
}

// The diagnosis: line's fields and words.
static void diagnosis(struct json *j, const struct dram_diagnosis *d)
{
	char words[256];

	json_key(j, "diagnosis");
	if (!d) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_member_string(j, "shape", dram_shape_name(d->shape));
	json_member_bool(j, "mapped", d->mapped);
	json_member_bool(j, "replace", d->replace);
	json_member_u64(j, "cells", d->cells);
	json_member_u64(j, "rows", d->rows);
	json_member_u64(j, "columns", d->columns);
	json_member_u64(j, "banks", d->banks);
	dram_diagnosis_format(d, words, sizeof(words));
	json_member_string(j, "text", words);
	json_object_end(j);
}

static void render(struct json *j, const struct runjson *in, enum detail d)
{
	const struct bootinfo *bi = in->bi;

	json_object_begin(j);
	json_member_u64(j, "ramsift_json", RUNJSON_SCHEMA);
	json_member_string(j, "version", in->version);
	json_member_string(j, "result", status_result_name(in->result));
	json_member_u64(j, "passes", in->status->passes_done);
	json_member_u64(j, "errors", in->status->errors);
	json_member_u64(j, "tested_bytes", in->status->tested_bytes);
	json_member_u64(j, "usable_bytes", in->status->usable_bytes);
	json_key(j, "elapsed_s");
	json_ms_as_s(j, in->elapsed_ms);
	json_key(j, "seed");
	if (in->seed_known)
		json_hex(j, in->seed);
	else
		json_null(j);
	if (d != COUNTERS) {
		json_key(j, "cpus");
		if (in->cpus)
			json_u64(j, in->cpus);
		else
			json_null(j);
		json_member_string(j, "firmware", bi ? (bi->efi ? "uefi" : "bios") : NULL);
		json_key(j, "loader");
		if (bi) {
			json_object_begin(j);
			json_member_string(j, "name", bi->loader[0] ? bi->loader : NULL);
			json_member_string(j, "protocol",
					   bi->protocol == 2 ? "multiboot2" : "multiboot");
			json_object_end(j);
		} else {
			json_null(j);
		}
		json_member_string(j, "cmdline", bi ? bi->cmdline : NULL);
		config(j, in->cfg);
		failing_pages(j, in, d);
		json_key(j, "fold");
		if (in->fold)
			badram_json(j, in->fold, in->fold_uefi ? "uefi" : "bios", in->scratch);
		else
			json_null(j);
		machine(j, in->smbios, d);
	}
	json_member_bool(j, "truncated", d != FULL);
	// Added after the first schema's keys, at the end as the contract says.
	json_member_string(j, "hypervisor", in->hypervisor);
	json_member_u64(j, "mce_corrected", in->mce_corrected);
	json_member_u64(j, "mce_uncorrected", in->mce_uncorrected);
	nvram(j, in->nvram);
	dram(j, in);
	diagnosis(j, in->diagnosis);
	json_key(j, "hammer");
	if (in->hammered) {
		json_object_begin(j);
		json_member_u64(j, "rate", in->hammer_rate);
		json_member_u64(j, "rows", in->hammer_rows);
		json_object_end(j);
	} else {
		json_null(j);
	}
	json_member_u64(j, "hammer_only", in->hammer_only);
	json_object_end(j);
}

bool runjson_render(char *buf, size_t len, const struct runjson *in)
{
	struct json j;

	for (enum detail d = FULL; d <= COUNTERS; d++) {
		json_init(&j, buf, len);
		render(&j, in, d);
		if (json_end(&j))
			return true;
	}
	return false;
}
