// SPDX-License-Identifier: GPL-2.0-or-later
// A simulated EHCI controller for the unit tests: its capability,
// operational and port registers, the legacy support capability in a
// simulated PCI configuration space (a BIOS that lets go after a while, or
// never), and its schedules (the async ring and the periodic frame list)
// executed from the simulated DMA memory, frame by frame, against the
// devices a bus (struct sim_ehci_bus) puts behind its root ports. Faults on
// request: registers that read all ones, an HCRESET that never clears, a
// controller that never halts. Every register access is counted and moves
// the clock on by SIM_EHCI_ACCESS_US, so a driver's bounded waits end.
#ifndef TESTS_USB_SIM_EHCI_H
#define TESTS_USB_SIM_EHCI_H

#include <stdbool.h>
#include <stdint.h>

#include "usb/env.h"
#include "usb/hc.h"

#define SIM_EHCI_PORTS 8
#define SIM_EHCI_CAPLENGTH 0x20
#define SIM_EHCI_EECP 0x68
#define SIM_EHCI_ACCESS_US 10
#define SIM_NEVER UINT64_MAX

// What a transaction got from the device (else the bytes it moved).
enum { SIM_NAK = -1, SIM_STALL = -2, SIM_SILENT = -3 };

// One transaction as the controller puts it on the bus, with the QH's
// words that say how to reach the device.
struct sim_ehci_xact {
	uint32_t enabled_ports;	// bit p-1: root port p is enabled and this controller's
	uint8_t addr, ep;
	uint32_t pid;		// EHCI_TD_PID_*
	bool toggle;
	uint8_t *data;		// IN: room for len bytes; SETUP/OUT: len bytes
	unsigned len;
	uint32_t qh_char, qh_caps;	// QH words 1 and 2: speed, hub, port, masks
	bool periodic;
};

// The devices: a keyboard, a hub and what hangs from it, as the test builds them.
struct sim_ehci_bus {
	void *ctx;
	// Root port port (from 1): whether a device is attached, and its speed.
	bool (*attached)(void *ctx, unsigned port, enum usb_speed *speed);
	// The port's reset ended: its device is at the default address.
	void (*reset)(void *ctx, unsigned port);
	// One transaction: the bytes moved, or SIM_NAK, SIM_STALL, SIM_SILENT
	// (also when no device answers at that address, or the QH's speed or
	// split fields do not lead to it).
	int (*transact)(void *ctx, const struct sim_ehci_xact *x);
};

struct sim_ehci {
	uint64_t mmio;			// the BAR
	uint32_t bdf;
	struct sim_ehci_bus bus;
	uint8_t *mem;			// the DMA block
	uint64_t mem_phys;
	size_t mem_bytes;

	// Set up by the test.
	unsigned ports;			// N_PORTS
	unsigned companions;		// N_CC
	bool ppc;			// port power switches
	bool bios_owned;		// the BIOS holds it at start
	uint64_t bios_release_us;	// after the OS asks; SIM_NEVER: never
	bool hcreset_stuck, halt_stuck;
	bool gone;			// registers and configuration space read all ones
	bool mmio_gone;			// the registers only (the BAR no longer decodes)

	// The clock and the counts.
	uint64_t now_us, frame_us;
	unsigned long accesses;
	unsigned long bad_dma;		// schedule pointers outside the DMA block
	unsigned long bad_links;	// links to other than a QH, an async ring not closed
	// A QH's endpoint words changed while the controller may still hold
	// the old ones: no doorbell was answered since it last read them (4.8.2).
	unsigned long bad_rewrites;
	unsigned long iaa_answers;
	struct { uint32_t phys, chr, caps; unsigned long iaa; } seen[32];
	unsigned long hcresets;

	// The registers.
	uint32_t cmd, sts, frindex, periodic_base, async_addr, configflag, ctrlds, intr;
	uint64_t hcreset_at;
	uint32_t portsc[SIM_EHCI_PORTS];
	uint64_t pr_since[SIM_EHCI_PORTS];
	unsigned pr_reads[SIM_EHCI_PORTS];	// reads for which PR stays set after release
	bool present[SIM_EHCI_PORTS];
	uint32_t pci[64];			// configuration space, dwords
	uint64_t os_asked_at;
	bool os_asked;
};

// A controller at mmio and bdf over the DMA block mem (phys mem_phys,
// mem_bytes), with ports root ports, no companions, the BIOS not owning it.
void sim_ehci_init(struct sim_ehci *s, uint64_t mmio, uint32_t bdf, void *mem, uint64_t mem_phys,
		   size_t mem_bytes, unsigned ports);

// The env's hooks; ctx is the struct sim_ehci.
uint64_t sim_ehci_now(void *ctx);
uint32_t sim_ehci_mmio_read(void *ctx, uint64_t addr);
void sim_ehci_mmio_write(void *ctx, uint64_t addr, uint32_t value);
uint32_t sim_ehci_pci_read(void *ctx, uint32_t bdf, uint16_t offset);
void sim_ehci_pci_write(void *ctx, uint32_t bdf, uint16_t offset, uint32_t value);

// Move the clock on by us, running the schedules once a millisecond frame.
void sim_ehci_run(struct sim_ehci *s, uint64_t us);

// sim_ehci_sched.c: run one frame's periodic list and the async ring.
void sim_ehci_frame(struct sim_ehci *s);

#endif
