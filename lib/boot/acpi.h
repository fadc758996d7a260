// SPDX-License-Identifier: GPL-2.0-or-later
// Finding the CPUs: the ACPI tables that list them, from the RSDP (the loader's
// Multiboot 2 copy, else a scan of the BIOS areas) through the XSDT or RSDT
// to the MADT, whose processor entries name each CPU's local APIC ID. Every
// byte is read through the caller's bounded reader and every table is
// length-checked and checksummed, so a broken table is reported (through the
// warn callback) and skipped, never followed out of bounds.
#ifndef RAMSIFT_LIB_BOOT_ACPI_H
#define RAMSIFT_LIB_BOOT_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"	// ACPI_CPUS_MAX
#include "multiboot.h"

// The longest table ramsift reads; a longer length is taken for garbage (a
// MADT listing 4096 x2APIC CPUs is 64 KiB).
#define ACPI_TABLE_MAX	(1u << 20)

// One processor entry of the MADT that can run code: enabled now, or
// disabled but online-capable (one the firmware may enable later).
struct acpi_cpu {
	uint32_t apic_id;	// the local APIC ID: 8 bits (xAPIC) or 32 (x2APIC)
	uint32_t uid;		// the ACPI processor UID
	bool x2apic;		// from a Processor Local x2APIC entry (type 9)
	bool enabled;		// flags bit 0: ready for use
	bool online_capable;	// flags bit 1 (MADT revision 5 and later), when not enabled
};

// What acpi_find_cpus found; every status but ACPI_CPUS_FOUND leaves the
// BSP to test alone.
enum acpi_status {
	ACPI_CPUS_FOUND,	// the MADT lists at least one enabled CPU
	ACPI_NO_RSDP,		// no valid RSDP in the loader's tags or the BIOS areas
	ACPI_NO_ROOT,		// the RSDP points to neither a valid XSDT nor RSDT
	ACPI_NO_MADT,		// the XSDT or RSDT lists no valid MADT
	ACPI_NO_CPUS,		// the MADT lists no enabled CPU (cpus may hold
				// online-capable ones)
};

// Where the RSDP was found.
enum acpi_rsdp_from {
	ACPI_RSDP_NONE,
	ACPI_RSDP_MB2_NEW,	// the loader's copy, Multiboot 2 tag 15
	ACPI_RSDP_MB2_OLD,	// the loader's copy, Multiboot 2 tag 14
	ACPI_RSDP_EBDA,		// the first KiB of the Extended BIOS Data Area
	ACPI_RSDP_BIOS,		// 0xE0000-0xFFFFF
};

struct acpi_result {
	enum acpi_status status;
	enum acpi_rsdp_from rsdp_from;
	uint64_t rsdp;		// physical address; 0 for the loader's copy
	uint8_t rsdp_revision;	// 0: ACPI 1.0 (RSDT only), 2: later
	uint64_t root;		// physical address of the XSDT or RSDT used; 0: none
	bool xsdt;		// root is the XSDT
	uint64_t madt;		// physical address of the MADT; 0: none
	uint8_t madt_revision;
	uint64_t lapic_addr;	// the local APIC's registers (physical): the MADT's
				// field, or its Local APIC Address Override
	size_t cap;		// the caller's table: how many entries it holds
	size_t ncpus;		// entries written to it
	size_t nenabled;	// of them, those enabled (the rest: online-capable)
	size_t beyond;		// CPUs the MADT lists beyond the table's capacity
	size_t duplicates;	// entries dropped for repeating an APIC ID
	size_t unusable;	// entries neither enabled nor online-capable, ignored
	size_t warnings;	// how many times warn was called
};

// Find the CPUs. bi: the loader's information, whose ACPI RSDP copies (tags
// 15, then 14) are tried first; NULL, or no valid copy: the BIOS areas are
// scanned (the first KiB of the EBDA, whose segment is the word at physical
// 0x40E, then 0xE0000-0xFFFFF). The XSDT is used when the RSDP's revision is
// 2 or more and it is valid, else the RSDT (with a warning when an XSDT was
// expected). read serves physical memory (false: cannot be read); warn gets
// one sentence per problem, naming the table, its physical address and what
// is wrong; ctx is passed to both. cpus (cap entries) receives the MADT's
// usable CPUs in table order, each APIC ID once; res, everything else.
// Warned about and left out: an entry repeating an APIC ID, an entry with
// the invalid ID 0xFF (xAPIC) or 0xFFFFFFFF (x2APIC), the CPUs beyond cap
// (counted in res->beyond); left out silently: entries neither enabled nor
// online-capable (res->unusable), entry types other than 0, 5 and 9.
// Returns res->status.
enum acpi_status acpi_find_cpus(const struct bootinfo *bi, bootinfo_read_fn read,
				bootinfo_warn_fn warn, void *ctx, struct acpi_cpu *cpus,
				size_t cap, struct acpi_result *res);

// Why no CPU list, for the log: "no MADT found (no RSDP ...)" and the like
// ("CPUs found" for ACPI_CPUS_FOUND).
const char *acpi_status_text(enum acpi_status status);

// Describe what was found in buf (size bytes, always NUL-terminated when
// size > 0): "4 found in the MADT (APIC IDs 0 1 2 3)", the IDs of the
// enabled CPUs in table order, then ", 2 more disabled but online-capable",
// ", 3 more beyond the 512 kept" when there are such; IDs that do not fit
// end in "...". Returns buf.
const char *acpi_describe_cpus(char *buf, size_t size, const struct acpi_cpu *cpus,
			       const struct acpi_result *res);

#endif
