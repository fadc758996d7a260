// SPDX-License-Identifier: GPL-2.0-or-later
// The init of the SMBIOS fixture initramfs (`tests/linux/fixtures.sh
// smbios`): prints the firmware's SMBIOS entry point and structure table in
// memdump.h's lines (SIG _SM3 or _SM_ for the entry point, SMBT for the
// table), for the unit tests' fixtures (tests/unit/fixtures/smbios_qemu_*.h).
// It finds the entry point as ramsift's BIOS path does, by scanning
// 0xF0000-0xFFFFF in /dev/mem ("_SM3_" first, then "_SM_"), reads the table
// the entry point names through /dev/mem, and compares it with the kernel's
// own copy, /sys/firmware/dmi/tables/DMI.
#include "memdump.h"

#define NAME "smbios-dump"
#define TABLE_MAX 65536

static void compare_sysfs(const uint8_t *t, size_t n)
{
	static uint8_t k[TABLE_MAX];
	int fd = open("/sys/firmware/dmi/tables/DMI", O_RDONLY);
	ssize_t got = fd >= 0 ? read(fd, k, sizeof(k)) : -1;

	if (fd >= 0)
		close(fd);
	// The kernel's copy is the table's used length; a 3.0 entry point gives
	// only a maximum.
	printf(NAME ": note table %s /sys/firmware/dmi/tables/DMI\n",
	       got > 0 && (size_t)got <= n && memcmp(t, k, (size_t)got) == 0 ? "matches" : "differs from");
}

int main(void)
{
	static uint8_t table[TABLE_MAX];
	uint8_t ep[32];
	uint64_t at = 0;
	int v3 = 0;

	memdump_begin(NAME);
	for (int pass = 0; pass < 2 && !at; pass++)
		for (uint64_t a = 0xf0000; a < 0x100000; a += 16)
			if (readmem(a, ep, sizeof(ep)) &&
			    memcmp(ep, pass ? "_SM_" : "_SM3_", pass ? 4 : 5) == 0 &&
			    sum(ep, pass ? ep[5] : ep[6]) == 0) {
				at = a;
				v3 = !pass;
				break;
			}
	if (!at) {
		printf(NAME ": note no entry point found\n");
	} else {
		size_t eplen = v3 ? ep[6] : ep[5];
		uint64_t addr = 0;
		uint32_t len = 0;
		memdump_table(NAME, v3 ? "_SM3" : "_SM_", at, ep, eplen);
		if (v3) {
			memcpy(&len, ep + 12, 4);
			memcpy(&addr, ep + 16, 8);
		} else {
			uint16_t l16;
			uint32_t a32;
			memcpy(&l16, ep + 22, 2);
			memcpy(&a32, ep + 24, 4);
			len = l16;
			addr = a32;
		}
		if (len > TABLE_MAX || !readmem(addr, table, len))
			printf(NAME ": note the table at 0x%llx (length %u) is unreadable\n",
			       (unsigned long long)addr, len);
		else {
			memdump_table(NAME, "SMBT", addr, table, len);
			compare_sysfs(table, len);
		}
	}
	memdump_end(NAME);
}
