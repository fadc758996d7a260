// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-reserve.efi: takes the bad pages ramsift found out of the UEFI
// memory map before the boot loader runs, then starts that loader.
// Entered from the firmware's boot manager, the UEFI shell or GRUB's
// chainloader, as a UEFI application (boot services up). It reads
// badpages.txt in its own folder and then its load options (words of
// lib/reserve/reserve.h), allocates every page the pairs match as
// EfiUnusableMemory at its address, prints what it took and what it could
// not (with the memory type it is in use as), and starts loader=
// from its own partition. Allocated before any loader has a heap, the pages
// stay out of GRUB's, the kernel EFI stub's and the OS's memory. On an error
// it says what to fix, waits for a key (30 s at most) and returns, so the
// firmware goes on to its next boot entry.
#include <efi.h>
#include <efilib.h>

#include "reserve/reserve.h"

#define FILE_NAME L"badpages.txt"
#define FILE_MAX (64 * 1024)
#define PAUSE_100NS (30ull * 10000000)
#define LINES_MAX 40		// reserved ranges listed before a count (pages not taken: all)
#define PAGE 4096ull

static struct reserve_config cfg;
static char text[FILE_MAX];
static UINT8 map_now[256 * 1024];	// the map after our allocations (reports)

static const char *const type_name[] = {
	"EfiReservedMemoryType", "EfiLoaderCode", "EfiLoaderData", "EfiBootServicesCode",
	"EfiBootServicesData", "EfiRuntimeServicesCode", "EfiRuntimeServicesData",
	"EfiConventionalMemory", "EfiUnusableMemory", "EfiACPIReclaimMemory",
	"EfiACPIMemoryNVS", "EfiMemoryMappedIO", "EfiMemoryMappedIOPortSpace", "EfiPalCode",
	"EfiPersistentMemory",
};

static const char *type_text(UINT32 type)
{
	return type < sizeof(type_name) / sizeof(type_name[0]) ? type_name[type] : "an unknown type";
}

// The OS takes these for its own use once it has booted (the UEFI spec's
// memory type usage after ExitBootServices: free then, ACPI reclaim once
// the tables are read).
static BOOLEAN os_reuses(UINT32 type)
{
	return type == EfiLoaderCode || type == EfiLoaderData || type == EfiBootServicesCode ||
	       type == EfiBootServicesData || type == EfiACPIReclaimMemory;
}

static EFI_STATUS fail(EFI_STATUS status)
{
	Print(L"ramsift-reserve: press a key to return to the firmware (or wait 30 s)\n");
	uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
	WaitForSingleEvent(ST->ConIn->WaitForKey, PAUSE_100NS);
	uefi_call_wrapper(ST->ConIn->ReadKeyStroke, 2, ST->ConIn, &(EFI_INPUT_KEY){ 0 });
	return status;
}

// ---- reading the words
// The file path of this image up to its last '\', followed by FILE_NAME,
// into path[0..cap). The path is its FilePath's file nodes joined with a
// '\' where neither side has one: GRUB's chainloader gives the folder and
// the file name as two nodes ("\EFI\ramsift", "ramsift-reserve.efi").
static BOOLEAN file_next_to_me(EFI_LOADED_IMAGE *me, CHAR16 *path, UINTN cap)
{
	UINTN n = 0, dir = 0;

	for (EFI_DEVICE_PATH *d = me->FilePath; d && !IsDevicePathEnd(d); d = NextDevicePathNode(d)) {
		if (DevicePathType(d) != MEDIA_DEVICE_PATH || DevicePathSubType(d) != MEDIA_FILEPATH_DP)
			continue;
		CHAR16 *c = ((FILEPATH_DEVICE_PATH *)d)->PathName;
		if (n > 0 && path[n - 1] != L'\\' && *c != L'\\') {
			if (n + 1 >= cap)
				return FALSE;
			path[n++] = L'\\';
		}
		for (; *c; c++) {
			if (n + 1 >= cap)
				return FALSE;
			path[n++] = *c;
		}
	}
	for (UINTN i = 0; i < n; i++)
		if (path[i] == L'\\')
			dir = i + 1;
	if (dir + StrLen(FILE_NAME) + 1 > cap)
		return FALSE;
	StrCpy(path + dir, FILE_NAME);
	return TRUE;
}

// Read the file at path on this image's partition into text[]; *len gets
// its size. False (after saying why) when it cannot; *missing when it is
// simply not there.
static BOOLEAN read_file(EFI_LOADED_IMAGE *me, CHAR16 *path, UINTN *len, BOOLEAN *missing)
{
	EFI_FILE_HANDLE root = LibOpenRoot(me->DeviceHandle), file;
	EFI_STATUS st;

	*missing = FALSE;
	if (!root) {
		Print(L"ramsift-reserve: cannot open the partition I was loaded from\n");
		return FALSE;
	}
	st = uefi_call_wrapper(root->Open, 5, root, &file, path, EFI_FILE_MODE_READ, 0);
	if (st == EFI_NOT_FOUND) {
		*missing = TRUE;
		return FALSE;
	}
	if (EFI_ERROR(st)) {
		Print(L"ramsift-reserve: cannot open %s: %r\n", path, st);
		return FALSE;
	}
	*len = sizeof(text);
	st = uefi_call_wrapper(file->Read, 3, file, len, text);
	if (!EFI_ERROR(st) && *len == sizeof(text)) {
		Print(L"ramsift-reserve: %s is larger than %ld bytes: keep only ramsift's efi-reserve: "
		      L"line and loader= in it\n", path, (UINT64)FILE_MAX - 1);
		st = EFI_BUFFER_TOO_SMALL;
	} else if (EFI_ERROR(st)) {
		Print(L"ramsift-reserve: cannot read %s: %r\n", path, st);
	}
	uefi_call_wrapper(file->Close, 1, file);
	return !EFI_ERROR(st);
}

static BOOLEAN parsed(const char *from, enum reserve_error e, size_t at)
{
	if (e == RESERVE_OK)
		return TRUE;
	Print(L"ramsift-reserve: %a, at byte %ld: %a\n", from, (UINT64)at, reserve_error_text(e));
	return FALSE;
}

// The load options as 8-bit text into text[]: UCS-2 from the shell, GRUB
// or efibootmgr --unicode; bytes as they are from plain efibootmgr.
static UINTN options_text(EFI_LOADED_IMAGE *me)
{
	const UINT8 *raw = me->LoadOptions;
	UINTN size = me->LoadOptionsSize, n = 0;

	if (!raw || size == 0)
		return 0;
	if (size >= 2 && raw[1] == 0) {
		for (UINTN i = 0; i + 1 < size && n < sizeof(text); i += 2)
			text[n++] = raw[i + 1] || raw[i] >= 0x80 ? '?' : (char)raw[i];
	} else {
		for (UINTN i = 0; i < size && n < sizeof(text); i++)
			text[n++] = (char)raw[i];
	}
	return n;
}

static BOOLEAN read_words(EFI_LOADED_IMAGE *me)
{
	CHAR16 path[RESERVE_PATH_MAX];
	UINTN len;
	size_t at;
	enum reserve_error e;
	BOOLEAN missing;

	if (!file_next_to_me(me, path, RESERVE_PATH_MAX)) {
		Print(L"ramsift-reserve: my own path is too long to find %s next to it\n", FILE_NAME);
		return FALSE;
	}
	if (read_file(me, path, &len, &missing)) {
		Print(L"ramsift-reserve: reading %s\n", path);
		e = reserve_parse(&cfg, text, len, &at);
		if (!parsed("badpages.txt", e, at))
			return FALSE;
	} else if (missing) {
		Print(L"ramsift-reserve: no %s on my partition: the load options alone say what to do\n",
		      path);
	} else {
		return FALSE;
	}
	len = options_text(me);
	e = reserve_parse_options(&cfg, text, len, &at);
	return parsed("load options", e, at);
}

// ---- taking the pages
struct take {
	UINT32 type;			// of the snapshot's descriptor being expanded
	UINT64 taken, held, again;	// pages
	UINT64 pend_start, pend_end;	// the range being reported
	UINT32 pend_type;		// EfiUnusableMemory: taken by us
	UINTN taken_lines;
};

static void flush(struct take *t)
{
	UINT64 pages = (t->pend_end - t->pend_start) / PAGE;

	if (t->pend_end == t->pend_start)
		return;
	if (t->pend_type == EfiUnusableMemory) {
		if (t->taken_lines++ < LINES_MAX)
			Print(L"ramsift-reserve: reserved 0x%lx-0x%lx (%ld pages)\n", t->pend_start,
			      t->pend_end - 1, pages);
	} else {
		Print(L"ramsift-reserve: cannot take 0x%lx-0x%lx (%ld pages): already in use as %a%a\n",
		      t->pend_start, t->pend_end - 1, pages, type_text(t->pend_type),
		      os_reuses(t->pend_type) ? "; the OS uses it after boot, so the bad page stays in use"
					      : "; the OS keeps off it too");
	}
	t->pend_start = t->pend_end = 0;
}

// Report [start, end) as taken (type EfiUnusableMemory) or held as type,
// joined with the range before when it continues it.
static void note(struct take *t, UINT64 start, UINT64 end, UINT32 type)
{
	if (type == EfiUnusableMemory)
		t->taken += (end - start) / PAGE;
	else
		t->held += (end - start) / PAGE;
	if (t->pend_end != start || t->pend_type != type)
		flush(t);
	if (t->pend_end == t->pend_start) {
		t->pend_start = start;
		t->pend_type = type;
	}
	t->pend_end = end;
}

// What the firmware's map says the page at addr is now.
static UINT32 type_now(UINT64 addr)
{
	UINTN size = sizeof(map_now), key, dsize;
	UINT32 version;

	if (EFI_ERROR(uefi_call_wrapper(BS->GetMemoryMap, 5, &size, (EFI_MEMORY_DESCRIPTOR *)map_now,
					 &key, &dsize, &version)))
		return EfiMaxMemoryType;
	for (UINT8 *p = map_now; p < map_now + size; p += dsize) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)p;
		if (addr >= d->PhysicalStart && addr - d->PhysicalStart < d->NumberOfPages * PAGE)
			return d->Type;
	}
	return EfiMaxMemoryType;
}

static BOOLEAN allocate(UINT64 start, UINT64 pages)
{
	EFI_PHYSICAL_ADDRESS a = start;

	return !EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAddress, EfiUnusableMemory,
					    pages, &a));
}

// One run of matched pages inside a descriptor of type t->type: take it
// whole, or page by page to find which pages are held and by what. A page
// already EfiUnusableMemory was taken for an earlier, overlapping pair.
static void take_run(void *ctx, uint64_t start, uint64_t end)
{
	struct take *t = ctx;

	if (t->type != EfiConventionalMemory) {
		note(t, start, end, t->type);
		return;
	}
	if (allocate(start, (end - start) / PAGE)) {
		note(t, start, end, EfiUnusableMemory);
		return;
	}
	for (UINT64 a = start; a < end; a += PAGE) {
		UINT32 type;
		if (allocate(a, 1))
			note(t, a, a + PAGE, EfiUnusableMemory);
		else if ((type = type_now(a)) == EfiUnusableMemory)
			t->again++;
		else
			note(t, a, a + PAGE, type);
	}
}

static void count_run(void *ctx, uint64_t start, uint64_t end)
{
	(void)ctx, (void)start, (void)end;
}

// Expand every pair over every RAM descriptor of map (a snapshot taken
// before the first allocation) with fn; returns the matched bytes.
static UINT64 each_run(EFI_MEMORY_DESCRIPTOR *map, UINTN n, UINTN dsize, reserve_run_fn fn,
		       struct take *t)
{
	UINT64 bytes = 0;

	for (UINTN i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + i * dsize);
		if (d->Type == EfiMemoryMappedIO || d->Type == EfiMemoryMappedIOPortSpace ||
		    d->NumberOfPages == 0)
			continue;
		t->type = d->Type;
		for (size_t k = 0; k < cfg.npairs; k++)
			bytes += reserve_runs(&cfg.pair[k], d->PhysicalStart,
					      d->PhysicalStart + d->NumberOfPages * PAGE, fn, t);
	}
	return bytes;
}

static BOOLEAN reserve_pages(void)
{
	UINTN n, key, dsize;
	UINT32 version;
	EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&n, &key, &dsize, &version);
	struct take t = { 0 };
	UINT64 ram = 0, matched;

	if (!map) {
		Print(L"ramsift-reserve: the firmware gave no memory map; nothing reserved\n");
		return FALSE;
	}
	for (UINTN i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + i * dsize);
		if (d->Type != EfiMemoryMappedIO && d->Type != EfiMemoryMappedIOPortSpace &&
		    d->Type != EfiReservedMemoryType)
			ram += d->NumberOfPages * PAGE;
	}
	// A mistyped mask can match most of memory: refuse rather than boot
	// with half the RAM gone without a word.
	matched = each_run(map, n, dsize, count_run, &t);
	if (matched > ram / 2) {
		Print(L"ramsift-reserve: the pairs match %ld MiB of the %ld MiB of RAM, more than half: "
		      L"nothing reserved; check badram= against ramsift's efi-reserve: line\n",
		      matched >> 20, ram >> 20);
		FreePool(map);
		return FALSE;
	}
	each_run(map, n, dsize, take_run, &t);
	flush(&t);
	FreePool(map);
	if (t.taken_lines > LINES_MAX)
		Print(L"ramsift-reserve: (%ld more reserved ranges not listed)\n",
		      (UINT64)(t.taken_lines - LINES_MAX));
	Print(L"ramsift-reserve: %ld pages reserved as EfiUnusableMemory, %ld pages already in use "
	      L"could not be taken\n", t.taken, t.held);
	return TRUE;
}

// ---- starting the next loader
static EFI_STATUS start_loader(EFI_HANDLE me_handle, EFI_LOADED_IMAGE *me)
{
	CHAR16 path[RESERVE_PATH_MAX];
	EFI_DEVICE_PATH *dp;
	EFI_HANDLE child;
	EFI_STATUS st;
	UINTN i;

	for (i = 0; cfg.loader[i]; i++)
		path[i] = (CHAR16)cfg.loader[i];
	path[i] = 0;
	dp = FileDevicePath(me->DeviceHandle, path);
	if (!dp) {
		Print(L"ramsift-reserve: out of memory building the path of %s\n", path);
		return fail(EFI_OUT_OF_RESOURCES);
	}
	Print(L"ramsift-reserve: starting %s\n", path);
	st = uefi_call_wrapper(BS->LoadImage, 6, FALSE, me_handle, dp, NULL, 0, &child);
	FreePool(dp);
	if (EFI_ERROR(st)) {
		Print(L"ramsift-reserve: cannot load %s: %r; check loader= (a path on this "
		      L"partition)\n", path, st);
		return fail(st);
	}
	st = uefi_call_wrapper(BS->StartImage, 3, child, NULL, NULL);
	Print(L"ramsift-reserve: %s returned: %r\n", path, st);
	return fail(st);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *me;
	EFI_STATUS st;

	InitializeLib(image, systab);
	st = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&me);
	if (EFI_ERROR(st)) {
		Print(L"ramsift-reserve: the firmware gives no loaded-image protocol: %r\n", st);
		return fail(st);
	}
	if (!read_words(me))
		return fail(EFI_INVALID_PARAMETER);
	if (cfg.loader[0] == '\0') {
		Print(L"ramsift-reserve: no loader= given: add e.g. loader=\\EFI\\debian\\grubx64.efi "
		      L"to %s next to me or to my load options\n", FILE_NAME);
		return fail(EFI_INVALID_PARAMETER);
	}
	if (cfg.npairs == 0)
		Print(L"ramsift-reserve: no badram= or pages= given: nothing to reserve\n");
	else if (!reserve_pages())
		return fail(EFI_ABORTED);
	return start_loader(image, me);
}
