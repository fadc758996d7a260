// SPDX-License-Identifier: GPL-2.0-or-later
// The result record: what a run found, kept in the UEFI variable
// RamsiftResult so that the next boot protects the machine with nothing
// typed (docs/output-contract.md, "The NVRAM record", is the format's one
// description). The image writes it (src/record_keep.c), the pre-loader
// (efi/ramsift-reserve.c) applies it, ramsift-apply (tools/) reads it on
// Linux: all three through this library. Pure: bytes in, bytes out.
//
// A record is at most RECORD_MAX_BYTES, little-endian, ending in a CRC-32
// of all the bytes before it. It holds the result line's fields, the run's
// date and seed, the machine's SMBIOS identity, the fold's budget and the
// usable RAM it folded against, and the failing pages as sorted page
// ranges; when not all of those fit, as many as fit, a flag, and the run's
// fold pairs, which cover every failing page.
#ifndef RAMSIFT_LIB_RECORD_RECORD_H
#define RAMSIFT_LIB_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "boot/smbios.h"	// smbios_string, struct smbios_info
#include "capacity.h"		// ERRORS_TABLE_SLOTS
#include "range.h"
#include "run/status.h"		// enum result: its values are the format's

// The variable: its name, the project's vendor GUID (text as efivarfs
// names it, and the EFI_GUID's bytes as they lie in memory: Data1, Data2
// and Data3 little-endian), and its attributes (non-volatile, boot-service
// and runtime access).
#define RECORD_VAR_NAME "RamsiftResult"
#define RECORD_GUID_TEXT "7ae28629-a6cc-4876-b74d-186249b7a3d3"
#define RECORD_GUID_BYTES { 0x29, 0x86, 0xe2, 0x7a, 0xcc, 0xa6, 0x76, 0x48, \
			    0xb7, 0x4d, 0x18, 0x62, 0x49, 0xb7, 0xa3, 0xd3 }
#define RECORD_ATTRIBUTES 0x7u

#define RECORD_MAX_BYTES 4096
#define RECORD_FORMAT 1		// the format version this library writes and reads
#define RECORD_VERSION_MAX 47	// bytes of ramsift's version string kept
#define RECORD_RAM_MAX 256	// usable RAM ranges kept (more: see ram_approx)
#define RECORD_RANGES_MAX 2048	// failing page ranges: more never fit 4 KiB
#define RECORD_MIN_BYTES 109	// every string empty, no RAM, nothing listed
// The error table's slots a fold of a record needs (record_fold), and the
// most failing pages a record lists: what that table holds before it
// overflows, and so the most a run ever lists. It bounds what
// record_table costs.
#define RECORD_FOLD_SLOTS ERRORS_TABLE_SLOTS
#define RECORD_PAGES_MAX (RECORD_FOLD_SLOTS - RECORD_FOLD_SLOTS / 8)

// The run's date (UTC, from the machine's clock); year 0: unknown, and
// then every field is 0 (record_encode writes a date record_date_valid
// refuses as unknown).
struct record_date {
	uint16_t year;
	uint8_t month, day, hour, minute, second;
};

struct record {
	// The result line's fields.
	enum result result;
	uint32_t passes;
	uint64_t errors;
	uint64_t tested_bytes, usable_bytes;
	uint64_t elapsed_ms;
	char version[RECORD_VERSION_MAX + 1];	// NUL-terminated (strings longer than
						// their limit are cut by record_encode)
	uint64_t seed;
	struct record_date date;
	// The machine (SMBIOS type 1), so that a record is never applied to
	// another one.
	smbios_string manufacturer, product, serial;
	bool uuid_known;
	uint8_t uuid[16];	// written as 0s unless uuid_known
	// The fold as the run made it: its budget and the usable RAM it
	// folded against, so that a fold of range[] gives the run's lines.
	struct badram_budget budget;
	bool ram_approx;	// more than RECORD_RAM_MAX ranges: ram[0] spans them all
	size_t nram;
	struct range ram[RECORD_RAM_MAX];
	// The failing pages: page-aligned byte ranges, sorted, disjoint and
	// not touching. failing_pages counts what the run found, listed or not.
	uint64_t failing_pages;
	bool pages_cut;		// not all are in range[]: pair[] covers every one
	size_t nranges;
	struct range range[RECORD_RANGES_MAX];
	unsigned npairs;	// 0 unless pages_cut
	struct badram_pair pair[BADRAM_MAX_PAIRS];
};

enum record_error {
	RECORD_OK,
	RECORD_SHORT,		// fewer bytes than a record of this format holds
	RECORD_TOO_LONG,	// more than RECORD_MAX_BYTES
	RECORD_BAD_MAGIC,	// not a ramsift record
	RECORD_BAD_FORMAT,	// a format version this build does not read
	RECORD_BAD_LENGTH,	// its length field is not the bytes given
	RECORD_BAD_CRC,		// the bytes changed since it was written
	RECORD_BAD_FIELD,	// a field holds a value no run writes
	RECORD_BAD_RANGE,	// a range is unsorted, overlapping, touching, empty or
				// beyond 2^52, or the pages pass RECORD_PAGES_MAX
	RECORD_BAD_PAIR,	// a pair is not a fold's (addr & ~mask, low bits)
	RECORD_INCONSISTENT,	// e.g. PASS with pages, FAIL with none
};

// One line saying what the error means, for the person who reads it.
const char *record_error_text(enum record_error e);

// Read the record in buf[0..len) into *r. Trusts nothing: every length,
// count and value is checked. On an error *at is the offset of the bad
// byte (the CRC's for RECORD_BAD_CRC) and *r is unspecified.
enum record_error record_decode(struct record *r, const void *buf, size_t len, size_t *at);

// The usable RAM the run folded against, ram[0..n) (sorted, disjoint).
void record_set_ram(struct record *r, const struct range *ram, size_t n);

// The failing pages: pages[0..n), distinct page addresses in ascending
// order, more when the list is incomplete (the table overflowed or was
// listed only in part), fold the run's final fold (NULL when nothing
// failed; needed whenever not every page can be listed). Keeps as many
// whole ranges as fit RECORD_MAX_BYTES with every other field, so set
// them first, and at most RECORD_PAGES_MAX pages; when not all are kept,
// or more, or the fold counts more failing pages than n, sets pages_cut
// and the fold's pairs. failing_pages is the larger of fold's and n.
void record_set_pages(struct record *r, const uint64_t *pages, size_t n, bool more,
		      const struct badram_result *fold);

// Write r into buf[0..cap); returns the bytes written, 0 when they do not
// fit cap (record_set_pages keeps them within RECORD_MAX_BYTES) or when r
// breaks a rule record_decode checks (a range, a pair, the budget, the
// rules between the result, the pages and the pairs), so that what is
// written always reads back. A record read by record_decode encodes to the
// same bytes.
size_t record_encode(const struct record *r, uint8_t *buf, size_t cap);

// The bytes record_encode writes for r (when r is valid).
size_t record_size(const struct record *r);

// Whether d is a date of the calendar (years 1-9999, Gregorian, seconds
// 0-59); the unknown date (all 0) is not.
bool record_date_valid(const struct record_date *d);

// Whether s (this machine's SMBIOS) is the machine r was written on: the
// manufacturer, product, serial and UUID all equal. A record or a machine
// naming nothing at all (no SMBIOS) matches nothing.
bool record_same_machine(const struct record *r, const struct smbios_info *s);

// Add every page of r's ranges to t (for the fold): at most
// RECORD_PAGES_MAX adds. False when t overflowed (more pages than its
// slots hold; still covered).
bool record_table(const struct record *r, struct badram_table *t);

// Fold r as the image folded the run (src/fold_report.c): a table of r's pages
// in slot[0..nslots) (a power of two, RECORD_FOLD_SLOTS recommended), then
// badram_fold against r->ram with r->budget in scratch[0..scratch_bytes)
// (BADRAM_FOLD_SCRATCH_BYTES(RECORD_FOLD_SLOTS) recommended), into *out,
// whose lines are then the run's own. When r->pages_cut, out's pairs are
// r's (the run's, covering every failing page) and its failing_pages r's;
// its memmap ranges and other numbers are those of the listed pages only.
// Returns true when out's memmap ranges are the run's: false when
// r->pages_cut or when slot[] overflowed (print no memmap= line then, or
// say it is incomplete). With r->ram_approx the fold is against one range
// spanning the run's RAM: its lines cover every failing page but may
// differ from the run's.
bool record_fold(const struct record *r, uint64_t *slot, size_t nslots, void *scratch,
		 size_t scratch_bytes, struct badram_result *out);

// Pages in r's ranges.
uint64_t record_listed_pages(const struct record *r);

// The run's result line, as status_line_result wrote it; returns the
// length it needs, as snprintf.
int record_result_line(char *buf, size_t len, const struct record *r);

// "2026-12-02 00:11:57 UTC", or "an unknown date"; as snprintf.
int record_date_text(char *buf, size_t len, const struct record_date *d);

#endif
