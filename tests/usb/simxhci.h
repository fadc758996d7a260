// SPDX-License-Identifier: GPL-2.0-or-later
// A simulated xHCI controller for the unit tests: a register file
// (capability, operational, runtime and doorbell registers; USBLEGSUP and
// Supported Protocol capabilities) that runs the commands and transfers it
// finds in the rings in simulated DMA memory, against simdev devices on
// its root ports; and the usb_env around it: a clock that moves only when
// read or told, a count of register accesses, the warnings kept.
#ifndef TESTS_USB_SIMXHCI_H
#define TESTS_USB_SIMXHCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simdev.h"
#include "usb/env.h"

#define SIMX_BAR 0xfe000000ull
#define SIMX_MEM_PHYS 0x40000000ull	// where the DMA block is, as the controller sees it
#define SIMX_MEM_BYTES (1u << 20)
#define SIMX_PORTS 8
#define SIMX_SLOTS 32
#define SIMX_WARNINGS 16

struct simx_slot {
	bool enabled;
	struct simdev *dev;
	uint32_t slot_ctx[4];		// as the last command left it
	uint64_t deq[32];		// each endpoint's dequeue pointer
	uint8_t ccs[32];
	bool halted[32], running[32];
	uint16_t mps[32];
};

struct simx {
	// Configuration, set before usb_add.
	unsigned usb3_ports, usb2_ports;	// USB 3 ports first, as QEMU has them
	bool csz64;
	unsigned scratchpads;
	bool legacy;		// a USBLEGSUP capability, BIOS-owned
	int bios_polls;		// reads of USBLEGSUP before the BIOS lets go; -1 never
	int reset_polls;	// reads of USBCMD before HCRST clears; -1 never
	int cnr_polls;		// reads of USBSTS after reset before CNR clears; -1 never
	bool halt_stuck;	// clearing USBCMD.RS never halts it
	bool gone;		// every register reads all ones
	bool pci_gone;		// so does the PCI configuration space
	uint32_t pci_command;	// the PCI command register
	unsigned power_state;	// PMCSR: 0 D0 .. 3 D3hot (registers read all ones but in D0)
	bool woken;		// D0 was set from a lower state,
	uint64_t woken_at;	// then
	// The env.
	struct usb_env env;
	uint64_t now;
	unsigned long accesses;
	unsigned warnings;
	char warning[SIMX_WARNINGS][200];
	uint8_t *mem;		// SIMX_MEM_BYTES at SIMX_MEM_PHYS
	unsigned faults;	// DMA outside the block, bad TRBs: each a test failure
	char fault[200];
	// Registers.
	uint32_t usbcmd, usbsts, config, legsup, legctl, erstsz;
	uint64_t crcr, dcbaap, erstba, erdp;
	uint32_t portsc[SIMX_PORTS];
	int reset_left, cnr_left, bios_left;
	uint64_t reset_at;	// when HCRST was written
	// Rings.
	uint64_t cmd_deq;
	uint8_t cmd_ccs;
	unsigned ev_idx;
	uint8_t ev_pcs;
	struct simx_slot slots[SIMX_SLOTS + 1];
	struct simdev root;	// a pseudo hub whose ports are the root ports
	unsigned commands;	// commands run
};

// A controller with usb3 + usb2 ports and the defaults (no faults).
void simx_init(struct simx *s, unsigned usb3, unsigned usb2);
// The DMA block to hand to usb_init.
struct usb_mem simx_mem(struct simx *s);
// Plug d into root port port (from 1), or unplug (d NULL).
void simx_plug(struct simx *s, unsigned port, struct simdev *d);
// Deliver what the devices have for the interrupt endpoints waiting.
void simx_tick(struct simx *s);
// The slot whose device is d (0: none).
unsigned simx_slot_of(const struct simx *s, const struct simdev *d);
// True when some warning contains text.
bool simx_warned(const struct simx *s, const char *text);

// simxhci_ring.c, for simxhci.c: the commands queued (doorbell 0), one
// endpoint's transfers (a slot's doorbell), the protocol speed ID of sp.
// What a real controller would refuse or misread (DMA outside the block,
// a context with the wrong speed or TT fields, an overflowing event ring)
// is a fault (faults, fault): the tests hold it to zero.
void simx_run_commands(struct simx *s);
void simx_fault(struct simx *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void simx_run_endpoint(struct simx *s, unsigned slot, unsigned dci);
unsigned simx_speed_id(enum usb_speed sp);
// A Port Status Change event for port, when running.
void simx_port_event(struct simx *s, unsigned port);
// At run (USBCMD.RS set): the device context array, command ring and the
// scratchpad pages (each a page of its own in the block) are in place.
void simx_check_start(struct simx *s);

#endif
