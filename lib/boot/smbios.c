// SPDX-License-Identifier: GPL-2.0-or-later
// SMBIOS (DMTF DSP0134 3.7): the entry points (5.2.1 for 2.1, 5.2.2 for
// 3.0), the structure table (6.1: a formatted area, then a set of
// NUL-terminated strings ended by an empty one), System Information (7.2,
// type 1) and Memory Device (7.18, type 17). The EFI configuration table
// holds the entry point's address under SMBIOS_TABLE_GUID or
// SMBIOS3_TABLE_GUID (UEFI 2.10 section 4.6). Nothing is trusted: every
// read goes through the caller's reader and is bounded by the table.
#include "fmt.h"
#include "boot/smbios.h"
#include "memstr.h"

#define SCAN_START	0xf0000u
#define SCAN_END	0x100000u
#define SCAN_STEP	16

#define EP3_LEN_MIN	0x18
#define EP2_LEN_MIN	0x1e	// 2.1's own entry point said 0x1e by mistake
#define EP_LEN_MAX	0x20
#define EP2_DMI		16	// the intermediate anchor "_DMI_"
#define EP2_DMI_LEN	15

#define EFI_SYSTAB_SIG	"IBI SYST"
#define EFI_TABLES_MAX	1024	// more configuration tables is garbage

#define TYPE_SYSTEM	1
#define TYPE_MEMORY	17
#define TYPE_END	127
#define HEADER_LEN	4

// The SMBIOS version from which the UUID's first three fields are stored
// little-endian (DSP0134 7.2.1).
#define UUID_LE_FROM	0x0206

struct reader {
	bootinfo_read_fn read;
	bootinfo_warn_fn warn;
	void *ctx;
	struct smbios_info *s;
	// A window on the table, so strings are not read a byte per call.
	uint64_t win_at;
	size_t win_n;
	uint8_t win[256];
};

static void warn(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct reader *r, const char *fmt, ...)
{
	char msg[SMBIOS_WARNING_LEN];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->s->warnings++;
	if (r->warn)
		r->warn(r->ctx, msg);
}

static bool rd(const struct reader *r, uint64_t addr, void *buf, size_t n)
{
	return addr + n >= addr && r->read(r->ctx, addr, buf, n);
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

// The byte at addr, through the window; false when unreadable.
static bool byte_at(struct reader *r, uint64_t addr, uint8_t *b)
{
	if (addr < r->win_at || addr - r->win_at >= r->win_n) {
		r->win_at = addr;
		r->win_n = sizeof(r->win);
		if (!rd(r, addr, r->win, r->win_n)) {
			r->win_n = 1;	// near the end of what can be read
			if (!rd(r, addr, r->win, 1)) {
				r->win_n = 0;
				return false;
			}
		}
	}
	*b = r->win[addr - r->win_at];
	return true;
}

// ---- entry points -----------------------------------------------------------

// Check the entry point in b (n bytes, where: how to name it); a valid one
// sets s's version and table fields.
static bool entry_valid(struct reader *r, const uint8_t *b, size_t n, const char *where)
{
	struct smbios_info *s = r->s;

	if (n >= EP3_LEN_MIN && mem_cmp(b, "_SM3_", 5) == 0) {
		uint8_t len = b[6];
		if (len < EP3_LEN_MIN || len > EP_LEN_MAX || len > n || sum(b, len) != 0) {
			warn(r, "smbios: the 3.0 entry point %s has a bad length (%u) or checksum; "
			     "ignored", where, len);
			return false;
		}
		s->v3 = true;
		s->major = b[7];
		s->minor = b[8];
		s->table_len = le32(b + 12);
		s->table = le64(b + 16);
		return true;
	}
	if (n >= EP2_LEN_MIN && mem_cmp(b, "_SM_", 4) == 0) {
		uint8_t len = b[5];
		if (len < EP2_LEN_MIN || len > EP_LEN_MAX || len > n || sum(b, len) != 0 ||
		    mem_cmp(b + EP2_DMI, "_DMI_", 5) != 0 || sum(b + EP2_DMI, EP2_DMI_LEN) != 0) {
			warn(r, "smbios: the 2.x entry point %s has a bad length (%u), checksum or "
			     "_DMI_ part; ignored", where, len);
			return false;
		}
		s->v3 = false;
		s->major = b[6];
		s->minor = b[7];
		s->table_len = le16(b + 22);
		s->table = le32(b + 24);
		return true;
	}
	return false;
}

// The entry point at physical addr, if it is one.
static bool entry_at(struct reader *r, uint64_t addr, enum smbios_from from)
{
	uint8_t b[EP_LEN_MAX];
	char where[32];

	fmt_snprintf(where, sizeof(where), "at 0x%llx", (unsigned long long)addr);
	// As many bytes as can be read, up to the longest entry point.
	size_t n = sizeof(b);
	while (n >= EP3_LEN_MIN && !rd(r, addr, b, n))
		n--;
	if (n < EP3_LEN_MIN || !entry_valid(r, b, n, where))
		return false;
	r->s->from = from;
	r->s->entry = addr;
	return true;
}

static bool from_tag(struct reader *r, const struct bootinfo_smbios *t)
{
	if (t->len == 0)
		return false;
	if (!entry_valid(r, t->bytes, t->len, "in the loader's multiboot2 tag 13")) {
		warn(r, "smbios: the loader's multiboot2 tag 13 holds no valid entry point; ignored");
		return false;
	}
	r->s->from = SMBIOS_FROM_TAG;
	return true;
}

// The configuration table of the EFI system table at systab (64- or 32-bit).
static bool from_efi(struct reader *r, uint64_t systab, bool efi64)
{
	static const uint8_t guid3[16] = { 0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
					   0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };
	static const uint8_t guid2[16] = { 0x31, 0x2d, 0x9d, 0xeb, 0x88, 0x2d, 0xd3, 0x11,
					   0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d };
	uint8_t h[120], e[24];
	size_t at_n = efi64 ? 104 : 64, esize = efi64 ? 24 : 20;
	uint64_t found[2] = { 0, 0 };	// SMBIOS 3, SMBIOS 2

	if (systab == 0)
		return false;
	if (!rd(r, systab, h, efi64 ? 120 : 72) || mem_cmp(h, EFI_SYSTAB_SIG, 8) != 0) {
		warn(r, "smbios: the EFI system table at 0x%llx cannot be read or has no "
		     "signature; not used", (unsigned long long)systab);
		return false;
	}
	uint64_t n = efi64 ? le64(h + at_n) : le32(h + at_n);
	uint64_t tables = efi64 ? le64(h + at_n + 8) : le32(h + at_n + 4);
	if (n > EFI_TABLES_MAX) {
		warn(r, "smbios: the EFI system table lists %llu configuration tables; not used",
		     (unsigned long long)n);
		return false;
	}
	for (uint64_t i = 0; i < n; i++) {
		if (!rd(r, tables + i * esize, e, esize)) {
			warn(r, "smbios: the EFI configuration table at 0x%llx cannot be read at "
			     "entry %llu", (unsigned long long)tables, (unsigned long long)i);
			break;
		}
		uint64_t p = efi64 ? le64(e + 16) : le32(e + 16);
		if (mem_cmp(e, guid3, 16) == 0 && !found[0])
			found[0] = p;
		if (mem_cmp(e, guid2, 16) == 0 && !found[1])
			found[1] = p;
	}
	for (int k = 0; k < 2; k++)
		if (found[k] && entry_at(r, found[k], SMBIOS_FROM_EFI))
			return true;
	return false;
}

static bool from_scan(struct reader *r)
{
	for (int pass = 0; pass < 2; pass++)	// 3.0's first, as Linux does
		for (uint64_t at = SCAN_START; at + EP3_LEN_MIN <= SCAN_END; at += SCAN_STEP) {
			uint8_t a[5];
			if (!rd(r, at, a, 5) || mem_cmp(a, pass ? "_SM_" : "_SM3_", pass ? 4 : 5) != 0)
				continue;
			if (entry_at(r, at, SMBIOS_FROM_SCAN))
				return true;
		}
	return false;
}

// ---- the structure table ------------------------------------------------------

// String number k (1-based; 0: none) of the set at strings[0..end) into out.
static void string_at(struct reader *r, uint64_t strings, uint64_t end, uint8_t k,
		      smbios_string out)
{
	uint64_t at = strings;
	uint8_t c;

	out[0] = '\0';
	if (k == 0)
		return;
	for (uint8_t i = 1; i < k; i++) {
		while (at < end && byte_at(r, at, &c) && c)
			at++;
		at++;
		if (at >= end || !byte_at(r, at, &c) || c == 0)
			return;		// fewer strings than k: "" as for none
	}
	size_t n = 0;
	while (at < end && byte_at(r, at, &c) && c) {
		if (n < SMBIOS_STRING_MAX)
			out[n++] = (char)c;
		at++;
	}
	out[n] = '\0';
}

static void system_info(struct reader *r, const uint8_t *f, uint8_t len, uint64_t strings,
			uint64_t end)
{
	struct smbios_info *s = r->s;
	static const uint8_t none[16], absent[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	if (s->system || len < 8)
		return;
	s->system = true;
	string_at(r, strings, end, f[4], s->manufacturer);
	string_at(r, strings, end, f[5], s->product);
	string_at(r, strings, end, f[6], s->version);
	string_at(r, strings, end, f[7], s->serial);
	if (len < 8 + 16 || mem_cmp(f + 8, none, 16) == 0 || mem_cmp(f + 8, absent, 16) == 0)
		return;
	s->uuid_known = true;
	mem_copy(s->uuid, f + 8, 16);
	if ((s->major << 8 | s->minor) >= UUID_LE_FROM) {
		static const uint8_t swap[8] = { 3, 2, 1, 0, 5, 4, 7, 6 };
		for (int i = 0; i < 8; i++)
			s->uuid[i] = f[8 + swap[i]];
	}
}

static void memory_device(struct reader *r, const uint8_t *f, uint8_t len, uint64_t strings,
			  uint64_t end)
{
	struct smbios_info *s = r->s;

	if (len < 0x15)
		return;		// before SMBIOS 2.1's fields: nothing to say
	if (s->ndimms == SMBIOS_DIMMS_MAX) {
		s->dimms_beyond++;
		return;
	}
	struct smbios_dimm *d = &s->dimm[s->ndimms++];
	uint16_t size = le16(f + 0x0c);
	d->installed = size != 0;
	d->size_known = size != 0xffff;
	if (size == 0x7fff && len >= 0x20)
		d->size_mib = le32(f + 0x1c) & 0x7fffffffu;	// extended size, MiB
	else if (size & 0x8000)
		d->size_mib = (size & 0x7fffu) / 1024;	// KiB
	else
		d->size_mib = size;
	if (!d->installed || !d->size_known)
		d->size_mib = 0;
	string_at(r, strings, end, f[0x10], d->locator);
	string_at(r, strings, end, f[0x11], d->bank);
	if (len >= 0x17) {
		uint16_t speed = le16(f + 0x15);
		d->speed_mts = speed == 0xffff ? (len >= 0x58 ? le32(f + 0x54) : 0) : speed;
	}
	if (len >= 0x1b) {
		string_at(r, strings, end, f[0x17], d->manufacturer);
		string_at(r, strings, end, f[0x18], d->serial);
		string_at(r, strings, end, f[0x1a], d->part_number);
	}
}

// Walk the table; 2.x entry points also count the structures (count).
static void walk(struct reader *r, uint16_t count)
{
	struct smbios_info *s = r->s;
	uint64_t at = s->table, end = s->table + s->table_len;
	uint8_t f[256];

	while (at + HEADER_LEN <= end && (s->v3 || s->structures < count)) {
		if (!rd(r, at, f, HEADER_LEN)) {
			warn(r, "smbios: the structure at 0x%llx cannot be read; the rest of the table "
			     "is ignored", (unsigned long long)at);
			return;
		}
		uint8_t type = f[0], len = f[1];
		if (len < HEADER_LEN || len > end - at || !rd(r, at, f, len)) {
			warn(r, "smbios: the structure at 0x%llx (type %u) has length %u, %s; the rest "
			     "of the table is ignored", (unsigned long long)at, type, len,
			     len < HEADER_LEN ? "less than its header" : "past the table's end");
			return;
		}
		// The string set: up to two NULs in a row (a set without strings
		// is the two NULs alone).
		uint64_t strings = at + len, p = strings;
		uint8_t c, prev = 1;
		bool ok;
		while ((ok = p < end && byte_at(r, p, &c)) && !(c == 0 && prev == 0 && p > strings)) {
			prev = c;
			p++;
		}
		if (!ok) {
			warn(r, "smbios: the strings of the structure at 0x%llx (type %u) run past the "
			     "table's end; the rest of the table is ignored", (unsigned long long)at, type);
			return;
		}
		s->structures++;
		if (type == TYPE_SYSTEM)
			system_info(r, f, len, strings, p);
		else if (type == TYPE_MEMORY)
			memory_device(r, f, len, strings, p);
		if (type == TYPE_END)
			return;
		at = p + 1;
	}
}

enum smbios_status smbios_find(const struct bootinfo *bi, bootinfo_read_fn read,
			       bootinfo_warn_fn warn_fn, void *ctx, struct smbios_info *s)
{
	struct reader r = { .read = read, .warn = warn_fn, .ctx = ctx, .s = s };
	uint8_t count[2];

	mem_set(s, 0, sizeof(*s));
	if (!(bi && from_tag(&r, &bi->smbios)) && !(bi && from_efi(&r, bi->efi_systab, bi->efi64)) &&
	    !from_scan(&r))
		return s->status = SMBIOS_NO_ENTRY;
	// 2.x gives the structure count at offset 28 of the entry point.
	uint16_t n = 0xffff;
	if (!s->v3) {
		if (s->from == SMBIOS_FROM_TAG)
			n = le16(bi->smbios.bytes + 28);
		else if (rd(&r, s->entry + 28, count, 2))
			n = le16(count);
	}
	if (s->table_len > SMBIOS_TABLE_MAX) {
		warn(&r, "smbios: the table at 0x%llx has length %u; reading its first %u bytes",
		     (unsigned long long)s->table, s->table_len, SMBIOS_TABLE_MAX);
		s->table_len = SMBIOS_TABLE_MAX;
	}
	uint8_t h[HEADER_LEN];
	if (s->table_len < HEADER_LEN || s->table + s->table_len < s->table ||
	    !rd(&r, s->table, h, HEADER_LEN)) {
		warn(&r, "smbios: the table at 0x%llx (length %u) cannot be read",
		     (unsigned long long)s->table, s->table_len);
		return s->status = SMBIOS_NO_TABLE;
	}
	walk(&r, n);
	return s->status = SMBIOS_FOUND;
}

const char *smbios_status_text(enum smbios_status status)
{
	switch (status) {
	case SMBIOS_FOUND:
		return "SMBIOS tables found";
	case SMBIOS_NO_ENTRY:
		return "no SMBIOS entry point in the loader's tag, the EFI system table or "
		       "0xF0000-0xFFFFF";
	case SMBIOS_NO_TABLE:
		return "the SMBIOS entry point's table cannot be read";
	}
	return "unknown SMBIOS status";
}

const char *smbios_from_name(enum smbios_from from)
{
	static const char *const names[] = { "none", "tag", "efi", "scan" };
	return (unsigned)from < 4 ? names[from] : "none";
}

const char *smbios_uuid_text(char buf[SMBIOS_UUID_LEN], const uint8_t u[16])
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			buf[n++] = '-';
		buf[n++] = hex[u[i] >> 4];
		buf[n++] = hex[u[i] & 15];
	}
	buf[n] = '\0';
	return buf;
}

// A line built in pieces; what does not fit is cut, n counts it all.
struct out {
	char *buf;
	size_t size, n;
};

static void put(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, o->n++)
		if (o->n + 1 < o->size)
			o->buf[o->n] = s[i];
	if (o->size)
		o->buf[o->n < o->size ? o->n : o->size - 1] = '\0';
}

static void put_text(struct out *o, const char *s)
{
	put(o, s, str_len(s));
}

// key="value", the value made safe for a log line.
static void put_quoted(struct out *o, const char *key, const char *v)
{
	put_text(o, key);
	put(o, "=\"", 2);
	for (; *v; v++) {
		char c = *v;
		if (c == '"' || c == '\\')
			put(o, "\\", 1);
		if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7e)
			c = '?';
		put(o, &c, 1);
	}
	put(o, "\"", 1);
}

static void put_number(struct out *o, const char *key, bool known, uint64_t v)
{
	char num[24];

	put_text(o, key);
	put(o, "=", 1);
	if (known) {
		fmt_snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
		put_text(o, num);
	} else {
		put_text(o, "unknown");
	}
}

int smbios_describe_system(char *buf, size_t size, const struct smbios_info *s)
{
	struct out o = { buf, size, 0 };
	char v[SMBIOS_UUID_LEN];

	if (size)
		buf[0] = '\0';
	put_quoted(&o, "manufacturer", s->manufacturer);
	put_quoted(&o, " product", s->product);
	put_quoted(&o, " version", s->version);
	put_quoted(&o, " serial", s->serial);
	put_text(&o, " uuid=");
	put_text(&o, s->uuid_known ? smbios_uuid_text(v, s->uuid) : "unknown");
	fmt_snprintf(v, sizeof(v), " smbios=%u.%u", s->major, s->minor);
	put_text(&o, v);
	put_text(&o, " entry=");
	put_text(&o, smbios_from_name(s->from));
	return (int)o.n;
}

int smbios_describe_dimm(char *buf, size_t size, const struct smbios_dimm *d)
{
	struct out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	put_quoted(&o, "locator", d->locator);
	put_quoted(&o, " bank", d->bank);
	put_text(&o, d->installed ? " installed=yes" : " installed=no");
	put_number(&o, " size_mib", !d->installed || d->size_known, d->size_mib);
	put_number(&o, " speed_mts", d->speed_mts != 0, d->speed_mts);
	put_quoted(&o, " manufacturer", d->manufacturer);
	put_quoted(&o, " serial", d->serial);
	put_quoted(&o, " part_number", d->part_number);
	return (int)o.n;
}
