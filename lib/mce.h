// SPDX-License-Identifier: GPL-2.0-or-later
// Machine-check bank records (Intel SDM vol. 3B, chapter 15 "Machine-Check
// Architecture"; AMD APM vol. 2, chapter 9): what a record's bits mean,
// which address it names, its log line, and which banks ramsift leaves to
// the firmware. Pure: src/x86/mca.c reads and writes the MSRs.
#ifndef RAMSIFT_LIB_MCE_H
#define RAMSIFT_LIB_MCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// IA32_MCG_CAP (SDM 15.3.1.1).
#define MCG_CAP_COUNT_MASK	0xffull		// the number of banks
#define MCG_CAP_CTL_P		(1ull << 8)	// IA32_MCG_CTL exists
#define MCG_CAP_SER_P		(1ull << 24)	// MISC's address mode and LSB are valid

// IA32_MCG_STATUS (SDM 15.3.1.2).
#define MCG_STATUS_RIPV		(1ull << 0)	// the program can restart at the saved RIP
#define MCG_STATUS_EIPV		(1ull << 1)	// the saved RIP is where the error happened
#define MCG_STATUS_MCIP		(1ull << 2)	// a machine check is in progress

// IA32_MCi_STATUS (SDM 15.3.2.2).
#define MCI_STATUS_VAL		(1ull << 63)	// the bank holds a record
#define MCI_STATUS_OVER		(1ull << 62)	// an earlier record was lost
#define MCI_STATUS_UC		(1ull << 61)	// the error was not corrected
#define MCI_STATUS_EN		(1ull << 60)	// it was enabled to signal #MC
#define MCI_STATUS_MISCV	(1ull << 59)	// MISC holds information
#define MCI_STATUS_ADDRV	(1ull << 58)	// ADDR holds the address
#define MCI_STATUS_PCC		(1ull << 57)	// the processor context is corrupt

// IA32_MCi_MISC with MCG_CAP_SER_P (SDM 15.3.2.4.3): bits 5:0 the lowest
// valid bit of ADDR, bits 8:6 the address mode (2: physical).
#define MCI_MISC_LSB(misc)	((unsigned)((misc) & 0x3f))
#define MCI_MISC_MODE(misc)	((unsigned)(((misc) >> 6) & 7))
#define MCI_MISC_MODE_PHYS	2

// Physical addresses have at most 52 bits (SDM 4.1.4, MAXPHYADDR).
#define MCE_PHYS_MASK		((1ull << 52) - 1)

// One bank's record as read from one CPU.
struct mce_record {
	unsigned cpu, bank;
	uint64_t status;
	uint64_t addr;		// 0 unless status has ADDRV
	uint64_t misc;		// 0 unless status has MISCV
};

// What a record is.
enum mce_kind {
	MCE_EMPTY,		// VAL clear: nothing logged
	MCE_CORRECTED,		// UC clear: corrected (by ECC, a retry, ...)
	MCE_UNCORRECTED,	// UC set
};

enum mce_kind mce_kind(uint64_t status);

// The physical address the record names, bits below its valid LSB
// cleared, into *phys; false when it names none (ADDRV clear, or MISC says
// the address is not physical; the mode is read only when mcg_cap has
// SER_P and status MISCV, otherwise ADDR is taken as physical, SDM
// 15.3.2.3).
bool mce_phys_addr(const struct mce_record *r, uint64_t mcg_cap, uint64_t *phys);

// "MCE cpu=N bank=B status=0x... addr=0x... misc=0x... WHEN" into
// buf[0..len), as snprintf; when is "corrected", "at boot", ...
int mce_line(char *buf, size_t len, const struct mce_record *r, const char *when);

// CPUID's vendor, as ramsift tells the makers apart.
enum mce_vendor { MCE_VENDOR_OTHER, MCE_VENDOR_INTEL, MCE_VENDOR_AMD };

// Whether ramsift leaves bank's control register as the firmware set it:
// bank 0 of Intel family 6 before model 1AH (SDM 15.8, example 15-1: the
// BIOS initialises it on those processors), and of AMD family 6 (Athlon:
// bank 0 reports spurious errors when enabled, as Linux found).
// family and model are CPUID's display values (extended fields added).
bool mce_bank_left_to_firmware(enum mce_vendor vendor, unsigned family, unsigned model,
			       unsigned bank);

#endif
