// SPDX-License-Identifier: GPL-2.0-or-later
// The /payload of tests/e2e/roundtrip/nvram.sh's initramfs (built static):
// loads /efivarfs.ko (Debian builds efivarfs as a module), mounts
// efivarfs, where Linux shows the UEFI variables, and runs
// /ramsift-apply --show, as a person would after the pre-loader's boot.
// tests/linux/init.c runs it and reports its exit status.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EFIVARS "/sys/firmware/efi/efivars"

int main(void)
{
	char *argv[] = { "/ramsift-apply", "--show", NULL };
	int fd = open("/efivarfs.ko", O_RDONLY);

	if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST))
		printf("apply-guest: cannot load /efivarfs.ko: %s\n", strerror(errno));
	if (mount("efivarfs", EFIVARS, "efivarfs", 0, NULL) != 0 && errno != EBUSY)
		printf("apply-guest: cannot mount efivarfs on " EFIVARS ": %s\n", strerror(errno));
	fflush(stdout);
	execv(argv[0], argv);
	printf("apply-guest: cannot run %s: %s\n", argv[0], strerror(errno));
	return 127;
}
