// SPDX-License-Identifier: GPL-2.0-or-later
// The xHCI driver's op table and its register blocks' accessors.
#include "usb/xhci.h"

_Static_assert(sizeof(struct xhci) <= USB_HC_DRV_BYTES, "struct xhci fits usb_hc's drv");

uint32_t xhci_op_read(struct usb_hc *hc, uint32_t off)
{
	return usb_hc_read(hc, xhci_of(hc)->op + off);
}

void xhci_op_write(struct usb_hc *hc, uint32_t off, uint32_t value)
{
	usb_hc_write(hc, xhci_of(hc)->op + off, value);
}

// A 64-bit register as two 32-bit writes, low first (xHCI 5.1).
void xhci_op_write64(struct usb_hc *hc, uint32_t off, uint64_t value)
{
	xhci_op_write(hc, off, (uint32_t)value);
	xhci_op_write(hc, off + 4, (uint32_t)(value >> 32));
}

void xhci_rt_write64(struct usb_hc *hc, uint32_t off, uint64_t value)
{
	usb_hc_write(hc, xhci_of(hc)->rt + off, (uint32_t)value);
	usb_hc_write(hc, xhci_of(hc)->rt + off + 4, (uint32_t)(value >> 32));
}

void xhci_doorbell(struct usb_hc *hc, unsigned slot, unsigned target)
{
	usb_hc_write(hc, xhci_of(hc)->db + 4 * slot, target);
}

const struct usb_hc_ops usb_xhci_ops = {
	.kind = "xHCI",
	.start = xhci_start,
	.start_poll = xhci_start_poll,
	.port_count = xhci_port_count,
	.port_status = xhci_port_status,
	.port_clear = xhci_port_clear,
	.port_reset = xhci_port_reset,
	.port_reset_poll = xhci_port_reset_poll,
	.port_disable = xhci_port_disable,
	.dev_setup = xhci_dev_setup,
	.dev_setup_poll = xhci_dev_setup_poll,
	.dev_address = NULL,
	.dev_update = xhci_dev_update,
	.dev_update_poll = xhci_dev_update_poll,
	.control = xhci_control,
	.control_poll = xhci_control_poll,
	.intr_open = xhci_intr_open,
	.intr_open_poll = xhci_intr_open_poll,
	.intr_poll = xhci_intr_poll,
	.dev_release = xhci_dev_release,
	.dev_release_poll = xhci_dev_release_poll,
	.stop = xhci_stop,
};
