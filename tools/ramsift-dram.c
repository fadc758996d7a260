// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-dram: learn the DRAM's bank functions and row bits with lib/dram
// (the DRAMA method), on the machine it runs on (root, Linux, x86-64) or,
// with --simulate MAP, against a simulated memory controller. Prints
// `dram: bank function 0x...` (one line per basis mask), `dram: row bits
// A-B` and `dram: validation ...`, or `dram: no mapping found: <why>`; then
// `dram: measurements=N threshold=T`. A map its own validation rejects is
// never printed. Exit status: 0 a mapping was learned, 1 none was found,
// 2 usage or bad input (an unreadable or bad MAP file).
//
// --simulate MAP --hammer runs lib/dram's row hammer test instead, against
// the model's disturbance (its hammer and victims lines) with the model's
// map, or with rows guessed --row-stride bytes apart, over all its memory,
// pass after pass until every site was hammered once (or --passes), and
// prints `hammer: rows=... rate=... errors=... hammer_only=...` and
// `hammer: victims found=F of N`; exit status 0.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram/hammer.h"
#include "dram/learn.h"
#include "dram/map_lines.h"
#include "dram/mapfile.h"
#include "dram/native.h"
#include "dram/sim.h"

#define MAP_FILE_MAX (64u << 10)

struct options {
	const char *map;	// --simulate MAP, or NULL
	uint64_t seed;
	unsigned seconds;
	unsigned pages;		// huge pages of the native buffer
	bool hammer;		// --hammer: the row hammer test, not the learning
	unsigned sides, decoys;
	uint64_t row_stride;	// --row-stride: guess the rows; 0: the model's map
	uint64_t passes;	// --passes: at most this many; 0: every site once
	uint32_t sites;		// --sites: sites per pass
};

static int usage(const char *why)
{
	fprintf(stderr, "ramsift-dram: %s\n"
		"usage: ramsift-dram [--seed N] [--seconds N] [--pages N] [--simulate MAP]\n"
		"       ramsift-dram --simulate MAP --hammer [--sides N] [--decoys N]\n"
		"                    [--row-stride BYTES] [--passes N] [--sites N] [--seed N]\n", why);
	return 2;
}

// A whole decimal argument in 1..max (0 allowed for the seed).
static bool arg_number(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && errno == 0 && *v <= max;
}

// One of --hammer's options with its value.
static bool parse_hammer_arg(const char *a, const char *val, struct options *o)
{
	unsigned long long v;

	if (!strcmp(a, "--sides") && arg_number(val, HAMMER_MAX_SIDES, &v) && v >= 2)
		o->sides = (unsigned)v;
	else if (!strcmp(a, "--decoys") && arg_number(val, HAMMER_MAX_DECOYS, &v))
		o->decoys = (unsigned)v;
	else if (!strcmp(a, "--row-stride") && arg_number(val, 1ull << 40, &v) && v >= 64 &&
		 !(v & (v - 1)))
		o->row_stride = v;
	else if (!strcmp(a, "--passes") && arg_number(val, UINT32_MAX, &v) && v)
		o->passes = v;
	else if (!strcmp(a, "--sites") && arg_number(val, UINT32_MAX, &v) && v)
		o->sites = (uint32_t)v;
	else
		return false;
	return true;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .seed = 1, .seconds = 10, .pages = 32, .sides = 2, .sites = 4096 };
	for (int i = 1; i < argc; i++) {
		unsigned long long v;
		const char *a = argv[i];

		if (!strcmp(a, "--hammer")) {
			o->hammer = true;
			continue;
		}
		if (i + 1 == argc)
			return usage(!strcmp(a, "--help") ? "learns the DRAM mapping" : "missing value");
		if (!strcmp(a, "--simulate")) {
			o->map = argv[++i];
		} else if (!strcmp(a, "--seed") && arg_number(argv[i + 1], UINT64_MAX, &v)) {
			o->seed = v;
			i++;
		} else if (!strcmp(a, "--seconds") && arg_number(argv[i + 1], 3600, &v) && v) {
			o->seconds = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--pages") && arg_number(argv[i + 1], NATIVE_MAX_PAGES, &v) && v) {
			o->pages = (unsigned)v;
			i++;
		} else if (!parse_hammer_arg(a, argv[i + 1], o)) {
			return usage("bad option or value");
		} else {
			i++;
		}
	}
	if (o->hammer && !o->map)
		return usage("--hammer needs --simulate MAP");
	return 0;
}

// The result's lines; the exit status.
static int report(const struct dram_result *r)
{
	char line[160];

	if (r->outcome == DRAM_LEARNED) {
		for (unsigned i = 0; dram_map_line(&r->map, &r->validation, i, line, sizeof(line)); i++)
			printf("dram: %s\n", line);
	} else {
		printf("dram: no mapping found: %s", dram_outcome_text(r->outcome));
		if (r->outcome == DRAM_REJECTED) {
			dram_format_validation(line, sizeof(line), &r->validation);
			printf(" (%s precision=%u.%03u recall=%u.%03u)", line,
			       dram_precision_milli(&r->validation) / 1000,
			       dram_precision_milli(&r->validation) % 1000,
			       dram_recall_milli(&r->validation) / 1000,
			       dram_recall_milli(&r->validation) % 1000);
		}
		printf("\n");
	}
	printf("dram: measurements=%u threshold=%u\n", r->measurements, r->threshold);
	return r->outcome == DRAM_LEARNED ? 0 : 1;
}

static int learn(const struct dram_machine *m, uint64_t seed)
{
	static const struct dram_limits lim = DRAM_LIMITS_DEFAULT;
	struct dram_result r;
	void *scratch = malloc(dram_scratch_size(&lim));

	if (!scratch) {
		printf("dram: no mapping found: out of host memory\n");
		return 1;
	}
	dram_learn(m, &lim, seed, scratch, dram_scratch_size(&lim), &r);
	free(scratch);
	return report(&r);
}

// Read the whole MAP file into buf[0..cap).
static bool read_map(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		fprintf(stderr, "ramsift-dram: %s: %s\n", path, strerror(errno));
		return false;
	}
	n = fread(buf, 1, cap, f);
	fclose(f);
	if (n == cap) {
		fprintf(stderr, "ramsift-dram: %s: larger than %u bytes\n", path, MAP_FILE_MAX - 1);
		return false;
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		fprintf(stderr, "ramsift-dram: %s: not a text file (a NUL byte)\n", path);
		return false;
	}
	return true;
}

// lib/dram's hammer test over all of the model's memory, a pass after
// another until every site was hammered once (or o->passes).
static int hammer(const struct options *o, const struct sim *s)
{
	static struct sim_hammer h;
	const struct range all = { 0, s->cfg.size };
	const struct dram_map *map = o->row_stride ? NULL : &s->cfg.map;
	struct hammer_plan p;
	struct hammer_result sum = { .guessed = map == NULL }, res;
	const struct hammer_ctx ctx = {
		.fill = sim_hammer_fill, .read = sim_hammer_read, .hammer = sim_hammer_activate,
		.error = sim_hammer_report, .vulnerable = sim_hammer_report, .cb_ctx = &h,
		.tsc_hz = SIM_TSC_HZ, .max_rate = UINT32_MAX, .low_rate = HAMMER_LOW_RATE,
	};

	if (!sim_hammer_init(&h, s, o->seed)) {
		fprintf(stderr, "ramsift-dram: %s: room for only %u of %u victims\n", o->map,
			h.ncells, s->cfg.victims);
		return 2;
	}
	if (!hammer_plan_init(&p, map, o->row_stride, &all, 1, o->sides, o->decoys, o->sites))
		return usage("no hammer plan for these options");
	uint64_t passes = p.per_pass ? (p.sites + p.per_pass - 1) / p.per_pass : 0;
	if (o->passes && o->passes < passes)
		passes = o->passes;
	for (uint64_t pass = 0; pass < passes; pass++) {
		hammer_run(&p, pass, 0, 1, &ctx, &res);
		sum.sites += res.sites;
		sum.rows += res.rows;
		sum.acts += res.acts;
		sum.ticks += res.ticks;
		sum.errors += res.errors;
		sum.hammer_only += res.hammer_only;
	}
	if (sum.guessed)
		printf("hammer: no map: rows guessed %llu bytes apart\n",
		       (unsigned long long)o->row_stride);
	printf("hammer: rows=%u rate=%u per aggressor per 64 ms errors=%u hammer_only=%u "
	       "(%u-sided, %u decoys, %llu passes)\n", sum.rows, hammer_rate(&sum, SIM_TSC_HZ), sum.errors,
	       sum.hammer_only, o->sides, o->decoys, (unsigned long long)passes);
	printf("hammer: victims found=%u of %u (hammer %u)\n", sim_hammer_found(&h), h.ncells,
	       s->cfg.hammer);
	return 0;
}

static int simulate(const struct options *o)
{
	static char text[MAP_FILE_MAX];
	char err[256];
	struct sim_config cfg;
	struct sim s;
	struct range all;
	struct dram_machine m = { .time_pair = sim_time_pair, .ctx = &s, .ranges = &all,
				  .nranges = 1 };

	if (!read_map(o->map, text, sizeof(text)))
		return 2;
	if (!mapfile_parse(text, &cfg, err, sizeof(err))) {
		fprintf(stderr, "ramsift-dram: %s: %s\n", o->map, err);
		return 2;
	}
	sim_init(&s, &cfg, o->seed ^ 0x5eed);
	if (o->hammer)
		return hammer(o, &s);
	all = (struct range){ 0, cfg.size };
	return learn(&m, o->seed);
}

static int native(const struct options *o)
{
	struct native nt;
	const char *why = native_open(&nt, o->pages, o->seconds);
	struct dram_machine m = { .time_pair = native_time_pair, .expired = native_expired,
				  .ctx = &nt, .ranges = nt.ranges, .nranges = nt.n };
	int status;

	if (why) {
		native_close(&nt);
		printf("dram: no mapping found: %s\n", why);
		return 1;
	}
	status = learn(&m, o->seed);
	native_close(&nt);
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	int status = parse_args(argc, argv, &o);

	if (status)
		return status;
	status = o.map ? simulate(&o) : native(&o);
	return fflush(stdout) == 0 ? status : 2;
}
