// SPDX-License-Identifier: GPL-2.0-or-later
// The move itself. The copy and the CR3 switch are one asm statement: the
// copy includes the stack this code runs on, so nothing may be written to
// the stack between the copy and the switch, or the copy would be stale.
#include "paging.h"
#include "relocate.h"
#include "string.h"

uint64_t footprint_bytes(const struct footprint *fp)
{
	return fp->image_bytes + footprint_data_bytes(fp);
}

uint64_t footprint_data_bytes(const struct footprint *fp)
{
	return fp->table_bytes + fp->work_bytes;
}

uint64_t footprint_work(const struct footprint *fp)
{
	return fp->tables + fp->table_bytes;
}

void relocate(struct footprint *fp, uint64_t dest)
{
	uint64_t tables = dest + fp->image_bytes;
	void *d = (void *)(uintptr_t)dest;
	const void *s = (const void *)(uintptr_t)fp->image;
	uint64_t words = fp->image_bytes / 8;

	// Build the new tables without loading them (paging_build), then copy
	// and switch with no stack access in between.
	paging_build(tables, fp->top, dest, fp->image_bytes);
	mem_copy((void *)(uintptr_t)(tables + fp->table_bytes),
		 (const void *)(uintptr_t)footprint_work(fp), fp->work_bytes);
	__asm__ volatile("rep movsq\n\t"
			 "mov %3, %%cr3"
			 : "+D"(d), "+S"(s), "+c"(words)
			 : "r"(tables)
			 : "memory");
	fp->image = dest;
	fp->tables = tables;
}
