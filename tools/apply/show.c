// SPDX-License-Identifier: GPL-2.0-or-later
// --show (apply.h): the record as text. The run's result line, its date
// and seed, the machine, the failing pages as ranges, and the BadRAM lines
// the run printed, folded again from the pages; what the lines lack, and a
// record of another machine, said on standard error.
#include <inttypes.h>
#include <stdio.h>

#include "apply.h"

static void show_machine(const struct apply *a, const struct record *r)
{
	char self[1024], rec[1024];

	machine_describe(rec, sizeof(rec), r->manufacturer, r->product, r->serial, r->uuid_known,
			 r->uuid);
	printf("machine: %s\n", rec);
	switch (machine_compare(a, r, self, sizeof(self))) {
	case MACHINE_SAME:
		break;
	case MACHINE_OTHER:
		say(LEVEL_WARNING, "the record was written on another machine: this one is %s; "
		    "--install, --offline and --install-preloader refuse it", self);
		break;
	case MACHINE_UNKNOWN:
		say(LEVEL_NOTICE, "%s: cannot tell whether the record is this machine's", self);
		break;
	}
}

static void show_pages(const struct record *r)
{
	uint64_t listed = record_listed_pages(r);

	printf("failing pages: %" PRIu64, r->failing_pages);
	if (r->pages_cut)
		printf(", %" PRIu64 " of them listed, in %zu ranges (the record had no room for the "
		       "rest; the pairs below cover them all)\n", listed, r->nranges);
	else
		printf(", in %zu range%s\n", r->nranges, r->nranges == 1 ? "" : "s");
	for (size_t i = 0; i < r->nranges; i++) {
		uint64_t pages = (r->range[i].end - r->range[i].start) / PAGE_SIZE;
		printf("pages: 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64 " page%s)\n", r->range[i].start,
		       r->range[i].end - 1, pages, pages == 1 ? "" : "s");
	}
}

static void show_lines(const struct record *r, const struct lines *l)
{
	if (!l->failed)
		return;
	printf("%s\n%s\n", l->badram, l->grub);
	if (l->memmap)
		printf("%s\n", l->memmap_line);
	if (l->whole)
		printf("%s\n", l->summary);
	else
		say(LEVEL_NOTICE, "no memmap= and fold: lines: the record lists not every failing "
		    "page, and a memmap= line of the listed ones would leave the others in use; the "
		    "run's log has the run's own (GRUB_BADRAM covers every page)");
	if (r->ram_approx)
		say(LEVEL_NOTICE, "the run's RAM had more than %d ranges: the lines are folded against "
		    "one range spanning it, and may differ from the run's (they still cover every "
		    "failing page)", RECORD_RAM_MAX);
}

enum status show_text(const struct apply *a, const struct record *r, const struct lines *l)
{
	char line[256];

	record_result_line(line, sizeof(line), r);
	printf("%s\n", line);
	record_date_text(line, sizeof(line), &r->date);
	printf("date: %s\n", line);
	printf("seed: 0x%" PRIx64 "\n", r->seed);
	show_machine(a, r);
	show_pages(r);
	show_lines(r, l);
	return STATUS_OK;
}
