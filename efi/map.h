// SPDX-License-Identifier: GPL-2.0-or-later
// The firmware's memory map as the pre-loader found it, before its first
// allocation: every reservation is planned against this snapshot, so that
// what the pre-loader allocates itself never changes the plan.
#ifndef RAMSIFT_EFI_MAP_H
#define RAMSIFT_EFI_MAP_H

#include <efi.h>

#define MAP_PAGE 4096ull
#define MAP_PERSISTENT 14		// EfiPersistentMemory (UEFI 2.5), which gnu-efi 3.0.15 lacks
#define MAP_UNKNOWN 0xffffffffu		// a type no map has: the page is in none

struct map {
	EFI_MEMORY_DESCRIPTOR *desc;	// from the pool (LibMemoryMap)
	UINTN n, dsize;			// descriptors, and the size of one
	UINT64 ram_bytes;		// all but MMIO and reserved: the half-RAM bound's whole
};

// Take the snapshot into *m. False (after saying so) when the firmware
// gives no map.
BOOLEAN map_snapshot(struct map *m);
void map_free(struct map *m);

// The i-th descriptor, i < m->n.
EFI_MEMORY_DESCRIPTOR *map_at(const struct map *m, UINTN i);

// Whether descriptors hold [start, end) (bytes, start < end) whole: of a
// RAM type (conventional, boot services, loader, runtime, ACPI reclaim,
// unusable, persistent) when ram_only, of any type otherwise.
BOOLEAN map_holds(const struct map *m, UINT64 start, UINT64 end, BOOLEAN ram_only);

// The name of a memory type ("EfiBootServicesData"), and whether the OS
// takes such memory for its own use once it has booted.
const char *map_type_text(UINT32 type);
BOOLEAN map_os_reuses(UINT32 type);

#endif
