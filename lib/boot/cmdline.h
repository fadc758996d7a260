// SPDX-License-Identifier: GPL-2.0-or-later
// Parse a Linux-style kernel command line ("console=ttyS0,115200 passes=2")
// into a struct config. Table-driven: each key is one row of {key, handler}
// in cmdline.c, and the "known options" warning text is built from that
// table. Bad input never stops the parse: the word is reported through a
// callback and the setting keeps its previous value.
#ifndef RAMSIFT_LIB_BOOT_CMDLINE_H
#define RAMSIFT_LIB_BOOT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"	// CMDLINE_MAX_TESTS, MAX_TESTS, MAX_CPUS

// What to do when the run ends.
enum onexit {
	ONEXIT_HALT,    // stop the CPUs and wait
	ONEXIT_REBOOT,  // reset the machine
	ONEXIT_QEMU,    // exit QEMU through isa-debug-exit (result as status)
	ONEXIT_POWEROFF, // power the machine off (ACPI S5)
};

// The onexit= word of e ("halt", "reboot", "qemu", "poweroff").
const char *cmdline_onexit_name(enum onexit e);

// Test hooks (test_fault=): faults the end-to-end tests make ramsift raise
// on purpose, to prove that each is reported as documented. Never for use.
enum test_fault {
	TEST_FAULT_NONE,
	TEST_FAULT_AP_ABSENT,   // start one more CPU, at an APIC ID no CPU has
	TEST_FAULT_AP_UD2,      // CPU 1 executes ud2 as its first job starts
	TEST_FAULT_AP_ABSENT_MANY, // start 9 more CPUs at APIC IDs no CPU has
	TEST_FAULT_AP_HANG,     // CPU 1 halts for good as its first job starts
	TEST_FAULT_AP_HANG_END, // CPU 1 halts for good as its first job ends
	TEST_FAULT_AP_STACK,    // CPU 1 writes the word below its stack, as an overflow
	TEST_FAULT_NVRAM_FAULT, // the firmware's SetVariable faults (a ud2 called instead)
	TEST_FAULT_NVRAM_GET_FAULT,   // its GetVariable faults (a ud2 called instead)
	TEST_FAULT_NVRAM_SET_ERROR,   // its SetVariable returns EFI_DEVICE_ERROR
	TEST_FAULT_NVRAM_QUERY_ERROR, // its QueryVariableInfo returns EFI_DEVICE_ERROR
	TEST_FAULT_NVRAM_NO_QUERY,    // it has no QueryVariableInfo (as before UEFI 2.0)
	TEST_FAULT_NVRAM_EFI32,       // the loader's system table taken as a 32-bit one
	TEST_FAULT_HAMMER_WEAK, // one victim word gives way at the maximum hammer rate only
};

// Whether to learn the DRAM's geometry from timing before the tests (dram=).
enum dram_mode {
	DRAM_MODE_ON,     // on real hardware; skipped, and said so, under a hypervisor
	DRAM_MODE_OFF,    // never
	DRAM_MODE_FORCE,  // under a hypervisor too (its timing is not the DRAM's)
};

// The dram= word of m ("on", "off", "force").
const char *cmdline_dram_name(enum dram_mode m);

// The command line's own defaults and ranges. The BadRAM budget's (patterns=
// and holes=) are the fold's: BADRAM_DEFAULT_PAIRS, BADRAM_MAX_PAIRS and
// BADRAM_DEFAULT_HOLES in lib/badram/fold.h.
#define CMDLINE_MAX_PASSES 1000000u
#define CMDLINE_DEFAULT_ERROR_LINES 100u
#define CMDLINE_DEFAULT_BITFADE 90u     // seconds
#define CMDLINE_MAX_BITFADE 86400u
#define CMDLINE_DEFAULT_HAMMER 10u      // seconds of the hammer test a pass
#define CMDLINE_MAX_HAMMER 3600u
#define CMDLINE_MAX_HOLES 100000u
#define CMDLINE_MAX_CPUS MAX_CPUS

struct config {
	bool serial;            // use a serial console
	uint8_t serial_port;    // 0..3 = ttyS0..ttyS3 (COM1..COM4)
	uint32_t serial_baud;   // bits per second, divides 115200; default 115200
	bool screen;            // use the screen console (VGA text / framebuffer)
	uint32_t passes;        // default 1; 0 = run until stopped
	uint8_t tests[CMDLINE_MAX_TESTS]; // indices into the test-name table, in run order
	size_t ntests;          // 0 = use the default pass
	enum onexit onexit;     // default ONEXIT_HALT
	uint64_t seed;          // seed of the random tests, when seed_set
	bool seed_set;          // false: the caller picks one (and prints it)
	uint32_t error_lines;   // ERROR lines printed at most; counting goes on
	uint32_t bitfade_s;     // bit-fade's wait per polarity; 0 skips it
	uint32_t hammer_s;      // the hammer test's time a pass, seconds
	uint32_t patterns;      // most BadRAM pairs to print (K)
	uint32_t holes;         // most holes the pairs may cut into RAM (H)
	uint32_t cpus;          // CPUs that test, the BSP included; 0 = all
	bool nvram;             // keep the result in the UEFI variable; default true
	bool usb;               // read USB keyboards; default true
	enum dram_mode dram;    // default DRAM_MODE_ON
	enum test_fault test_fault; // default TEST_FAULT_NONE
};

// Reports one rejected or adjusted word: word_len bytes at word (not
// NUL-terminated; the whole "key=value" word as written), and why, a short
// NUL-terminated English reason that says what was done (the word ignored,
// one part of it left out, another value used) and names what is accepted.
// Both pointers are valid only during the call.
typedef void (*cmdline_warn_fn)(void *ctx, const char *word, size_t word_len,
				const char *why);

// Fill cfg with the defaults: serial ttyS0 at 115200 and the screen, 1 pass,
// the default test list (ntests 0), halt on exit, seed chosen by the caller,
// CMDLINE_DEFAULT_ERROR_LINES ERROR lines, CMDLINE_DEFAULT_BITFADE seconds of
// bit fade, the fold's default budget: BADRAM_DEFAULT_PAIRS BadRAM pairs
// cutting at most BADRAM_DEFAULT_HOLES holes, every CPU, no test hook.
void config_defaults(struct config *cfg);

// Apply the command line to cfg, which the caller has filled with
// config_defaults(). line is NUL-terminated and may be NULL or empty. Words
// are separated by spaces, tabs, CR or LF. A first word without '=' that
// looks like the image's path (contains '/' or ':', or ends in ".elf" or
// ".bin") is skipped silently, since GRUB and QEMU pass it. Keys:
//   console=ttyS<0-3>[,<baud>[<n|o|e>[<7|8>]]]  serial console; baud must be
//             valid for the UART (uart_baud_valid(), lib/uart.h: 115200/d for
//             an integer d, 50..115200), else 115200 is used;
//             parity/bits other than n8 are warned about, 8N1 is used.
//             Only one serial port is driven: a later ttyS wins (and is
//             warned about, naming both).
//   console=tty0 | console=tty1                the screen console
//             console= words accumulate: if any is valid, only the consoles
//             named are used (Linux semantics); if none is, the defaults stay.
//   passes=N  0..CMDLINE_MAX_PASSES (decimal or 0x hex); 0 = until stopped
//   tests=a,b,c  names from test_names[0..ntest_names) (compared exactly),
//             kept in order, duplicates allowed, at most CMDLINE_MAX_TESTS;
//             unknown names are warned about and left out; if no name is
//             valid the word is ignored and the previous list stays (by
//             default: the default pass).
//             The name "all" stands for every test, in table order.
//   onexit=halt|reboot|poweroff|qemu
//   seed=N errors=N bitfade=N hammer=N patterns=N holes=N cpus=N  numbers in
//             the ranges the constants above give (patterns: 1..BADRAM_MAX_PAIRS;
//             seed: any 64-bit value; cpus: 0..CMDLINE_MAX_CPUS, 0 = all)
//   usb=on|off  read USB keyboards (off: leave every USB controller as the
//             firmware left it); default on
//   nvram=on|off  keep the result in the UEFI variable RamsiftResult
//   dram=on|off|force  learn the DRAM's geometry before the tests (on: on real
//             hardware only; force: under a hypervisor too); default on
//   test_fault=NAME  a test hook (enum test_fault; the names are cmdline.c's
//             table, which the warning for a bad one lists)
// A later key overrides an earlier one, except console=. Every unknown key,
// word without '=', malformed or out-of-range value is passed to warn (which
// may be NULL to ignore them) and that setting is left unchanged.
// Requires ntest_names <= MAX_TESTS (capacity.h); names beyond that are
// never matched. test_names may be NULL when ntest_names == 0.
void cmdline_parse(const char *line, struct config *cfg,
		   const char *const *test_names, size_t ntest_names,
		   cmdline_warn_fn warn, void *ctx);

#endif
