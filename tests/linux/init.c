// SPDX-License-Identifier: GPL-2.0-or-later
// The init of the round-trip tests' initramfs (built static, tests/linux/
// mkinitramfs.sh packs it as /init): proves that Debian's kernel reached
// user space, shows what memory the kernel kept (its command line,
// /proc/iomem, MemTotal) on the console between marker lines that
// tests/faults/check.c looks for, then ends the VM. It writes 0 to QEMU's
// isa-debug-exit port (0xf4), so QEMU exits with status 1, after the line
// tools/qemu-run.sh wants with it to report PASS (ramsift's result line);
// without that device it powers off.
// Started by the kernel as PID 1 with nothing mounted and, in an initramfs
// without /dev/console, no standard streams.
#include <fcntl.h>
#include <stdio.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4

static void show(const char *path, const char *marker)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	printf("ramsift-init: begin %s\n", marker);
	fflush(stdout);
	if (fd < 0) {
		printf("ramsift-init: cannot open %s\n", path);
	} else {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, stdout);
		close(fd);
	}
	printf("ramsift-init: end %s\n", marker);
	fflush(stdout);
}

int main(void)
{
	// The console: devtmpfs has it, and the kernel opens none for us.
	mkdir("/dev", 0755);
	mkdir("/proc", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	int fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	printf("ramsift-init: reached the initramfs\n");
	show("/proc/cmdline", "cmdline");
	show("/proc/iomem", "iomem");
	show("/proc/meminfo", "meminfo");
	sync();
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) == 0) {
		printf("ramsift: result=PASS (tests/linux/init.c ends the VM)\n");
		fflush(stdout);
		outl(0, DEBUG_EXIT_PORT);
	}
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
