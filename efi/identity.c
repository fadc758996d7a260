// SPDX-License-Identifier: GPL-2.0-or-later
// This machine's SMBIOS identity and its text (identity.h).
#include <efi.h>
#include <efilib.h>

#include "escape.h"
#include "fmt.h"
#include "identity.h"
#include "memstr.h"

static struct bootinfo boot;	// only the system table's address is set

// The tables are firmware memory the map lists; anything else (a broken
// pointer) is not read.
static bool read_listed(void *ctx, uint64_t addr, void *buf, size_t n)
{
	const struct map *m = ctx;

	if (n == 0)
		return true;
	if (addr + n < addr || !map_holds(m, addr, addr + n, FALSE))
		return false;
	mem_copy(buf, (const void *)(UINTN)addr, n);
	return true;
}

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	Print(L"ramsift-reserve: %a\n", msg);
}

BOOLEAN identity_read(const struct map *m, struct smbios_info *s)
{
	enum smbios_status st;

	boot.efi = true;
	boot.efi64 = true;
	boot.efi_systab = (UINTN)ST;
	st = smbios_find(&boot, read_listed, warn, (void *)m, s);
	if (st == SMBIOS_FOUND && s->system)
		return TRUE;
	Print(L"ramsift-reserve: this machine has no SMBIOS identity (%a), so RamsiftResult cannot "
	      L"be matched to it: nothing reserved from it; put ramsift's efi-reserve: line in "
	      L"badpages.txt instead\n",
	      st == SMBIOS_FOUND ? "no system structure, type 1" : smbios_status_text(st));
	return FALSE;
}

// "NAME=\"TEXT\" " with TEXT escaped, at buf[at..len); returns the new end.
static size_t quoted(char *buf, size_t len, size_t at, const char *name, const char *s)
{
	char esc[SMBIOS_STRING_MAX * ESCAPE_MAX_PER_BYTE + 1];
	int n;

	escape_text(esc, sizeof(esc), s, str_len(s));
	n = fmt_snprintf(buf + at, len - at, "%s=\"%s\" ", name, esc);
	return n < 0 || (size_t)n >= len - at ? len - 1 : at + (size_t)n;
}

const char *identity_text(char *buf, size_t len, const char *manufacturer, const char *product,
			  const char *serial, BOOLEAN uuid_known, const uint8_t uuid[16])
{
	char u[SMBIOS_UUID_LEN];
	size_t at = 0;

	at = quoted(buf, len, at, "manufacturer", manufacturer);
	at = quoted(buf, len, at, "product", product);
	at = quoted(buf, len, at, "serial", serial);
	fmt_snprintf(buf + at, len - at, "uuid=%s", uuid_known ? smbios_uuid_text(u, uuid) : "unknown");
	return buf;
}
