// SPDX-License-Identifier: GPL-2.0-or-later
// --offline (apply.h): the record's pages out of the running system now,
// as the run's offline: lines do, each page's address written to
// /sys/devices/system/memory/hard_offline_page (docs/badram.md, "Windows
// and a running Linux"). Until the next boot only: --install lasts.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"

struct tally {
	uint64_t taken, already, outside, busy, failed;
	int first_error;	// of the failed ones
	uint64_t first_failed;
};

// Write page to path: 0, or the errno the kernel answered with.
static int offline_one(const char *path, uint64_t page)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "0x%" PRIx64 "\n", page);
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	int err = write(fd, text, (size_t)n) == n ? 0 : errno;
	close(fd);
	return err;
}

static void count(struct tally *t, int err, uint64_t page)
{
	switch (err) {
	case 0:
		t->taken++;
		break;
	case EHWPOISON:		// poisoned already: by an earlier run of this, or the hardware
		t->already++;
		break;
	case ENXIO:		// memory_failure: "memory outside kernel control"
		t->outside++;
		break;
	case EBUSY:
		t->busy++;
		break;
	default:
		if (t->failed++ == 0) {
			t->first_error = err;
			t->first_failed = page;
		}
	}
}

// Whether this boot's command line has the record's memmap= line: then the
// kernel reserved the pages at boot and has none of them to take.
static bool booted_with(const struct apply *a, const struct lines *l)
{
	static char cmdline[8192];
	char path[APPLY_PATH_MAX];
	size_t n = strlen(l->memmap_line);

	apply_path(a, PATH_CMDLINE, path);
	if (!l->memmap || read_file(path, cmdline, sizeof(cmdline)) < 0)
		return false;
	for (const char *p = strstr(cmdline, l->memmap_line); p; p = strstr(p + 1, l->memmap_line))
		if ((p == cmdline || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static void report(const struct tally *t, const char *path, const struct record *r)
{
	say(LEVEL_NOTICE, "%" PRIu64 " pages taken out of use now, %" PRIu64 " were already, %"
	    PRIu64 " are not the kernel's to take (outside the memory it manages: excluded at boot, "
	    "or not RAM), %" PRIu64 " busy (memory the kernel itself uses: --install keeps it off "
	    "them from the next boot)", t->taken, t->already, t->outside, t->busy);
	if (t->failed)
		say(LEVEL_ERROR, "%" PRIu64 " pages could not be taken, the first 0x%" PRIx64 ": %s: %s",
		    t->failed, t->first_failed, path, strerror(t->first_error));
	if (r->pages_cut)
		say(LEVEL_WARNING, "the record lists %" PRIu64 " of the %" PRIu64 " failing pages, and "
		    "only those were taken: --install excludes every one from the next boot",
		    record_listed_pages(r), r->failing_pages);
}

// A kernel that cannot offline anything, said; false then.
static bool can_offline(const char *path, int err)
{
	if (err == ENOENT)
		say(LEVEL_ERROR, "no %s: this kernel cannot take pages out of use while it runs (it "
		    "needs CONFIG_MEMORY_FAILURE): use --install, which works from the next boot", path);
	else if (err == EACCES || err == EPERM)
		say(LEVEL_ERROR, "%s: %s: run as root", path, strerror(err));
	return err != ENOENT && err != EACCES && err != EPERM;
}

enum status offline_pages(const struct apply *a, const struct record *r, const struct lines *l)
{
	char path[APPLY_PATH_MAX];
	struct tally t = { 0 };
	enum status st;

	if (!record_failed(r)) {
		say(LEVEL_NOTICE, "the record says %s: no failing page to take out of use",
		    status_result_name(r->result));
		return STATUS_OK;
	}
	if ((st = machine_guard(a, r, "--offline")) != STATUS_OK)
		return st;
	if (booted_with(a, l)) {
		say(LEVEL_NOTICE, "this boot's command line has the record's memmap= line: the kernel "
		    "reserved the failing pages at boot, none is left to take");
		return STATUS_OK;
	}
	apply_path(a, BADRAM_OFFLINE_FILE, path);
	for (size_t i = 0; i < r->nranges; i++)
		for (uint64_t p = r->range[i].start; p < r->range[i].end; p += PAGE_SIZE) {
			int err = offline_one(path, p);
			if (t.taken + t.already + t.outside + t.busy + t.failed == 0 && !can_offline(path, err))
				return STATUS_FAILED;
			count(&t, err, p);
		}
	report(&t, path, r);
	return t.failed || t.busy ? STATUS_FAILED : STATUS_OK;
}
