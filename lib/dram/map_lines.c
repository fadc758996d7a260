// SPDX-License-Identifier: GPL-2.0-or-later
// A learned map's lines (see map_lines.h).
#include "fmt.h"
#include "dram/map_lines.h"

int dram_format_validation(char *buf, size_t size, const struct dram_validation *v)
{
	return fmt_snprintf(buf, size, "pairs=%u measured_conflicts=%u predicted_conflicts=%u both=%u",
			    v->pairs, v->measured, v->predicted, v->both);
}

bool dram_map_line(const struct dram_map *map, const struct dram_validation *v, unsigned i,
		   char *buf, size_t size)
{
	if (i < map->nfuncs) {
		fmt_snprintf(buf, size, "bank function 0x%llx", (unsigned long long)map->funcs[i]);
	} else if (i == map->nfuncs) {
		fmt_snprintf(buf, size, "row bits %u-%u", map->row_lo, map->row_hi);
	} else if (i == map->nfuncs + 1) {
		int n = fmt_snprintf(buf, size, "validation ");
		if (n >= 0 && (size_t)n < size)
			dram_format_validation(buf + n, size - (size_t)n, v);
	} else {
		return false;
	}
	return true;
}
