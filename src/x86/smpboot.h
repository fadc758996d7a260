// SPDX-License-Identifier: GPL-2.0-or-later
// Starting an application processor (AP): the start-up code of boot/ap.S
// copied below 640 KiB, then INIT and two STARTUP IPIs through the local
// APIC (SDM vol. 3A, 9.4.4.1), one AP at a time. The AP enters long mode on
// the BSP's page tables and runs the function given to it on the stack
// given to it. Which CPUs to start, and what they do, is the caller's.
#ifndef RAMSIFT_SRC_X86_SMPBOOT_H
#define RAMSIFT_SRC_X86_SMPBOOT_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "layout.h"	// AP_TRAMPOLINE_PAGES

// Bytes the start-up code occupies (whole pages).
#define SMPBOOT_BYTES (AP_TRAMPOLINE_PAGES * PAGE_SIZE)

// Copy the start-up code to physical phys (SMPBOOT_BYTES of free RAM,
// page aligned, in [PAGE_SIZE, 0xA0000): lib/run/plan.h) with a copy of the
// current page tables' PML4, and make the APs started from now on load CR3
// as it is now. Call again after the page tables moved (src/x86/relocate.c)
// or the memory was overwritten (tested). Requires apic_init().
void smpboot_install(uint64_t phys);

// Start the AP whose APIC ID is c->apic_id: INIT, a 10 ms wait (none on the
// CPUs Linux also spares it: Intel family 6 and later, AMD family 0FH and
// later), a STARTUP IPI, 200 us, a second STARTUP IPI unless the AP took its
// slot already (SDM vol. 3A, 9.4.4.1), then up to timeout_ms for it to
// report. The AP loads a GDT, TSS and GS for c (cpu_init_ap), the IDT, sets
// c->started, and calls main(), which must not return, on the stack that
// ends at stack_top (16-byte aligned). c must be in memory the page tables
// map, and stay there while the AP runs. Returns whether the AP started; if
// not, it is sent INIT again (so a late starter cannot run on c) and the
// caller should leave it out. Requires smpboot_install().
bool smpboot_start(struct cpu *c, uint64_t stack_top, void (*main)(void), uint32_t timeout_ms);

// Send INIT to the CPU with APIC ID apic_id: it stops wherever it is and
// waits for a STARTUP IPI.
void smpboot_stop(uint32_t apic_id);

#endif
