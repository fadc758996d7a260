// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-check: the end-to-end round trip's judge. Reads a fault set (the
// ADDR:BIT:VALUE lines of tests/faults/faultgen.c) and serial logs, and
// checks from first principles, without lib/'s fold code, what ramsift and
// the OS made of the faults, so that a bug in the fold cannot hide itself.
// Every finding is printed; the exit status is 0 when all checks hold, 1
// when one fails, 2 on bad usage or input.
//	ramsift-check found FAULTS LOG [--exact] [--patterns K] [--holes H]
//	ramsift-check roundtrip LOG1 LOG2
//	ramsift-check linux FAULTS LOG [FOUND badram|memmap|both]
// Each mode is described above its cmd_ function; docs/testing.md has the
// round trips that use them.
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logread.h"

static int failures;

__attribute__((format(printf, 1, 2)))
static void fail(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	printf("check: FAILED: ");
	vprintf(f, ap);
	printf("\n");
	va_end(ap);
	failures++;
}
static bool matches(const struct log *l, uint64_t a)
{
	for (size_t k = 0; k < l->npairs; k++)
		if ((a & l->pair[k].mask) == l->pair[k].addr)
			return true;
	return false;
}

// Pages of the usable map the pairs match, how many of them are not in
// failing (good pages sacrificed), and the runs (holes) they form.
static void exclusion(const struct log *l, const struct ranges *ram, const struct vec *failing,
		      uint64_t *pages, uint64_t *good, uint64_t *holes)
{
	*pages = *good = *holes = 0;
	for (size_t i = 0; i < ram->n; i++) {
		bool run = false;
		for (uint64_t p = ram->r[i].start; p < ram->r[i].end; p += PAGE) {
			bool m = matches(l, p);
			*pages += m;
			*good += m && !has(failing, p);
			*holes += m && !run;
			run = m;
		}
	}
}

// A set difference, the first few shown.
static void show_missing(const char *what, const struct vec *a, const struct vec *b)
{
	size_t n = 0;
	for (size_t i = 0; i < a->n; i++)
		if (!has(b, a->v[i]) && n++ < 8)
			printf("check:   %s 0x%" PRIx64 "\n", what, a->v[i]);
	if (n)
		fail("%zu %s", n, what);
}

// found: ramsift's log of a run with FAULTS held: the ERROR addresses are
// exactly the faulty words; the badram= pairs are well formed, at most K
// (default 20), match every faulty word, and exclude and cut into the log's
// usable map exactly what the fold: line says, within H holes (default 48);
// the memmap= ranges hold every faulty page. --exact: no good page may be
// sacrificed.
static int cmd_found(int argc, char **argv)
{
	struct vec words = { 0 }, pages = { 0 };
	struct log l;
	bool exact = false;
	unsigned long long max_pairs = 20, max_holes = 48;

	for (int i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "--exact"))
			exact = true;
		else if (!strcmp(argv[i], "--patterns") && i + 1 < argc)
			max_pairs = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--holes") && i + 1 < argc)
			max_holes = strtoull(argv[++i], NULL, 0);
		else
			die("found: unknown option %s", argv[i]);
	}
	read_faults(argv[2], &words, &pages);
	read_log(argv[3], &l);

	// Every faulty word reported, and nothing else.
	show_missing("faulty words without an ERROR line (missed)", &words, &l.errors);
	show_missing("ERROR addresses that are not faulty (false errors)", &l.errors, &words);

	if (l.nbadram != 1 || l.nmemmap_lines != 1 || !l.have_fold) {
		fail("want one badram=, one memmap= and one fold: line; got %zu, %zu, %d",
		     l.nbadram, l.nmemmap_lines, l.have_fold);
		return 1;
	}
	for (size_t k = 0; k < l.npairs; k++) {
		struct pair p = l.pair[k];
		if (p.mask & (1ull << 63 | (PAGE - 1)) || p.addr & ~p.mask)
			fail("pair %zu 0x%" PRIx64 ",0x%" PRIx64 ": mask has bit 63 or low bits set, "
			     "or addr bits outside the mask", k, p.addr, p.mask);
	}
	if (l.npairs > max_pairs || l.npairs != l.pairs)
		fail("%zu pairs printed, fold: says %llu, budget %llu", l.npairs, l.pairs, max_pairs);
	size_t unmatched = 0;
	for (size_t i = 0; i < words.n; i++)
		if (!matches(&l, words.v[i]) && unmatched++ < 8)
			printf("check:   no pair matches 0x%" PRIx64 "\n", words.v[i]);
	if (unmatched)
		fail("%zu faulty words match no badram pair", unmatched);

	uint64_t excluded, good, holes, failing = 0;
	for (size_t i = 0; i < pages.n; i++)
		failing += in_ranges(&l.usable, pages.v[i]);
	exclusion(&l, &l.usable, &pages, &excluded, &good, &holes);
	if (l.failing != failing || l.excluded != excluded || l.holes != holes ||
	    l.sacrificed != good)
		fail("fold: says failing=%llu excluded=%llu holes=%llu sacrificed=%llu; the pairs "
		     "over the usable map give %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64,
		     l.failing, l.excluded, l.holes, l.sacrificed, failing, excluded, holes, good);
	if (holes > max_holes)
		fail("%" PRIu64 " holes, budget %llu", holes, max_holes);
	if (exact && (good || !l.exact))
		fail("want an exact cover: %" PRIu64 " good pages sacrificed", good);

	size_t uncovered = 0;
	for (size_t i = 0; i < pages.n; i++)
		if (in_ranges(&l.usable, pages.v[i]) && !in_ranges(&l.memmap, pages.v[i]))
			uncovered++;
	if (uncovered)
		fail("%zu faulty pages outside every memmap= range", uncovered);

	printf("check: %zu faulty words on %zu pages, %zu ERROR addresses; %zu pairs, %" PRIu64
	       " holes, %" PRIu64 " pages excluded (%" PRIu64 " good); %zu memmap ranges\n",
	       words.n, pages.n, l.errors.n, l.npairs, holes, excluded, good,
	       l.memmap.n);
	return failures ? 1 : 0;
}

// roundtrip: LOG1 printed the badram= pairs, LOG2 is the run after GRUB
// applied them: its usable map must be LOG1's minus exactly the pages the
// pairs match. Pages the pairs match but LOG2 still has are listed as
// survivors (GRUB skipped them).
static int cmd_roundtrip(char **argv)
{
	struct log l1, l2;
	uint64_t survived = 0, lost = 0, gained = 0, expected = 0;

	read_log(argv[2], &l1);
	read_log(argv[3], &l2);
	if (l1.nbadram != 1)
		die("%s: want one badram= line", argv[2]);
	for (size_t i = 0; i < l1.usable.n; i++)
		for (uint64_t p = l1.usable.r[i].start; p < l1.usable.r[i].end; p += PAGE) {
			bool m = matches(&l1, p), kept = in_ranges(&l2.usable, p);
			expected += m;
			if (m && kept && survived++ < 8)
				printf("check:   page 0x%" PRIx64 " matches a pair but is usable\n", p);
			if (!m && !kept && lost++ < 8)
				printf("check:   page 0x%" PRIx64 " matches no pair but is gone\n", p);
		}
	for (size_t i = 0; i < l2.usable.n; i++)
		for (uint64_t p = l2.usable.r[i].start; p < l2.usable.r[i].end; p += PAGE)
			if (!in_ranges(&l1.usable, p) && gained++ < 8)
				printf("check:   page 0x%" PRIx64 " usable only in the second run\n", p);
	if (survived)
		fail("%" PRIu64 " of %" PRIu64 " pages the pairs match survived in the map",
		     survived, expected);
	if (lost)
		fail("%" PRIu64 " pages no pair matches are missing from the map", lost);
	if (gained)
		fail("%" PRIu64 " pages are usable only in the second run", gained);
	printf("check: %" PRIu64 " pages excluded as the pairs say; map: %zu ranges, then %zu\n",
	       expected - survived, l1.usable.n, l2.usable.n);
	return failures ? 1 : 0;
}

#define LINUX_SLACK_PAGES 256 // 1 MiB

// Pages FOUND had usable and the line keeps, which the kernel lost.
static void ram_kept(const char *found, const char *line, const struct ranges *ram)
{
	struct log l;
	uint64_t kept = 0, lost = 0;

	read_log(found, &l);
	if (strcmp(line, "badram") && strcmp(line, "memmap") && strcmp(line, "both"))
		die("linux: want badram, memmap or both after %s, got %s", found, line);
	bool badram = strcmp(line, "memmap") != 0, memmap = strcmp(line, "badram") != 0;
	for (size_t i = 0; i < l.usable.n; i++)
		for (uint64_t p = l.usable.r[i].start; p < l.usable.r[i].end; p += PAGE) {
			if ((badram && matches(&l, p)) || (memmap && in_ranges(&l.memmap, p)))
				continue;
			kept++;
			if (!in_ranges(ram, p) && lost++ < 8)
				printf("check:   page 0x%" PRIx64 " is not System RAM\n", p);
		}
	if (lost > LINUX_SLACK_PAGES)
		fail("the kernel lost %" PRIu64 " of the %" PRIu64 " pages %s keeps usable",
		     lost, kept, line);
	printf("check: the kernel has all but %" PRIu64 " of the %" PRIu64 " pages %s keeps usable\n",
	       lost, kept, line);
}

// linux: the log of Debian's kernel with tests/linux/init.c: the init ran,
// and no faulty page is System RAM in /proc/iomem or usable in the last e820
// map the kernel printed (if its log kept it: a map of thousands of entries
// overflows its early buffer, and the kernel says it dropped messages).
// With FOUND (the log of the ramsift run that printed the lines) and the
// line the kernel was given (both: badram and memmap=): the kernel also kept
// the rest, every page FOUND had usable that the line does not exclude is
// System RAM, but for at most LINUX_SLACK_PAGES (what the kernel and
// firmware keep for themselves: page 0, its copy of the EFI tables).
static int cmd_linux(int argc, char **argv)
{
	struct vec words = { 0 }, pages = { 0 };
	struct ranges ram = { 0 }, e820 = { 0 };
	bool init = false, dropped = false;
	size_t in_ram = 0, in_e820 = 0;

	read_faults(argv[2], &words, &pages);
	read_linux_log(argv[3], &ram, &e820, &init, &dropped);
	if (!init)
		fail("the kernel did not reach the initramfs");
	if (ram.n == 0)
		fail("no System RAM in /proc/iomem");
	if (e820.n == 0 && !dropped)
		fail("no usable e820 entry in the log");
	if (e820.n == 0 && dropped)
		printf("check: the kernel dropped its e820 map from its log (a map of thousands of "
		       "entries): judged by /proc/iomem alone\n");
	for (size_t i = 0; i < pages.n; i++) {
		if (in_ranges(&ram, pages.v[i]) && in_ram++ < 8)
			printf("check:   faulty page 0x%" PRIx64 " is System RAM\n", pages.v[i]);
		if (in_ranges(&e820, pages.v[i]) && in_e820++ < 8)
			printf("check:   faulty page 0x%" PRIx64 " is usable in e820\n", pages.v[i]);
	}
	if (in_ram)
		fail("%zu faulty pages are System RAM in /proc/iomem", in_ram);
	if (in_e820)
		fail("%zu faulty pages are usable in the kernel's e820 map", in_e820);
	printf("check: %zu faulty pages: %zu in the kernel's %zu System RAM ranges, %zu in its %zu "
	       "usable e820 ranges\n", pages.n, in_ram, ram.n, in_e820, e820.n);
	if (argc == 6)
		ram_kept(argv[4], argv[5], &ram);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "found"))
		return cmd_found(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "roundtrip"))
		return cmd_roundtrip(argv);
	if ((argc == 4 || argc == 6) && !strcmp(argv[1], "linux"))
		return cmd_linux(argc, argv);
	die("usage: ramsift-check found FAULTS LOG [--exact] [--patterns K] [--holes H]\n"
	    "       ramsift-check roundtrip LOG1 LOG2\n"
	    "       ramsift-check linux FAULTS LOG [FOUND badram|memmap|both]");
}
