// SPDX-License-Identifier: GPL-2.0-or-later
// The /payload of tests/e2e/roundtrip/nvram.sh's initramfs (built static):
// loads /efivarfs.ko (Debian builds efivarfs as a module), mounts
// efivarfs, where Linux shows the UEFI variables, and runs
// /ramsift-apply --show, as a person would after the pre-loader's boot.
// With ramsift_fill=1 on the kernel's command line (the kernel gives it to
// init, and init to us, as an environment variable) it fills the variable
// store instead, as a person's OS can: variables RamsiftFillerN under the
// project's GUID, ever smaller, until Linux refuses one for want of space.
// tests/linux/init.c runs it and reports its exit status.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record/record.h"	// RECORD_GUID_TEXT, RECORD_ATTRIBUTES

#define EFIVARS "/sys/firmware/efi/efivars"
#define FILL_MAX 100000		// variables: a store that never fills is an error

// write_filler N BYTES: RamsiftFillerN of BYTES bytes. 0, or the errno.
static int write_filler(unsigned n, size_t bytes)
{
	static unsigned char data[4 + 4096];
	char path[128];
	uint32_t attrs = RECORD_ATTRIBUTES;

	memcpy(data, &attrs, sizeof(attrs));
	memset(data + 4, 0xa5, bytes);
	snprintf(path, sizeof(path), EFIVARS "/RamsiftFiller%u-" RECORD_GUID_TEXT, n);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return errno;
	int err = write(fd, data, 4 + bytes) == (ssize_t)(4 + bytes) ? 0 : errno;
	close(fd);
	if (err)
		unlink(path);
	return err;
}

static int fill(void)
{
	static const size_t sizes[] = { 4096, 512, 32 };
	size_t total = 0;
	unsigned n = 0, written = 0;

	// A refused write may leave its name behind in efivarfs: the next
	// write takes the next name.
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++, n++) {
		int err;
		while ((err = write_filler(n, sizes[i])) == 0 && n < FILL_MAX) {
			n++;
			written++;
			total += sizes[i];
		}
		if (err != ENOSPC) {
			printf("apply-guest: writing RamsiftFiller%u (%zu bytes) failed: %s\n", n, sizes[i],
			       err ? strerror(err) : "the store never filled");
			return 1;
		}
	}
	printf("apply-guest: filled the UEFI variable store with %u variables, %zu bytes, until "
	       "Linux refused more: %s\n", written, total, strerror(ENOSPC));
	return 0;
}

int main(void)
{
	char *argv[] = { "/ramsift-apply", "--show", NULL };
	int fd = open("/efivarfs.ko", O_RDONLY);

	if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST))
		printf("apply-guest: cannot load /efivarfs.ko: %s\n", strerror(errno));
	if (mount("efivarfs", EFIVARS, "efivarfs", 0, NULL) != 0 && errno != EBUSY)
		printf("apply-guest: cannot mount efivarfs on " EFIVARS ": %s\n", strerror(errno));
	fflush(stdout);
	const char *f = getenv("ramsift_fill");
	if (f && strcmp(f, "1") == 0)
		return fill();
	execv(argv[0], argv);
	printf("apply-guest: cannot run %s: %s\n", argv[0], strerror(errno));
	return 127;
}
