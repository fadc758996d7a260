// SPDX-License-Identifier: GPL-2.0-or-later
// The ACPI tables ramsift reads: from the RSDP (the loader's Multiboot 2
// copy, else a scan of the BIOS areas) through the XSDT or RSDT to the MADT,
// whose processor entries name each CPU's local APIC ID, and to the FADT,
// whose registers power the machine off (ACPI S5, with the sleep type from
// the DSDT's \_S5 package) and reset it. Every byte is read through the
// caller's bounded reader and every table is length-checked and
// checksummed, so a broken table is reported (through the warn callback)
// and skipped, never followed out of bounds.
#ifndef RAMSIFT_LIB_BOOT_ACPI_H
#define RAMSIFT_LIB_BOOT_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"	// ACPI_CPUS_MAX
#include "boot/multiboot.h"

// The longest warning passed to the warn callback, its terminator included.
#define ACPI_WARNING_LEN 200

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
	uint64_t fadt;		// physical address of the first valid FADT the
				// root table lists ("FACP"); 0: none
	uint32_t fadt_len;
	uint8_t fadt_revision;
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

// Find the CPUs (and the FADT, for acpi_find_power). bi: the loader's information, whose ACPI RSDP copies (tags
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

// ---- power off and reset: the FADT (ACPI 6.5 section 5.2.9) ----

// A Generic Address Structure (ACPI 6.5 section 5.2.3.2): where a register is.
#define ACPI_SPACE_MEMORY	0
#define ACPI_SPACE_IO		1
#define ACPI_SPACE_PCI		2	// configuration space of bus 0: address bits
					// 47:32 device, 31:16 function, 15:0 offset
struct acpi_gas {
	uint8_t space;		// ACPI_SPACE_*
	uint8_t bit_width, bit_offset, access_size;
	uint64_t address;	// 0: the register is absent
};

// SLP_TYP's place and SLP_EN in the PM1 control registers (4.8.3.2.1), and
// SCI_EN, set when the hardware is in ACPI mode.
#define ACPI_PM1_SCI_EN		(1u << 0)
#define ACPI_PM1_SLP_TYP_SHIFT	10
#define ACPI_PM1_SLP_EN		(1u << 13)

// What the FADT says of an i8042 keyboard controller: IAPC_BOOT_ARCH bit 1
// (ACPI 6.5 section 5.2.9.3), a field FADT revision 2 and later carry.
enum acpi_i8042 {
	ACPI_8042_UNKNOWN,	// no FADT, or one too old to say
	ACPI_8042_MAYBE,	// the flag is set: the board may have one
	ACPI_8042_ABSENT,	// the flag is clear: there is none
};

struct acpi_power {
	uint64_t fadt;		// the FADT used; 0: none (then nothing below is set)
	uint8_t fadt_revision;
	bool hw_reduced;	// HW_REDUCED_ACPI: no PM1 registers
	uint64_t dsdt;		// the DSDT read; 0: none valid
	// Soft off (S5): write SLP_TYPa to PM1a and SLP_TYPb to PM1b, with SLP_EN.
	bool s5;		// all of it is known and usable
	struct acpi_gas pm1a_cnt, pm1b_cnt;	// I/O or memory; pm1b's address 0: none
	uint8_t slp_typ_a, slp_typ_b;
	uint32_t smi_cmd;	// port to write acpi_enable to for ACPI mode; 0: none
	uint8_t acpi_enable;
	const char *s5_why;	// !s5: why, for the log ("the DSDT has no \_S5 package")
	// Reset: write reset_value to reset_reg.
	bool reset;
	struct acpi_gas reset_reg;	// I/O, memory or PCI configuration space
	uint8_t reset_value;
	const char *reset_why;	// !reset: why, for the log
	enum acpi_i8042 i8042;
	size_t warnings;	// how many times warn was called
};

// What the FADT that acpi_find_cpus found (found->fadt; 0: none) says about
// powering off and resetting, into *p. The PM1 control blocks and the reset
// register are taken from their 64-bit (X_) fields when set, else from the
// 32-bit ones; the DSDT from X_DSDT when set, else DSDT. The DSDT must be
// valid (length, checksum); the \_S5 package is found by a scan of its AML
// for the name _S5_ after a NameOp (optionally with the root prefix)
// followed by a package whose first two elements are integer constants of
// at most 7 (one element stands for both). IAPC_BOOT_ARCH gives p->i8042
// when the FADT's revision is 2 or more. Absent features are no warning;
// broken tables and an \_S5 package that cannot be read are. Returns p->s5
// || p->reset.
bool acpi_find_power(bootinfo_read_fn read, bootinfo_warn_fn warn, void *ctx,
		     const struct acpi_result *found, struct acpi_power *p);

// The log's power line in buf (size bytes, always NUL-terminated when size >
// 0), e.g. "off through ACPI S5 (PM1a control at I/O port 0x604, SLP_TYP 0);
// reset through the ACPI reset register (I/O port 0xcf9, value 0xf)", or
// what is missing and what is used instead. Returns buf.
const char *acpi_describe_power(char *buf, size_t size, const struct acpi_power *p);

#endif
