// SPDX-License-Identifier: GPL-2.0-or-later
// Files on the pre-loader's own volume (volume.h), through the firmware's
// simple file system protocol.
#include <efi.h>
#include <efilib.h>

#include "volume.h"

EFI_FILE_HANDLE volume_open(EFI_LOADED_IMAGE *me)
{
	EFI_FILE_HANDLE root = LibOpenRoot(me->DeviceHandle);

	if (!root)
		Print(L"ramsift-reserve: cannot open the partition I was loaded from\n");
	return root;
}

void volume_close(EFI_FILE_HANDLE root)
{
	uefi_call_wrapper(root->Close, 1, root);
}

EFI_STATUS volume_read(EFI_FILE_HANDLE root, CHAR16 *path, void *buf, UINTN cap, UINTN *len)
{
	EFI_FILE_HANDLE file;
	EFI_STATUS st = uefi_call_wrapper(root->Open, 5, root, &file, path, EFI_FILE_MODE_READ, 0);

	if (EFI_ERROR(st))
		return st;
	*len = cap;
	st = uefi_call_wrapper(file->Read, 3, file, len, buf);
	if (!EFI_ERROR(st) && *len == cap)
		st = EFI_BUFFER_TOO_SMALL;
	uefi_call_wrapper(file->Close, 1, file);
	return st;
}

static EFI_STATUS make_folder(EFI_FILE_HANDLE root, CHAR16 *dir)
{
	EFI_FILE_HANDLE h;
	EFI_STATUS st = uefi_call_wrapper(root->Open, 5, root, &h, dir,
					  EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
					  EFI_FILE_DIRECTORY);

	if (!EFI_ERROR(st))
		uefi_call_wrapper(h->Close, 1, h);
	return st;
}

// Delete the file at path, if there is one: a shorter text written over a
// longer one would keep the longer one's tail.
static EFI_STATUS remove(EFI_FILE_HANDLE root, CHAR16 *path)
{
	EFI_FILE_HANDLE h;
	EFI_STATUS st = uefi_call_wrapper(root->Open, 5, root, &h, path,
					  EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0);

	if (st == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(st))
		return st;
	// Delete closes the handle; a warning means the file stayed.
	st = uefi_call_wrapper(h->Delete, 1, h);
	return st == EFI_SUCCESS ? st : EFI_WRITE_PROTECTED;
}

EFI_STATUS volume_write(EFI_FILE_HANDLE root, CHAR16 *dir, CHAR16 *path, const void *buf, UINTN len)
{
	EFI_FILE_HANDLE file;
	UINTN n = len;
	EFI_STATUS st = make_folder(root, dir);

	if (!EFI_ERROR(st))
		st = remove(root, path);
	if (!EFI_ERROR(st))
		st = uefi_call_wrapper(root->Open, 5, root, &file, path,
				       EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);
	if (EFI_ERROR(st))
		return st;
	st = uefi_call_wrapper(file->Write, 3, file, &n, (void *)buf);
	if (!EFI_ERROR(st) && n != len)
		st = EFI_VOLUME_FULL;
	EFI_STATUS closed = uefi_call_wrapper(file->Close, 1, file);
	return EFI_ERROR(st) ? st : closed;
}
