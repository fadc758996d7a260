// SPDX-License-Identifier: GPL-2.0-or-later
// The DRAM geometry learned before the passes, and the diagnosis of the failures (see dram_geometry.h).
#include "dram_geometry.h"
#include "dram/decode.h"
#include "dram/learn.h"
#include "dram/map_lines.h"
#include "errors.h"
#include "fmt.h"
#include "keypoll.h"
#include "log.h"
#include "memstr.h"
#include "stop.h"
#include "x86/dramtime.h"
#include "x86/timer.h"

// Reads of a and b per timed call: enough that a round is microseconds,
// so the TSC's resolution and the fences' cost stay small beside it.
#define PAIRS_PER_CALL 32
// Keys are polled every this many calls of expired().
#define KEY_POLL_CALLS 256

static struct dram_map learned;
static bool have_map;
static const char *status;
static struct dram_diagnosis diagnosis;
static bool diagnosed;

struct phase {
	uint64_t deadline_ms;
	unsigned calls;
	bool ended_by_key;
};

static uint32_t time_pair(void *ctx, uint64_t a, uint64_t b)
{
	(void)ctx;
	return dramtime_pair(a, b, PAIRS_PER_CALL);
}

static bool expired(void *ctx)
{
	struct phase *p = ctx;

	if (++p->calls % KEY_POLL_CALLS == 0) {
		enum key_action k = keys_poll();
		if (k == KEY_STOP)
			stop_request();
		if (k != KEY_NONE)
			p->ended_by_key = true;
	}
	return p->ended_by_key || timer_ms() >= p->deadline_ms;
}

static void log_validation(const struct dram_validation *v)
{
	char words[LOG_LINE_MAX];

	dram_format_validation(words, sizeof(words), v);
	log_info("dram: validation %s", words);
}

static void log_map(const struct dram_result *r)
{
	char line[LOG_LINE_MAX];

	for (unsigned i = 0; dram_map_line(&r->map, &r->validation, i, line, sizeof(line)); i++)
		log_info("dram: %s", line);
}

// Why nothing is learned before trying, or NULL.
static const char *skip_reason(const struct config *cfg, const char *hypervisor)
{
	if (cfg->dram == DRAM_MODE_OFF) {
		status = "off";
		log_info("dram: off (dram=off); failures are diagnosed from address bits");
		return status;
	}
	if (hypervisor && cfg->dram != DRAM_MODE_FORCE) {
		status = "hypervisor";
		log_info("dram: no DRAM timing under a hypervisor (%s): its timing is not the DRAM's; "
			 "failures are diagnosed from address bits (dram=force tries anyway)", hypervisor);
		return status;
	}
	if (!dramtime_available()) {
		status = "no-clflush";
		log_info("dram: no DRAM timing: the CPU has no clflush; failures are diagnosed from "
			 "address bits");
		return status;
	}
	return NULL;
}

void dram_learn_geometry(const struct config *cfg, const struct ram *ram, const char *hypervisor,
		uint64_t seed, void *scratch, size_t bytes)
{
	static const struct dram_limits lim = DRAM_LIMITS_DEFAULT;
	static struct dram_result r;
	uint64_t start = timer_ms();
	struct phase p = { .deadline_ms = start + DRAM_PHASE_MS };
	struct dram_machine m = { time_pair, expired, &p, ram->usable, ram->nusable };
	char took[FMT_SIZE_LEN];

	if (skip_reason(cfg, hypervisor))
		return;
	log_info("dram: learning the DRAM's bank mapping from access timing (%u s at most; "
		 "s skips it)%s", DRAM_PHASE_MS / 1000,
		 hypervisor ? "; under a hypervisor the timing is not the DRAM's" : "");
	dram_learn(&m, &lim, seed, scratch, bytes, &r);
	fmt_snprintf(took, sizeof(took), "%llu.%llu s", (unsigned long long)((timer_ms() - start) / 1000),
		     (unsigned long long)((timer_ms() - start) / 100 % 10));
	status = dram_outcome_name(r.outcome);
	if (r.outcome == DRAM_LEARNED) {
		learned = r.map;
		have_map = true;
		log_map(&r);
		log_info("dram: learned in %s (%u measurements); failures are diagnosed in DRAM terms",
			 took, r.measurements);
		return;
	}
	if (r.outcome == DRAM_REJECTED)
		log_validation(&r.validation);	// never the map it rejected
	log_info("dram: no mapping learned%s: %s (%s, %u measurements); failures are diagnosed from "
		 "address bits", p.ended_by_key ? " (a key ended it)" : "",
		 dram_outcome_text(r.outcome), took, r.measurements);
}

const struct dram_map *dram_map_learned(void)
{
	return have_map ? &learned : NULL;
}

const char *dram_status(void)
{
	return status;
}

// The lowest CELLS_LISTED failing words in DRAM terms: under the learned
// map, or the diagnosis's guess (diagnose.h) without one.
#define CELLS_LISTED 16
static void log_cells(const uint64_t *addrs, size_t n)
{
	const struct dram_map *map = dram_map_learned();
	struct dram_addr a;

	for (size_t i = 0; i < n && i < CELLS_LISTED; i++) {
		if (map) {
			dram_decode(map, addrs[i], &a);
			log_info("cell: addr=0x%016llx bank=%u row=0x%llx column=0x%llx",
				 (unsigned long long)addrs[i], a.bank, (unsigned long long)a.row,
				 (unsigned long long)a.column);
		} else {
			log_info("cell: addr=0x%016llx row=0x%llx column=0x%llx (no DRAM mapping: the row "
				 "is the MiB, the column address bits 3-6 and 8-12)",
				 (unsigned long long)addrs[i],
				 (unsigned long long)(addrs[i] >> DRAM_DIAG_GUESS_ROW_SHIFT),
				 (unsigned long long)(addrs[i] & DRAM_DIAG_GUESS_COLUMN_MASK));
		}
	}
	if (n > CELLS_LISTED)
		log_info("cell: %zu more failing words, not listed", n - CELLS_LISTED);
}

void dram_report_diagnosis(void)
{
	static uint64_t addrs[ERRORS_CELLS_MAX], scratch[ERRORS_CELLS_MAX];
	static char words[LOG_LINE_MAX];
	size_t n;
	bool all;
	const uint64_t *cells = errors_cells(&n, &all);

	if (n == 0)
		return;
	mem_copy(addrs, cells, n * sizeof(addrs[0]));
	dram_diagnose(addrs, n, scratch, dram_map_learned(), &diagnosis);
	diagnosed = true;
	log_cells(addrs, diagnosis.cells);
	dram_diagnosis_format(&diagnosis, words, sizeof(words));
	log_info("diagnosis: %s", words);
	if (!all)
		log_info("summary: the diagnosis reads the first %u distinct failing words only",
			 ERRORS_CELLS_MAX);
}

const struct dram_diagnosis *dram_diagnosis(void)
{
	return diagnosed ? &diagnosis : NULL;
}
