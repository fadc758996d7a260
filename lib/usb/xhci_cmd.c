// SPDX-License-Identifier: GPL-2.0-or-later
// xHCI commands on behalf of a device (4.6): one in flight per device,
// matched to its completion event by the command TRB's address.
#include "usb/xhci.h"

#define EP0_TRBS 32
#define INTR_TRBS 16

void xhci_command(struct usb_hc *hc, unsigned dev, enum xhci_dev_op op, uint64_t param,
		  uint32_t control)
{
	struct xhci *x = xhci_of(hc);
	struct xhci_dev *d = &x->dev[dev];

	d->op = (uint8_t)op;
	d->cmd = (struct xhci_wait){ 0 };
	d->cmd.trb = xhci_ring_push(&x->cmd, param, 0, control);
	xhci_doorbell(hc, 0, 0);
}

enum usb_step xhci_command_poll(struct usb_hc *hc, unsigned dev)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];

	if (d->cmd.trb == 0)
		return USB_FAILED;	// none was queued (the device had no memory)
	xhci_events(hc);
	if (!d->cmd.done)
		return USB_PENDING;
	d->cmd.trb = 0;
	return d->cmd.cc == CC_SUCCESS ? USB_DONE : USB_FAILED;
}

bool xhci_dev_memory(struct usb_hc *hc, unsigned dev)
{
	struct xhci *x = xhci_of(hc);
	struct xhci_dev *d = &x->dev[dev];
	struct usb_buf ep0, intr;

	if (d->has_mem)
		return true;
	if (!usb_dma_take(hc->dma, x->ctx_bytes * 33u, 64, &d->in) ||
	    !usb_dma_take(hc->dma, x->ctx_bytes * 32u, 64, &d->out) ||
	    !usb_dma_take(hc->dma, 16 * EP0_TRBS, 64, &ep0) ||
	    !usb_dma_take(hc->dma, 16 * INTR_TRBS, 64, &intr)) {
		usb_hc_warn(hc, "no DMA memory left for a device's contexts and rings: "
			    "the device is left alone");
		return false;
	}
	d->ep0.mem = ep0;
	d->ep0.n = EP0_TRBS;
	d->intr.mem = intr;
	d->intr.n = INTR_TRBS;
	d->has_mem = true;
	return true;
}
