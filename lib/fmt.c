// SPDX-License-Identifier: GPL-2.0-or-later
// The printf subset declared in fmt.h. One pass over the format string: runs
// of literal text go to the sink in one call, each conversion is parsed into
// a struct spec, then printed as [sign/prefix][zeros][digits or text] with
// padding on the side the flags ask for. No floating point, no allocation, no
// static mutable state (several CPUs may format at once).
#include <stdbool.h>

#include "fmt.h"
#include "memstr.h"

struct out {
	fmt_sink sink;
	void *ctx;
	size_t count;
};

struct spec {
	bool left;      // '-': pad on the right
	bool zero;      // '0': pad with zeros after the sign/prefix
	bool plus;      // '+': '+' before non-negative signed values
	bool space;     // ' ': ' ' before non-negative signed values
	bool alt;       // '#': 0x/0X before non-zero hex
	size_t width;
	bool has_prec;
	size_t prec;
	char len;       // 'H' hh, 'h', 'l', 'L' ll, 'z', 'j', 't', or 0
};

// Width and precision are clamped here; asking for more padding than this is
// a caller bug, and the clamp keeps the output count from wrapping.
#define FMT_MAX_FIELD (1u << 20)

static void emit(struct out *o, const char *s, size_t n)
{
	if (n == 0)
		return;
	o->sink(o->ctx, s, n);
	o->count += n;
}

static void emit_repeat(struct out *o, char c, size_t n)
{
	char chunk[32];

	mem_set(chunk, c, sizeof(chunk));
	while (n > 0) {
		size_t k = n < sizeof(chunk) ? n : sizeof(chunk);

		emit(o, chunk, k);
		n -= k;
	}
}

// Print [prefix][zeros][body] padded to spec->width.
static void emit_field(struct out *o, const struct spec *sp, const char *prefix,
		       size_t prefix_len, size_t zeros, const char *body,
		       size_t body_len)
{
	size_t len = prefix_len + zeros + body_len;
	size_t pad = sp->width > len ? sp->width - len : 0;

	if (!sp->left && !sp->zero)
		emit_repeat(o, ' ', pad);
	emit(o, prefix, prefix_len);
	if (!sp->left && sp->zero)
		emit_repeat(o, '0', pad);
	emit_repeat(o, '0', zeros);
	emit(o, body, body_len);
	if (sp->left)
		emit_repeat(o, ' ', pad);
}

// Digits of v in base 10 or 16 written to the end of buf[24]; returns the
// first digit. Value 0 yields "0" (the caller drops it for precision 0).
static char *utoa(char *end, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;

	do {
		*--p = digits[v % base];
		v /= base;
	} while (v != 0);
	return p;
}

static void emit_int(struct out *o, struct spec sp, uint64_t mag, bool neg,
		     bool is_signed, unsigned base, bool upper, bool is_ptr)
{
	char buf[24];
	char prefix[2];
	size_t prefix_len = 0;
	char *end = buf + sizeof(buf);
	char *digits = utoa(end, mag, base, upper);
	size_t ndigits = (size_t)(end - digits);
	size_t zeros = 0;

	if (sp.has_prec) {
		// C99 7.19.6.1: with a precision the '0' flag is ignored, and
		// precision 0 with value 0 prints no digits.
		sp.zero = false;
		if (mag == 0 && sp.prec == 0)
			ndigits = 0;
		if (sp.prec > ndigits)
			zeros = sp.prec - ndigits;
	}
	if (sp.left)
		sp.zero = false;

	if (is_signed) {
		if (neg)
			prefix[prefix_len++] = '-';
		else if (sp.plus)
			prefix[prefix_len++] = '+';
		else if (sp.space)
			prefix[prefix_len++] = ' ';
	} else if (is_ptr || (sp.alt && base == 16 && mag != 0)) {
		prefix[prefix_len++] = '0';
		prefix[prefix_len++] = upper ? 'X' : 'x';
	}
	emit_field(o, &sp, prefix, prefix_len, zeros, end - ndigits, ndigits);
}

static void emit_str(struct out *o, struct spec sp, const char *s)
{
	size_t n = 0;

	if (s == NULL)
		s = "(null)";
	// Never read past the precision: the string need not be terminated.
	while ((!sp.has_prec || n < sp.prec) && s[n] != '\0')
		n++;
	sp.zero = false;
	emit_field(o, &sp, NULL, 0, 0, s, n);
}

// Read a decimal field, saturating at FMT_MAX_FIELD.
static size_t parse_field(const char **pp)
{
	const char *p = *pp;
	size_t v = 0;

	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (size_t)(*p - '0');
		if (v > FMT_MAX_FIELD)
			v = FMT_MAX_FIELD;
		p++;
	}
	*pp = p;
	return v;
}

static size_t clamp_field(int v)
{
	unsigned long m = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;

	return m > FMT_MAX_FIELD ? FMT_MAX_FIELD : (size_t)m;
}

static int64_t arg_signed(char len, va_list *ap)
{
	switch (len) {
	case 'H':
		return (signed char)va_arg(*ap, int);
	case 'h':
		return (short)va_arg(*ap, int);
	case 'l':
		return va_arg(*ap, long);
	case 'L':
		return va_arg(*ap, long long);
	case 'z':
	case 't':
		// ssize_t and ptrdiff_t: both the signed type of pointer width.
		return va_arg(*ap, ptrdiff_t);
	case 'j':
		return va_arg(*ap, intmax_t);
	default:
		return va_arg(*ap, int);
	}
}

static uint64_t arg_unsigned(char len, va_list *ap)
{
	switch (len) {
	case 'H':
		return (unsigned char)va_arg(*ap, unsigned int);
	case 'h':
		return (unsigned short)va_arg(*ap, unsigned int);
	case 'l':
		return va_arg(*ap, unsigned long);
	case 'L':
		return va_arg(*ap, unsigned long long);
	case 'z':
		return va_arg(*ap, size_t);
	case 't':
		return (uint64_t)va_arg(*ap, ptrdiff_t);
	case 'j':
		return va_arg(*ap, uintmax_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

// Parse flags, width, precision and length after a '%'; *pp is left on the
// conversion character.
static struct spec parse_spec(const char **pp, va_list *ap)
{
	struct spec sp = { 0 };
	const char *p = *pp;

	for (;; p++) {
		if (*p == '-')
			sp.left = true;
		else if (*p == '0')
			sp.zero = true;
		else if (*p == '+')
			sp.plus = true;
		else if (*p == ' ')
			sp.space = true;
		else if (*p == '#')
			sp.alt = true;
		else
			break;
	}
	if (*p == '*') {
		int w = va_arg(*ap, int);

		if (w < 0)
			sp.left = true;
		sp.width = clamp_field(w);
		p++;
	} else {
		sp.width = parse_field(&p);
	}
	if (*p == '.') {
		p++;
		sp.has_prec = true;
		if (*p == '*') {
			int pr = va_arg(*ap, int);

			sp.has_prec = pr >= 0;
			sp.prec = pr >= 0 ? clamp_field(pr) : 0;
			p++;
		} else {
			sp.prec = parse_field(&p);
		}
	}
	if (p[0] == 'h' && p[1] == 'h') {
		sp.len = 'H';
		p += 2;
	} else if (p[0] == 'l' && p[1] == 'l') {
		sp.len = 'L';
		p += 2;
	} else if (*p == 'h' || *p == 'l' || *p == 'z' || *p == 'j' ||
		   *p == 't') {
		sp.len = *p++;
	}
	*pp = p;
	return sp;
}

int fmt_vformat(fmt_sink sink, void *ctx, const char *fmt, va_list ap)
{
	struct out o = { sink, ctx, 0 };
	const char *p = fmt;
	va_list args;

	// Work on a copy so helpers can take a pointer to it (va_list may be an
	// array type, which does not pass by pointer portably otherwise).
	va_copy(args, ap);
	while (*p != '\0') {
		const char *start = p;

		while (*p != '\0' && *p != '%')
			p++;
		emit(&o, start, (size_t)(p - start));
		if (*p == '\0')
			break;

		const char *conv_start = p++;
		struct spec sp = parse_spec(&p, &args);
		char c = *p;

		if (c == 'd' || c == 'i') {
			int64_t v = arg_signed(sp.len, &args);
			uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

			emit_int(&o, sp, mag, v < 0, true, 10, false, false);
		} else if (c == 'u' || c == 'x' || c == 'X') {
			uint64_t v = arg_unsigned(sp.len, &args);

			emit_int(&o, sp, v, false, false, c == 'u' ? 10 : 16,
				 c == 'X', false);
		} else if (c == 'p') {
			uintptr_t v = (uintptr_t)va_arg(args, void *);

			emit_int(&o, sp, v, false, false, 16, false, true);
		} else if (c == 's') {
			emit_str(&o, sp, va_arg(args, const char *));
		} else if (c == 'c') {
			char ch = (char)va_arg(args, int);

			sp.zero = false;
			emit_field(&o, &sp, NULL, 0, 0, &ch, 1);
		} else if (c == '%') {
			emit(&o, "%", 1);
		} else {
			// Unknown or unsupported: copy the directive as written.
			// A '%' at the very end stops here with c == '\0'.
			emit(&o, conv_start, (size_t)(p - conv_start));
			if (c == '\0')
				break;
			emit(&o, p, 1);
		}
		p++;
	}
	va_end(args);
	// __INT_MAX__ is gcc's predefined INT_MAX: lib/ does not include <limits.h>.
	return o.count > __INT_MAX__ ? __INT_MAX__ : (int)o.count;
}

int fmt_format(fmt_sink sink, void *ctx, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vformat(sink, ctx, fmt, ap);
	va_end(ap);
	return n;
}

// Copy what fits of each piece, keeping the last byte for the NUL; count
// it all.
static void text_sink(void *ctx, const char *s, size_t n)
{
	struct fmt_text *t = ctx;
	size_t room = t->size > 0 ? t->size - 1 : 0;

	if (t->used < room)
		mem_copy(t->buf + t->used, s, n < room - t->used ? n : room - t->used);
	t->used += n;
}

static void text_terminate(struct fmt_text *t)
{
	if (t->size > 0)
		t->buf[t->used < t->size ? t->used : t->size - 1] = '\0';
}

struct fmt_text fmt_text_start(char *buf, size_t size)
{
	struct fmt_text t = { buf, size, 0 };

	text_terminate(&t);
	return t;
}

void fmt_text_put(struct fmt_text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vformat(text_sink, t, fmt, ap);
	va_end(ap);
	text_terminate(t);
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_text t = fmt_text_start(buf, size);
	int n = fmt_vformat(text_sink, &t, fmt, ap);

	text_terminate(&t);
	return n;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

const char *fmt_size(char buf[FMT_SIZE_LEN], uint64_t bytes)
{
	static const char *const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
	};
	unsigned u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) &&
	       (bytes >> (10 * (u + 1))) != 0)
		u++;

	uint64_t unit = 1ull << (10 * u);
	uint64_t whole = bytes >> (10 * u);
	uint64_t rem = bytes & (unit - 1);

	if (rem == 0) {
		fmt_snprintf(buf, FMT_SIZE_LEN, "%llu %s",
			     (unsigned long long)whole, units[u]);
	} else {
		// rem < unit <= 2^60, so rem * 10 < 2^64: no overflow.
		fmt_snprintf(buf, FMT_SIZE_LEN, "%llu.%llu %s",
			     (unsigned long long)whole,
			     (unsigned long long)(rem * 10 / unit), units[u]);
	}
	return buf;
}
