// SPDX-License-Identifier: GPL-2.0-or-later
// What the fixture dumps (tests/linux/acpi-dump.c, smbios-dump.c) share: they
// run as /init (PID 1, nothing mounted) of an initramfs that
// tests/linux/fixtures.sh builds, read firmware tables through /dev/mem and
// print them on the console as lines the script turns into C:
//   NAME: table SIG ADDR LEN   (SIG 4 characters, ADDR in hex, LEN in decimal)
//   NAME: data ADDR HEX...     (up to 16 bytes of the table above)
//   NAME: note TEXT            (anything else worth knowing)
// between "NAME: begin" and "NAME: end"; then QEMU's isa-debug-exit ends the VM.
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

// /dev and /sys mounted, the console as stdout and stderr, /dev/mem open.
static void memdump_begin(const char *name)
{
	mkdir("/dev", 0755);
	mkdir("/sys", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	int fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	printf("%s: begin\n", name);
	mem = open("/dev/mem", O_RDONLY);
	if (mem < 0)
		printf("%s: note cannot open /dev/mem\n", name);
}

static void memdump_table(const char *name, const char *sig, uint64_t addr, const uint8_t *p, size_t n)
{
	printf("%s: table %.4s 0x%llx %zu\n", name, sig, (unsigned long long)addr, n);
	for (size_t i = 0; i < n; i += 16) {
		printf("%s: data 0x%llx", name, (unsigned long long)(addr + i));
		for (size_t j = i; j < n && j < i + 16; j++)
			printf(" %02x", p[j]);
		printf("\n");
	}
}

static void memdump_end(const char *name)
{
	printf("%s: end\n", name);
	fflush(stdout);
	sync();
	tcdrain(1);	// the console is asynchronous: let it drain before QEMU ends
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) == 0)
		outl(0, DEBUG_EXIT_PORT);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
