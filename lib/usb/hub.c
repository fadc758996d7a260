// SPDX-License-Identifier: GPL-2.0-or-later
// A running hub's ports (USB 2.0 11.24, USB 3.2 10.16): one control
// request at a time on the hub, one port looked at per step, round robin.
// A port's changes are acknowledged one by one; a new connection settles,
// is reset (one reset per controller at a time), and its device enumerated;
// a disconnection removes that device and all below it.
#include "fmt.h"
#include "usb/core.h"

#define REQ_GET_STATUS 0
#define REQ_CLEAR_FEATURE 1
#define REQ_SET_FEATURE 3
#define TYPE_PORT_IN 0xa3
#define TYPE_PORT 0x23

#define FEAT_PORT_ENABLE 1
#define FEAT_PORT_RESET 4
#define FEAT_C_PORT_CONNECTION 16	// the first change feature: bit 0 of wPortChange
#define FEAT_C_BH_PORT_RESET 29		// USB3 hubs: bits 5-7 of wPortChange
#define FEAT_C_PORT_LINK_STATE 25
#define FEAT_C_PORT_CONFIG_ERROR 26

#define PS_CONNECTION 0x0001
#define PS_ENABLE 0x0002
#define PS_RESET 0x0010
#define PS_LOW_SPEED 0x0200
#define PS_HIGH_SPEED 0x0400

enum hub_op { OP_NONE, OP_STATUS, OP_CLEAR, OP_RESET, OP_DISABLE };

static uint16_t le16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

// The CLEAR_FEATURE selector of the lowest change bit set (USB 2.0 table
// 11-17; USB 3.2 table 10-9 adds bits 5-7).
static uint16_t change_feature(uint16_t change)
{
	static const uint16_t ss[3] = { FEAT_C_BH_PORT_RESET, FEAT_C_PORT_LINK_STATE,
					FEAT_C_PORT_CONFIG_ERROR };
	unsigned bit = 0;

	while (!(change & 1u << bit))
		bit++;
	return (uint16_t)(bit < 5 ? FEAT_C_PORT_CONNECTION + bit : ss[bit - 5]);
}

static void request(struct usb_host *h, unsigned hub, enum hub_op op, uint8_t type, uint8_t req,
		    uint16_t value, uint16_t length)
{
	struct usb_device *d = &h->devs[hub];

	usb_ctl(h, hub, type, req, value, (uint16_t)(d->hub_next + 1), length);
	d->hub_op = (uint8_t)op;
	d->phase = 1;
	d->deadline = usb_now(h) + USB_STEP_US;
}

static void advance(struct usb_device *d)
{
	if (++d->hub_next >= d->hub_ports) {
		d->hub_next = 0;
		d->hub_scanned = true;
	}
}

static enum usb_speed port_speed(const struct usb_device *hub, uint16_t status)
{
	if (hub->where.speed == USB_SPEED_SUPER)
		return USB_SPEED_SUPER;
	return status & PS_LOW_SPEED ? USB_SPEED_LOW :
	       status & PS_HIGH_SPEED ? USB_SPEED_HIGH : USB_SPEED_FULL;
}

// Where the device just reset on the hub's current port is.
static struct usb_dev_where child_where(const struct usb_host *h, unsigned hub, uint16_t status)
{
	const struct usb_device *d = &h->devs[hub];
	unsigned port = d->hub_next + 1u;
	struct usb_dev_where w = {
		.speed = port_speed(d, status),
		.root_port = d->where.root_port,
		.parent = (uint8_t)hub,
		.hub_port = (uint8_t)port,
		.route = d->where.route | (uint32_t)(port > 15 ? 15 : port) << (4 * d->depth),
		.tt_hub = d->where.tt_hub,
		.tt_hub_addr = d->where.tt_hub_addr,
		.tt_port = d->where.tt_port,
	};

	if (w.speed >= USB_SPEED_HIGH) {
		w.tt_hub = USB_NO_DEVICE;
		w.tt_hub_addr = w.tt_port = 0;
	} else if (d->where.speed == USB_SPEED_HIGH) {
		w.tt_hub = (uint8_t)hub;
		w.tt_hub_addr = d->address;
		w.tt_port = (uint8_t)port;
	}
	return w;
}

static void reset_done(struct usb_host *h, unsigned hub, uint16_t status)
{
	struct usb_device *d = &h->devs[hub];
	struct usb_port *p = &d->ports[d->hub_next];
	struct usb_dev_where w = child_where(h, hub, status);
	unsigned child = usb_dev_new(h, d->hc, &w, d->depth + 1u);

	if (child == USB_NO_DEVICE) {
		h->hc_enum[d->hc] = USB_NO_DEVICE;
		p->state = PORT_FAILED;
		return;
	}
	h->hc_enum[d->hc] = (uint8_t)child;
	p->child = (uint8_t)child;
	p->state = PORT_DEVICE;
}

// What the port's status (no changes pending) asks for next.
static void act(struct usb_host *h, unsigned hub, uint16_t status)
{
	struct usb_device *d = &h->devs[hub];
	struct usb_port *p = &d->ports[d->hub_next];
	bool connected = status & PS_CONNECTION;
	uint8_t *owner = &h->hc_enum[d->hc];

	switch ((enum usb_port_state)p->state) {
	case PORT_EMPTY:
		if (connected) {
			p->state = PORT_DEBOUNCE;
			p->deadline = usb_now(h) + USB_DEBOUNCE_US;
		}
		break;
	case PORT_DEBOUNCE:
		if (!connected) {
			p->state = PORT_EMPTY;
		} else if (usb_now(h) >= p->deadline && *owner == USB_NO_DEVICE) {
			if (d->depth + 1u >= USB_MAX_DEPTH) {
				usb_dev_warn(h, hub, "a device on its port %u is more than %u hubs "
					     "deep: left alone", d->hub_next + 1u, USB_MAX_DEPTH);
				p->state = PORT_FAILED;
				return;
			}
			*owner = USB_ENUM_RESET;
			p->state = PORT_RESET;
			p->deadline = usb_now(h) + USB_RESET_US;
			return request(h, hub, OP_RESET, TYPE_PORT, REQ_SET_FEATURE, FEAT_PORT_RESET, 0);
		}
		break;
	case PORT_RESET:
		if (!connected || usb_now(h) >= p->deadline) {
			if (connected)
				usb_dev_warn(h, hub, "its port %u did not finish its reset within "
					     "1 s: port disabled", d->hub_next + 1u);
			*owner = USB_NO_DEVICE;
			p->state = connected ? PORT_FAILED : PORT_EMPTY;
			return;
		}
		if ((status & (PS_ENABLE | PS_RESET)) == PS_ENABLE)
			reset_done(h, hub, status);
		return;		// stays on this port until the reset ends
	case PORT_DEVICE:
		if (!connected || !(status & PS_ENABLE)) {
			usb_dev_remove(h, p->child);
			p->child = USB_NO_DEVICE;
			p->state = PORT_EMPTY;
		}
		break;
	case PORT_FAILED:
		p->state = PORT_OFF;
		if (d->where.speed != USB_SPEED_SUPER)	// a USB3 hub's ports cannot be disabled
			return request(h, hub, OP_DISABLE, TYPE_PORT, REQ_CLEAR_FEATURE,
				       FEAT_PORT_ENABLE, 0);
		break;
	case PORT_OFF:
		if (!connected)
			p->state = PORT_EMPTY;
		break;
	}
	advance(d);
}

static void answered(struct usb_host *h, unsigned hub, size_t n)
{
	struct usb_device *d = &h->devs[hub];
	const uint8_t *b = d->buf.virt;
	uint16_t change;

	if (d->hub_op != OP_STATUS) {
		if (d->hub_op == OP_DISABLE)
			advance(d);
		return;		// the next step reads the port's status again
	}
	if (n < 4) {
		usb_dev_warn(h, hub, "hub's GET_STATUS(port %u) answered %u bytes, not 4: "
			     "port skipped", d->hub_next + 1u, (unsigned)n);
		return advance(d);
	}
	change = le16(b + 2) & 0xff;
	if (change)
		return request(h, hub, OP_CLEAR, TYPE_PORT, REQ_CLEAR_FEATURE, change_feature(change), 0);
	act(h, hub, le16(b));
}

void usb_hub_step(struct usb_host *h, unsigned hub)
{
	struct usb_device *d = &h->devs[hub];
	enum usb_step s;
	char what[80];
	size_t n;

	if (d->hub_ports == 0)
		return;
	if (d->phase == 0)
		return request(h, hub, OP_STATUS, TYPE_PORT_IN, REQ_GET_STATUS, 0, 4);
	s = usb_ctl_poll(h, hub, &n);
	if (s == USB_PENDING && usb_now(h) < d->deadline)
		return;
	d->phase = 0;
	if (s == USB_DONE)
		return answered(h, hub, n);
	if (s != USB_PENDING)
		return usb_dev_lost(h, hub, "its hub requests failed");
	fmt_snprintf(what, sizeof what, "hub's request on its port %u got no answer within 1 s",
		     d->hub_next + 1u);
	usb_dev_fail(h, hub, what);
}
