// SPDX-License-Identifier: GPL-2.0-or-later
// Parsing of fault sets and serial logs for ramsift-check (logread.h).
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logread.h"

__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	fprintf(stderr, "ramsift-check: ");
	vfprintf(stderr, f, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static void *grow(void *p, size_t *cap, size_t size)
{
	*cap = *cap ? 2 * *cap : 256;
	p = realloc(p, *cap * size);
	if (!p)
		die("out of memory");
	return p;
}

void push(struct vec *v, uint64_t x)
{
	if (v->n == v->cap)
		v->v = grow(v->v, &v->cap, sizeof(*v->v));
	v->v[v->n++] = x;
}

static void push_range(struct ranges *rs, uint64_t start, uint64_t end)
{
	if (rs->n == rs->cap)
		rs->r = grow(rs->r, &rs->cap, sizeof(*rs->r));
	rs->r[rs->n++] = (struct range){ start, end };
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void sort_unique(struct vec *v)
{
	size_t k = 0;
	qsort(v->v, v->n, sizeof(*v->v), cmp_u64);
	for (size_t i = 0; i < v->n; i++)
		if (k == 0 || v->v[i] != v->v[k - 1])
			v->v[k++] = v->v[i];
	v->n = k;
}

bool has(const struct vec *v, uint64_t x)
{
	return bsearch(&x, v->v, v->n, sizeof(*v->v), cmp_u64) != NULL;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

static void sort_ranges(struct ranges *rs)
{
	qsort(rs->r, rs->n, sizeof(*rs->r), cmp_range);
}

bool in_ranges(const struct ranges *rs, uint64_t a)
{
	size_t lo = 0, hi = rs->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a < rs->r[mid].start)
			hi = mid;
		else if (a >= rs->r[mid].end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

static FILE *open_or_die(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		die("cannot open %s", path);
	return f;
}

void read_faults(const char *path, struct vec *words, struct vec *pages)
{
	FILE *f = open_or_die(path);
	char *line = NULL;
	size_t len = 0;
	while (getline(&line, &len, f) > 0) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		uint64_t a = strtoull(line, NULL, 0);
		push(words, a);
		push(pages, a & ~(PAGE - 1));
	}
	free(line);
	fclose(f);
	sort_unique(words);
	sort_unique(pages);
}


static void parse_badram(char *s, struct log *l)
{
	l->nbadram++;
	l->npairs = 0;
	while (*s && *s != '\n') {
		char *end;
		if (l->npairs == MAX_PAIRS)
			die("more than %d badram pairs", MAX_PAIRS);
		l->pair[l->npairs].addr = strtoull(s, &end, 16);
		if (*end != ',')
			die("badram= line: a pair without a mask");
		l->pair[l->npairs].mask = strtoull(end + 1, &end, 16);
		l->npairs++;
		s = *end == ',' ? end + 1 : end;
	}
}

// memmap=SIZE$ADDR[,...], SIZE with a K, M or G suffix.
static void parse_memmap(char *s, struct log *l)
{
	l->nmemmap_lines++;
	while (*s && *s != '\n') {
		char *end;
		uint64_t size = strtoull(s, &end, 10);
		int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : -1;
		if (shift < 0 || end[1] != '$')
			die("memmap= line: bad SIZE$ADDR at '%.20s'", s);
		uint64_t addr = strtoull(end + 2, &end, 16);
		push_range(&l->memmap, addr, addr + (size << shift));
		s = *end == ',' ? end + 1 : end;
	}
}

void read_log(const char *path, struct log *l)
{
	FILE *f = open_or_die(path);
	char *line = NULL;
	size_t len = 0;
	unsigned long long a, b;
	memset(l, 0, sizeof(*l));
	while (getline(&line, &len, f) > 0) {
		if (sscanf(line, "ERROR addr=%llx ", &a) == 1)
			push(&l->errors, a);
		else if (sscanf(line, "  usable 0x%llx-0x%llx ", &a, &b) == 2)
			push_range(&l->usable, a, b + 1);
		else if (!strncmp(line, "badram=", 7))
			parse_badram(line + 7, l);
		else if (!strncmp(line, "memmap=", 7))
			parse_memmap(line + 7, l);
		else if (sscanf(line, "fold: failing_pages=%llu pairs=%llu holes=%llu excluded_pages=%llu "
				"sacrificed_pages=%llu", &l->failing, &l->pairs, &l->holes, &l->excluded,
				&l->sacrificed) == 5) {
			l->have_fold = true;
			l->exact = strstr(line, "): exact") != NULL;
		}
	}
	free(line);
	fclose(f);
	sort_unique(&l->errors);
	sort_ranges(&l->usable);
	sort_ranges(&l->memmap);
}

void read_linux_log(const char *path, struct ranges *ram, struct ranges *e820, bool *init,
		    bool *dropped)
{
	FILE *f = open_or_die(path);
	char *line = NULL, *p;
	size_t len = 0;
	bool in_iomem = false, user_map = false;
	unsigned long long a, b;
	while (getline(&line, &len, f) > 0) {
		if (strstr(line, "ramsift-init: reached the initramfs"))
			*init = true;
		if (strstr(line, " printk messages dropped **"))
			*dropped = true;
		if (strstr(line, "ramsift-init: begin iomem"))
			in_iomem = true;
		else if (strstr(line, "ramsift-init: end iomem"))
			in_iomem = false;
		else if (in_iomem && sscanf(line, "%llx-%llx : ", &a, &b) == 2 &&
			 strstr(line, ": System RAM"))
			push_range(ram, a, b + 1);
		// The kernel prints the firmware's e820 map, then the final one
		// when memmap= changed it: keep the last map printed.
		if (strstr(line, "user-defined physical RAM map:")) {
			user_map = true;
			e820->n = 0;
		}
		if ((p = strstr(line, user_map ? "user: [mem " : "BIOS-e820: [mem ")) &&
		    sscanf(strchr(p, '[') + 5, "%llx-%llx] ", &a, &b) == 2 &&
		    strstr(p, "] usable"))
			push_range(e820, a, b + 1);
	}
	free(line);
	fclose(f);
	sort_ranges(ram);
	sort_ranges(e820);
}
