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

static void number(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

static void string(struct json *j, const char *key, const char *v)
{
	json_key(j, key);
	if (v)
		json_string(j, v);
	else
		json_null(j);
}

static void config(struct json *j, const struct config *cfg)
{
	const struct mt_test *tests[CMDLINE_MAX_TESTS];
	size_t n = plan_tests(cfg, tests, CMDLINE_MAX_TESTS);

	json_key(j, "config");
	json_object_begin(j);
	number(j, "passes", cfg->passes);
	json_key(j, "tests");
	json_array_begin(j);
	for (size_t i = 0; i < n; i++)
		json_string(j, tests[i]->name);
	json_array_end(j);
	string(j, "onexit", cmdline_onexit_name(cfg->onexit));
	number(j, "errors", cfg->error_lines);
	number(j, "bitfade_s", cfg->bitfade_s);
	number(j, "patterns", cfg->patterns);
	number(j, "holes", cfg->holes);
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
	number(j, "count", in->failing_pages);
	json_key(j, "lower_bound");
	json_bool(j, in->pages_lower_bound);
	json_key(j, "listed");
	json_array_begin(j);
	for (size_t i = 0; i < listed; i++)
		json_hex(j, in->pages[i]);
	json_array_end(j);
	number(j, "left_out", in->failing_pages > listed ? in->failing_pages - listed : 0);
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
		string(j, "manufacturer", s->manufacturer);
		string(j, "product", s->product);
		string(j, "version", s->version);
		string(j, "serial", s->serial);
		string(j, "uuid", s->uuid_known ? smbios_uuid_text(uuid, s->uuid) : NULL);
		fmt_snprintf(version, sizeof(version), "%u.%u", s->major, s->minor);
		string(j, "smbios", version);
		string(j, "entry", smbios_from_name(s->from));
		json_object_end(j);
	}
	json_key(j, "dimms");
	json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct smbios_dimm *m = &s->dimm[i];
		json_object_begin(j);
		string(j, "locator", m->locator);
		string(j, "bank", m->bank);
		json_key(j, "installed");
		json_bool(j, m->installed);
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
		string(j, "manufacturer", m->manufacturer);
		string(j, "serial", m->serial);
		string(j, "part_number", m->part_number);
		json_object_end(j);
	}
	json_array_end(j);
	number(j, "dimms_left_out", found ? s->ndimms - n + s->dimms_beyond : 0);
}

static void nvram(struct json *j, const struct runjson_nvram *n)
{
	json_key(j, "nvram");
	if (!n) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "kept");
	json_bool(j, n->kept);
	number(j, "bytes", n->bytes);
	number(j, "pages", n->pages);
	number(j, "ranges", n->ranges);
	json_key(j, "pages_cut");
	json_bool(j, n->pages_cut);
	string(j, "why", n->why);
	json_object_end(j);
}

// The DRAM phase: how it ended, and the map it learned.
static void dram(struct json *j, const struct runjson *in)
{
	const struct dram_map *m = in->dram_map;

	json_key(j, "dram");
	if (!in->dram_status) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	string(j, "status", in->dram_status);
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
	string(j, "shape", dram_shape_name(d->shape));
	json_key(j, "mapped");
	json_bool(j, d->mapped);
	json_key(j, "replace");
	json_bool(j, d->replace);
	number(j, "cells", d->cells);
	number(j, "rows", d->rows);
	number(j, "columns", d->columns);
	number(j, "banks", d->banks);
	dram_diagnosis_format(d, words, sizeof(words));
	string(j, "text", words);
	json_object_end(j);
}

static void render(struct json *j, const struct runjson *in, enum detail d)
{
	const struct bootinfo *bi = in->bi;

	json_object_begin(j);
	number(j, "ramsift_json", RUNJSON_SCHEMA);
	string(j, "version", in->version);
	string(j, "result", status_result_name(in->result));
	number(j, "passes", in->status->passes_done);
	number(j, "errors", in->status->errors);
	number(j, "tested_bytes", in->status->tested_bytes);
	number(j, "usable_bytes", in->status->usable_bytes);
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
		string(j, "firmware", bi ? (bi->efi ? "uefi" : "bios") : NULL);
		json_key(j, "loader");
		if (bi) {
			json_object_begin(j);
			string(j, "name", bi->loader[0] ? bi->loader : NULL);
			string(j, "protocol", bi->protocol == 2 ? "multiboot2" : "multiboot");
			json_object_end(j);
		} else {
			json_null(j);
		}
		string(j, "cmdline", bi ? bi->cmdline : NULL);
		config(j, in->cfg);
		failing_pages(j, in, d);
		json_key(j, "fold");
		if (in->fold)
			badram_json(j, in->fold, in->fold_uefi ? "uefi" : "bios", in->scratch);
		else
			json_null(j);
		machine(j, in->smbios, d);
	}
	json_key(j, "truncated");
	json_bool(j, d != FULL);
	// Added after the first schema's keys, at the end as the contract says.
	string(j, "hypervisor", in->hypervisor);
	number(j, "mce_corrected", in->mce_corrected);
	number(j, "mce_uncorrected", in->mce_uncorrected);
	nvram(j, in->nvram);
	dram(j, in);
	diagnosis(j, in->diagnosis);
	json_key(j, "hammer");
	if (in->hammered) {
		json_object_begin(j);
		number(j, "rate", in->hammer_rate);
		number(j, "rows", in->hammer_rows);
		json_object_end(j);
	} else {
		json_null(j);
	}
	number(j, "hammer_only", in->hammer_only);
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
