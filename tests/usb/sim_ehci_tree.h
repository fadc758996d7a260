// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated EHCI controller's bus over the core's simulated devices
// (simdev.h): keyboards and hubs on its root ports and below, reached by
// USB address through enabled ports only. Control transfers are cut into
// the transactions EHCI sends (setup, data packets, status); a hub's
// interrupt endpoint sends its status-change bitmap. A transaction whose QH
// would not reach its device on a real bus (speed, or the split fields of a
// full/low-speed device: the nearest high-speed hub above it and the port
// the chain leaves it by) gets no answer and is counted.
#ifndef TESTS_USB_SIM_EHCI_TREE_H
#define TESTS_USB_SIM_EHCI_TREE_H

#include "sim_ehci.h"
#include "simdev.h"

#define SIM_TREE_DEVICES 16

// A control transfer in flight at one device.
struct sim_tree_ctl {
	struct simdev *dev;
	struct usb_setup setup;
	enum simdev_answer answer;
	uint8_t data[512];
	size_t len, done;
};

struct sim_ehci_tree {
	struct simdev *root[SIM_EHCI_PORTS];	// what each root port holds
	struct sim_tree_ctl ctl[SIM_TREE_DEVICES];
	unsigned bad_route;	// transactions whose QH did not lead to their device
};

// Whether transaction x's QH reaches a device of speed speed whose nearest
// high-speed hub above (for full and low speed) has address tt_hub and is
// left by port tt_port: the rules of split transactions (EHCI 4.12).
bool sim_ehci_reaches(enum usb_speed speed, uint8_t tt_hub, uint8_t tt_port,
		      const struct sim_ehci_xact *x);

// Put the tree behind the controller's root ports.
void sim_ehci_tree_attach(struct sim_ehci *s, struct sim_ehci_tree *t);

#endif
