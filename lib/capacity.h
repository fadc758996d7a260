// SPDX-License-Identifier: GPL-2.0-or-later
// Capacity limits: the size of every fixed table the run keeps, in one place,
// so that the modules that fill a table and those that read it agree, and a
// change of one limit is one line. This is the one definition of each; the
// modules include this header rather than restate a number. (The BadRAM
// fold's own limits, such as BADRAM_MAX_PAIRS, stay in lib/badram/fold.h.)
// Named so as not to collide with the C library's <limits.h>.
#ifndef RAMSIFT_LIB_CAPACITY_H
#define RAMSIFT_LIB_CAPACITY_H

// CPUs that may test at once, the BSP included: the cpus= limit, the jobs in
// the run status (lib/run/status.h) and the small per-CPU tables. What is
// large per CPU (stacks, GDT, TSS, the exception stack) is taken at run time
// for the CPUs found, not for MAX_CPUS (src/smp.c).
#define MAX_CPUS 512

// CPUs the ACPI MADT may list that ramsift records (lib/boot/acpi.h): more
// are counted and reported, not kept. MAX_CPUS is how many of them run.
#define ACPI_CPUS_MAX 512

// Consoles the log fans out to at once (src/console.c).
#define MAX_CONSOLES 4

// Tests in the test table (lib/memtest/memtest.c checks it): the names tests=
// chooses from. The command line stores a choice as a uint8_t index, so at
// most 256.
#define MAX_TESTS 64

// Tests one tests= list holds, in order and with repeats, and so the most a
// pass runs (the default pass included).
#define CMDLINE_MAX_TESTS 32

// Distinct failing pages the error table records exactly (7/8 of the slots
// usable; beyond that overflow cubes cover new pages, losing none).
#define ERRORS_TABLE_SLOTS 65536

// Failing pages listed one by one, the lowest first: by the windows: and
// offline: lines and the JSON line (src/fold_report.c). The Windows command for
// this many always fits cmd.exe's 8191 characters (13 a page at most).
#define REPORT_PAGES_MAX 512

// The loader's information as kept (lib/boot/multiboot.h): command line
// bytes, memory-map entries (GRUB's badram can split the map into
// thousands), boot loader name bytes.
#define BOOTINFO_CMDLINE_MAX 2048
#define BOOTINFO_MMAP_MAX 4096
#define BOOTINFO_NAME_MAX 64
#define BOOTINFO_RSDP_MAX 36	// an ACPI 2.0+ RSDP (ACPI 6.5 section 5.2.5.3)
#define BOOTINFO_SMBIOS_MAX 32	// an SMBIOS entry point: 31 bytes (2.1), 24 (3.0)

// Memory devices (SMBIOS type 17: DIMM slots, installed or empty) the
// machine's identity keeps (lib/boot/smbios.h); more are counted.
#define SMBIOS_DIMMS_MAX 64

// Ranges of usable and of free RAM (lib/run/ram.h), and claims of what ramsift
// itself occupies remembered for the log.
#define RAM_RANGES_MAX 4096
#define RAM_OWNED_MAX 8

// The character grid of a screen (lib/screen/grid.h): 240 columns are a
// 3840-pixel-wide framebuffer with the font scaled 2x (what the console does
// from 1600 pixels on), 135 rows a 2160-pixel-high one at 1x. A larger screen
// shows the grid in its top left corner.
#define SCREEN_MAX_COLS 240
#define SCREEN_MAX_ROWS 135

#endif
