// SPDX-License-Identifier: GPL-2.0-or-later
// The move itself. The copy and the CR3 switch are one asm statement: the
// copy includes the stack this code runs on, so nothing may be written to
// the stack between the copy and the switch, or the copy would be stale.
#include "paging.h"
#include "relocate.h"

void relocate(uint64_t image, uint64_t image_bytes, uint64_t dest, uint64_t top)
{
	uint64_t tables = dest + image_bytes;
	void *d = (void *)(uintptr_t)dest;
	const void *s = (const void *)(uintptr_t)image;
	uint64_t words = image_bytes / 8;

	// Build the new tables without loading them (paging_build), then copy
	// and switch with no stack access in between.
	paging_build(tables, top, dest, image_bytes);
	__asm__ volatile("rep movsq\n\t"
			 "mov %3, %%cr3"
			 : "+D"(d), "+S"(s), "+c"(words)
			 : "r"(tables)
			 : "memory");
}
