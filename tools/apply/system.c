// SPDX-License-Identifier: GPL-2.0-or-later
// The system as ramsift-apply touches it (apply.h): paths under --root,
// files read whole and written whole, commands run and waited for.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apply.h"

void apply_path(const struct apply *a, const char *abs, char out[APPLY_PATH_MAX])
{
	if (snprintf(out, APPLY_PATH_MAX, "%s%s", a->root, abs) >= APPLY_PATH_MAX) {
		say(LEVEL_ERROR, "--root %s makes %s longer than %d bytes: give a shorter --root",
		    a->root, abs, APPLY_PATH_MAX - 1);
		exit(STATUS_USAGE);
	}
}

long read_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t got = 1;

	if (fd < 0)
		return -1;
	while (n < cap && (got = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)got;
	int err = errno;
	close(fd);
	if (got < 0) {
		errno = err;
		return -1;
	}
	if (n == cap) {
		errno = EFBIG;
		return -1;
	}
	buf[n] = '\0';
	return (long)n;
}

bool write_file(const char *path, const void *data, size_t n, unsigned mode)
{
	char tmp[APPLY_PATH_MAX + 4];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return false;
	bool ok = write(fd, data, n) == (ssize_t)n && fsync(fd) == 0;
	int err = errno;
	ok = close(fd) == 0 && ok;
	if (ok && rename(tmp, path) == 0)
		return true;
	err = err ? err : errno;
	unlink(tmp);
	errno = err;
	return false;
}

// The child's side: its standard output to the pipe, then the program.
static void start(char *const argv[], int out_fd)
{
	if (out_fd >= 0 && dup2(out_fd, 1) < 0)
		_exit(126);
	execvp(argv[0], argv);
	fprintf(stderr, "ramsift-apply: cannot run %s: %s: install it, or put it on PATH\n",
		argv[0], strerror(errno));
	_exit(127);
}

static void drain(int fd, char *out, size_t cap)
{
	size_t n = 0;
	char spill[512];

	// Read to the end even past cap, so that the child never blocks on a full pipe.
	for (;;) {
		bool room = n + 1 < cap;
		ssize_t got = read(fd, room ? out + n : spill, room ? cap - 1 - n : sizeof(spill));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (room)
			n += (size_t)got;
	}
	out[n] = '\0';
}

int run(char *const argv[], char *out, size_t cap)
{
	int fds[2] = { -1, -1 }, st;
	pid_t pid;

	fflush(NULL);
	if (out && pipe2(fds, O_CLOEXEC) < 0) {
		say(LEVEL_ERROR, "cannot run %s: pipe: %s", argv[0], strerror(errno));
		return 127;
	}
	pid = fork();
	if (pid < 0) {
		say(LEVEL_ERROR, "cannot run %s: fork: %s", argv[0], strerror(errno));
		return 127;
	}
	if (pid == 0)
		start(argv, fds[1]);
	if (out) {
		close(fds[1]);
		drain(fds[0], out, cap);
		close(fds[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
