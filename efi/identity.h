// SPDX-License-Identifier: GPL-2.0-or-later
// This machine's identity, from the SMBIOS tables the firmware lists in
// its configuration table (lib/boot/smbios.c), and the text that names a
// machine in the pre-loader's lines and in last-result.txt.
#ifndef RAMSIFT_EFI_IDENTITY_H
#define RAMSIFT_EFI_IDENTITY_H

#include <efi.h>

#include "boot/smbios.h"
#include "map.h"

// Read this machine's SMBIOS into *s, each byte from memory the snapshot m
// lists (boot services map it one to one); problems in the tables are
// printed. False (after saying why) when there is no identity to match.
BOOLEAN identity_read(const struct map *m, struct smbios_info *s);

// Enough for identity_text's longest line: three escaped strings, the UUID.
#define IDENTITY_TEXT_MAX (3 * (SMBIOS_STRING_MAX * 4 + 20) + SMBIOS_UUID_LEN + 8)

// 'manufacturer="QEMU" product="Standard PC (i440FX + PIIX, 1996)"
// serial="" uuid=UUID|unknown' into buf[0..len), each string's bytes
// outside printable ASCII escaped (lib/escape.h); returns buf.
const char *identity_text(char *buf, size_t len, const char *manufacturer, const char *product,
			  const char *serial, BOOLEAN uuid_known, const uint8_t uuid[16]);

#endif
