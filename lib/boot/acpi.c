// SPDX-License-Identifier: GPL-2.0-or-later
// The ACPI tables that lead to the CPUs (section numbers from ACPI 6.5):
// RSDP (5.2.5), RSDT (5.2.7), XSDT (5.2.8), MADT (5.2.12) with its Processor
// Local APIC (5.2.12.2), Local APIC Address Override (5.2.12.8) and
// Processor Local x2APIC (5.2.12.12) entries. Nothing is trusted: every read
// goes through the caller's reader, every length is bounded before it is
// used, and a table is used only when its checksum holds.
#include "acpi.h"
#include "fmt.h"
#include "string.h"

#define RSDP_V1_LEN		20	// the part the first checksum covers
#define RSDP_V2_LEN		36	// the part the extended checksum covers
#define RSDP_REVISION_XSDT	2	// ACPI 2.0 and later: Length, XSDT address

#define EBDA_SEGMENT_PTR	0x40e	// BIOS data area word: the EBDA's segment
#define EBDA_SCAN_LEN		1024
#define BIOS_SCAN_START		0xe0000u
#define BIOS_SCAN_END		0x100000u
#define RSDP_ALIGN		16

#define SDT_HEADER_LEN		36
#define MADT_HEADER_LEN		44	// the SDT header, local APIC address, flags

#define MADT_LAPIC		0
#define MADT_LAPIC_OVERRIDE	5
#define MADT_X2APIC		9
#define MADT_LAPIC_LEN		8
#define MADT_LAPIC_OVERRIDE_LEN	12
#define MADT_X2APIC_LEN		16

#define MADT_ENABLED		(1u << 0)
#define MADT_ONLINE_CAPABLE	(1u << 1)
// ACPI 6.3 defined bit 1 with MADT revision 5. Linux now asks the FADT's
// version instead, as ACPI 6.2 errata B numbered its MADT 45; bit 1 was
// reserved (zero) there, so reading it costs nothing.
#define MADT_REVISION_ONLINE	5

// Not APIC IDs: xAPIC 0xFF is the broadcast ID; firmware lists x2APIC slots
// it will never fill as 0xFFFFFFFF.
#define XAPIC_ID_INVALID	0xffu
#define X2APIC_ID_INVALID	0xffffffffu

struct acpi {
	bootinfo_read_fn read;
	bootinfo_warn_fn warn;
	void *ctx;
	struct acpi_cpu *cpus;
	size_t cap;
	struct acpi_result *res;
};

static void warn(struct acpi *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct acpi *a, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	a->res->warnings++;
	if (a->warn)
		a->warn(a->ctx, msg);
}

static bool rd(const struct acpi *a, uint64_t addr, void *buf, size_t n)
{
	return addr + n >= addr && a->read(a->ctx, addr, buf, n);
}

// Little-endian fields of a buffer already read.
static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint8_t sum_bytes(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

// The byte sum of len bytes at addr, read in pieces; false if unreadable.
static bool sum_phys(const struct acpi *a, uint64_t addr, uint32_t len, uint8_t *sum)
{
	uint8_t buf[256];

	*sum = 0;
	for (uint32_t off = 0; off < len;) {
		uint32_t n = len - off < sizeof(buf) ? len - off : sizeof(buf);
		if (!rd(a, addr + off, buf, n))
			return false;
		*sum += sum_bytes(buf, n);
		off += n;
	}
	return true;
}

// ---- the RSDP -----------------------------------------------------------

// Check an RSDP copy of len bytes (where: how to name it in a warning). A
// valid one sets res's RSDP fields and *rsdt / *xsdt (0: not to be used).
static bool rsdp_valid(struct acpi *a, const uint8_t *b, size_t len, const char *where,
		       uint32_t *rsdt, uint64_t *xsdt)
{
	*rsdt = 0;
	*xsdt = 0;
	if (len < RSDP_V1_LEN || mem_cmp(b, "RSD PTR ", 8) != 0) {
		warn(a, "acpi: the RSDP %s has no \"RSD PTR \" signature; ignored", where);
		return false;
	}
	if (sum_bytes(b, RSDP_V1_LEN) != 0) {
		warn(a, "acpi: the RSDP %s has a bad checksum; ignored", where);
		return false;
	}
	a->res->rsdp_revision = b[15];
	*rsdt = le32(b + 16);
	if (b[15] < RSDP_REVISION_XSDT)
		return true;
	// ACPICA also checks the extended checksum over 36 bytes whatever the
	// Length says; a longer Length would be a later ACPI's extension.
	if (len < RSDP_V2_LEN || le32(b + 20) < RSDP_V2_LEN || sum_bytes(b, RSDP_V2_LEN) != 0)
		warn(a, "acpi: the RSDP %s (revision %u) has a bad length or extended checksum; "
		     "its XSDT is not used", where, b[15]);
	else if ((*xsdt = le64(b + 24)) == 0)
		warn(a, "acpi: the RSDP %s (revision %u) gives no XSDT address", where, b[15]);
	return true;
}

static bool rsdp_from_copy(struct acpi *a, const struct bootinfo_rsdp *r, enum acpi_rsdp_from from,
			   uint32_t *rsdt, uint64_t *xsdt)
{
	const char *where = from == ACPI_RSDP_MB2_NEW ? "in the loader's multiboot2 tag 15"
						      : "in the loader's multiboot2 tag 14";

	if (r->len == 0 || !rsdp_valid(a, r->bytes, r->len, where, rsdt, xsdt))
		return false;
	a->res->rsdp_from = from;
	return true;
}

// Scan [start, end) on 16-byte boundaries for a valid RSDP.
static bool rsdp_scan(struct acpi *a, uint64_t start, uint64_t end, enum acpi_rsdp_from from,
		      uint32_t *rsdt, uint64_t *xsdt)
{
	for (uint64_t at = start; at + RSDP_V1_LEN <= end; at += RSDP_ALIGN) {
		uint8_t b[RSDP_V2_LEN];
		char where[32];
		if (!rd(a, at, b, 8) || mem_cmp(b, "RSD PTR ", 8) != 0)
			continue;
		fmt_snprintf(where, sizeof(where), "at 0x%llx", (unsigned long long)at);
		if (!rd(a, at, b, RSDP_V1_LEN)) {
			warn(a, "acpi: the RSDP %s cannot be read whole; ignored", where);
			continue;
		}
		size_t len = RSDP_V1_LEN;
		if (b[15] >= RSDP_REVISION_XSDT && rd(a, at, b, RSDP_V2_LEN))
			len = RSDP_V2_LEN;
		if (rsdp_valid(a, b, len, where, rsdt, xsdt)) {
			a->res->rsdp_from = from;
			a->res->rsdp = at;
			return true;
		}
	}
	return false;
}

static bool rsdp_find(struct acpi *a, const struct bootinfo *bi, uint32_t *rsdt, uint64_t *xsdt)
{
	uint8_t seg[2];

	if (bi && (rsdp_from_copy(a, &bi->acpi_new, ACPI_RSDP_MB2_NEW, rsdt, xsdt) ||
		   rsdp_from_copy(a, &bi->acpi_old, ACPI_RSDP_MB2_OLD, rsdt, xsdt)))
		return true;
	// A segment pointing into the interrupt vectors and BIOS data, or past
	// conventional memory, is no EBDA (UEFI machines often leave 0 there).
	if (rd(a, EBDA_SEGMENT_PTR, seg, 2)) {
		uint64_t ebda = (uint64_t)(seg[0] | seg[1] << 8) << 4;
		if (ebda >= 0x500 && ebda < 0xa0000 &&
		    rsdp_scan(a, ebda, ebda + EBDA_SCAN_LEN, ACPI_RSDP_EBDA, rsdt, xsdt))
			return true;
	}
	return rsdp_scan(a, BIOS_SCAN_START, BIOS_SCAN_END, ACPI_RSDP_BIOS, rsdt, xsdt);
}

// ---- tables ---------------------------------------------------------------

// Check the table at addr: readable, signature sig, length within
// [min_len, ACPI_TABLE_MAX], checksum. what names where the pointer came
// from, for the warning. Sets *len and *revision when valid.
static bool sdt_valid(struct acpi *a, uint64_t addr, const char *sig, uint32_t min_len,
		      const char *what, uint32_t *len, uint8_t *revision)
{
	uint8_t h[SDT_HEADER_LEN], sum;

	if (!rd(a, addr, h, sizeof(h))) {
		warn(a, "acpi: %s 0x%llx (%s) cannot be read; ignored", what,
		     (unsigned long long)addr, sig);
		return false;
	}
	if (mem_cmp(h, sig, 4) != 0) {
		warn(a, "acpi: %s 0x%llx has signature \"%.4s\", not %s; ignored", what,
		     (unsigned long long)addr, (const char *)h, sig);
		return false;
	}
	*len = le32(h + 4);
	*revision = h[8];
	if (*len < min_len || *len > ACPI_TABLE_MAX) {
		warn(a, "acpi: %s at 0x%llx has length %u, outside %u-%u; ignored", sig,
		     (unsigned long long)addr, *len, min_len, ACPI_TABLE_MAX);
		return false;
	}
	if (!sum_phys(a, addr, *len, &sum)) {
		warn(a, "acpi: %s at 0x%llx (length %u) cannot be read whole; ignored", sig,
		     (unsigned long long)addr, *len);
		return false;
	}
	if (sum != 0) {
		warn(a, "acpi: %s at 0x%llx has a bad checksum; ignored", sig, (unsigned long long)addr);
		return false;
	}
	return true;
}

// The first valid MADT the root table (RSDT: 4-byte entries, XSDT: 8) at
// root lists, its length in *mlen; 0 if none.
static uint64_t madt_in_root(struct acpi *a, uint64_t root, const char *sig, size_t esize,
			     uint32_t *mlen)
{
	uint32_t len;
	uint8_t rev;

	if (!sdt_valid(a, root, sig, SDT_HEADER_LEN, "the RSDP's pointer", &len, &rev))
		return 0;
	if ((len - SDT_HEADER_LEN) % esize)
		warn(a, "acpi: %s at 0x%llx has length %u, not a whole number of %zu-byte "
		     "entries; the last %u bytes are ignored", sig, (unsigned long long)root, len,
		     esize, (unsigned)((len - SDT_HEADER_LEN) % esize));
	a->res->root = root;
	a->res->xsdt = esize == 8;
	for (uint32_t off = SDT_HEADER_LEN, i = 0; off + esize <= len; off += esize, i++) {
		uint8_t e[8] = { 0 }, s[4];
		char what[48];
		if (!rd(a, root + off, e, esize)) {
			warn(a, "acpi: %s at 0x%llx cannot be read at entry %u; the rest is ignored",
			     sig, (unsigned long long)root, i);
			break;
		}
		uint64_t table = le64(e);
		if (table == 0) {
			warn(a, "acpi: %s at 0x%llx: entry %u is null; skipped", sig,
			     (unsigned long long)root, i);
			continue;
		}
		if (!rd(a, table, s, 4)) {
			warn(a, "acpi: %s at 0x%llx: entry %u points to 0x%llx, which cannot be "
			     "read; skipped", sig, (unsigned long long)root, i,
			     (unsigned long long)table);
			continue;
		}
		if (mem_cmp(s, "APIC", 4) != 0)
			continue;
		fmt_snprintf(what, sizeof(what), "the MADT that %s entry %u points to at", sig, i);
		if (sdt_valid(a, table, "APIC", MADT_HEADER_LEN, what, mlen, &rev))
			return table;
	}
	return 0;
}

// ---- the MADT -------------------------------------------------------------

static void add_cpu(struct acpi *a, uint64_t madt, uint32_t off, uint32_t apic_id, uint32_t uid,
		    uint32_t flags, bool x2apic)
{
	struct acpi_result *res = a->res;
	bool enabled = flags & MADT_ENABLED;
	bool online = !enabled && (flags & MADT_ONLINE_CAPABLE) &&
		      res->madt_revision >= MADT_REVISION_ONLINE;

	if (!enabled && !online) {
		res->unusable++;
		return;
	}
	if (apic_id == (x2apic ? X2APIC_ID_INVALID : XAPIC_ID_INVALID)) {
		warn(a, "acpi: APIC at 0x%llx: the %s entry at offset %u has the invalid APIC ID "
		     "0x%x; skipped", (unsigned long long)madt, x2apic ? "x2APIC" : "local APIC",
		     off, apic_id);
		return;
	}
	for (size_t i = 0; i < res->ncpus; i++)
		if (a->cpus[i].apic_id == apic_id) {
			warn(a, "acpi: APIC at 0x%llx: the entry at offset %u repeats APIC ID %u; "
			     "dropped", (unsigned long long)madt, off, apic_id);
			res->duplicates++;
			return;
		}
	if (res->ncpus == a->cap) {
		res->beyond++;
		return;
	}
	a->cpus[res->ncpus++] = (struct acpi_cpu){ apic_id, uid, x2apic, enabled, online };
	res->nenabled += enabled;
}

// Walk the entries of the MADT at madt (len bytes, checksum verified).
static void madt_walk(struct acpi *a, uint64_t madt, uint32_t len)
{
	struct acpi_result *res = a->res;
	uint8_t h[MADT_HEADER_LEN], e[255];

	if (!rd(a, madt, h, sizeof(h)))
		return;		// read whole a moment ago: memory that changes is no table
	res->madt = madt;
	res->madt_revision = h[8];
	res->lapic_addr = le32(h + 36);
	for (uint32_t off = MADT_HEADER_LEN; off < len;) {
		if (len - off < 2 || !rd(a, madt + off, e, 2)) {
			warn(a, "acpi: APIC at 0x%llx: the entry at offset %u is cut by the table's "
			     "end (length %u); the rest of the table is ignored",
			     (unsigned long long)madt, off, len);
			break;
		}
		uint8_t type = e[0], elen = e[1];
		if (elen < 2 || elen > len - off) {
			warn(a, "acpi: APIC at 0x%llx: the entry at offset %u (type %u) has length %u%s; "
			     "the rest of the table is ignored", (unsigned long long)madt, off, type,
			     elen, elen < 2 ? "" : ", past the table's end");
			break;
		}
		if (!rd(a, madt + off, e, elen)) {
			warn(a, "acpi: APIC at 0x%llx: the entry at offset %u cannot be read; the rest "
			     "of the table is ignored", (unsigned long long)madt, off);
			break;
		}
		uint32_t need = type == MADT_LAPIC ? MADT_LAPIC_LEN :
				type == MADT_X2APIC ? MADT_X2APIC_LEN :
				type == MADT_LAPIC_OVERRIDE ? MADT_LAPIC_OVERRIDE_LEN : 2;
		if (elen < need)
			warn(a, "acpi: APIC at 0x%llx: the entry at offset %u (type %u) has length %u, "
			     "less than %u; skipped", (unsigned long long)madt, off, type, elen, need);
		else if (type == MADT_LAPIC)
			add_cpu(a, madt, off, e[3], e[2], le32(e + 4), false);
		else if (type == MADT_X2APIC)
			add_cpu(a, madt, off, le32(e + 4), le32(e + 12), le32(e + 8), true);
		else if (type == MADT_LAPIC_OVERRIDE)
			res->lapic_addr = le64(e + 4);
		off += elen;
	}
	if (res->beyond)
		warn(a, "acpi: APIC at 0x%llx lists %zu more CPUs than the %zu ramsift keeps; "
		     "they are not used", (unsigned long long)madt, res->beyond, a->cap);
}

// ---- the whole way --------------------------------------------------------

enum acpi_status acpi_find_cpus(const struct bootinfo *bi, bootinfo_read_fn read,
				bootinfo_warn_fn warn_fn, void *ctx, struct acpi_cpu *cpus,
				size_t cap, struct acpi_result *res)
{
	struct acpi a = { read, warn_fn, ctx, cpus, cap, res };
	uint32_t rsdt, len = 0;
	uint64_t xsdt, madt = 0;

	mem_set(res, 0, sizeof(*res));
	res->cap = cap;
	if (!rsdp_find(&a, bi, &rsdt, &xsdt))
		return res->status = ACPI_NO_RSDP;
	if (rsdt == 0 && xsdt == 0) {
		warn(&a, "acpi: the RSDP gives neither an RSDT nor a usable XSDT address");
		return res->status = ACPI_NO_ROOT;
	}
	if (xsdt) {
		madt = madt_in_root(&a, xsdt, "XSDT", 8, &len);
		if (madt == 0 && rsdt)
			warn(&a, "acpi: %s; trying the RSDT at 0x%x", res->root ?
			     "the XSDT lists no valid MADT" : "the XSDT is unusable", rsdt);
	}
	if (madt == 0 && rsdt)
		madt = madt_in_root(&a, rsdt, "RSDT", 4, &len);
	if (madt == 0)
		return res->status = res->root ? ACPI_NO_MADT : ACPI_NO_ROOT;
	madt_walk(&a, madt, len);
	// The BSP runs, so a MADT without an enabled CPU is wrong.
	return res->status = res->nenabled ? ACPI_CPUS_FOUND : ACPI_NO_CPUS;
}

const char *acpi_status_text(enum acpi_status status)
{
	switch (status) {
	case ACPI_CPUS_FOUND:
		return "CPUs found in the MADT";
	case ACPI_NO_RSDP:
		return "no MADT found (no ACPI RSDP in the loader's tags or the BIOS areas)";
	case ACPI_NO_ROOT:
		return "no MADT found (the RSDP points to no valid XSDT or RSDT)";
	case ACPI_NO_MADT:
		return "no MADT found (the XSDT or RSDT lists no valid one)";
	case ACPI_NO_CPUS:
		return "the MADT lists no enabled CPU";
	}
	return "unknown ACPI status";
}

// A string built in pieces; what does not fit is cut, n counts it all.
struct out {
	char *buf;
	size_t size, n;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t at = o->n < o->size ? o->n : o->size - 1;

	va_start(ap, fmt);
	o->n += (size_t)fmt_vsnprintf(o->buf + at, o->size - at, fmt, ap);
	va_end(ap);
}

const char *acpi_describe_cpus(char *buf, size_t size, const struct acpi_cpu *cpus,
			       const struct acpi_result *res)
{
	// Room kept for " ...)" and the two clauses after the IDs.
	const size_t tail = 96;
	struct out o = { buf, size, 0 };

	if (size == 0)
		return buf;
	buf[0] = '\0';
	put(&o, "%zu found in the MADT (APIC IDs", res->nenabled);
	for (size_t i = 0; i < res->ncpus; i++) {
		if (!cpus[i].enabled)
			continue;
		if (o.n + sizeof(" 4294967295") + tail > size) {
			put(&o, " ...");
			break;
		}
		put(&o, " %u", cpus[i].apic_id);
	}
	put(&o, ")");
	if (res->ncpus > res->nenabled)
		put(&o, ", %zu more disabled but online-capable", res->ncpus - res->nenabled);
	if (res->beyond)
		put(&o, ", %zu more beyond the %zu kept", res->beyond, res->cap);
	return buf;
}
