// SPDX-License-Identifier: GPL-2.0-or-later
// The local APIC, as far as ramsift needs it: this CPU's APIC ID, the INIT
// and STARTUP inter-processor interrupts that start the other CPUs, and the
// wake-ups of APs that wait halted (SDM vol. 3A, chapter 11). The firmware
// leaves it in xAPIC mode (registers in memory at the base IA32_APIC_BASE
// names, 8-bit IDs) or in x2APIC mode (registers as MSRs, 32-bit IDs);
// ramsift keeps whichever it finds. Only an AP waiting in hlt ever takes an
// interrupt; the BSP never enables them (the legacy PIC may still be wired
// to it).
#ifndef RAMSIFT_SRC_X86_APIC_H
#define RAMSIFT_SRC_X86_APIC_H

#include <stdbool.h>
#include <stdint.h>

enum apic_mode {
	APIC_NONE,	// no local APIC, or the firmware disabled it
	APIC_XAPIC,
	APIC_X2APIC,
};

// Find the mode the firmware left this CPU's local APIC in (the BSP's; the
// others are in the same one). The xAPIC's registers must be reachable at
// their physical address, which the identity map of all RAM and of the first
// 4 GiB guarantees for the usual 0xFEE00000; a base at or above map_top
// counts as APIC_NONE. Call once, before the functions below.
enum apic_mode apic_init(uint64_t map_top);

// The mode apic_init found.
enum apic_mode apic_mode(void);

// The mode the calling CPU's own local APIC is in (IA32_APIC_BASE), which
// on an AP may differ from the BSP's if the firmware set them up apart.
enum apic_mode apic_cpu_mode(void);

// "off", "xAPIC" or "x2APIC", for the log.
const char *apic_mode_name(enum apic_mode m);

// The calling CPU's APIC ID (8 bits in xAPIC mode, 32 in x2APIC mode).
// Requires apic_init() and a mode other than APIC_NONE.
uint32_t apic_id(void);

// Send an INIT IPI (level assert, SDM vol. 3A, 11.6.1) to the CPU with APIC
// ID id, or a STARTUP IPI that starts it in real mode at page * 4 KiB
// (page < 0x100). Returns false when the xAPIC did not accept the IPI within
// 100 ms (its delivery status stayed pending); an x2APIC has no such status
// and always returns true. Neither tells whether a CPU with that ID exists:
// an IPI to none goes nowhere.
bool apic_send_init(uint32_t id);
bool apic_send_startup(uint32_t id, uint32_t page);

// Send a fixed interrupt with vector to the CPU with APIC ID id (physical
// destination, edge). Same return as above.
bool apic_send_fixed(uint32_t id, uint8_t vector);

// Make the calling CPU's local APIC accept fixed interrupts (software
// enabled, spurious vector spurious, no priority masked) and raise vector
// every tick_count x 16 of its timer's clock (periodic; the clock is the
// bus or crystal clock, 25 MHz to 1 GHz: 4 Mi counts are 67 ms to 2.7 s).
// For an AP, after its start; INIT undoes it all. Returns false, changing
// nothing, when this CPU's local APIC is not in the BSP's mode (the SDM
// wants every CPU in one mode, and INIT keeps it; a firmware may still
// differ): such a CPU must neither wait for interrupts nor send any.
bool apic_wake_setup(uint8_t vector, uint8_t spurious, uint32_t tick_count);

// Acknowledge the interrupt being handled (end of interrupt).
void apic_eoi(void);

#endif
