// SPDX-License-Identifier: GPL-2.0-or-later
// The record's bytes, format 1 (docs/output-contract.md, "The NVRAM
// record", has the table of offsets): the decoder, the encoder and the
// rules both apply, so that record_encode never writes what record_decode
// refuses, and a record that decodes encodes to the same bytes (every
// field has one encoding: minimal LEB128, zeros for an unknown date and
// UUID, no slack).
#include "boot/cmdline.h"	// CMDLINE_MAX_HOLES
#include "crc32.h"
#include "record/record.h"
#include "memstr.h"
#include "record/wire.h"

// Offsets of the fixed part; the strings, lists and pairs follow it.
enum {
	AT_FORMAT = 4, AT_FLAGS = 6, AT_LENGTH = 8, AT_RESULT = 12, AT_PASSES = 13,
	AT_ERRORS = 17, AT_TESTED = 25, AT_USABLE = 33, AT_ELAPSED = 41, AT_SEED = 49,
	AT_FAILING = 57, AT_DATE = 65, AT_UUID_KNOWN = 72, AT_UUID = 73, AT_PAIRS = 89,
	AT_HOLES = 90, AT_MEMMAP = 94, AT_STRINGS = 96,
};
#define CRC_BYTES 4
_Static_assert(AT_STRINGS + 4 + 2 + 2 + 1 + CRC_BYTES == RECORD_MIN_BYTES,
	       "RECORD_MIN_BYTES is the fixed part, four empty strings, two empty lists, no pairs");

enum { FLAG_CUT = 1, FLAG_RAM_APPROX = 2, FLAG_UEFI_ONLY = 4 };
#define FLAGS_KNOWN (FLAG_CUT | FLAG_RAM_APPROX | FLAG_UEFI_ONLY)

#define MAGIC "RSFT"
#define MAX_PAGES (RANGE_MAX_ADDR >> PAGE_SHIFT)
// The bits every fold fixes to 0 (badram.h: from above the top of RAM up
// to bit 62; RAM ends at or below 2^52).
#define PAIR_FIXED_HIGH (((1ull << 63) - 1) & ~(RANGE_MAX_ADDR - 1))
#define VARINT_MAX_BYTES 10

const char *record_error_text(enum record_error e)
{
	switch (e) {
	case RECORD_OK: return "a valid record";
	case RECORD_SHORT: return "the record is cut short";
	case RECORD_TOO_LONG: return "the record is longer than 4096 bytes";
	case RECORD_BAD_MAGIC: return "not a ramsift record (no RSFT)";
	case RECORD_BAD_FORMAT: return "a record format this ramsift does not read";
	case RECORD_BAD_LENGTH: return "the record's length is not its size";
	case RECORD_BAD_CRC: return "the record's CRC does not match: it changed since it was written";
	case RECORD_BAD_FIELD: return "a field holds a value no run writes";
	case RECORD_BAD_RANGE: return "a page range is out of order, empty, beyond 2^52 or too many";
	case RECORD_BAD_PAIR: return "a pair is not one a fold writes";
	case RECORD_INCONSISTENT: return "the record contradicts itself (its result, pages and pairs)";
	}
	return "an unknown error";
}

// ---- the rules, on a struct record

static bool leap(unsigned year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

// The date's bad field as its offset in the date (0 year, 2 month, ...),
// or -1 when it is a date. The unknown date is one.
static int date_bad_field(const struct record_date *d)
{
	static const uint8_t days[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (d->year == 0)
		return d->month ? 2 : d->day ? 3 : d->hour ? 4 : d->minute ? 5 : d->second ? 6 : -1;
	if (d->year > 9999)
		return 0;
	if (d->month < 1 || d->month > 12)
		return 2;
	if (d->day < 1 || d->day > days[d->month - 1] ||
	    (d->month == 2 && d->day == 29 && !leap(d->year)))
		return 3;
	return d->hour > 23 ? 4 : d->minute > 59 ? 5 : d->second > 59 ? 6 : -1;
}

bool record_date_valid(const struct record_date *d)
{
	return d->year != 0 && date_bad_field(d) < 0;
}

// The offset of the budget's bad field, 0 when it is one a run folds with.
static size_t budget_bad(const struct badram_budget *b)
{
	if (b->pairs < 1 || b->pairs > BADRAM_MAX_PAIRS)
		return AT_PAIRS;
	if (b->holes < 1 || b->holes > CMDLINE_MAX_HOLES)
		return AT_HOLES;
	if (b->memmap_chars < BADRAM_MEMMAP_MIN_CHARS || b->memmap_chars > BADRAM_MEMMAP_MAX_CHARS)
		return AT_MEMMAP;
	return 0;
}

// Whether [start, end) (pages) may follow an entry of its list that ended
// at prev (pages), first when none did: sorted, disjoint, not touching,
// not empty, below 2^52.
static bool range_follows(uint64_t prev, bool first, uint64_t start, uint64_t end)
{
	return start >= prev + !first && start < end && end <= MAX_PAGES;
}

static bool pair_valid(struct badram_pair p)
{
	return (p.addr & ~p.mask) == 0 && (p.mask & (PAGE_SIZE - 1)) == 0 &&
	       (p.mask & PAIR_FIXED_HIGH) == PAIR_FIXED_HIGH && (p.mask >> 63) == 0;
}

uint64_t record_listed_pages(const struct record *r)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < r->nranges; i++)
		pages += (r->range[i].end - r->range[i].start) >> PAGE_SHIFT;
	return pages;
}

// Where the variable fields lie, to name the one a rule between fields
// blames.
struct places {
	size_t ram, ranges, pairs;
};

// The rules between fields: the offset of the field to blame, 0 when r
// keeps them.
static size_t inconsistent(const struct record *r, const struct places *at)
{
	uint64_t listed = record_listed_pages(r);

	if (r->result == RESULT_PASS && r->errors != 0)
		return AT_ERRORS;
	if (r->result == RESULT_PASS && r->pages_cut)
		return AT_FLAGS;
	if (r->result == RESULT_PASS && r->nranges != 0)
		return at->ranges;
	if (r->pages_cut != (r->npairs != 0))
		return at->pairs;
	if (r->result == RESULT_FAIL && r->nranges == 0 && r->npairs == 0)
		return at->ranges;
	if (r->failing_pages < listed || (!r->pages_cut && r->failing_pages != listed))
		return AT_FAILING;
	if (r->ram_approx && r->nram != 1)
		return at->ram;
	return 0;
}

// ---- decoding

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

// The variable part of a record being read, up to its CRC, and the first
// error met.
struct reader {
	const uint8_t *p;
	size_t pos, end;
	enum record_error err;
	size_t at;
};

static bool fail(struct reader *rd, enum record_error e, size_t at)
{
	rd->err = e;
	rd->at = at;
	return false;
}

static bool take(struct reader *rd, unsigned n, uint64_t *v)
{
	if (rd->end - rd->pos < n)
		return fail(rd, RECORD_SHORT, rd->end);
	*v = le(rd->p + rd->pos, n);
	rd->pos += n;
	return true;
}

// An unsigned LEB128 number of at most 64 bits in its shortest form.
static bool take_varint(struct reader *rd, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned i = 0;; i++) {
		if (rd->pos == rd->end)
			return fail(rd, RECORD_SHORT, rd->end);
		uint8_t b = rd->p[rd->pos];
		// The tenth byte holds bit 63 alone; a last byte of 0 after the
		// first is a longer form of a shorter number.
		if ((i == VARINT_MAX_BYTES - 1 && b > 1) || (i > 0 && b == 0))
			return fail(rd, RECORD_BAD_FIELD, rd->pos);
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		rd->pos++;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
}

static bool take_string(struct reader *rd, char *out, size_t max)
{
	size_t at = rd->pos;
	uint64_t n;

	if (!take(rd, 1, &n))
		return false;
	if (n > max)
		return fail(rd, RECORD_BAD_FIELD, at);
	if (rd->end - rd->pos < n)
		return fail(rd, RECORD_SHORT, rd->end);
	for (size_t i = 0; i < n; i++) {
		out[i] = (char)rd->p[rd->pos + i];
		if (out[i] == '\0')
			return fail(rd, RECORD_BAD_FIELD, rd->pos + i);
	}
	out[n] = '\0';
	rd->pos += n;
	return true;
}

// A range list into out[0..max): a count, then each entry's gap and length.
static bool take_ranges(struct reader *rd, struct range *out, size_t max, size_t *n,
			uint64_t pages_max)
{
	size_t at = rd->pos;
	uint64_t count, prev = 0, pages = 0;

	if (!take(rd, 2, &count))
		return false;
	if (count > max)
		return fail(rd, RECORD_BAD_FIELD, at);
	for (size_t i = 0; i < count; i++) {
		uint64_t gap, extra;

		at = rd->pos;
		if (!take_varint(rd, &gap) || !take_varint(rd, &extra))
			return false;
		if (gap > MAX_PAGES || extra >= MAX_PAGES)
			return fail(rd, RECORD_BAD_RANGE, at);
		uint64_t start = prev + gap, end = start + extra + 1;
		pages += end - start;
		if (!range_follows(prev, i == 0, start, end) || pages > pages_max)
			return fail(rd, RECORD_BAD_RANGE, at);
		out[i] = (struct range){ start << PAGE_SHIFT, end << PAGE_SHIFT };
		prev = end;
	}
	*n = count;
	return true;
}

static bool take_pairs(struct reader *rd, struct record *r)
{
	size_t at = rd->pos;
	uint64_t n;

	if (!take(rd, 1, &n))
		return false;
	if (n > BADRAM_MAX_PAIRS)
		return fail(rd, RECORD_BAD_FIELD, at);
	for (unsigned i = 0; i < n; i++) {
		at = rd->pos;
		if (!take(rd, 8, &r->pair[i].addr) || !take(rd, 8, &r->pair[i].mask))
			return false;
		if (!pair_valid(r->pair[i]))
			return fail(rd, RECORD_BAD_PAIR, at);
	}
	r->npairs = (unsigned)n;
	return true;
}

// The magic, format, length and CRC: what says these bytes are a record.
static enum record_error check_frame(const uint8_t *p, size_t len, size_t *at)
{
	if (len > RECORD_MAX_BYTES) {
		*at = RECORD_MAX_BYTES;
		return RECORD_TOO_LONG;
	}
	for (size_t i = 0; i < 4; i++) {
		*at = i;
		if (i == len)
			return RECORD_SHORT;
		if (p[i] != (uint8_t)MAGIC[i])
			return RECORD_BAD_MAGIC;
	}
	*at = len;
	if (len < AT_LENGTH + 4)
		return RECORD_SHORT;
	*at = AT_FORMAT;
	if (le(p + AT_FORMAT, 2) != RECORD_FORMAT)
		return RECORD_BAD_FORMAT;
	*at = AT_LENGTH;
	if (le(p + AT_LENGTH, 4) != len)
		return RECORD_BAD_LENGTH;
	*at = len;
	if (len < RECORD_MIN_BYTES)
		return RECORD_SHORT;
	*at = len - CRC_BYTES;
	if (crc32(p, len - CRC_BYTES) != le(p + len - CRC_BYTES, CRC_BYTES))
		return RECORD_BAD_CRC;
	return RECORD_OK;
}

// The fixed part, whose every byte lies before the CRC (len is at least
// RECORD_MIN_BYTES): the offset of a bad field, or 0.
static size_t read_fixed(struct record *r, const uint8_t *p)
{
	uint64_t flags = le(p + AT_FLAGS, 2);
	int date;

	if (flags & ~(uint64_t)FLAGS_KNOWN)
		return AT_FLAGS;
	if (p[AT_RESULT] > RESULT_STOPPED)
		return AT_RESULT;
	r->pages_cut = flags & FLAG_CUT;
	r->ram_approx = flags & FLAG_RAM_APPROX;
	r->budget.uefi_only = flags & FLAG_UEFI_ONLY;
	r->result = (enum result)p[AT_RESULT];
	r->passes = (uint32_t)le(p + AT_PASSES, 4);
	r->errors = le(p + AT_ERRORS, 8);
	r->tested_bytes = le(p + AT_TESTED, 8);
	r->usable_bytes = le(p + AT_USABLE, 8);
	r->elapsed_ms = le(p + AT_ELAPSED, 8);
	r->seed = le(p + AT_SEED, 8);
	r->failing_pages = le(p + AT_FAILING, 8);
	r->date = (struct record_date){ (uint16_t)le(p + AT_DATE, 2), p[AT_DATE + 2], p[AT_DATE + 3],
					p[AT_DATE + 4], p[AT_DATE + 5], p[AT_DATE + 6] };
	date = date_bad_field(&r->date);
	if (date >= 0)
		return AT_DATE + (size_t)date;
	if (p[AT_UUID_KNOWN] > 1)
		return AT_UUID_KNOWN;
	r->uuid_known = p[AT_UUID_KNOWN];
	for (size_t i = 0; i < sizeof(r->uuid); i++) {
		r->uuid[i] = p[AT_UUID + i];
		if (!r->uuid_known && r->uuid[i])
			return AT_UUID + i;
	}
	r->budget.pairs = p[AT_PAIRS];
	r->budget.holes = (unsigned)le(p + AT_HOLES, 4);
	r->budget.memmap_chars = (unsigned)le(p + AT_MEMMAP, 2);
	return budget_bad(&r->budget);
}

static bool read_variable(struct reader *rd, struct record *r, struct places *at)
{
	if (!take_string(rd, r->version, RECORD_VERSION_MAX) ||
	    !take_string(rd, r->manufacturer, SMBIOS_STRING_MAX) ||
	    !take_string(rd, r->product, SMBIOS_STRING_MAX) ||
	    !take_string(rd, r->serial, SMBIOS_STRING_MAX))
		return false;
	at->ram = rd->pos;
	if (!take_ranges(rd, r->ram, RECORD_RAM_MAX, &r->nram, MAX_PAGES))
		return false;
	at->ranges = rd->pos;
	if (!take_ranges(rd, r->range, RECORD_RANGES_MAX, &r->nranges, RECORD_PAGES_MAX))
		return false;
	at->pairs = rd->pos;
	if (!take_pairs(rd, r))
		return false;
	if (rd->pos != rd->end)
		return fail(rd, RECORD_BAD_LENGTH, rd->pos);
	return true;
}

enum record_error record_decode(struct record *r, const void *buf, size_t len, size_t *at)
{
	const uint8_t *p = buf;
	enum record_error e = check_frame(p, len, at);
	struct reader rd = { p, AT_STRINGS, len - CRC_BYTES, RECORD_OK, 0 };
	struct places places;

	if (e != RECORD_OK)
		return e;
	*at = read_fixed(r, p);
	if (*at)
		return RECORD_BAD_FIELD;
	if (!read_variable(&rd, r, &places)) {
		*at = rd.at;
		return rd.err;
	}
	*at = inconsistent(r, &places);
	return *at ? RECORD_INCONSISTENT : RECORD_OK;
}

// ---- encoding

// The bytes of s written: at most max, up to its NUL.
static size_t text_len(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

static size_t varint_bytes(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

size_t wire_range_bytes(uint64_t prev_end, struct range r)
{
	return varint_bytes((r.start - prev_end) >> PAGE_SHIFT) +
	       varint_bytes(((r.end - r.start) >> PAGE_SHIFT) - 1);
}

static size_t list_bytes(const struct range *v, size_t n)
{
	size_t bytes = 2;
	uint64_t prev = 0;

	for (size_t i = 0; i < n; i++) {
		bytes += wire_range_bytes(prev, v[i]);
		prev = v[i].end;
	}
	return bytes;
}

size_t record_size(const struct record *r)
{
	return AT_STRINGS + 4 + text_len(r->version, RECORD_VERSION_MAX) +
	       text_len(r->manufacturer, SMBIOS_STRING_MAX) + text_len(r->product, SMBIOS_STRING_MAX) +
	       text_len(r->serial, SMBIOS_STRING_MAX) + list_bytes(r->ram, r->nram) +
	       list_bytes(r->range, r->nranges) + 1 + WIRE_PAIR_BYTES * (size_t)r->npairs + CRC_BYTES;
}

static bool list_valid(const struct range *v, size_t n, size_t max, uint64_t pages_max)
{
	uint64_t prev = 0, pages = 0;

	if (n > max)
		return false;
	for (size_t i = 0; i < n; i++) {
		uint64_t start = v[i].start >> PAGE_SHIFT, end = v[i].end >> PAGE_SHIFT;

		if ((v[i].start | v[i].end) & (PAGE_SIZE - 1) || !range_follows(prev, i == 0, start, end))
			return false;
		pages += end - start;
		prev = end;
	}
	return pages <= pages_max;
}

// Whether record_decode would take r back: the rules that are not a
// matter of how a field is written.
static bool encodable(const struct record *r)
{
	static const struct places anywhere = { 1, 1, 1 };	// only whether matters

	if ((unsigned)r->result > RESULT_STOPPED || budget_bad(&r->budget) ||
	    !list_valid(r->ram, r->nram, RECORD_RAM_MAX, MAX_PAGES) ||
	    !list_valid(r->range, r->nranges, RECORD_RANGES_MAX, RECORD_PAGES_MAX) ||
	    r->npairs > BADRAM_MAX_PAIRS)
		return false;
	for (unsigned i = 0; i < r->npairs; i++)
		if (!pair_valid(r->pair[i]))
			return false;
	return !inconsistent(r, &anywhere);
}

struct writer {
	uint8_t *p;
	size_t pos;
};

static void put(struct writer *w, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		w->p[w->pos++] = (uint8_t)(v >> (8 * i));
}

static void put_varint(struct writer *w, uint64_t v)
{
	while (v >= 0x80) {
		w->p[w->pos++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	w->p[w->pos++] = (uint8_t)v;
}

static void put_string(struct writer *w, const char *s, size_t max)
{
	size_t n = text_len(s, max);

	put(w, n, 1);
	mem_copy(w->p + w->pos, s, n);
	w->pos += n;
}

static void put_list(struct writer *w, const struct range *v, size_t n)
{
	uint64_t prev = 0;

	put(w, n, 2);
	for (size_t i = 0; i < n; i++) {
		put_varint(w, (v[i].start - prev) >> PAGE_SHIFT);
		put_varint(w, ((v[i].end - v[i].start) >> PAGE_SHIFT) - 1);
		prev = v[i].end;
	}
}

static void put_date(struct writer *w, const struct record_date *d)
{
	static const struct record_date unknown;

	if (!record_date_valid(d))
		d = &unknown;
	put(w, d->year, 2);
	put(w, d->month, 1);
	put(w, d->day, 1);
	put(w, d->hour, 1);
	put(w, d->minute, 1);
	put(w, d->second, 1);
}

static void put_fixed(struct writer *w, const struct record *r, size_t len)
{
	mem_copy(w->p, MAGIC, 4);
	w->pos = 4;
	put(w, RECORD_FORMAT, 2);
	put(w, (r->pages_cut ? FLAG_CUT : 0) | (r->ram_approx ? FLAG_RAM_APPROX : 0) |
		       (r->budget.uefi_only ? FLAG_UEFI_ONLY : 0), 2);
	put(w, len, 4);
	put(w, r->result, 1);
	put(w, r->passes, 4);
	put(w, r->errors, 8);
	put(w, r->tested_bytes, 8);
	put(w, r->usable_bytes, 8);
	put(w, r->elapsed_ms, 8);
	put(w, r->seed, 8);
	put(w, r->failing_pages, 8);
	put_date(w, &r->date);
	put(w, r->uuid_known, 1);
	for (size_t i = 0; i < sizeof(r->uuid); i++)
		put(w, r->uuid_known ? r->uuid[i] : 0, 1);
	put(w, r->budget.pairs, 1);
	put(w, r->budget.holes, 4);
	put(w, r->budget.memmap_chars, 2);
}

size_t record_encode(const struct record *r, uint8_t *buf, size_t cap)
{
	size_t len = record_size(r);
	struct writer w = { buf, 0 };

	if (len > cap || len > RECORD_MAX_BYTES || !encodable(r))
		return 0;
	put_fixed(&w, r, len);
	put_string(&w, r->version, RECORD_VERSION_MAX);
	put_string(&w, r->manufacturer, SMBIOS_STRING_MAX);
	put_string(&w, r->product, SMBIOS_STRING_MAX);
	put_string(&w, r->serial, SMBIOS_STRING_MAX);
	put_list(&w, r->ram, r->nram);
	put_list(&w, r->range, r->nranges);
	put(&w, r->npairs, 1);
	for (unsigned i = 0; i < r->npairs; i++) {
		put(&w, r->pair[i].addr, 8);
		put(&w, r->pair[i].mask, 8);
	}
	put(&w, crc32(buf, w.pos), CRC_BYTES);
	return w.pos;
}
