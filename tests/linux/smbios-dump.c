// SPDX-License-Identifier: GPL-2.0-or-later
// The init of the SMBIOS fixture initramfs (tests/linux/smbios-fixtures.sh
// builds it static and packs it as /init): prints the firmware's SMBIOS
// entry point and structure table as hex on the console, for the unit
// tests' fixtures (tests/unit/fixtures/smbios_qemu_*.h). It finds the entry
// point as ramsift's BIOS path does, by scanning 0xF0000-0xFFFFF in
// /dev/mem ("_SM3_" first, then "_SM_"), reads the table the entry point
// names through /dev/mem, and compares it with the kernel's own copy,
// /sys/firmware/dmi/tables/DMI. Then it ends the VM through QEMU's
// isa-debug-exit port. Started by the kernel as PID 1 with nothing mounted.
// Output, one line each, between "smbios-dump: begin" and "smbios-dump: end",
// in acpi-dump.c's form so the same awk turns it into C:
//   smbios-dump: table NAME ADDR LEN   (NAME: _SM3 or _SM_ for the entry
//                                       point, SMBT for the table)
//   smbios-dump: data ADDR HEX...
//   smbios-dump: note TEXT
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4
#define TABLE_MAX 65536

static int mem = -1;

static int readmem(uint64_t addr, void *buf, size_t n)
{
	return pread(mem, buf, n, (off_t)addr) == (ssize_t)n;
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	while (n--)
		s += *p++;
	return s;
}

static void dump(const char *name, uint64_t addr, const uint8_t *p, size_t n)
{
	printf("smbios-dump: table %s 0x%llx %zu\n", name, (unsigned long long)addr, n);
	for (size_t i = 0; i < n; i += 16) {
		printf("smbios-dump: data 0x%llx", (unsigned long long)(addr + i));
		for (size_t j = i; j < n && j < i + 16; j++)
			printf(" %02x", p[j]);
		printf("\n");
	}
}

static void compare_sysfs(const uint8_t *t, size_t n)
{
	static uint8_t k[TABLE_MAX];
	int fd = open("/sys/firmware/dmi/tables/DMI", O_RDONLY);
	ssize_t got = fd >= 0 ? read(fd, k, sizeof(k)) : -1;

	if (fd >= 0)
		close(fd);
	// The kernel's copy is the table's used length; a 3.0 entry point gives
	// only a maximum.
	printf("smbios-dump: note table %s /sys/firmware/dmi/tables/DMI\n",
	       got > 0 && (size_t)got <= n && memcmp(t, k, (size_t)got) == 0 ? "matches" : "differs from");
}

int main(void)
{
	static uint8_t table[TABLE_MAX];
	uint8_t ep[32];
	uint64_t at = 0;
	int v3 = 0;

	mkdir("/dev", 0755);
	mkdir("/sys", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	int fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	printf("smbios-dump: begin\n");
	mem = open("/dev/mem", O_RDONLY);
	if (mem < 0)
		printf("smbios-dump: note cannot open /dev/mem\n");
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
		printf("smbios-dump: note no entry point found\n");
	} else {
		size_t eplen = v3 ? ep[6] : ep[5];
		uint64_t addr = 0;
		uint32_t len = 0;
		dump(v3 ? "_SM3" : "_SM_", at, ep, eplen);
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
			printf("smbios-dump: note the table at 0x%llx (length %u) is unreadable\n",
			       (unsigned long long)addr, len);
		else {
			dump("SMBT", addr, table, len);
			compare_sysfs(table, len);
		}
	}
	printf("smbios-dump: end\n");
	fflush(stdout);
	sync();
	tcdrain(1);	// the console is asynchronous: let it drain before QEMU ends
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) == 0)
		outl(0, DEBUG_EXIT_PORT);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
