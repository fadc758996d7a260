// SPDX-License-Identifier: GPL-2.0-or-later
// The fold runs on the BSP only, once per pass, in scratch memory the run
// gives it (report_init).
#include "badram/badram.h"
#include "dram_geometry.h"
#include "errors.h"
#include "hammerhost.h"
#include "log.h"
#include "machcheck.h"
#include "machine.h"
#include "fold_report.h"
#include "run/plan.h"
#include "run/runjson.h"
#include "version.h"
#include "x86/timer.h"

_Static_assert(REPORT_PAGES_MAX * 13 + sizeof(BADRAM_WINDOWS_LIST) <= BADRAM_WINDOWS_LINE_MAX,
	       "the windows: list fits one cmd.exe command");

static void *scratch;
static struct badram_result result;
static bool result_final;	// result is the final report's fold
static bool result_uefi;	// folded in the fold's UEFI mode
static char line[BADRAM_WINDOWS_LINE_MAX + 1];	// the longest line printed here
_Static_assert(sizeof(line) >= BADRAM_LINE_MAX, "line holds every BadRAM line");
static uint64_t pages[REPORT_PAGES_MAX];
static char json[RUNJSON_LINE_MAX];

void report_init(void *scratch_memory)
{
	scratch = scratch_memory;
}

static void print(const char *prefix, int (*format)(char *, size_t, const struct badram_result *))
{
	format(line, sizeof(line), &result);
	log_text(prefix, line);
}

void report_summary(const struct run_status *s, const struct footprint *fp)
{
	uint64_t unprinted = errors_unprinted();

	log_info("summary: %llu errors%s", (unsigned long long)errors_total(),
		 errors_found() ? "" : ", no faults found");
	machcheck_summary();
	if (unprinted)
		log_info("summary: %llu ERROR lines were not printed (errors= caps them; "
			 "raise it to see more)", (unsigned long long)unprinted);
	const struct badram_table *t = errors_table();
	if (!badram_table_empty(t))
		log_info("summary: %llu distinct failing pages recorded%s", (unsigned long long)t->n,
			 t->novf ? "; the table filled up, later pages are covered by coarser "
				   "overflow patterns (none is lost)" : "");
	if (s->tested_bytes < s->usable_bytes)
		log_info("summary: untested: ramsift's own memory 0x%llx-0x%llx and 0x%llx-0x%llx",
			 (unsigned long long)footprint_image(fp).start,
			 (unsigned long long)(footprint_image(fp).end - 1),
			 (unsigned long long)footprint_data(fp).start,
			 (unsigned long long)(footprint_data(fp).end - 1));
}

// The lowest failing pages (at most REPORT_PAGES_MAX) into pages[]; the
// table may not exist yet when an early fault ends the run.
static size_t lowest_pages(void)
{
	const struct badram_table *t = errors_table();

	return t->slot ? badram_table_pages(t, pages, REPORT_PAGES_MAX) : 0;
}

// The lines for ramsift-reserve.efi (badpages.txt's words: the final
// fold's pairs), Windows' boot manager and a running Linux.
static void print_sinks(void)
{
	const struct badram_table *t = errors_table();
	size_t n = lowest_pages(), listed;

	badram_format_badram(line, sizeof(line), &result);
	log_text("efi-reserve: ", line);

	badram_format_windows(line, sizeof(line), pages, n, &listed);
	log_text("windows: ", line);
	log_text("windows: ", BADRAM_WINDOWS_ACCESS);
	for (size_t i = 0; i < n; i++) {
		badram_format_offline(line, sizeof(line), pages[i]);
		log_text("offline: ", line);
	}
	if (t->n > listed || t->novf)
		log_info("summary: the windows: and offline: lines list the lowest %zu failing pages; "
			 "%llu more%s are not listed", listed, (unsigned long long)(t->n - listed),
			 t->novf ? " and those the overflow patterns cover" : "");
}

void report_badram(const struct config *cfg, const struct ram *ram, const char *prefix)
{
	const struct machine *m = machine_get();
	bool uefi = m && m->bi && m->bi->efi;
	struct badram_budget budget = plan_fold_budget(cfg, uefi);
	uint64_t start = timer_ms();

	if (badram_table_empty(errors_table()))
		return;
	result_final = false;
	if (!badram_fold(errors_table(), ram->usable, ram->nusable, budget, scratch, WORK_REPORT_BYTES,
			 &result))
		log_warn("fold: not enough working memory; printing one coarse pattern");
	result_uefi = uefi;
	print(prefix, badram_format_badram);
	print(prefix, badram_format_grub);
	print(prefix, badram_format_memmap);
	print(prefix, badram_format_summary);
	if (uefi)
		log_info("%ssummary: the pairs are folded for GRUB on UEFI (ramsift booted through "
			 "UEFI); GRUB 2.06 on BIOS may skip some of them", prefix);
	else
		log_info("%ssummary: the pairs are folded for GRUB on BIOS and UEFI", prefix);
	log_info("%ssummary: folding took %llu ms", prefix, (unsigned long long)(timer_ms() - start));
	if (*prefix == '\0') {
		print_sinks();
		result_final = true;
	}
}

static const struct bootinfo *boot_info;

void report_boot(const struct bootinfo *bi)
{
	boot_info = bi;
}

void report_json(const struct config *cfg, const struct run_status *s, enum result r,
		 uint64_t now_ms, const struct runjson_nvram *nvram)
{
	const struct machine *m = machine_get();
	const struct badram_table *t = errors_table();
	struct runjson in = {
		.version = RAMSIFT_VERSION,
		.result = r,
		.status = s,
		.elapsed_ms = now_ms,
		.cfg = cfg,
		.seed_known = m != NULL,
		.seed = m ? m->seed : 0,
		.cpus = m ? m->cpus : 0,
		.bi = m ? m->bi : boot_info,
		.pages = pages,
		.npages = lowest_pages(),
		.failing_pages = t->n,
		.pages_lower_bound = t->novf != 0,
		.fold = result_final ? &result : NULL,
		.fold_uefi = result_uefi,
		.smbios = m ? m->smbios : NULL,
		.hypervisor = m ? m->hypervisor : NULL,
		.mce_corrected = machcheck_corrected(),
		.mce_uncorrected = machcheck_uncorrected(),
		.nvram = nvram,
		.dram_status = dram_status(),
		.dram_map = dram_map_learned(),
		.diagnosis = dram_diagnosis(),
		.hammer_only = hammerhost_only(),
		.scratch = line,	// free now: the run is ending
	};

	in.hammered = hammerhost_totals(&in.hammer_rate, &in.hammer_rows);
	if (runjson_render(json, sizeof(json), &in))
		log_text("json: ", json);
}

const struct badram_result *report_last_fold(void)
{
	return result_final ? &result : 0;
}

// GRUB on UEFI cuts each block a pair matches with FreePages + AllocatePages
// (docs/badram.md, "What GRUB and Linux really do with the lines"): a block partly in
// use when badram runs stays usable, and one wholly in use is freed under its
// owner's feet (OVMF scrubs freed pages and GRUB then crashed). GRUB 2.12
// starts Linux through its EFI stub, which decompresses the kernel into
// firmware memory before it reads memmap=. ramsift-reserve.efi takes the
// pages before any of them runs.
void report_uefi_advice(void)
{
	if (badram_table_empty(errors_table()))
		return;
	log_info("summary: UEFI boot: first choice: ramsift-reserve.efi with the efi-reserve: line "
		 "takes the bad pages out of the firmware's map before GRUB runs, for every GRUB and "
		 "OS (docs/badram.md: Before GRUB)");
	log_info("summary: UEFI boot: without it, GRUB's badram cannot cut pages GRUB or the firmware "
		 "already use (they stay usable, or GRUB crashes); for Linux add the memmap= "
		 "line to the kernel command line as well (with GRUB 2.12 memmap= alone fails: "
		 "the kernel's EFI stub unpacks it before reading memmap=; docs/badram.md: On UEFI)");
}
