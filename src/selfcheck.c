// SPDX-License-Identifier: GPL-2.0-or-later
// The self-check (see selfcheck.h). Per-page CRCs name the page without
// keeping a copy of the code; within a page, lib/crc32's search names the
// byte when one byte changed (a stuck or flipped bit, the usual fault).
#include "crc32.h"
#include "errors.h"
#include "log.h"
#include "page.h"
#include "panic.h"
#include "fold_report.h"
#include "selfcheck.h"
#include "x86/layout.h"

// 2 MiB of code and read-only data: far more than ramsift has.
#define SELFCHECK_PAGES_MAX 512

// boot/link.ld.S: .text starts, .rodata ends before .data, both on pages.
extern const char kernel_text_start[], kernel_data_start[];

static uint32_t crc[SELFCHECK_PAGES_MAX];
static size_t npages;

static const char *page_at(size_t i)
{
	return kernel_text_start + i * PAGE_SIZE;
}

void selfcheck_init(void)
{
	npages = (size_t)(kernel_data_start - kernel_text_start) / PAGE_SIZE;
	if (npages > SELFCHECK_PAGES_MAX)
		panic("self-check: %zu pages of code and read-only data, more than the %u "
		      "it has room for (src/selfcheck.c)", npages, SELFCHECK_PAGES_MAX);
	for (size_t i = 0; i < npages; i++)
		crc[i] = crc32(page_at(i), PAGE_SIZE);
}

// Physical address of p, a byte of the image, where the image is now.
static uint64_t phys(const struct footprint *fp, const char *p)
{
	return fp->image + (uint64_t)((uintptr_t)p - KERNEL_VMA);
}

// Report page i, which no longer has its CRC, and record it.
static void report(const struct footprint *fp, size_t i, const char *after)
{
	const char *p = page_at(i);
	uint64_t page = phys(fp, p);
	size_t at = 0;
	uint8_t was = 0;
	bool one = crc32_find_byte(p, PAGE_SIZE, crc[i], &at, &was);

	log_error("ramsift's own code changed in memory at 0x%016llx: the RAM holding it is faulty",
		  (unsigned long long)(page + at));
	if (one)
		log_error("self-check: after %s, the byte at 0x%016llx reads 0x%02x, was 0x%02x; its "
			  "page 0x%016llx-0x%016llx is recorded as failing", after,
			  (unsigned long long)(page + at), (unsigned char)p[at], was,
			  (unsigned long long)page, (unsigned long long)(page + PAGE_SIZE - 1));
	else
		log_error("self-check: after %s, more than one byte of the page 0x%016llx-0x%016llx "
			  "changed; it is recorded as failing", after, (unsigned long long)page,
			  (unsigned long long)(page + PAGE_SIZE - 1));
	errors_record_page(page);
}

void selfcheck_verify(const struct run_ctx *run, const char *after)
{
	const struct footprint *fp = run->fp;
	size_t changed = 0;

	for (size_t i = 0; i < npages; i++) {
		if (crc32(page_at(i), PAGE_SIZE) == crc[i])
			continue;
		if (changed++ == 0)
			report(fp, i, after);
		else
			errors_record_page(phys(fp, page_at(i)));
	}
	if (changed == 0)
		return;
	log_error("self-check: %zu of the %zu pages of ramsift's code and read-only data "
		  "(0x%016llx-0x%016llx) changed; ramsift stopped, as its results can no longer be "
		  "trusted: exclude the pages below and test again", changed, npages,
		  (unsigned long long)phys(fp, kernel_text_start),
		  (unsigned long long)(phys(fp, kernel_data_start) - 1));
	report_badram(run->cfg, run->ram, "");
	panic_end();
}
