// SPDX-License-Identifier: GPL-2.0-or-later
// The run's JSON line: one object holding what the text lines of a run say
// (the result line's counters, the seed, the CPUs, the firmware, the
// loader, the command line and the settings, the failing pages, the fold's
// pairs, lines and numbers, the machine's identity), for a collector that
// reads one line instead of scraping many. Pure: src/ gathers the inputs
// and prints "json: " and the text. The keys and their meaning are
// docs/output-contract.md's ("The JSON line"); they are only added to.
#ifndef RAMSIFT_LIB_RUN_RUNJSON_H
#define RAMSIFT_LIB_RUN_RUNJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "boot/cmdline.h"
#include "boot/multiboot.h"
#include "boot/smbios.h"
#include "dram/diagnose.h"
#include "dram/dram.h"
#include "run/status.h"

// The schema's version, the object's first member ("ramsift_json"): raised
// only if a key ever had to change meaning.
#define RUNJSON_SCHEMA 1

// The buffer that always holds the line: the object without its lists
// (pages, DIMMs) fits in it whatever the strings hold (a command line of
// control characters is six times its length escaped).
#define RUNJSON_LINE_MAX (64 * 1024)

// What became of the result record (src/record_keep.c, the nvram: line).
struct runjson_nvram {
	bool kept;			// written into the UEFI variable
	uint64_t bytes;			// the record's size; 0 when none was made
	uint64_t pages, ranges;		// the failing pages it lists, in ranges
	bool pages_cut;			// not all fitted: its fold pairs cover the rest
	const char *why;		// the nvram: line's words after "nvram: "
};

struct runjson {
	const char *version;		// the build's version
	enum result result;
	const struct run_status *status;	// passes_done, errors, tested_bytes, usable_bytes
	uint64_t elapsed_ms;		// as the result line's elapsed_s
	const struct config *cfg;	// the settings in force
	bool seed_known;		// the run chose its seed (else the run ended before)
	uint64_t seed;
	unsigned cpus;			// enabled CPUs the MADT lists; 0: unknown
	const struct bootinfo *bi;	// the loader's information; NULL: none
	const uint64_t *pages;		// the lowest failing page addresses, ascending
	size_t npages;
	uint64_t failing_pages;		// distinct failing pages recorded
	bool pages_lower_bound;		// the table overflowed: more pages failed
	const struct badram_result *fold;	// the final fold; NULL: none
	bool fold_uefi;			// it was folded in the fold's UEFI mode
	const struct smbios_info *smbios;	// NULL or status != SMBIOS_FOUND: unknown
	const char *hypervisor;		// the hypervisor's name; NULL: none
	uint64_t mce_corrected;		// machine-check records polled: corrected,
	uint64_t mce_uncorrected;	// and uncorrected without a machine check
	const struct runjson_nvram *nvram;	// NULL: the run ended before that step
	const char *dram_status;	// the DRAM geometry learning's end (src/dram_geometry.h); NULL: not reached
	const struct dram_map *dram_map;	// the learned map; NULL: none
	const struct dram_diagnosis *diagnosis;	// the failures in DRAM terms; NULL: none
	bool hammered;			// the hammer test ran
	uint32_t hammer_rate;		// its highest rate: activations per aggressor per 64 ms
	uint64_t hammer_rows;		// victim rows it hammered
	uint64_t hammer_only;		// words flipped only at the maximum rate
	char *scratch;			// BADRAM_LINE_MAX bytes for the fold's lines
					// (badram_json), when fold is not NULL
};

// Write the object into buf[0..len) (NUL-terminated). When the whole does
// not fit, the page and DIMM lists are left out and "truncated" is true; if
// that does not fit either, only the run's counters are written (len >=
// RUNJSON_LINE_MAX always holds that). Returns whether the text is complete
// JSON; false only when len is too small even for that.
bool runjson_render(char *buf, size_t len, const struct runjson *in);

#endif
