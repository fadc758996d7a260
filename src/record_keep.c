// SPDX-License-Identifier: GPL-2.0-or-later
// When the result is kept, and what the nvram: lines say (record_keep.h). The
// record and the firmware's arguments are made in the fold's scratch,
// which is free once the final report has been printed.
#include <stdarg.h>

#include "errors.h"
#include "fmt.h"
#include "log.h"
#include "record_keep.h"
#include "run/ram.h"
#include "recheck.h"
#include "record/record.h"
#include "run/keep_plan.h"
#include "fold_report.h"
#include "machine.h"
#include "run/plan.h"
#include "memstr.h"
#include "version.h"
#include "x86/efirt.h"
#include "x86/rtc.h"

// Bytes the store must keep free after the write: Linux refuses to write
// below 5 KiB, and firmware has failed to boot with a full store.
#define KEEP_FREE (16u * 1024)
// The variable's header and name in the store, beyond its data (EDK2's
// authenticated header is 60 bytes; the UCS-2 name 28).
#define STORE_OVERHEAD 128u
#define PAGES_LISTED 8192

// The scratch's layout.
#define AT_EFIRT	0
#define AT_RECORD_BYTES	EFIRT_WORK_BYTES
#define AT_PAGES	(AT_RECORD_BYTES + RECORD_MAX_BYTES)
#define AT_RECORD	(AT_PAGES + PAGES_LISTED * 8)
_Static_assert(AT_RECORD + sizeof(struct record) <= WORK_REPORT_BYTES, "the scratch holds it all");

static struct {
	const struct run_ctx *run;
	const struct bootinfo *bi;
	struct record_date date;
	struct runjson_nvram out;
	bool done;
	char why[LOG_LINE_MAX];
	enum keep_old old;		// what RamsiftResult held when the run began
	struct recheck recheck;		// KEEP_OLD_FAIL: the pages reserved for it
	bool recheck_partial;		// more reserved ranges than recheck holds
	bool get_faulted;		// GetVariable faulted: SetVariable is not called
} nv;

static uint64_t scratch(void)
{
	return footprint_work(nv.run->fp) + WORK_REPORT;
}

// The test hooks test_fault=nvram-*: firmware that OVMF is not.
static void fake_firmware(struct efirt *rt)
{
	uint64_t ud2 = (uint64_t)(uintptr_t)trap_test_ud2;
	uint64_t device_error = (uint64_t)(uintptr_t)trap_test_device_error;

	switch (nv.run->cfg->test_fault) {
	case TEST_FAULT_NVRAM_FAULT:
		rt->set_variable = ud2;
		break;
	case TEST_FAULT_NVRAM_GET_FAULT:
		rt->get_variable = ud2;
		break;
	case TEST_FAULT_NVRAM_SET_ERROR:
		rt->set_variable = device_error;
		break;
	case TEST_FAULT_NVRAM_QUERY_ERROR:
		rt->query_variable_info = device_error;
		break;
	case TEST_FAULT_NVRAM_NO_QUERY:
		rt->query_variable_info = 0;
		break;
	default:
		break;
	}
}

static const char *find_runtime(struct efirt *rt)
{
	if (!nv.bi->efi64 || nv.run->cfg->test_fault == TEST_FAULT_NVRAM_EFI32)
		return "the loader passed a 32-bit EFI system table, which ramsift cannot call";
	const char *why = efirt_find(rt, nv.bi->efi_systab, nv.run->fp->top);
	if (!why)
		fake_firmware(rt);
	return why;
}

static void say_old(const struct record *rec)
{
	char date[40];

	record_date_text(date, sizeof(date), &rec->date);
	if (rec->result == RESULT_PASS) {
		nv.old = KEEP_OLD_PASS;
		log_info("nvram: " RECORD_VAR_NAME " holds PASS of %s", date);
		return;
	}
	nv.old = KEEP_OLD_FAIL;
	nv.recheck_partial = !recheck_from_map(&nv.recheck, nv.bi->mmap, nv.bi->nmmap);
	if (nv.recheck.nranges == 0)
		log_info("nvram: " RECORD_VAR_NAME " holds %llu failing pages of %s, but the memory map "
			 "reserves none of them: ramsift-reserve.efi did not run before the loader "
			 "(docs/badram.md); they are tested like the rest",
			 (unsigned long long)record_listed_pages(rec), date);
	else
		log_info("nvram: " RECORD_VAR_NAME " holds %llu failing pages of %s; the memory map "
			 "reserves %llu pages (type 5), which are tested again after the passes",
			 (unsigned long long)record_listed_pages(rec), date,
			 (unsigned long long)nv.recheck.pages);
}

// What RamsiftResult holds now, read through GetVariable and lib/record.
static void read_old(void)
{
	static const uint8_t guid[16] = RECORD_GUID_BYTES;
	uint8_t *bytes = (uint8_t *)(uintptr_t)(scratch() + AT_RECORD_BYTES);
	struct record *rec = (struct record *)(uintptr_t)(scratch() + AT_RECORD);
	const struct machine *m = machine_get();
	struct efirt rt;
	struct trap_catch k;
	size_t size = 0, at = 0;
	enum record_error e = RECORD_OK;
	const char *why = find_runtime(&rt);

	if (why) {
		log_info("nvram: %s; the result cannot be kept", why);
		return;
	}
	uint64_t status = efirt_get_variable(&rt, RECORD_VAR_NAME, guid, bytes, RECORD_MAX_BYTES, &size,
					     scratch() + AT_EFIRT, &k);
	nv.old = KEEP_OLD_CORRUPT;
	if (k.faulted) {
		log_info("nvram: the firmware's GetVariable faulted (CPU exception %llu, %s, at "
			 "rip=0x%llx); the result cannot be kept: boot with nvram=off",
			 (unsigned long long)k.vector, trap_vector_name(k.vector),
			 (unsigned long long)k.fault_rip);
		nv.old = KEEP_OLD_UNKNOWN;
		nv.get_faulted = true;
	} else if (status == (EFI_ERROR_BIT | 14)) {
		nv.old = KEEP_OLD_NONE;
		log_info("nvram: no " RECORD_VAR_NAME " on this machine yet");
	} else if (status != 0) {
		log_info("nvram: " RECORD_VAR_NAME " cannot be read: GetVariable returned %s (%llu "
			 "bytes); it is replaced at the end", efirt_status_name(status),
			 (unsigned long long)size);
	} else if ((e = record_decode(rec, bytes, size, &at)) != RECORD_OK) {
		log_info("nvram: " RECORD_VAR_NAME " is no record ramsift reads (%s, at byte %zu); it is "
			 "replaced at the end", record_error_text(e), at);
	} else if (!m || !record_same_machine(rec, m->smbios)) {
		nv.old = KEEP_OLD_FOREIGN;
		log_info("nvram: " RECORD_VAR_NAME " was written on another machine (\"%s\" \"%s\" "
			 "serial \"%s\"); it is replaced at the end", rec->manufacturer, rec->product,
			 rec->serial);
	} else {
		say_old(rec);
	}
}

void nvram_init(const struct run_ctx *run, const struct bootinfo *bi)
{
	struct rtc_time t;

	nv.run = run;
	nv.bi = bi;
	if (rtc_read(&t))
		nv.date = (struct record_date){ t.year, t.month, t.day, t.hour, t.minute, t.second };
	if (bi->efi && run->cfg->nvram)
		read_old();
}

// This run's facts, and lib/run/keep_plan's answer.
static enum keep_plan plan(enum result r, const struct run_status *s)
{
	struct keep_facts f = { .set_up = nv.run != NULL };

	if (f.set_up) {
		f.efi = nv.bi->efi;
		f.nvram = nv.run->cfg->nvram;
		f.get_faulted = nv.get_faulted;
		f.old = nv.old;
		f.old_reserved = nv.recheck.nranges > 0;
		f.errors = errors_found();
		f.folded = report_last_fold() != NULL;
	}
	return keep_plan(&f, r, s);
}

bool nvram_will_call(enum result r, const struct run_status *s)
{
	enum keep_plan p = plan(r, s);

	return p == KEEP_WRITE || p == KEEP_RECHECK;
}

__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(nv.why, sizeof(nv.why), fmt, ap);
	va_end(ap);
	nv.out.why = nv.why;
	nv.done = true;
	log_text("nvram: ", nv.why);
}

static struct record *make_record(enum result r, const struct run_status *s, uint64_t now_ms)
{
	struct record *rec = (struct record *)(uintptr_t)(scratch() + AT_RECORD);
	uint64_t *pages = (uint64_t *)(uintptr_t)(scratch() + AT_PAGES);
	const struct machine *m = machine_get();
	const struct badram_table *t = errors_table();
	const struct ram *ram = nv.run->ram;

	mem_set(rec, 0, sizeof(*rec));	// a struct record is too large for a stack copy
	rec->result = r;
	rec->passes = s->passes_done;
	rec->errors = s->errors;
	rec->tested_bytes = s->tested_bytes;
	rec->usable_bytes = s->usable_bytes;
	rec->elapsed_ms = now_ms;
	rec->seed = nv.run->seed;
	rec->date = nv.date;
	rec->budget = plan_fold_budget(nv.run->cfg, true);
	fmt_snprintf(rec->version, sizeof(rec->version), "%s", RAMSIFT_VERSION);
	if (m && m->smbios->status == SMBIOS_FOUND) {
		fmt_snprintf(rec->manufacturer, sizeof(rec->manufacturer), "%s", m->smbios->manufacturer);
		fmt_snprintf(rec->product, sizeof(rec->product), "%s", m->smbios->product);
		fmt_snprintf(rec->serial, sizeof(rec->serial), "%s", m->smbios->serial);
		rec->uuid_known = m->smbios->uuid_known;
		mem_copy(rec->uuid, m->smbios->uuid, sizeof(rec->uuid));
	}
	record_set_ram(rec, ram->usable, ram->nusable);
	size_t n = t->slot ? badram_table_pages(t, pages, PAGES_LISTED) : 0;
	record_set_pages(rec, pages, n, t->n > n || t->novf, report_last_fold());
	return rec;
}

static void say_fault(const char *what, const struct trap_catch *k)
{
	say("the firmware's %s faulted (CPU exception %llu, %s, at rip=0x%llx, cr2=0x%llx); "
	    "nothing kept. Its runtime code may use memory ramsift has tested (docs/badram.md): "
	    "boot this machine with nvram=off, and give the pre-loader the efi-reserve: line",
	    what, (unsigned long long)k->vector, trap_vector_name(k->vector),
	    (unsigned long long)k->fault_rip, (unsigned long long)k->cr2);
}

// QueryVariableInfo: whether the store keeps KEEP_FREE after bytes more.
static bool room_for(const struct efirt *rt, uint64_t bytes)
{
	struct trap_catch k;
	uint64_t info[3];	// the store's size, its bytes free, the largest variable

	if (!rt->query_variable_info) {
		say("the firmware (UEFI revision 0x%x) has no QueryVariableInfo to say how full its "
		    "variable store is; nothing kept, to keep it from filling up", rt->revision);
		return false;
	}
	uint64_t status = efirt_query_variable_info(rt, RECORD_ATTRIBUTES, info,
						    scratch() + AT_EFIRT, &k);
	if (k.faulted) {
		say_fault("QueryVariableInfo", &k);
		return false;
	}
	if (status != 0) {
		say("the firmware's QueryVariableInfo returned %s (0x%llx); nothing kept",
		    efirt_status_name(status), (unsigned long long)status);
		return false;
	}
	if (info[1] < bytes + STORE_OVERHEAD + KEEP_FREE || bytes > info[2]) {
		say("the UEFI variable store has %llu KiB free of %llu KiB; writing %llu bytes would "
		    "leave less than %u KiB, and a full store can keep a PC from booting: nothing "
		    "kept (delete old variables, e.g. ramsift-apply --clear, and run again)",
		    (unsigned long long)(info[1] >> 10), (unsigned long long)(info[0] >> 10),
		    (unsigned long long)bytes, KEEP_FREE >> 10);
		return false;
	}
	return true;
}

static void write_record(enum result r, const struct run_status *s, uint64_t now_ms)
{
	static const uint8_t guid[16] = RECORD_GUID_BYTES;
	const uint8_t *bytes = (const uint8_t *)(uintptr_t)(scratch() + AT_RECORD_BYTES);
	struct efirt rt;
	struct trap_catch k;
	const char *why = find_runtime(&rt);

	if (why) {
		say("%s; nothing kept", why);
		return;
	}
	struct record *rec = make_record(r, s, now_ms);
	size_t n = record_encode(rec, (uint8_t *)bytes, RECORD_MAX_BYTES);
	nv.out = (struct runjson_nvram){ .bytes = n, .pages = record_listed_pages(rec),
					 .ranges = rec->nranges, .pages_cut = rec->pages_cut };
	if (!room_for(&rt, n))
		return;
	log_info("nvram: writing %s to the UEFI variable " RECORD_VAR_NAME ": %zu bytes, %llu pages "
		 "in %zu ranges%s (if ramsift stops here, the firmware hung in SetVariable: boot "
		 "with nvram=off)", r == RESULT_PASS ? "PASS" : "the failing pages", n,
		 (unsigned long long)nv.out.pages, rec->nranges,
		 rec->pages_cut ? ", not all: the fold's pairs cover the rest" : "");
	uint64_t status = efirt_set_variable(&rt, RECORD_VAR_NAME, guid, RECORD_ATTRIBUTES, bytes, n,
					     scratch() + AT_EFIRT, &k);
	nv.out.kept = !k.faulted && status == 0;
	if (k.faulted)
		say_fault("SetVariable", &k);
	else if (status != 0)
		say("the firmware's SetVariable returned %s (0x%llx); nothing kept: give the "
		    "pre-loader the efi-reserve: line instead", efirt_status_name(status),
		    (unsigned long long)status);
	else if (r == RESULT_PASS)
		say("kept PASS in " RECORD_VAR_NAME " (%zu bytes): the machine is healthy, and "
		    "ramsift-reserve.efi reserves nothing from it", n);
	else
		say("kept %llu failing pages in " RECORD_VAR_NAME " (%zu bytes): ramsift-reserve.efi "
		    "reserves them at every boot (docs/badram.md), and ramsift-apply --show prints "
		    "them in Linux", (unsigned long long)nv.out.pages, n);
}

// A PASS after a FAIL record: whether the pages reserved for it fail
// still (then the record stays).
static bool reserved_still_fail(void)
{
	uint64_t first;
	uint64_t reads = recheck_run(&nv.recheck, nv.run->cfg, nv.run->seed, &first);

	if (reads) {
		say("the %llu pages reserved for " RECORD_VAR_NAME " fail again (%llu failing reads, the "
		    "first at 0x%016llx): the record is left as it was, and they stay reserved",
		    (unsigned long long)nv.recheck.pages, (unsigned long long)reads,
		    (unsigned long long)first);
		return true;
	}
	if (nv.recheck_partial) {
		say("the memory map reserves more than %u ranges; not all could be tested again, so "
		    RECORD_VAR_NAME " is left as it was", RECHECK_RANGES_MAX);
		return true;
	}
	log_info("nvram: the %llu pages reserved for " RECORD_VAR_NAME " pass now: the machine is "
		 "healthy", (unsigned long long)nv.recheck.pages);
	return false;
}

void nvram_keep(enum result r, const struct run_status *s, uint64_t now_ms)
{
	switch (plan(r, s)) {
	case KEEP_SILENT:
		return;
	case KEEP_SAY_BIOS:
		say("BIOS boot: there is no UEFI variable store to keep the result in; the lines "
		    "above are the only record");
		return;
	case KEEP_SAY_OFF:
		say("off (nvram=off): the result is not kept in the UEFI variable " RECORD_VAR_NAME);
		return;
	case KEEP_SAY_UNCHANGED:
		say("no error and no complete pass: " RECORD_VAR_NAME " is left as it was");
		return;
	case KEEP_SAY_NO_FOLD:
		say("the run ended before its final report: " RECORD_VAR_NAME " is left as it was");
		return;
	case KEEP_SAY_GET_FAULTED:
		say("the firmware's GetVariable faulted at the start, so SetVariable is not called: "
		    "nothing kept. Boot this machine with nvram=off, and give the pre-loader the "
		    "efi-reserve: line");
		return;
	case KEEP_RECHECK:
		if (reserved_still_fail())
			return;
		write_record(r, s, now_ms);
		return;
	case KEEP_WRITE:
		write_record(r, s, now_ms);
		return;
	}
}

const struct runjson_nvram *nvram_outcome(void)
{
	return nv.done ? &nv.out : NULL;
}
