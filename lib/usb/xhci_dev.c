// SPDX-License-Identifier: GPL-2.0-or-later
// A device's slot on an xHCI controller (4.3, 4.5.3): Enable Slot and
// Address Device (the controller assigns the address), the context updates
// (EP0's max packet, the hub fields), and Disable Slot on release.
#include "memstr.h"
#include "usb/xhci.h"

void xhci_dev_setup(struct usb_hc *hc, unsigned dev, const struct usb_dev_where *where,
		    unsigned mps)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];

	d->op = XOP_NONE;
	if (!xhci_dev_memory(hc, dev))
		return;
	d->slot = 0;
	d->speed = (uint8_t)where->speed;
	d->mps0 = (uint16_t)mps;
	d->ports = 0;
	d->ep0_halted = false;
	d->intr_dci = 0;
	d->ctl = d->intr_wait = (struct xhci_wait){ 0 };
	xhci_ring_init(&d->ep0, d->ep0.mem, d->ep0.n);
	xhci_ring_init(&d->intr, d->intr.mem, d->intr.n);
	xhci_ctx_address(hc, dev, where, mps);
	xhci_command(hc, dev, XOP_ENABLE, 0, TRB_TYPE(TRB_ENABLE_SLOT));
}

enum usb_step xhci_dev_setup_poll(struct usb_hc *hc, unsigned dev, uint8_t *address)
{
	struct xhci *x = xhci_of(hc);
	struct xhci_dev *d = &x->dev[dev];
	enum usb_step s;

	if (d->op == XOP_NONE)
		return USB_FAILED;
	s = xhci_command_poll(hc, dev);
	if (s != USB_DONE)
		return s;
	if (d->op == XOP_ENABLE) {
		if (d->slot == 0 || d->slot > x->max_slots) {
			usb_hc_warn(hc, "Enable Slot gave slot %u, not 1-%u: device left alone",
				    d->slot, x->max_slots);
			d->slot = 0;
			return USB_FAILED;
		}
		((volatile uint64_t *)x->dcbaa.virt)[d->slot] = d->out.phys;
		mem_set(d->out.virt, 0, x->ctx_bytes * 32u);
		xhci_command(hc, dev, XOP_ADDRESS, d->in.phys,
			     TRB_TYPE(TRB_ADDRESS_DEVICE) | TRB_SLOT(d->slot));
		return USB_PENDING;
	}
	*address = (uint8_t)(xhci_output_ctx(hc, dev, 0)[3] & 0xff);
	d->op = XOP_NONE;
	return USB_DONE;
}

// The next context update the device needs, or false when none is left.
static bool update_next(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned ports,
			unsigned think, bool mtt)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];

	if (mps != d->mps0) {
		uint32_t *ep0 = xhci_input_ctx(hc, dev, 1);

		xhci_input_control(hc, dev)[0] = 0;
		xhci_input_control(hc, dev)[1] = 2;	// EP0 alone (Evaluate Context, 4.6.7)
		ep0[1] = (ep0[1] & 0xffff) | (uint32_t)mps << 16;
		d->mps0 = (uint16_t)mps;
		xhci_command(hc, dev, XOP_EVALUATE, d->in.phys,
			     TRB_TYPE(TRB_EVALUATE_CTX) | TRB_SLOT(d->slot));
		return true;
	}
	if (ports != d->ports) {
		xhci_ctx_hub(hc, dev, ports, think, mtt);
		d->ports = (uint8_t)ports;
		xhci_command(hc, dev, XOP_HUB, d->in.phys,
			     TRB_TYPE(TRB_CONFIGURE_EP) | TRB_SLOT(d->slot));
		return true;
	}
	return false;
}

void xhci_dev_update(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned ports,
		     unsigned think, bool mtt)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];

	// The hub fields wait for EP0's update when both change; the poll sends them.
	d->want_ports = (uint8_t)ports;
	d->want_think = (uint8_t)think;
	d->want_mtt = mtt;
	if (!update_next(hc, dev, mps, ports, think, mtt))
		d->op = XOP_NONE;
}

enum usb_step xhci_dev_update_poll(struct usb_hc *hc, unsigned dev)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];
	enum usb_step s;

	if (d->op == XOP_NONE)
		return USB_DONE;
	s = xhci_command_poll(hc, dev);
	if (s != USB_DONE)
		return s;
	if (!update_next(hc, dev, d->mps0, d->want_ports, d->want_think, d->want_mtt))
		d->op = XOP_NONE;
	return d->op == XOP_NONE ? USB_DONE : USB_PENDING;
}

void xhci_dev_release(struct usb_hc *hc, unsigned dev)
{
	xhci_of(hc)->dev[dev].release = true;
}

enum usb_step xhci_dev_release_poll(struct usb_hc *hc, unsigned dev)
{
	struct xhci *x = xhci_of(hc);
	struct xhci_dev *d = &x->dev[dev];

	if (d->cmd.trb && xhci_command_poll(hc, dev) == USB_PENDING)
		return USB_PENDING;	// a command still in flight: its event comes first
	if (d->op == XOP_DISABLE || d->slot == 0) {
		if (d->slot)
			((volatile uint64_t *)x->dcbaa.virt)[d->slot] = 0;
		d->slot = 0;
		d->op = XOP_NONE;
		d->release = false;
		return USB_DONE;
	}
	xhci_command(hc, dev, XOP_DISABLE, 0, TRB_TYPE(TRB_DISABLE_SLOT) | TRB_SLOT(d->slot));
	return USB_PENDING;
}
