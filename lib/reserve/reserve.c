// SPDX-License-Identifier: GPL-2.0-or-later
// The parser of ramsift-reserve.efi's words and the expansion of a BadRAM
// pair into runs of pages (reserve.h).
#include "reserve/reserve.h"
#include "page.h"
#include "parse.h"
#include "memstr.h"

#define PAGE_MASK (~(uint64_t)(PAGE_SIZE - 1))

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\0';
}

// The length of the comma-separated item at s[0..len).
static size_t item_len(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n] != ',')
		n++;
	return n;
}

static enum reserve_error add_pair(struct reserve_config *c, uint64_t addr, uint64_t mask)
{
	if (addr & ~mask)
		return RESERVE_BAD_PAIR;
	mask &= PAGE_MASK;
	if (mask == 0)
		return RESERVE_ALL_PAGES;
	if (c->npairs == RESERVE_PAIRS_MAX)
		return RESERVE_TOO_MANY;
	c->pair[c->npairs++] = (struct reserve_pair){ addr & mask, mask };
	return RESERVE_OK;
}

// The numbers of a comma-separated list s[0..len), in pairs (badram=) or
// one by one (pages=).
static enum reserve_error parse_list(struct reserve_config *c, const char *s, size_t len, bool pairs)
{
	uint64_t v[2];
	unsigned have = 0, want = pairs ? 2 : 1;
	size_t i = 0;

	for (;;) {
		size_t n = item_len(s + i, len - i);

		if (!parse_u64(s + i, n, &v[have]))
			return RESERVE_BAD_NUMBER;
		if (++have == want) {
			enum reserve_error e = pairs ? add_pair(c, v[0], v[1])
						     : add_pair(c, v[0] & PAGE_MASK, PAGE_MASK);
			if (e != RESERVE_OK)
				return e;
			have = 0;
		}
		i += n;
		if (i == len)
			break;
		i++;	// the comma
	}
	return have ? RESERVE_ODD_PAIRS : RESERVE_OK;
}

static enum reserve_error parse_loader(struct reserve_config *c, const char *s, size_t len)
{
	if (len == 0 || len >= RESERVE_PATH_MAX || s[0] != '\\')
		return RESERVE_BAD_LOADER;
	for (size_t i = 0; i < len; i++)
		c->loader[i] = s[i];
	c->loader[len] = '\0';
	return RESERVE_OK;
}

static enum reserve_error parse_word(struct reserve_config *c, const char *w, size_t n)
{
	static const char badram[] = "badram=", pages[] = "pages=", loader[] = "loader=";

	if (str_eq_n(w, n, "efi-reserve:"))
		return RESERVE_OK;
	if (n >= sizeof(badram) - 1 && str_n_eq(w, badram, sizeof(badram) - 1))
		return parse_list(c, w + sizeof(badram) - 1, n - (sizeof(badram) - 1), true);
	if (n >= sizeof(pages) - 1 && str_n_eq(w, pages, sizeof(pages) - 1))
		return parse_list(c, w + sizeof(pages) - 1, n - (sizeof(pages) - 1), false);
	if (n >= sizeof(loader) - 1 && str_n_eq(w, loader, sizeof(loader) - 1))
		return parse_loader(c, w + sizeof(loader) - 1, n - (sizeof(loader) - 1));
	return RESERVE_UNKNOWN_WORD;
}

// The words of text[0..len) from *i on; skip_name: skip a first word
// without '='.
static enum reserve_error parse(struct reserve_config *c, const char *text, size_t len, size_t *at,
				bool skip_name)
{
	size_t i = 0;

	while (i < len) {
		if (text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (blank(text[i])) {
			i++;
			continue;
		}
		size_t n = 0;
		bool named = false;
		while (i + n < len && !blank(text[i + n]))
			named |= text[i + n++] == '=';
		if (skip_name && !named) {
			skip_name = false;
			i += n;
			continue;
		}
		skip_name = false;
		enum reserve_error e = parse_word(c, text + i, n);
		if (e != RESERVE_OK) {
			*at = i;
			return e;
		}
		i += n;
	}
	return RESERVE_OK;
}

enum reserve_error reserve_parse(struct reserve_config *c, const char *text, size_t len, size_t *at)
{
	return parse(c, text, len, at, false);
}

enum reserve_error reserve_parse_options(struct reserve_config *c, const char *text, size_t len,
					 size_t *at)
{
	return parse(c, text, len, at, true);
}

const char *reserve_error_text(enum reserve_error e)
{
	switch (e) {
	case RESERVE_OK:
		return "no error";
	case RESERVE_UNKNOWN_WORD:
		return "unknown word: want badram=A,M,..., pages=P,..., loader=\\PATH or # comment";
	case RESERVE_BAD_NUMBER:
		return "not a number: write 0x-prefixed hex or decimal, separated by commas";
	case RESERVE_ODD_PAIRS:
		return "badram= ends with an address without its mask: copy the whole line";
	case RESERVE_BAD_PAIR:
		return "a badram= address has bits its mask does not fix: address and mask swapped?";
	case RESERVE_ALL_PAGES:
		return "a badram= mask fixes no bit above 4 KiB: it would match every page";
	case RESERVE_TOO_MANY:
		return "too many pairs and pages (at most 2048)";
	case RESERVE_BAD_LOADER:
		return "loader= needs a path on this partition starting with \\, e.g. "
		       "loader=\\EFI\\debian\\grubx64.efi (under 256 characters)";
	}
	return "unknown error";
}

// The smallest s >= d whose bits are all in free, or false when none fits
// in 64 bits. Above the highest bit of d outside free, s equals d; there it
// must round up to the lowest free bit that d leaves clear.
static bool free_at_least(uint64_t free, uint64_t d, uint64_t *s)
{
	uint64_t fixed = d & ~free;

	if (fixed == 0) {
		*s = d;
		return true;
	}
	int top = 63 - __builtin_clzll(fixed);
	uint64_t above = top == 63 ? 0 : ~(uint64_t)0 << (top + 1);
	uint64_t up = free & ~d & above;
	if (up == 0)
		return false;
	uint64_t q = up & -up;
	*s = (d & ~(q - 1)) | q;
	return true;
}

// The lowest address >= x that p matches, or false when none is.
static bool next_match(const struct reserve_pair *p, uint64_t x, uint64_t *out)
{
	uint64_t s;

	if (x <= p->addr) {
		*out = p->addr;
		return true;
	}
	if (!free_at_least(~p->mask, x - p->addr, &s))
		return false;
	*out = p->addr | s;	// disjoint bits: no carry, no overflow
	return true;
}

uint64_t reserve_runs(const struct reserve_pair *p, uint64_t lo, uint64_t hi, reserve_run_fn fn,
		      void *ctx)
{
	uint64_t chunk = p->mask & -p->mask, x = lo, start, total = 0;

	while (x < hi && next_match(p, x, &start) && start < hi) {
		// The run ends at a chunk's end that the next chunk does not
		// follow; at the top of the address space the sum wraps to 0.
		uint64_t end = (start | (chunk - 1)) + 1, next;
		while (end != 0 && end < hi && next_match(p, end, &next) && next == end)
			end += chunk;
		if (end == 0 || end > hi)
			end = hi;
		fn(ctx, start, end);
		total += end - start;
		x = end;
	}
	return total;
}
