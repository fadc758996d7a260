// SPDX-License-Identifier: GPL-2.0-or-later
// The init of the round-trip tests' initramfs (built static, packed as /init
// by tests/linux/mkinitramfs.sh): proves that Debian's kernel reached user
// space and shows which kernel it is and what memory it kept (its command
// line, /proc/version, /proc/iomem, MemTotal) between marker lines that
// tests/faults/check.c looks for. Before that it carries out /offline.sh's
// "echo ADDRESS > FILE" lines if the initramfs holds one (it has no shell),
// and runs /payload (bench/consumer-guest.c) if there is one. A child keeps
// the console moving (console_keep), and the VM ends through isa-debug-exit
// (QEMU status 1, after the result line dev/qemu-run.sh wants) only once
// the console has sent everything; without that device it powers off.
// Started by the kernel as PID 1 with nothing mounted and, in an initramfs
// without /dev/console, no standard streams.
#define _GNU_SOURCE	// memmem
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/io.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4
// How long the end waits for the console to send what it holds.
#define DRAIN_SECONDS 30

// A line in the kernel's log, which its console prints by polling the UART:
// it reaches COM1 even when the console's interrupt-driven output is stuck.
__attribute__((format(printf, 1, 2)))
static void kernel_log(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	int fd = open("/dev/kmsg", O_WRONLY);
	if (fd >= 0 && n > 0) {
		ssize_t w = write(fd, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1);
		(void)w;
	}
	if (fd >= 0)
		close(fd);
}

// Bytes the console has been given and not yet sent.
static int console_queued(void)
{
	int queued = 0;
	return ioctl(1, TIOCOUTQ, &queued) == 0 ? queued : 0;
}

// Called about once a second: when the console's transmit queue holds bytes
// and has not moved since the last call, restart the transmitter, and say so
// in the kernel's log. Why: the 8250 driver sends the queue on transmit
// interrupts; if one is lost the init's lines stay queued (under its 4 KiB,
// so nothing blocks) while the kernel's own, written by polling, still get
// out, and ending the VM through isa-debug-exit drops them. TCOOFF clears
// the UART's transmit interrupt enable and TCOON sets it again, which raises
// the interrupt anew (QEMU's 16550 does when its transmit register is
// empty).
static void console_keep(void)
{
	static int last = -1;
	int queued = console_queued();
	if (queued > 0 && queued == last) {
		tcflow(1, TCOOFF);
		tcflow(1, TCOON);
		kernel_log("ramsift-init: the console sent nothing for a second with %d bytes queued:"
			   " its transmitter restarted\n", queued);
	}
	last = queued;
}

// A child that runs console_keep once a second from the start to the end,
// so that the init's own write waiting for room in a stalled queue is freed
// too; killed before the VM ends.
static pid_t console_keeper(void)
{
	pid_t pid = fork();
	if (pid == 0)
		for (;;) {
			console_keep();
			sleep(1);
		}
	return pid;
}

// Before the VM ends: the queue sent (for up to DRAIN_SECONDS, the keeper
// restarting a stall), then the UART's own FIFO.
static void console_drain(void)
{
	for (int s = 0; s < DRAIN_SECONDS && console_queued() > 0; s++)
		sleep(1);
	for (int ms = 0; ms < 100; ms++) {
		unsigned int lsr;
		if (ioctl(1, TIOCSERGETLSR, &lsr) != 0 || (lsr & TIOCSER_TEMT))
			break;
		usleep(1000);
	}
}

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

// Each line "echo ADDRESS > FILE" of /offline.sh: ADDRESS and a newline
// written to FILE, as sh would; the outcome printed. Returns whether the
// file was there.
static int offline(void)
{
	FILE *f = fopen("/offline.sh", "r");
	char line[512], addr[64], file[256];

	if (!f)
		return 0;
	printf("ramsift-init: begin offline\n");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "echo %63s > %255s", addr, file) != 2) {
			printf("ramsift-init: offline: not an echo: %s", line);
			continue;
		}
		int fd = open(file, O_WRONLY);
		size_t n = strlen(addr);
		addr[n++] = '\n';
		int ok = fd >= 0 && write(fd, addr, n) == (ssize_t)n;
		int err = errno;
		addr[n - 1] = '\0';
		printf("ramsift-init: offline %s > %s: %s\n", addr, file, ok ? "ok" : strerror(err));
		if (fd >= 0)
			close(fd);
	}
	fclose(f);
	printf("ramsift-init: end offline\n");
	// The kernel's lines about the pages (memory_failure() says
	// "Memory failure: 0xPFN: ...").
	static char klog[1 << 20];
	int n = klogctl(3, klog, sizeof(klog));	// SYSLOG_ACTION_READ_ALL
	printf("ramsift-init: begin klog\n");
	for (char *l = klog; n > 0 && l < klog + n;) {
		char *e = memchr(l, '\n', (size_t)(klog + n - l));
		if (!e)
			e = klog + n;
		if (memmem(l, (size_t)(e - l), "Memory failure", 14))
			printf("%.*s\n", (int)(e - l), l);
		l = e + 1;
	}
	printf("ramsift-init: end klog\n");
	fflush(stdout);
	return 1;
}

// Run /payload when it is there and wait for it; its orphans are reaped
// too (the init adopts them), so only its own end is reported.
static void payload(char **envp)
{
	char *argv[] = { "/payload", NULL };
	int status;

	if (access(argv[0], X_OK) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		execve(argv[0], argv, envp);
		printf("ramsift-init: cannot run /payload: %s\n", strerror(errno));
		_exit(127);
	}
	for (pid_t w; (w = wait(&status)) != pid;)
		if (w < 0)
			return;
	if (WIFEXITED(status))
		printf("ramsift-init: /payload exited with status %d\n", WEXITSTATUS(status));
	else
		printf("ramsift-init: /payload killed by signal %d\n", WTERMSIG(status));
	fflush(stdout);
}

int main(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	// The console: devtmpfs has it, and the kernel opens none for us.
	mkdir("/dev", 0755);
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	int fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	pid_t keeper = console_keeper();
	printf("ramsift-init: reached the initramfs\n");
	payload(envp);
	offline();
	show("/proc/version", "version");
	show("/proc/cmdline", "cmdline");
	show("/proc/iomem", "iomem");
	show("/proc/meminfo", "meminfo");
	sync();
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) == 0) {
		printf("ramsift: result=PASS (tests/linux/init.c ends the VM)\n");
		fflush(stdout);
		console_drain();
		if (keeper > 0)
			kill(keeper, SIGKILL);
		outl(0, DEBUG_EXIT_PORT);
	}
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
