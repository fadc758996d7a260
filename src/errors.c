// SPDX-License-Identifier: GPL-2.0-or-later
// The error path. Taken only when a test finds a fault, so a lock is fine.
#include "errors.h"
#include "log.h"
#include "memstr.h"
#include "x86/spinlock.h"

static struct spinlock lock;
static struct badram_table table;
static uint64_t total, printed, last;
static uint32_t cap;

// The distinct failing words (errors_cells): a list, and an open-addressed
// index into it of twice its size, so a word failing again costs a probe.
#define CELL_SLOTS (2 * ERRORS_CELLS_MAX)
static uint64_t cells[ERRORS_CELLS_MAX];
static uint16_t cell_slot[CELL_SLOTS];	// 0 free, else index + 1
static size_t ncells;
static bool cells_full;

static void add_cell(uint64_t addr)
{
	size_t h = (size_t)((addr >> 3) * 0x9e3779b97f4a7c15ull >> 53) & (CELL_SLOTS - 1);

	_Static_assert((CELL_SLOTS & (CELL_SLOTS - 1)) == 0, "a power of two");
	for (; cell_slot[h]; h = (h + 1) & (CELL_SLOTS - 1)) {
		if (cells[cell_slot[h] - 1] == addr)
			return;
	}
	if (ncells == ERRORS_CELLS_MAX) {
		cells_full = true;
		return;
	}
	cells[ncells++] = addr;
	cell_slot[h] = (uint16_t)ncells;
}

void errors_init(uint32_t print_cap, uint64_t *slots)
{
	cap = print_cap;
	total = printed = 0;
	ncells = 0;
	cells_full = false;
	mem_set(cell_slot, 0, sizeof(cell_slot));
	badram_table_init(&table, slots, ERRORS_TABLE_SLOTS);
}

void errors_moved(uint64_t *slots)
{
	table.slot = slots;
}

void errors_record(uint64_t addr, uint64_t expected, uint64_t actual, const char *test,
		   uint32_t pass, unsigned cpu)
{
	spin_lock(&lock);
	total++;
	last = addr;
	bool print = printed < cap;
	printed += print;
	badram_table_add(&table, addr);
	add_cell(addr);
	spin_unlock(&lock);
	if (print)
		log_info("ERROR addr=0x%016llx expected=0x%016llx actual=0x%016llx test=%s pass=%u cpu=%u",
			 (unsigned long long)addr, (unsigned long long)expected,
			 (unsigned long long)actual, test, pass, cpu);
}

void errors_record_page(uint64_t phys)
{
	spin_lock(&lock);
	last = phys;
	badram_table_add(&table, phys);
	spin_unlock(&lock);
}

bool errors_found(void)
{
	return total || !badram_table_empty(&table);
}

uint64_t errors_total(void)
{
	return total;
}

uint64_t errors_last_addr(void)
{
	return __atomic_load_n(&last, __ATOMIC_RELAXED);
}

uint64_t errors_unprinted(void)
{
	return total - printed;
}

const struct badram_table *errors_table(void)
{
	return &table;
}

const uint64_t *errors_cells(size_t *n, bool *all)
{
	*n = ncells;
	*all = !cells_full;
	return cells;
}

struct run_status *errors_to_status(struct run_status *s)
{
	s->errors = errors_total();
	s->failing_pages = errors_table()->n;
	return s;
}
