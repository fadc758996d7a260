// SPDX-License-Identifier: GPL-2.0-or-later
// The EHCI driver's op table: what the core (lib/usb/hc.h) calls.
#include "usb/ehci.h"

static unsigned ehci_port_count(struct usb_hc *hc)
{
	return ehci_of(hc)->ports;
}

const struct usb_hc_ops usb_ehci_ops = {
	.kind = "EHCI",
	.start = ehci_start,
	.start_poll = ehci_start_poll,
	.port_count = ehci_port_count,
	.port_status = ehci_port_status,
	.port_clear = ehci_port_clear,
	.port_reset = ehci_port_reset,
	.port_reset_poll = ehci_port_reset_poll,
	.port_disable = ehci_port_disable,
	.dev_setup = ehci_dev_setup,
	.dev_setup_poll = ehci_dev_setup_poll,
	.dev_address = ehci_dev_address,
	.dev_update = ehci_dev_update,
	.dev_update_poll = ehci_dev_update_poll,
	.control = ehci_control,
	.control_poll = ehci_control_poll,
	.intr_open = ehci_intr_open,
	.intr_open_poll = ehci_intr_open_poll,
	.intr_poll = ehci_intr_poll,
	.dev_release = ehci_dev_release,
	.dev_release_poll = ehci_dev_release_poll,
	.stop = ehci_stop,
};
