// SPDX-License-Identifier: GPL-2.0-or-later
// The memory-map snapshot (map.h).
#include <efi.h>
#include <efilib.h>

#include "map.h"

static const char *const type_name[] = {
	"EfiReservedMemoryType", "EfiLoaderCode", "EfiLoaderData", "EfiBootServicesCode",
	"EfiBootServicesData", "EfiRuntimeServicesCode", "EfiRuntimeServicesData",
	"EfiConventionalMemory", "EfiUnusableMemory", "EfiACPIReclaimMemory",
	"EfiACPIMemoryNVS", "EfiMemoryMappedIO", "EfiMemoryMappedIOPortSpace", "EfiPalCode",
	"EfiPersistentMemory",
};

const char *map_type_text(UINT32 type)
{
	return type < sizeof(type_name) / sizeof(type_name[0]) ? type_name[type] : "an unknown type";
}

// The UEFI spec's memory type usage after ExitBootServices: loader and
// boot-services memory is free then, ACPI reclaim once the tables are read.
BOOLEAN map_os_reuses(UINT32 type)
{
	return type == EfiLoaderCode || type == EfiLoaderData || type == EfiBootServicesCode ||
	       type == EfiBootServicesData || type == EfiACPIReclaimMemory;
}

// Memory ramsift can have tested: what is RAM while boot services run or
// after, not ACPI NVS, reserved, MMIO or a hole.
static BOOLEAN is_ram(UINT32 type)
{
	switch (type) {
	case EfiLoaderCode: case EfiLoaderData: case EfiBootServicesCode: case EfiBootServicesData:
	case EfiRuntimeServicesCode: case EfiRuntimeServicesData: case EfiConventionalMemory:
	case EfiUnusableMemory: case EfiACPIReclaimMemory: case MAP_PERSISTENT:
		return TRUE;
	default:
		return FALSE;
	}
}

EFI_MEMORY_DESCRIPTOR *map_at(const struct map *m, UINTN i)
{
	return (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)m->desc + i * m->dsize);
}

BOOLEAN map_snapshot(struct map *m)
{
	UINTN key;
	UINT32 version;

	m->desc = LibMemoryMap(&m->n, &key, &m->dsize, &version);
	if (!m->desc) {
		Print(L"ramsift-reserve: the firmware gave no memory map; nothing reserved\n");
		return FALSE;
	}
	m->ram_bytes = 0;
	for (UINTN i = 0; i < m->n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = map_at(m, i);
		if (d->Type != EfiMemoryMappedIO && d->Type != EfiMemoryMappedIOPortSpace &&
		    d->Type != EfiReservedMemoryType)
			m->ram_bytes += d->NumberOfPages * MAP_PAGE;
	}
	return TRUE;
}

void map_free(struct map *m)
{
	FreePool(m->desc);
	m->desc = NULL;
}

// The end of the descriptor holding addr (of a RAM type when ram_only), or
// 0 when none does. The map need not be sorted.
static UINT64 held_to(const struct map *m, UINT64 addr, BOOLEAN ram_only)
{
	for (UINTN i = 0; i < m->n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = map_at(m, i);
		if ((!ram_only || is_ram(d->Type)) && addr >= d->PhysicalStart &&
		    addr - d->PhysicalStart < d->NumberOfPages * MAP_PAGE)
			return d->PhysicalStart + d->NumberOfPages * MAP_PAGE;
	}
	return 0;
}

BOOLEAN map_holds(const struct map *m, UINT64 start, UINT64 end, BOOLEAN ram_only)
{
	// Each step moves to the end of a descriptor: at most n steps.
	for (UINTN steps = 0; start < end && steps <= m->n; steps++) {
		start = held_to(m, start, ram_only);
		if (start == 0)
			return FALSE;
	}
	return start >= end;
}
