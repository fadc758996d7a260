// SPDX-License-Identifier: GPL-2.0-or-later
// Files on the volume the pre-loader was loaded from: badpages.txt read,
// last-result.txt read and written. Paths are UCS-2 from the volume's root
// ("\EFI\ramsift\badpages.txt").
#ifndef RAMSIFT_EFI_VOLUME_H
#define RAMSIFT_EFI_VOLUME_H

#include <efi.h>

// The volume's root folder, or NULL (after saying why) when it cannot be
// opened. Close it with volume_close.
EFI_FILE_HANDLE volume_open(EFI_LOADED_IMAGE *me);
void volume_close(EFI_FILE_HANDLE root);

// Read the file at path into buf[0..cap); *len gets its size. Returns
// EFI_NOT_FOUND when there is no such file, EFI_BUFFER_TOO_SMALL when it
// holds cap bytes or more, the firmware's error when it cannot be read.
EFI_STATUS volume_read(EFI_FILE_HANDLE root, CHAR16 *path, void *buf, UINTN cap, UINTN *len);

// Make the file at path hold exactly buf[0..len), creating it, and its
// folder dir when missing. Returns the firmware's error when the volume
// cannot be written (EFI_WRITE_PROTECTED, EFI_ACCESS_DENIED on a CD).
EFI_STATUS volume_write(EFI_FILE_HANDLE root, CHAR16 *dir, CHAR16 *path, const void *buf, UINTN len);

#endif
