// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-dram: learn the DRAM's bank functions and row bits with lib/dram
// (the DRAMA method), on the machine it runs on (root, Linux, x86-64) or,
// with --simulate MAP, against a simulated memory controller. Prints
// `dram: bank function 0x...` (one line per basis mask), `dram: row bits
// A-B` and `dram: validation ...`, or `dram: no mapping found: <why>`; then
// `dram: measurements=N threshold=T`. A map its own validation rejects is
// never printed. Exit status: 0 a mapping was learned, 1 none was found,
// 2 usage or bad input (an unreadable or bad MAP file).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram/learn.h"
#include "dram/mapfile.h"
#include "dram/native.h"
#include "dram/sim.h"

#define MAP_FILE_MAX (64u << 10)

struct options {
	const char *map;	// --simulate MAP, or NULL
	uint64_t seed;
	unsigned seconds;
	unsigned pages;		// huge pages of the native buffer
};

static int usage(const char *why)
{
	fprintf(stderr, "ramsift-dram: %s\n"
		"usage: ramsift-dram [--seed N] [--seconds N] [--pages N] [--simulate MAP]\n", why);
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

static int parse_args(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .seed = 1, .seconds = 10, .pages = 32 };
	for (int i = 1; i < argc; i++) {
		unsigned long long v;
		const char *a = argv[i];

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
		} else {
			return usage("bad option or value");
		}
	}
	return 0;
}

static void print_validation(const struct dram_validation *v)
{
	printf("pairs=%u measured_conflicts=%u predicted_conflicts=%u both=%u", v->pairs,
	       v->measured, v->predicted, v->both);
}

// The result's lines; the exit status.
static int report(const struct dram_result *r)
{
	if (r->outcome == DRAM_LEARNED) {
		for (unsigned i = 0; i < r->map.nfuncs; i++)
			printf("dram: bank function 0x%llx\n", (unsigned long long)r->map.funcs[i]);
		printf("dram: row bits %u-%u\n", r->map.row_lo, r->map.row_hi);
		printf("dram: validation ");
		print_validation(&r->validation);
		printf("\n");
	} else {
		printf("dram: no mapping found: %s", dram_outcome_text(r->outcome));
		if (r->outcome == DRAM_REJECTED) {
			printf(" (");
			print_validation(&r->validation);
			printf(" precision=%u.%03u recall=%u.%03u)",
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
