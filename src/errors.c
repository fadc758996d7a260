// SPDX-License-Identifier: GPL-2.0-or-later
// The error path. Taken only when a test finds a fault, so a lock is fine.
#include "errors.h"
#include "log.h"
#include "x86/spinlock.h"

static struct spinlock lock;
static struct badram_table table;
static uint64_t total, printed, last;
static uint32_t cap;

void errors_init(uint32_t print_cap, uint64_t *slots)
{
	cap = print_cap;
	total = printed = 0;
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

struct run_status *errors_to_status(struct run_status *s)
{
	s->errors = errors_total();
	s->failing_pages = errors_table()->n;
	return s;
}
