// SPDX-License-Identifier: GPL-2.0-or-later
// build/host/ramsift-mkrecord: NVRAM result records for the tests. It reads
// a description of a run on standard input, one field a line, and writes
// the record lib/record encodes to standard output; options then damage it
// in the ways a hostile or broken writer would, fixing the length and CRC
// so that only the damage meant is left. With --decode it reads a record
// and prints it in the same description language (so a test can diff), or
// the decoder's error and its offset with exit status 1.
//
// usage: ramsift-mkrecord [--efivarfs] [--raw-range 0xS-0xE] [--poke OFF:BYTE]
//                         [--pad N] [--flip OFF] < description > record
//        ramsift-mkrecord --decode [--efivarfs] < record
//
// The description's lines (# starts a comment; missing fields are 0, the
// budget the default, the date and UUID unknown):
//   result PASS|FAIL|ABORTED|STOPPED   passes N   errors N   tested_bytes N
//   usable_bytes N   elapsed_ms N   seed N   version TEXT
//   date YYYY-MM-DD HH:MM:SS|unknown   manufacturer TEXT   product TEXT
//   serial TEXT   uuid 8-4-4-4-12|unknown
//   budget PAIRS HOLES MEMMAP_CHARS [uefi]
//   ram 0xSTART-0xEND (end exclusive; repeatable)   ram_approx
//   page 0xADDR (repeatable, any order)   range 0xSTART-0xEND (its pages)
//   failing_pages N (the fold's count; default: the pages)
//   cut (the page list is incomplete)   pairs 0xA,0xM[,0xA,0xM...] (the fold)
// Numbers are decimal or 0x hex. The options, applied in this order:
// --raw-range appends an unchecked failing range (adding its pages to
// failing_pages), --poke sets one byte, --pad grows the record to N bytes
// (zeros before the CRC; N may pass 4096); each then rewrites the length
// and CRC; --flip inverts one byte afterwards (a corrupt record);
// --efivarfs puts the 4 attribute bytes an efivarfs file starts with
// before the record (and --decode expects them).
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "record/record.h"

#define LINE_MAX_BYTES 4096
#define BUF_MAX (1 << 20)

struct options {
	bool decode, efivarfs;
	bool raw_range, poke, pad, flip;
	struct range raw;
	unsigned long poke_at, poke_value, pad_to, flip_at;
};

struct pages {
	uint64_t *v;
	size_t n, cap;
};

static struct record rec;
static struct badram_result fold;
static uint8_t buf[BUF_MAX];

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "ramsift-mkrecord: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(2);
}

static uint64_t number(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		die("not a number", s);
	return v;
}

static struct range range_of(const char *s)
{
	char text[64];
	char *dash;

	if (strlen(s) >= sizeof(text) || !(dash = strchr(strcpy(text, s), '-')))
		die("not a range START-END", s);
	*dash = '\0';
	return (struct range){ number(text), number(dash + 1) };
}

static void add_page(struct pages *p, uint64_t addr)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->v = realloc(p->v, p->cap * sizeof(*p->v));
		if (!p->v)
			die("out of memory", NULL);
	}
	p->v[p->n++] = addr & ~(uint64_t)(PAGE_SIZE - 1);
}

static int by_address(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

// Sorted, each page once: what record_set_pages takes.
static void sort_pages(struct pages *p)
{
	size_t n = 0;

	if (p->n)
		qsort(p->v, p->n, sizeof(*p->v), by_address);
	for (size_t i = 0; i < p->n; i++)
		if (n == 0 || p->v[i] != p->v[n - 1])
			p->v[n++] = p->v[i];
	p->n = n;
}

static void copy_text(char *out, size_t size, const char *s)
{
	if (strlen(s) >= size)
		die("text too long", s);
	strcpy(out, s);
}

static enum result result_of(const char *s)
{
	for (enum result r = RESULT_PASS; r <= RESULT_STOPPED; r++)
		if (strcmp(s, status_result_name(r)) == 0)
			return r;
	die("not a result", s);
	return RESULT_ABORTED;
}

static void parse_date(const char *s, struct record_date *d)
{
	unsigned y, mo, da, h, mi, se;
	char end;

	if (strcmp(s, "unknown") == 0) {
		*d = (struct record_date){ 0 };
		return;
	}
	if (sscanf(s, "%u-%u-%u %u:%u:%u%c", &y, &mo, &da, &h, &mi, &se, &end) != 6)
		die("not a date YYYY-MM-DD HH:MM:SS", s);
	*d = (struct record_date){ (uint16_t)y, (uint8_t)mo, (uint8_t)da, (uint8_t)h, (uint8_t)mi,
				   (uint8_t)se };
}

static void parse_uuid(const char *s)
{
	size_t n = 0;

	rec.uuid_known = strcmp(s, "unknown") != 0;
	memset(rec.uuid, 0, sizeof(rec.uuid));
	for (const char *c = s; rec.uuid_known && *c; c++) {
		if (*c == '-' && (n == 4 || n == 6 || n == 8 || n == 10) && c[1] != '-')
			continue;
		if (!isxdigit((unsigned char)c[0]) || !isxdigit((unsigned char)c[1]) || n == 16)
			die("not a UUID 8-4-4-4-12", s);
		char hex[3] = { c[0], c[1], '\0' };
		rec.uuid[n++] = (uint8_t)strtoul(hex, NULL, 16);
		c++;
	}
	if (rec.uuid_known && n != 16)
		die("not a UUID 8-4-4-4-12", s);
}

static void parse_budget(const char *s)
{
	unsigned pairs, holes, chars;
	char mode[8] = "";

	int n = sscanf(s, "%u %u %u %7s", &pairs, &holes, &chars, mode);
	if (n < 3 || (n == 4 && strcmp(mode, "uefi") != 0))
		die("not a budget PAIRS HOLES MEMMAP_CHARS [uefi]", s);
	rec.budget = (struct badram_budget){ pairs, holes, chars, n == 4 };
}

static void parse_pairs(char *s)
{
	fold.npairs = 0;
	for (char *item = strtok(s, ","); item; item = strtok(NULL, ",")) {
		char *mask = strtok(NULL, ",");
		if (!mask || fold.npairs == BADRAM_MAX_PAIRS)
			die("not pairs 0xA,0xM,...", item);
		fold.pair[fold.npairs++] = (struct badram_pair){ number(item), number(mask) };
	}
}

struct description {
	struct pages pages;
	struct range ram[RAM_RANGES_MAX];
	size_t nram;
	bool ram_approx, cut, fold_given;
	uint64_t failing_pages;
	bool failing_given;
};

static void parse_line(struct description *d, char *key, char *value)
{
	if (strcmp(key, "result") == 0)
		rec.result = result_of(value);
	else if (strcmp(key, "passes") == 0)
		rec.passes = (uint32_t)number(value);
	else if (strcmp(key, "errors") == 0)
		rec.errors = number(value);
	else if (strcmp(key, "tested_bytes") == 0)
		rec.tested_bytes = number(value);
	else if (strcmp(key, "usable_bytes") == 0)
		rec.usable_bytes = number(value);
	else if (strcmp(key, "elapsed_ms") == 0)
		rec.elapsed_ms = number(value);
	else if (strcmp(key, "seed") == 0)
		rec.seed = number(value);
	else if (strcmp(key, "version") == 0)
		copy_text(rec.version, sizeof(rec.version), value);
	else if (strcmp(key, "date") == 0)
		parse_date(value, &rec.date);
	else if (strcmp(key, "manufacturer") == 0)
		copy_text(rec.manufacturer, sizeof(rec.manufacturer), value);
	else if (strcmp(key, "product") == 0)
		copy_text(rec.product, sizeof(rec.product), value);
	else if (strcmp(key, "serial") == 0)
		copy_text(rec.serial, sizeof(rec.serial), value);
	else if (strcmp(key, "uuid") == 0)
		parse_uuid(value);
	else if (strcmp(key, "budget") == 0)
		parse_budget(value);
	else if (strcmp(key, "ram") == 0 && d->nram < RAM_RANGES_MAX)
		d->ram[d->nram++] = range_of(value);
	else if (strcmp(key, "ram_approx") == 0)
		d->ram_approx = true;
	else if (strcmp(key, "page") == 0)
		add_page(&d->pages, number(value));
	else if (strcmp(key, "range") == 0) {
		struct range r = range_of(value);
		for (uint64_t a = r.start; a < r.end; a += PAGE_SIZE)
			add_page(&d->pages, a);
	} else if (strcmp(key, "failing_pages") == 0) {
		d->failing_pages = number(value);
		d->failing_given = d->fold_given = true;
	} else if (strcmp(key, "cut") == 0)
		d->cut = true;
	else if (strcmp(key, "pairs") == 0) {
		parse_pairs(value);
		d->fold_given = true;
	} else
		die("unknown line", key);
}

static void read_description(void)
{
	static struct description d;
	char line[LINE_MAX_BYTES];

	rec.budget = badram_budget_default();
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		char *value = strchr(line, ' ');
		if (value)
			*value++ = '\0';
		parse_line(&d, line, value ? value : "");
	}
	record_set_ram(&rec, d.ram, d.nram);
	rec.ram_approx |= d.ram_approx;
	sort_pages(&d.pages);
	fold.failing_pages = d.failing_given ? d.failing_pages : d.pages.n;
	record_set_pages(&rec, d.pages.v, d.pages.n, d.cut, d.fold_given ? &fold : NULL);
	free(d.pages.v);
}

// ---- the raw writer: damage that keeps the length and CRC right

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	for (; v >= 0x80; v >>= 7)
		p[n++] = (uint8_t)(v | 0x80);
	p[n++] = (uint8_t)v;
	return n;
}

static void seal(size_t len)
{
	put_le(buf + 8, len, 4);
	put_le(buf + len - 4, crc32(buf, len - 4), 4);
}

// Open a gap of n bytes at offset at in the len-byte record.
static void open_gap(size_t len, size_t at, size_t n)
{
	if (len + n > BUF_MAX)
		die("record too large", NULL);
	memmove(buf + at + n, buf + at, len - at);
}

// The failing range list's count and end: after the fixed part, the
// strings and the RAM list (record_size of the record without its ranges
// and pairs ends with the empty list, the pair count and the CRC).
static size_t append_raw_range(size_t len, struct range raw)
{
	struct record empty = rec;
	uint8_t entry[2 * 10];
	uint64_t prev = rec.nranges ? rec.range[rec.nranges - 1].end : 0;
	size_t n, count_at, end_at;

	empty.nranges = 0;
	empty.npairs = 0;
	count_at = record_size(&empty) - 4 - 1 - 2;
	end_at = len - 4 - 1 - 16 * (size_t)rec.npairs;
	n = put_varint(entry, (raw.start - prev) >> PAGE_SHIFT);
	n += put_varint(entry + n, ((raw.end - raw.start) >> PAGE_SHIFT) - 1);
	open_gap(len, end_at, n);
	memcpy(buf + end_at, entry, n);
	put_le(buf + count_at, get_le(buf + count_at, 2) + 1, 2);
	put_le(buf + 57, rec.failing_pages + ((raw.end - raw.start) >> PAGE_SHIFT), 8);
	return len + n;
}

static size_t damage(size_t len, const struct options *o)
{
	if (o->raw_range)
		len = append_raw_range(len, o->raw);
	if (o->poke) {
		if (o->poke_at >= len - 4)
			die("--poke past the record's CRC", NULL);
		buf[o->poke_at] = (uint8_t)o->poke_value;
	}
	if (o->pad && o->pad_to > len) {
		open_gap(len, len - 4, o->pad_to - len);
		memset(buf + len - 4, 0, o->pad_to - len);
		len = o->pad_to;
	}
	seal(len);
	if (o->flip) {
		if (o->flip_at >= len)
			die("--flip past the record", NULL);
		buf[o->flip_at] ^= 0xff;
	}
	return len;
}

static const uint8_t attributes[4] = { RECORD_ATTRIBUTES, 0, 0, 0 };

static int encode(const struct options *o)
{
	size_t len;

	read_description();
	len = record_encode(&rec, buf, RECORD_MAX_BYTES);
	if (len == 0)
		die("the description is no valid record (see lib/record/record.h)", NULL);
	if (o->raw_range || o->poke || o->pad || o->flip)
		len = damage(len, o);
	if ((o->efivarfs && fwrite(attributes, 1, 4, stdout) != 4) ||
	    fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)
		die("cannot write the record", NULL);
	return 0;
}

// ---- decoding

static void print_range(const char *key, struct range r)
{
	printf("%s 0x%llx-0x%llx\n", key, (unsigned long long)r.start, (unsigned long long)r.end);
}

// "KEY TEXT", or KEY alone for an empty text (no trailing blank).
static void print_text(const char *key, const char *text)
{
	printf("%s%s%s\n", key, *text ? " " : "", text);
}

static void print_record(const struct record *r)
{
	char text[256];

	record_result_line(text, sizeof(text), r);
	printf("# %s\n", text);
	printf("result %s\npasses %u\nerrors %llu\ntested_bytes %llu\nusable_bytes %llu\n",
	       status_result_name(r->result), r->passes, (unsigned long long)r->errors,
	       (unsigned long long)r->tested_bytes, (unsigned long long)r->usable_bytes);
	printf("elapsed_ms %llu\n", (unsigned long long)r->elapsed_ms);
	print_text("version", r->version);
	printf("seed 0x%llx\n", (unsigned long long)r->seed);
	if (record_date_valid(&r->date))
		printf("date %04u-%02u-%02u %02u:%02u:%02u\n", r->date.year, r->date.month,
		       r->date.day, r->date.hour, r->date.minute, r->date.second);
	else
		printf("date unknown\n");
	print_text("manufacturer", r->manufacturer);
	print_text("product", r->product);
	print_text("serial", r->serial);
	printf("uuid %s\n", r->uuid_known ? smbios_uuid_text(text, r->uuid) : "unknown");
	printf("budget %u %u %u%s\n", r->budget.pairs, r->budget.holes, r->budget.memmap_chars,
	       r->budget.uefi_only ? " uefi" : "");
	for (size_t i = 0; i < r->nram; i++)
		print_range("ram", r->ram[i]);
	if (r->ram_approx)
		printf("ram_approx\n");
	printf("failing_pages %llu\n", (unsigned long long)r->failing_pages);
	for (size_t i = 0; i < r->nranges; i++)
		print_range("range", r->range[i]);
	if (r->pages_cut)
		printf("cut\n");
	for (unsigned i = 0; i < r->npairs; i++)
		printf("%s0x%llx,0x%llx%s", i ? "," : "pairs ", (unsigned long long)r->pair[i].addr,
		       (unsigned long long)r->pair[i].mask, i + 1 == r->npairs ? "\n" : "");
}

static int decode(const struct options *o)
{
	size_t len = fread(buf, 1, sizeof(buf), stdin), skip = o->efivarfs ? 4 : 0, at;
	enum record_error e;

	if (ferror(stdin))
		die("cannot read the record", NULL);
	if (len < skip || memcmp(buf, attributes, skip) != 0) {
		printf("bad record: no efivarfs attributes 0x%x\n", RECORD_ATTRIBUTES);
		return 1;
	}
	e = record_decode(&rec, buf + skip, len - skip, &at);
	if (e != RECORD_OK) {
		printf("bad record: %s at offset %zu\n", record_error_text(e), at);
		return 1;
	}
	print_record(&rec);
	return 0;
}

static unsigned long option_number(char **argv, int *i)
{
	if (!argv[*i + 1])
		die("a number must follow", argv[*i]);
	return (unsigned long)number(argv[++*i]);
}

static void parse_options(char **argv, struct options *o)
{
	for (int i = 1; argv[i]; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--decode") == 0)
			o->decode = true;
		else if (strcmp(a, "--efivarfs") == 0)
			o->efivarfs = true;
		else if (strcmp(a, "--flip") == 0)
			o->flip = true, o->flip_at = option_number(argv, &i);
		else if (strcmp(a, "--pad") == 0)
			o->pad = true, o->pad_to = option_number(argv, &i);
		else if (strcmp(a, "--raw-range") == 0 && argv[i + 1])
			o->raw_range = true, o->raw = range_of(argv[++i]);
		else if (strcmp(a, "--poke") == 0 && argv[i + 1]) {
			char *colon = strchr(argv[++i], ':');
			if (!colon)
				die("not --poke OFFSET:BYTE", argv[i]);
			*colon = '\0';
			o->poke = true;
			o->poke_at = (unsigned long)number(argv[i]);
			o->poke_value = (unsigned long)number(colon + 1);
		} else
			die("usage: ramsift-mkrecord [--decode] [--efivarfs] [--raw-range 0xS-0xE] "
			    "[--poke OFF:BYTE] [--pad N] [--flip OFF] (see tests/record/mkrecord.c)", a);
	}
}

int main(int argc, char **argv)
{
	struct options o = { 0 };

	(void)argc;
	parse_options(argv, &o);
	return o.decode ? decode(&o) : encode(&o);
}
