// SPDX-License-Identifier: GPL-2.0-or-later
// The ACPI tables that lead to the CPUs (section numbers from ACPI 6.5):
// RSDP (5.2.5), RSDT (5.2.7), XSDT (5.2.8), MADT (5.2.12) with its Processor
// Local APIC (5.2.12.2), Local APIC Address Override (5.2.12.8) and
// Processor Local x2APIC (5.2.12.12) entries. Nothing is trusted: every read
// goes through the caller's reader, every length is bounded before it is
// used, and a table is used only when its checksum holds.
#include "boot/acpi.h"
#include "escape.h"
#include "fmt.h"
#include "memstr.h"

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
#define FADT_MIN_LEN		116	// ACPI 1.0's whole FADT

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
	size_t *warnings;	// the count of the result being built
};

static void warn(struct acpi *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct acpi *a, const char *fmt, ...)
{
	char msg[ACPI_WARNING_LEN];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	(*a->warnings)++;
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
		char shown[4 * ESCAPE_MAX_PER_BYTE + 1];	// any bytes: escape.h
		escape_text(shown, sizeof(shown), (const char *)h, 4);
		warn(a, "acpi: %s 0x%llx has signature \"%s\", not %s; ignored", what,
		     (unsigned long long)addr, shown, sig);
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

// Walk the root table (RSDT: 4-byte entries, XSDT: 8) at root: the first
// valid MADT it lists in *madt (its length in *mlen), the first valid FADT
// in res->fadt; the walk ends when both are found.
static void root_walk(struct acpi *a, uint64_t root, const char *sig, size_t esize, uint64_t *madt,
		      uint32_t *mlen)
{
	struct acpi_result *res = a->res;
	uint32_t len;
	uint8_t rev;

	*madt = 0;
	if (!sdt_valid(a, root, sig, SDT_HEADER_LEN, "the RSDP's pointer", &len, &rev))
		return;
	if ((len - SDT_HEADER_LEN) % esize)
		warn(a, "acpi: %s at 0x%llx has length %u, not a whole number of %zu-byte "
		     "entries; the last %u bytes are ignored", sig, (unsigned long long)root, len,
		     esize, (unsigned)((len - SDT_HEADER_LEN) % esize));
	res->root = root;
	res->xsdt = esize == 8;
	for (uint32_t off = SDT_HEADER_LEN, i = 0; off + esize <= len && !(*madt && res->fadt);
	     off += esize, i++) {
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
		bool is_madt = mem_cmp(s, "APIC", 4) == 0 && !*madt;
		bool is_fadt = mem_cmp(s, "FACP", 4) == 0 && !res->fadt;
		if (!is_madt && !is_fadt)
			continue;
		fmt_snprintf(what, sizeof(what), "the %s that %s entry %u points to at",
			     is_madt ? "MADT" : "FADT", sig, i);
		if (is_madt && sdt_valid(a, table, "APIC", MADT_HEADER_LEN, what, mlen, &rev))
			*madt = table;
		if (is_fadt && sdt_valid(a, table, "FACP", FADT_MIN_LEN, what, &res->fadt_len,
					 &res->fadt_revision))
			res->fadt = table;
	}
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
	struct acpi a = { read, warn_fn, ctx, cpus, cap, res, &res->warnings };
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
		root_walk(&a, xsdt, "XSDT", 8, &madt, &len);
		if (madt == 0 && rsdt)
			warn(&a, "acpi: %s; trying the RSDT at 0x%x", res->root ?
			     "the XSDT lists no valid MADT" : "the XSDT is unusable", rsdt);
	}
	if (madt == 0 && rsdt)
		root_walk(&a, rsdt, "RSDT", 4, &madt, &len);
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

const char *acpi_describe_cpus(char *buf, size_t size, const struct acpi_cpu *cpus,
			       const struct acpi_result *res)
{
	// Room kept for " ...)" and the two clauses after the IDs.
	const size_t tail = 96;
	struct fmt_text o = fmt_text_start(buf, size);

	if (size == 0)
		return buf;
	fmt_text_put(&o, "%zu found in the MADT (APIC IDs", res->nenabled);
	for (size_t i = 0; i < res->ncpus; i++) {
		if (!cpus[i].enabled)
			continue;
		if (o.used + sizeof(" 4294967295") + tail > size) {
			fmt_text_put(&o, " ...");
			break;
		}
		fmt_text_put(&o, " %u", cpus[i].apic_id);
	}
	fmt_text_put(&o, ")");
	if (res->ncpus > res->nenabled)
		fmt_text_put(&o, ", %zu more disabled but online-capable",
		             res->ncpus - res->nenabled);
	if (res->beyond)
		fmt_text_put(&o, ", %zu more beyond the %zu kept", res->beyond, res->cap);
	return buf;
}

// ---- the FADT: power off and reset (ACPI 6.5 section 5.2.9) ---------------

#define FADT_DSDT		40
#define FADT_SMI_CMD		48
#define FADT_ACPI_ENABLE	52
#define FADT_PM1A_CNT		64
#define FADT_PM1B_CNT		68
#define FADT_BOOT_ARCH		109	// IAPC_BOOT_ARCH, 16 bits, from revision 2
#define FADT_FLAGS		112
#define FADT_RESET_REG		116
#define FADT_RESET_VALUE	128
#define FADT_X_DSDT		140
#define FADT_X_PM1A_CNT		172
#define FADT_X_PM1B_CNT		184
#define FADT_READ_LEN		196	// through X_PM1b_CNT_BLK: all ramsift reads
#define FADT_RESET_REG_SUP	(1u << 10)
#define FADT_HW_REDUCED		(1u << 20)
#define FADT_BOOT_ARCH_8042	(1u << 1)
#define FADT_BOOT_ARCH_REV	2
#define GAS_LEN			12

// AML encodings (ACPI 6.5 section 20.2): DefName := NameOp NameString
// DataRefObject, DefPackage := PackageOp PkgLength NumElements
// PackageElementList, and the integer constants a package element can be.
#define AML_NAME_OP		0x08
#define AML_ROOT_CHAR		0x5c
#define AML_PACKAGE_OP		0x12
#define AML_ZERO_OP		0x00
#define AML_ONE_OP		0x01
#define AML_ONES_OP		0xff
#define AML_BYTE_PREFIX		0x0a
#define AML_WORD_PREFIX		0x0b
#define AML_DWORD_PREFIX	0x0c
#define AML_QWORD_PREFIX	0x0e
#define SLP_TYP_MAX		7	// a 3-bit field
#define AML_SCAN_CHUNK		512
#define S5_READ			32	// bytes after "_S5_" that can hold its package head
					// and two integers

static struct acpi_gas gas(const uint8_t *b)
{
	return (struct acpi_gas){ b[0], b[1], b[2], b[3], le64(b + 4) };
}

// A 32-bit FADT field's register: in I/O space, width bits.
static struct acpi_gas gas_io(uint32_t port, uint8_t width)
{
	return (struct acpi_gas){ ACPI_SPACE_IO, width, 0, 0, port };
}

// An integer constant of a package at b[0..n); its length in *len (0: none).
static uint64_t aml_integer(const uint8_t *b, size_t n, size_t *len)
{
	static const uint8_t sizes[] = { [AML_BYTE_PREFIX] = 1, [AML_WORD_PREFIX] = 2,
					 [AML_DWORD_PREFIX] = 4, [AML_QWORD_PREFIX] = 8 };
	uint64_t v = 0;

	*len = 0;
	if (n == 0)
		return 0;
	if (b[0] == AML_ZERO_OP || b[0] == AML_ONE_OP || b[0] == AML_ONES_OP) {
		*len = 1;
		return b[0] == AML_ONES_OP ? ~0ull : b[0];
	}
	if (b[0] >= sizeof(sizes) || sizes[b[0]] == 0 || n < 1u + sizes[b[0]])
		return 0;
	for (size_t i = sizes[b[0]]; i > 0; i--)
		v = v << 8 | b[i];
	*len = 1u + sizes[b[0]];
	return v;
}

// The \_S5 package whose name starts at offset at of the DSDT (len bytes,
// at dsdt): true with p's SLP_TYP values set when it is one ramsift reads.
static bool s5_package(struct acpi *a, uint64_t dsdt, uint32_t len, uint32_t at,
		       struct acpi_power *p)
{
	uint8_t b[S5_READ] = { 0 }, pre[2];
	uint32_t n = len - (at + 4) < S5_READ ? len - (at + 4) : S5_READ;

	// A definition, not a reference: NameOp, or NameOp and the root prefix.
	if (at < SDT_HEADER_LEN + 1 || !rd(a, dsdt + at - 2, pre, 2))
		return false;
	if (pre[1] != AML_NAME_OP && !(pre[1] == AML_ROOT_CHAR && pre[0] == AML_NAME_OP &&
				       at >= SDT_HEADER_LEN + 2))
		return false;
	if (n < 3 || !rd(a, dsdt + at + 4, b, n) || b[0] != AML_PACKAGE_OP) {
		warn(a, "acpi: DSDT at 0x%llx: the \\_S5 object at offset %u is no package; "
		     "ignored", (unsigned long long)dsdt, at);
		return false;
	}
	// PkgLength (20.2.4): bits 7-6 of the lead byte count the bytes after
	// it; the length counts itself and runs to the package's end.
	uint32_t follow = b[1] >> 6, plen = follow ? b[1] & 0x0f : b[1] & 0x3f;
	for (uint32_t i = 0; i < follow; i++)
		plen |= (uint32_t)b[2 + i] << (4 + 8 * i);
	uint32_t head = 1 + 1 + follow + 1;	// PackageOp, PkgLength, NumElements
	if (plen < follow + 2 || plen > len - (at + 5) || head > n) {
		warn(a, "acpi: DSDT at 0x%llx: the \\_S5 package at offset %u has length %u, "
		     "past the table's end; ignored", (unsigned long long)dsdt, at, plen);
		return false;
	}
	uint8_t count = b[head - 1];
	// What of the package the buffer holds.
	size_t end = 1 + plen < n ? 1 + plen : n, la, lb = 0;
	uint64_t ta = aml_integer(b + head, end - head, &la), tb = ta;
	if (la && count >= 2)
		tb = aml_integer(b + head + la, end - head - la, &lb);
	if (count == 0 || la == 0 || (count >= 2 && lb == 0)) {
		warn(a, "acpi: DSDT at 0x%llx: the \\_S5 package at offset %u does not start "
		     "with two integer constants; ignored", (unsigned long long)dsdt, at);
		return false;
	}
	if (ta > SLP_TYP_MAX || tb > SLP_TYP_MAX) {
		warn(a, "acpi: DSDT at 0x%llx: the \\_S5 package at offset %u gives SLP_TYP "
		     "0x%llx and 0x%llx, more than 3 bits; ignored", (unsigned long long)dsdt, at,
		     (unsigned long long)ta, (unsigned long long)tb);
		return false;
	}
	p->slp_typ_a = (uint8_t)ta;
	p->slp_typ_b = (uint8_t)tb;
	return true;
}

// Scan the DSDT (len bytes at dsdt, checksum verified) for \_S5.
static bool s5_scan(struct acpi *a, uint64_t dsdt, uint32_t len, struct acpi_power *p)
{
	uint8_t b[AML_SCAN_CHUNK];

	// Chunks overlap by 3 bytes, so a name cut by a chunk's end is whole in
	// the next one, and no match is seen twice.
	for (uint32_t off = SDT_HEADER_LEN; off + 4 <= len; off += AML_SCAN_CHUNK - 3) {
		uint32_t n = len - off < AML_SCAN_CHUNK ? len - off : AML_SCAN_CHUNK;
		if (!rd(a, dsdt + off, b, n))
			return false;	// read whole a moment ago
		for (uint32_t i = 0; i + 4 <= n; i++)
			if (b[i] == '_' && b[i + 1] == 'S' && b[i + 2] == '5' && b[i + 3] == '_' &&
			    s5_package(a, dsdt, len, off + i, p))
				return true;
	}
	return false;
}

// The S5 registers of the FADT f (len bytes read, zeros past its end).
static void s5_find(struct acpi *a, const uint8_t *f, uint32_t len, struct acpi_power *p)
{
	uint32_t dlen;
	uint8_t rev;

	p->smi_cmd = le32(f + FADT_SMI_CMD);
	p->acpi_enable = f[FADT_ACPI_ENABLE];
	p->pm1a_cnt = gas_io(le32(f + FADT_PM1A_CNT), 16);
	p->pm1b_cnt = gas_io(le32(f + FADT_PM1B_CNT), 16);
	if (len >= FADT_X_PM1A_CNT + GAS_LEN && le64(f + FADT_X_PM1A_CNT + 4))
		p->pm1a_cnt = gas(f + FADT_X_PM1A_CNT);
	if (len >= FADT_X_PM1B_CNT + GAS_LEN && le64(f + FADT_X_PM1B_CNT + 4))
		p->pm1b_cnt = gas(f + FADT_X_PM1B_CNT);
	p->dsdt = len >= FADT_X_DSDT + 8 ? le64(f + FADT_X_DSDT) : 0;
	if (p->dsdt == 0)
		p->dsdt = le32(f + FADT_DSDT);

	if (p->hw_reduced) {
		p->s5_why = "hardware-reduced ACPI: no PM1 control registers";
		return;
	}
	if (p->pm1a_cnt.address == 0) {
		p->s5_why = "the FADT gives no PM1a control block";
		return;
	}
	if ((p->pm1a_cnt.space != ACPI_SPACE_IO && p->pm1a_cnt.space != ACPI_SPACE_MEMORY) ||
	    (p->pm1b_cnt.address && p->pm1b_cnt.space != ACPI_SPACE_IO &&
	     p->pm1b_cnt.space != ACPI_SPACE_MEMORY)) {
		p->s5_why = "a PM1 control block is neither in I/O nor in memory space";
		return;
	}
	if (p->dsdt == 0) {
		p->s5_why = "the FADT gives no DSDT";
		return;
	}
	if (!sdt_valid(a, p->dsdt, "DSDT", SDT_HEADER_LEN, "the FADT's pointer", &dlen, &rev)) {
		p->dsdt = 0;
		p->s5_why = "the DSDT is unusable";
		return;
	}
	if (!s5_scan(a, p->dsdt, dlen, p)) {
		p->s5_why = "the DSDT has no \\_S5 package ramsift can read";
		return;
	}
	p->s5 = true;
}

static void reset_find(const uint8_t *f, uint32_t len, struct acpi_power *p)
{
	if (len < FADT_RESET_VALUE + 1) {
		p->reset_why = "the FADT is too short (ACPI 1.0) to have one";
		return;
	}
	p->reset_reg = gas(f + FADT_RESET_REG);
	p->reset_value = f[FADT_RESET_VALUE];
	if (!(le32(f + FADT_FLAGS) & FADT_RESET_REG_SUP))
		p->reset_why = "the FADT's RESET_REG_SUP flag is clear";
	else if (p->reset_reg.address == 0)
		p->reset_why = "the FADT's RESET_REG is null";
	else if (p->reset_reg.space > ACPI_SPACE_PCI)
		p->reset_why = "the FADT's RESET_REG is in an address space ramsift cannot write";
	else
		p->reset = true;
}

bool acpi_find_power(bootinfo_read_fn read, bootinfo_warn_fn warn_fn, void *ctx,
		     const struct acpi_result *found, struct acpi_power *p)
{
	struct acpi a = { read, warn_fn, ctx, NULL, 0, NULL, &p->warnings };
	uint8_t f[FADT_READ_LEN] = { 0 };

	mem_set(p, 0, sizeof(*p));
	p->s5_why = p->reset_why = "no FADT";
	if (found->fadt == 0 || found->fadt_len < FADT_MIN_LEN)
		return false;
	uint32_t len = found->fadt_len < FADT_READ_LEN ? found->fadt_len : FADT_READ_LEN;
	if (!rd(&a, found->fadt, f, len))
		return false;	// read whole a moment ago
	p->fadt = found->fadt;
	p->fadt_revision = found->fadt_revision;
	p->hw_reduced = le32(f + FADT_FLAGS) & FADT_HW_REDUCED;
	s5_find(&a, f, found->fadt_len, p);
	reset_find(f, found->fadt_len, p);
	if (p->fadt_revision >= FADT_BOOT_ARCH_REV)
		p->i8042 = (f[FADT_BOOT_ARCH] | f[FADT_BOOT_ARCH + 1] << 8) & FADT_BOOT_ARCH_8042
				   ? ACPI_8042_MAYBE : ACPI_8042_ABSENT;
	return p->s5 || p->reset;
}

// Where a register is, in words: "I/O port 0x604", "memory 0xfed00000",
// "PCI 00:1f.0 offset 0xac".
static void put_gas(struct fmt_text *o, const struct acpi_gas *g)
{
	if (g->space == ACPI_SPACE_IO)
		fmt_text_put(o, "I/O port 0x%llx", (unsigned long long)g->address);
	else if (g->space == ACPI_SPACE_MEMORY)
		fmt_text_put(o, "memory 0x%llx", (unsigned long long)g->address);
	else
		fmt_text_put(o, "PCI 00:%02x.%x offset 0x%x",
		             (unsigned)(g->address >> 32 & 0xffff),
		             (unsigned)(g->address >> 16 & 0xffff), (unsigned)(g->address & 0xffff));
}

const char *acpi_describe_power(char *buf, size_t size, const struct acpi_power *p)
{
	struct fmt_text o = fmt_text_start(buf, size);

	if (size == 0)
		return buf;
	if (p->s5) {
		fmt_text_put(&o, "ACPI S5 through PM1a control at ");
		put_gas(&o, &p->pm1a_cnt);
		fmt_text_put(&o, " (SLP_TYP %u)", p->slp_typ_a);
		if (p->pm1b_cnt.address) {
			fmt_text_put(&o, " and PM1b control at ");
			put_gas(&o, &p->pm1b_cnt);
			fmt_text_put(&o, " (SLP_TYP %u)", p->slp_typ_b);
		}
	} else {
		fmt_text_put(&o, "no ACPI S5 (%s)", p->s5_why);
	}
	if (p->reset) {
		fmt_text_put(&o, "; ACPI reset register at ");
		put_gas(&o, &p->reset_reg);
		fmt_text_put(&o, " (value 0x%x)", p->reset_value);
	} else {
		fmt_text_put(&o, "; no ACPI reset register (%s)", p->reset_why);
	}
	return buf;
}
