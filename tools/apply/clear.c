// SPDX-License-Identifier: GPL-2.0-or-later
// --clear (apply.h): delete the RamsiftResult variable. efivarfs marks
// variables immutable (the inode flag chattr +i sets) so that a stray rm
// cannot delete one; the flag is cleared first, as chattr -i would.
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "apply.h"

// Clear path's immutable flag. A file system without inode flags (ENOTTY,
// EOPNOTSUPP) has none to clear. False with errno set.
static bool make_mutable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), flags = 0;
	bool ok;

	if (fd < 0)
		return false;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) {
		ok = errno == ENOTTY || errno == EOPNOTSUPP;
	} else if (flags & FS_IMMUTABLE_FL) {
		flags &= ~FS_IMMUTABLE_FL;
		ok = ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
	} else {
		ok = true;
	}
	int err = errno;
	close(fd);
	errno = err;
	return ok;
}

enum status clear_record(const struct apply *a)
{
	char path[APPLY_PATH_MAX];

	apply_path(a, PATH_RECORD, path);
	if (access(path, F_OK) != 0 && errno == ENOENT) {
		say(LEVEL_NOTICE, "no %s: no record to delete", path);
		return STATUS_OK;
	}
	if (!make_mutable(path) || unlink(path) != 0) {
		say(LEVEL_ERROR, "cannot delete %s: %s%s", path, strerror(errno),
		    errno == EACCES || errno == EPERM ? ": run as root" : "");
		return STATUS_FAILED;
	}
	say(LEVEL_NOTICE, "deleted the %s variable%s", RECORD_VAR_NAME,
	    grub_present(a) ? "; the protection installed stays (ramsift-apply --uninstall removes it)"
			    : "");
	return STATUS_OK;
}
