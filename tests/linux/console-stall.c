// SPDX-License-Identifier: GPL-2.0-or-later
// The /payload of tests/linux/console-stall.sh: stops the console's output
// (TCOOFF, as a lost transmit interrupt stops it for good) and writes lines
// behind it. tests/linux/init.c must see the queue stand still, restart the
// transmitter and wait for the lines before it ends the VM; without that the
// lines, and the init's result line after them, never reach COM1.
// Started by tests/linux/init.c with the console as its standard output.
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

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
	sleep(3);
	printf("console-stall: payload done\n");
	return 0;
}
