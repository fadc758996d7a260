// SPDX-License-Identifier: GPL-2.0-or-later
// The EHCI driver's test rig: a simulated controller (sim_ehci.h), the env
// that reaches it, a DMA block whose physical addresses differ from its
// virtual ones, and a struct usb_hc on usb_ehci_ops, as the core would set
// one up. Warnings are counted and the last kept. rig_poll() runs an op's
// poll to its end a simulated millisecond apart, counting the polls and
// the most register accesses one poll made.
#ifndef TESTS_USB_EHCI_RIG_H
#define TESTS_USB_EHCI_RIG_H

#include "sim_ehci.h"

#define RIG_MMIO 0xfebf0000u
#define RIG_BDF 0x00e8u		// 00:1d.0
#define RIG_DMA_PHYS 0x7f000000u
#define RIG_DMA_BYTES (256u * 1024)

struct ehci_rig {
	struct sim_ehci sim;
	struct usb_env env;
	struct usb_dma dma;
	struct usb_hc hc;
	void *mem;
	unsigned warnings;
	char last_warning[200];
	unsigned polls;			// of the last rig_poll
	unsigned long most_accesses;	// in one call, over every rig_poll
};

void rig_init(struct ehci_rig *r, unsigned ports);
// Free the rig; returns the schedule faults the simulator counted (pointers
// outside the DMA block, links to other than a QH, a QH rewritten while
// the controller may hold it): 0 for a clean run.
unsigned long rig_free(struct ehci_rig *r);

// Poll fn(r, arg) until it says other than USB_PENDING, at most max_polls
// times, moving the clock 1 ms between polls; USB_PENDING when it never ended.
enum usb_step rig_poll(struct ehci_rig *r, enum usb_step (*fn)(struct ehci_rig *r, void *arg),
		       void *arg, unsigned max_polls);

// Start the controller and poll the start to its end (at most 3000 polls).
enum usb_step rig_start(struct ehci_rig *r);

#endif
