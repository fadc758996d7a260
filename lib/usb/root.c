// SPDX-License-Identifier: GPL-2.0-or-later
// A controller's root ports, one looked at per step, round robin: a new
// connection settles, is reset (one reset per controller at a time) and its
// device enumerated; a disconnection (or a port the controller disabled)
// removes that device and all below it. Registers reading all ones mean
// the controller is gone: everything on it is forgotten.
#include "usb/core.h"

// How long after a controller starts its ports count as settling: a
// device's connection may take this long to show (USB 3 link training).
#define USB_ROOT_SETTLE_US 200000u

static void controller_gone(struct usb_host *h, unsigned hc)
{
	h->hc_state[hc] = HC_DEAD;
	for (unsigned d = 0; d < USB_MAX_DEVICES; d++)
		if (h->devs[d].used && h->devs[d].hc == hc) {
			if (h->devs[d].state == DEV_RUNNING && !h->devs[d].is_hub)
				h->generation++;
			h->devs[d].used = false;
		}
}

static void reset_done(struct usb_host *h, unsigned hc, unsigned port, struct usb_port *p)
{
	struct usb_hc *c = &h->hcs[hc];
	struct usb_port_status st;
	struct usb_dev_where w = { .root_port = (uint8_t)port, .parent = USB_NO_DEVICE,
				   .tt_hub = USB_NO_DEVICE };
	unsigned dev;

	if (!c->ops->port_status(c, port, &st))
		return controller_gone(h, hc);
	w.speed = st.speed;
	dev = usb_dev_new(h, hc, &w, 0);
	if (dev == USB_NO_DEVICE) {
		h->hc_enum[hc] = USB_NO_DEVICE;
		p->state = PORT_FAILED;
		return;
	}
	h->hc_enum[hc] = (uint8_t)dev;
	p->child = (uint8_t)dev;
	p->state = PORT_DEVICE;
}

static void step_reset(struct usb_host *h, unsigned hc, unsigned port, struct usb_port *p)
{
	struct usb_hc *c = &h->hcs[hc];
	enum usb_step s = c->ops->port_reset_poll(c, port);

	if (s == USB_DONE)
		return reset_done(h, hc, port, p);
	if (s == USB_PENDING && usb_now(h) < p->deadline)
		return;
	// A port the driver handed to a companion controller has had its
	// warning from the driver.
	struct usb_port_status st;
	if (s != USB_FAILED || !c->ops->port_status(c, port, &st) || !st.companion)
		usb_warn(h, "%s port %u: %s: port disabled until replugged", c->name, port,
			 s == USB_PENDING ? "its reset did not finish within 1 s" : "its reset failed");
	h->hc_enum[hc] = USB_NO_DEVICE;
	p->state = PORT_FAILED;
}

// What the port's state and status ask for. False when the port stays the
// one looked at (its reset is running).
static bool act(struct usb_host *h, unsigned hc, unsigned port, const struct usb_port_status *st)
{
	struct usb_hc *c = &h->hcs[hc];
	struct usb_port *p = &h->root[hc][port - 1];

	switch ((enum usb_port_state)p->state) {
	case PORT_EMPTY:
		if (st->connected) {
			p->state = PORT_DEBOUNCE;
			p->deadline = usb_now(h) + USB_DEBOUNCE_US;
		}
		break;
	case PORT_DEBOUNCE:
		if (!st->connected) {
			p->state = PORT_EMPTY;
		} else if (usb_now(h) >= p->deadline && h->hc_enum[hc] == USB_NO_DEVICE) {
			h->hc_enum[hc] = USB_ENUM_RESET;
			c->ops->port_reset(c, port);
			p->state = PORT_RESET;
			p->deadline = usb_now(h) + USB_RESET_US;
			return false;
		}
		break;
	case PORT_RESET:
		step_reset(h, hc, port, p);
		return p->state != PORT_RESET;
	case PORT_DEVICE:
		if (!st->connected || !st->enabled) {
			usb_dev_remove(h, p->child);
			p->child = USB_NO_DEVICE;
			p->state = PORT_EMPTY;
		}
		break;
	case PORT_FAILED:
		c->ops->port_disable(c, port);
		p->state = PORT_OFF;
		break;
	case PORT_OFF:
		if (!st->connected)
			p->state = PORT_EMPTY;
		break;
	}
	return true;
}

void usb_root_step(struct usb_host *h, unsigned hc)
{
	struct usb_hc *c = &h->hcs[hc];
	unsigned port = h->hc_next[hc] + 1u;
	struct usb_port_status st;

	if (h->hc_ports[hc] == 0)
		return;
	if (!c->ops->port_status(c, port, &st))
		return controller_gone(h, hc);
	if (st.changed)
		c->ops->port_clear(c, port);
	if (!act(h, hc, port, &st) || h->hc_state[hc] != HC_RUNNING)
		return;
	if (++h->hc_next[hc] == h->hc_ports[hc]) {
		h->hc_next[hc] = 0;
		if (usb_now(h) >= h->hc_started[hc] + USB_ROOT_SETTLE_US)
			h->hc_scanned[hc] = true;
	}
}
