// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-reserve.efi: takes the bad pages ramsift found out of the UEFI
// memory map before the boot loader runs, then starts that loader.
// Entered from the firmware's boot manager, the UEFI shell or GRUB's
// chainloader, as a UEFI application (boot services up). It reads
// badpages.txt in its own folder and then its load options (words of
// lib/reserve/reserve.h), and the record of ramsift's last run in the
// variable RamsiftResult (record_read.c); it allocates every page the pairs
// match and the record lists as EfiUnusableMemory at its address (take.c),
// prints what it took and what it could not (with the memory type it is
// in use as), writes the record as text to its volume (last-result.c) and
// starts loader= from its own partition. Allocated before any loader has a
// heap, the pages stay out of GRUB's, the kernel EFI stub's and the OS's
// memory. A record that fails a check reserves nothing and the boot goes
// on; on an error in the words it says what to fix, waits for a key (30 s
// at most) and returns, so the firmware goes on to its next boot entry.
#include <efi.h>
#include <efilib.h>

#include "last-result.h"
#include "map.h"
#include "record_read.h"
#include "reserve/reserve.h"
#include "take.h"
#include "volume.h"

#define FILE_NAME L"badpages.txt"
#define FILE_MAX (64 * 1024)
#define PAUSE_100NS (30ull * 10000000)

static struct reserve_config cfg;
static char text[FILE_MAX];
static struct reserve_pair pairs[RESERVE_PAIRS_MAX + BADRAM_MAX_PAIRS];	// the words', the record's

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
	EFI_FILE_HANDLE root = volume_open(me);
	EFI_STATUS st;

	*missing = FALSE;
	if (!root)
		return FALSE;
	st = volume_read(root, path, text, sizeof(text), len);
	volume_close(root);
	if (st == EFI_NOT_FOUND)
		*missing = TRUE;
	else if (st == EFI_BUFFER_TOO_SMALL)
		Print(L"ramsift-reserve: %s is larger than %ld bytes: keep only ramsift's efi-reserve: "
		      L"line and loader= in it\n", path, (UINT64)FILE_MAX - 1);
	else if (EFI_ERROR(st))
		Print(L"ramsift-reserve: cannot read %s: %r\n", path, st);
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

// ---- reserving the pages
// Reserve what the words' pairs and the record name, together. *rec gets
// this machine's record (NULL: none). False when the words' pairs match
// more than half the RAM (a mistyped mask) or need a map there is not.
static BOOLEAN reserve(const struct record **rec)
{
	struct take_plan plan = { .pair = pairs, .npairs = cfg.npairs };
	BOOLEAN from_record;
	struct map m;
	UINT64 file_bytes;

	*rec = NULL;
	if (!map_snapshot(&m))
		return cfg.npairs == 0;
	file_bytes = take_matched_bytes(&m, cfg.pair, cfg.npairs);
	if (file_bytes > m.ram_bytes / 2) {
		Print(L"ramsift-reserve: the pairs match %ld MiB of the %ld MiB of RAM, more than half: "
		      L"nothing reserved; check badram= against ramsift's efi-reserve: line\n",
		      file_bytes >> 20, m.ram_bytes >> 20);
		map_free(&m);
		return FALSE;
	}
	*rec = nvram_load(&m, file_bytes, &from_record);
	CopyMem(pairs, cfg.pair, cfg.npairs * sizeof(pairs[0]));
	if (from_record) {
		plan.range = (*rec)->range;
		plan.nranges = (*rec)->nranges;
		plan.npairs += nvram_pairs(*rec, pairs + cfg.npairs);
	}
	if (plan.nranges + plan.npairs == 0)
		Print(L"ramsift-reserve: no badram= or pages= given: nothing to reserve\n");
	else
		take_pages(&m, &plan);
	map_free(&m);
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
	const struct record *rec;
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
	if (!reserve(&rec))
		return fail(EFI_ABORTED);
	if (rec)
		last_result_write(me, rec);
	return start_loader(image, me);
}
