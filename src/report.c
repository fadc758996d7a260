// SPDX-License-Identifier: GPL-2.0-or-later
// The fold runs on the BSP only, once per pass, in scratch memory the run
// gives it (report_init).
#include "badram/badram.h"
#include "errors.h"
#include "log.h"
#include "report.h"
#include "run.h"
#include "run/plan.h"
#include "x86/timer.h"

static void *scratch;
static struct badram_result result;
static bool folded;	// result holds a fold
static char line[BADRAM_LINE_MAX];

void report_init(void *scratch_memory)
{
	scratch = scratch_memory;
}

static void print(const char *prefix, int (*format)(char *, size_t, const struct badram_result *))
{
	format(line, sizeof(line), &result);
	log_text(prefix, line);
}

void report_summary(const struct footprint *fp, uint64_t usable)
{
	uint64_t unprinted = errors_unprinted();

	log_info("summary: %llu errors%s", (unsigned long long)errors_total(),
		 errors_total() ? "" : ", no faults found");
	if (unprinted)
		log_info("summary: %llu ERROR lines were not printed (errors= caps them; "
			 "raise it to see more)", (unsigned long long)unprinted);
	const struct badram_table *t = errors_table();
	if (!badram_table_empty(t))
		log_info("summary: %llu distinct failing pages recorded%s", (unsigned long long)t->n,
			 t->novf ? "; the table filled up, later pages are covered by coarser "
				   "overflow patterns (none is lost)" : "");
	if (run_status()->tested_bytes < usable)
		log_info("summary: untested: ramsift's own memory 0x%llx-0x%llx and 0x%llx-0x%llx",
			 (unsigned long long)fp->image,
			 (unsigned long long)(fp->image + fp->image_bytes - 1),
			 (unsigned long long)fp->tables,
			 (unsigned long long)(fp->tables + footprint_data_bytes(fp) - 1));
}

void report_badram(const struct config *cfg, const struct ram *ram, const char *prefix)
{
	struct badram_budget budget = plan_fold_budget(cfg);
	uint64_t start = timer_ms();

	if (badram_table_empty(errors_table()))
		return;
	if (!badram_fold(errors_table(), ram->usable, ram->nusable, budget, scratch, REPORT_SCRATCH_BYTES,
			 &result))
		log_warn("fold: not enough working memory; printing one coarse pattern");
	folded = true;
	print(prefix, badram_format_badram);
	print(prefix, badram_format_grub);
	print(prefix, badram_format_memmap);
	print(prefix, badram_format_summary);
	log_info("%ssummary: folding took %llu ms", prefix, (unsigned long long)(timer_ms() - start));
}

const struct badram_result *report_last_fold(void)
{
	return folded ? &result : 0;
}

// GRUB on UEFI cuts each block a pair matches with FreePages + AllocatePages
// (docs/badram.md, "What GRUB and Linux really do with the lines"): a block partly in
// use when badram runs stays usable, and one wholly in use is freed under its
// owner's feet (OVMF scrubs freed pages and GRUB then crashed).
void report_uefi_advice(void)
{
	if (badram_table_empty(errors_table()))
		return;
	log_info("summary: UEFI boot: GRUB's badram cannot cut pages GRUB or the firmware "
		 "already use (they stay usable, or GRUB crashes); for Linux add the memmap= "
		 "line to the kernel command line as well (docs/badram.md: On UEFI)");
}
