// SPDX-License-Identifier: GPL-2.0-or-later
// xHCI transfers (4.11.2): control transfers on EP0 as Setup, Data and
// Status TRBs, with the endpoint recovered first after a STALL or an error
// halted it (Reset Endpoint, Set TR Dequeue Pointer: 4.6.8, 4.6.10); and
// the interrupt-IN endpoint, one Normal TRB queued at a time.
#include "usb/xhci.h"

#define EP0_DCI 1

static void queue_control(struct usb_hc *hc, unsigned dev)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];
	const struct usb_setup *s = &d->setup;
	bool in = s->type & 0x80;
	uint64_t packet = s->type | (uint32_t)s->request << 8 | (uint32_t)s->value << 16 |
			  (uint64_t)s->index << 32 | (uint64_t)s->length << 48;
	uint32_t trt = s->length == 0 ? 0 : in ? 3 : 2;

	d->ctl = (struct xhci_wait){ 0 };
	xhci_ring_push(&d->ep0, packet, 8, TRB_TYPE(TRB_SETUP) | TRB_IDT | trt << 16);
	if (s->length)
		xhci_ring_push(&d->ep0, d->data.phys, s->length,
			       TRB_TYPE(TRB_DATA) | TRB_ISP | (in ? TRB_DIR_IN : 0));
	d->ctl.trb = xhci_ring_push(&d->ep0, 0, 0, TRB_TYPE(TRB_STATUS) | TRB_IOC |
				    (s->length == 0 || !in ? TRB_DIR_IN : 0));
	xhci_doorbell(hc, d->slot, EP0_DCI);
}

void xhci_control(struct usb_hc *hc, unsigned dev, const struct usb_setup *setup,
		  struct usb_buf data)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];

	d->setup = *setup;
	d->data = data;
	d->ctl = (struct xhci_wait){ 0 };
	if (d->slot == 0)
		return;
	if (!d->ep0_halted)
		return queue_control(hc, dev);
	xhci_command(hc, dev, XOP_RESET_EP, 0,
		     TRB_TYPE(TRB_RESET_EP) | TRB_SLOT(d->slot) | TRB_EP(EP0_DCI));
}

// The recovery of a halted EP0, a command at a time, then the request.
static enum usb_step recover(struct usb_hc *hc, unsigned dev)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];
	enum usb_step s = xhci_command_poll(hc, dev);

	if (s != USB_DONE)
		return s;
	if (d->op == XOP_RESET_EP) {
		xhci_command(hc, dev, XOP_SET_DEQ, xhci_ring_next(&d->ep0),
			     TRB_TYPE(TRB_SET_TR_DEQUEUE) | TRB_SLOT(d->slot) | TRB_EP(EP0_DCI));
		return USB_PENDING;
	}
	d->op = XOP_NONE;
	d->ep0_halted = false;
	queue_control(hc, dev);
	return USB_PENDING;
}

static enum usb_step wait_result(const struct xhci_wait *w)
{
	return w->cc == CC_SUCCESS ? USB_DONE : w->cc == CC_STALL ? USB_STALL : USB_FAILED;
}

enum usb_step xhci_control_poll(struct usb_hc *hc, unsigned dev, size_t *actual)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];
	enum usb_step s;

	if (d->slot == 0)
		return USB_FAILED;
	if (d->op == XOP_RESET_EP || d->op == XOP_SET_DEQ)
		return recover(hc, dev);
	xhci_events(hc);
	if (!d->ctl.done)
		return USB_PENDING;
	s = wait_result(&d->ctl);
	d->ctl.trb = 0;
	if (s != USB_DONE) {
		d->ep0_halted = true;
		return s;
	}
	*actual = d->ctl.residue > d->setup.length ? 0 : d->setup.length - d->ctl.residue;
	return USB_DONE;
}

static void queue_intr(struct usb_hc *hc, unsigned dev)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];

	d->intr_wait = (struct xhci_wait){ 0 };
	d->intr_wait.trb = xhci_ring_push(&d->intr, d->intr_buf.phys, d->intr_mps,
					  TRB_TYPE(TRB_NORMAL) | TRB_ISP | TRB_IOC);
	xhci_doorbell(hc, d->slot, d->intr_dci);
}

void xhci_intr_open(struct usb_hc *hc, unsigned dev, unsigned ep, unsigned mps,
		    unsigned interval, struct usb_buf buf)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];

	d->intr_dci = (uint8_t)(ep * 2 + 1);
	d->intr_mps = (uint16_t)mps;
	d->intr_buf = buf;
	d->intr_rearm = false;
	xhci_ring_init(&d->intr, d->intr.mem, d->intr.n);
	xhci_ctx_intr(hc, dev, mps, interval);
	xhci_command(hc, dev, XOP_CONFIG_EP, d->in.phys,
		     TRB_TYPE(TRB_CONFIGURE_EP) | TRB_SLOT(d->slot));
}

enum usb_step xhci_intr_open_poll(struct usb_hc *hc, unsigned dev)
{
	enum usb_step s = xhci_command_poll(hc, dev);

	if (s == USB_DONE) {
		xhci_of(hc)->dev[dev].op = XOP_NONE;
		queue_intr(hc, dev);
	}
	return s;
}

enum usb_step xhci_intr_poll(struct usb_hc *hc, unsigned dev, size_t *actual)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];
	enum usb_step s;

	if (d->intr_rearm) {
		d->intr_rearm = false;
		queue_intr(hc, dev);
	}
	xhci_events(hc);
	if (!d->intr_wait.done)
		return USB_PENDING;
	s = wait_result(&d->intr_wait);
	if (s == USB_DONE) {
		*actual = d->intr_wait.residue > d->intr_mps ? 0 : d->intr_mps - d->intr_wait.residue;
		d->intr_rearm = true;
	}
	return s;
}
