// SPDX-License-Identifier: GPL-2.0-or-later
// The /payload of tests/linux/console-stall.sh: stops the console's output
// (TCOOFF, as a lost transmit interrupt stops it for good) and writes lines
// behind it, twice: while it runs, and as it ends with the queue nearly
// full, so that the init's own writes after it wait for room.
// tests/linux/init.c must see the queue stand still, restart the
// transmitter and wait for the lines before it ends the VM; without that the
// lines, and the init's result line after them, never reach COM1.
// Started by tests/linux/init.c with the console as its standard output.
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

// Wait (30 s at most) until the console has sent all it was given: the
// init's restart after the first stop has run to its end. Stopping again
// sooner races it: its TCOON, a moment later, would undo the second stop.
static void wait_sent(void)
{
	int queued;

	for (int i = 0; i < 300; i++) {
		if (ioctl(1, TIOCOUTQ, &queued) != 0 || queued == 0)
			return;
		usleep(100000);
	}
}

int main(void)
{
	printf("console-stall: the console's output stops now\n");
	fflush(stdout);
	if (tcflow(1, TCOOFF) != 0) {
		printf("console-stall: cannot stop the console's output\n");
		return 1;
	}
	printf("console-stall: written while the output was stopped\n");
	fflush(stdout);
	wait_sent();
	// Stopped again as it ends, with nearly all of the console's 4 KiB
	// queue filled behind the stop: the init's own lines after this wait
	// for room, and only a restart from beside them frees them.
	printf("console-stall: payload done; the output stops again\n");
	fflush(stdout);
	tcflow(1, TCOOFF);
	for (int i = 0; i < 60; i++)
		printf("console-stall: filler %02d ......................................\n", i);
	fflush(stdout);
	return 0;
}
