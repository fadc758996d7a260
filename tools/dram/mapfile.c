// SPDX-License-Identifier: GPL-2.0-or-later
// The MAP file parser (mapfile.h). Lines are read whole into a bounded
// buffer and split into a keyword and one value; numbers are read with
// strtoull and checked to their end, so "0x1G" or "12abc" never pass.
#include "mapfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram/gf2.h"

#define MAPFILE_LINE_MAX 256

struct parse {
	struct sim_config *cfg;
	unsigned line;
	bool have_row, have_size;
	char *err;
	size_t errlen;
};

static bool bad(struct parse *p, const char *key, const char *val, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "line %u: %s%s%s: ", p->line, key, *val ? " " : "", val);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < p->errlen)
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return false;
}

// An unsigned number in base at s, no sign; *end is where it stops.
static bool number(const char *s, int base, uint64_t *v, const char **end)
{
	char *e;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*v = strtoull(s, &e, base);
	*end = e;
	return errno == 0 && e != s;
}

static bool parse_function(struct parse *p, const char *val)
{
	struct sim_config *c = p->cfg;
	uint64_t m;
	const char *end;
	struct gf2_basis b;

	if (strncmp(val, "0x", 2) || !number(val + 2, 16, &m, &end) || *end)
		return bad(p, "function", val, "not a hexadecimal mask like 0x42000");
	if (!m)
		return bad(p, "function", val, "an empty mask");
	if (c->map.nfuncs == DRAM_MAX_FUNCS)
		return bad(p, "function", val, "more than %d functions", DRAM_MAX_FUNCS);
	gf2_clear(&b);
	for (unsigned i = 0; i < c->map.nfuncs; i++)
		gf2_insert(&b, c->map.funcs[i]);
	if (!gf2_insert(&b, m))
		return bad(p, "function", val, "a combination of the functions before it");
	c->map.funcs[c->map.nfuncs++] = m;
	return true;
}

static bool parse_row(struct parse *p, const char *val)
{
	uint64_t a, b;
	const char *end;

	if (!number(val, 10, &a, &end) || *end != '-' || !number(end + 1, 10, &b, &end) || *end)
		return bad(p, "row", val, "not a bit range like 18-33");
	if (a > b || b > 63)
		return bad(p, "row", val, "needs A <= B <= 63");
	if (p->have_row)
		return bad(p, "row", val, "a second row line");
	p->cfg->map.row_lo = (unsigned)a;
	p->cfg->map.row_hi = (unsigned)b;
	p->have_row = true;
	return true;
}

static bool parse_size(struct parse *p, const char *val)
{
	uint64_t v;
	const char *end;
	unsigned shift = 0;

	if (!number(val, 10, &v, &end))
		return bad(p, "size", val, "not a size like 16G");
	if (*end == 'K' || *end == 'M' || *end == 'G')
		shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
	if (shift)
		end++;
	if (*end)
		return bad(p, "size", val, "not a size like 16G (suffixes K, M, G)");
	if (v == 0 || v > (1ull << 62) >> shift || (v & (v - 1)))
		return bad(p, "size", val, "not a power of two from 1M to 2^62 bytes");
	v <<= shift;
	if (v < (1u << 20))
		return bad(p, "size", val, "not a power of two from 1M to 2^62 bytes");
	if (p->have_size)
		return bad(p, "size", val, "a second size line");
	p->cfg->size = v;
	p->have_size = true;
	return true;
}

// noise, hammer, victims: a decimal number up to max.
static bool parse_count(struct parse *p, const char *key, const char *val, uint64_t max,
			uint64_t *out)
{
	const char *end;

	if (!number(val, 10, out, &end) || *end || *out > max)
		return bad(p, key, val, "not a whole number from 0 to %llu", (unsigned long long)max);
	return true;
}

static bool parse_item(struct parse *p, const char *key, const char *val)
{
	uint64_t v;

	if (!strcmp(key, "function"))
		return parse_function(p, val);
	if (!strcmp(key, "row"))
		return parse_row(p, val);
	if (!strcmp(key, "size"))
		return parse_size(p, val);
	if (!strcmp(key, "noise"))
		return parse_count(p, key, val, 100, &v) && ((p->cfg->noise = (unsigned)v), true);
	if (!strcmp(key, "hammer"))
		return parse_count(p, key, val, UINT32_MAX, &v) && ((p->cfg->hammer = (uint32_t)v), true);
	if (!strcmp(key, "victims"))
		return parse_count(p, key, val, UINT32_MAX, &v) && ((p->cfg->victims = (uint32_t)v), true);
	return bad(p, key, "", "unknown item (function, row, size, noise, hammer, victims)");
}

// One line, comment stripped: blank, or "keyword value".
static bool parse_line(struct parse *p, char *s)
{
	char *key, *val, *extra;

	s[strcspn(s, "#")] = '\0';
	key = strtok(s, " \t\r");
	if (!key)
		return true;
	val = strtok(NULL, " \t\r");
	if (!val)
		return bad(p, key, "", "needs a value");
	extra = strtok(NULL, " \t\r");
	if (extra)
		return bad(p, key, val, "unexpected \"%s\" after the value", extra);
	return parse_item(p, key, val);
}

// The whole model: everything required present and below size.
static bool check_model(struct parse *p)
{
	unsigned top;

	if (!p->cfg->map.nfuncs)
		return snprintf(p->err, p->errlen, "no function line"), false;
	if (!p->have_row)
		return snprintf(p->err, p->errlen, "no row line"), false;
	if (!p->have_size)
		return snprintf(p->err, p->errlen, "no size line"), false;
	top = 63u - (unsigned)__builtin_clzll(p->cfg->size);	// addresses: bits 0..top-1
	for (unsigned i = 0; i < p->cfg->map.nfuncs; i++)
		if (p->cfg->map.funcs[i] >> top)
			return snprintf(p->err, p->errlen,
					"function 0x%llx: uses bits at or above the size's %u",
					(unsigned long long)p->cfg->map.funcs[i], top), false;
	if (p->cfg->map.row_hi >= top)
		return snprintf(p->err, p->errlen, "row %u-%u: bit %u is at or above the size's %u",
				p->cfg->map.row_lo, p->cfg->map.row_hi, p->cfg->map.row_hi, top), false;
	return true;
}

bool mapfile_parse(const char *text, struct sim_config *cfg, char *err, size_t errlen)
{
	struct parse p = { .cfg = cfg, .err = err, .errlen = errlen };
	char buf[MAPFILE_LINE_MAX];

	*cfg = (struct sim_config){ 0 };
	while (*text) {
		size_t n = strcspn(text, "\n");

		p.line++;
		if (n >= sizeof(buf)) {
			snprintf(err, errlen, "line %u: longer than %d characters", p.line,
				 MAPFILE_LINE_MAX - 1);
			return false;
		}
		memcpy(buf, text, n);
		buf[n] = '\0';
		if (!parse_line(&p, buf))
			return false;
		text += n + (text[n] == '\n');
	}
	return check_model(&p);
}
