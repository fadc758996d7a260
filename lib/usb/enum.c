// SPDX-License-Identifier: GPL-2.0-or-later
// A device's enumeration, one step per poll (USB 2.0 9.1.2): reach it at
// the default address, learn endpoint 0's size, give it an address, read
// its descriptors, configure it as a boot keyboard or a hub. Every step
// has USB_STEP_US; a device that fails one is named in a warning, its port
// disabled until it is unplugged, and it is not tried again.
#include "fmt.h"
#include "memstr.h"
#include "usb/core.h"
#include "usb/desc.h"
#include "usb/report.h"

#define REQ_SET_ADDRESS 5
#define REQ_GET_DESCRIPTOR 6
#define REQ_SET_CONFIGURATION 9
#define REQ_SET_IDLE 0x0a
#define REQ_SET_PROTOCOL 0x0b
#define REQ_SET_HUB_DEPTH 12
#define REQ_SET_FEATURE 3
#define HUB_PORT_POWER 8
#define TYPE_IN 0x80
#define TYPE_CLASS_IFACE 0x21
#define TYPE_CLASS_DEVICE 0x20
#define TYPE_CLASS_PORT 0x23

static void begin(struct usb_host *h, unsigned dev)
{
	h->devs[dev].phase = 1;
	h->devs[dev].deadline = usb_now(h) + USB_STEP_US;
}

static unsigned default_mps(enum usb_speed s)
{
	return s == USB_SPEED_SUPER ? 512 : s == USB_SPEED_HIGH ? 64 : 8;
}

// Polls the control request in flight; on USB_DONE *n is what came. A
// failure or a timeout fails the device, naming the request; a STALL is
// returned when stall_ok (requests a keyboard may refuse).
static enum usb_step ctl_wait(struct usb_host *h, unsigned dev, const char *request, size_t *n,
			      bool stall_ok)
{
	enum usb_step s = usb_ctl_poll(h, dev, n);
	char what[96];

	if (s == USB_PENDING && usb_now(h) < h->devs[dev].deadline)
		return USB_PENDING;
	if (s == USB_DONE || (s == USB_STALL && stall_ok))
		return s;
	fmt_snprintf(what, sizeof what, "%s %s", request,
		     s == USB_PENDING ? "got no answer within 1 s" :
		     s == USB_STALL ? "was refused (STALL)" : "failed");
	usb_dev_fail(h, dev, what);
	return USB_FAILED;
}

// A driver operation's poll: USB_DONE, or the device failed (warned) or
// it is still pending.
static bool op_done(struct usb_host *h, unsigned dev, enum usb_step s, const char *op)
{
	char what[96];

	if (s == USB_DONE)
		return true;
	if (s == USB_PENDING && usb_now(h) < h->devs[dev].deadline)
		return false;
	fmt_snprintf(what, sizeof what, "the controller's %s %s", op,
		     s == USB_PENDING ? "did not finish within 1 s" : "failed");
	usb_dev_fail(h, dev, what);
	return false;
}

static void bad_descriptor(struct usb_host *h, unsigned dev, const char *why)
{
	char what[96];

	fmt_snprintf(what, sizeof what, "bad descriptor (%s)", why);
	usb_dev_fail(h, dev, what);
}

static void step_setup(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_hc *hc = usb_hc_of(h, dev);

	if (d->phase == 0) {
		if (usb_now(h) < d->deadline)
			return;		// the reset recovery time
		d->ep0_mps = (uint16_t)default_mps(d->where.speed);
		hc->ops->dev_setup(hc, dev, &d->where, d->ep0_mps);
		begin(h, dev);
	} else if (op_done(h, dev, hc->ops->dev_setup_poll(hc, dev, &d->address), "device setup")) {
		usb_dev_next(h, dev, DEV_DESC8);
	}
}

// GET_DESCRIPTOR(device) for len bytes: 8 first, for EP0's packet size,
// then all 18 once the device has its address.
static void step_device_desc(struct usb_host *h, unsigned dev, uint16_t len)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_device_desc dd;
	const char *why;
	size_t n;

	if (d->phase == 0) {
		usb_ctl(h, dev, TYPE_IN, REQ_GET_DESCRIPTOR, USB_DESC_DEVICE << 8, 0, len);
		begin(h, dev);
		return;
	}
	if (ctl_wait(h, dev, len == 8 ? "GET_DESCRIPTOR(device, 8)" : "GET_DESCRIPTOR(device)", &n,
		     false) != USB_DONE)
		return;
	if (len == 18 && n < 18)
		return bad_descriptor(h, dev, "device descriptor shorter than 18 bytes");
	if (!usb_parse_device(d->buf.virt, n, &dd, &why))
		return bad_descriptor(h, dev, why);
	if (len == 18)
		return usb_dev_next(h, dev, DEV_CONFIG9);
	d->ep0_mps = dd.mps0;
	usb_dev_next(h, dev, d->address ? DEV_UPDATE : DEV_SET_ADDRESS);
}

static void step_set_address(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_hc *hc = usb_hc_of(h, dev);
	size_t n;

	if (d->phase == 0) {
		usb_ctl(h, dev, 0, REQ_SET_ADDRESS, (uint16_t)(dev + 1), 0, 0);
		begin(h, dev);
	} else if (ctl_wait(h, dev, "SET_ADDRESS", &n, false) == USB_DONE) {
		d->address = (uint8_t)(dev + 1);
		hc->ops->dev_address(hc, dev, d->address);
		usb_dev_next(h, dev, DEV_RECOVERY);
		d->deadline = usb_now(h) + 2000;
	}
}

static void step_update(struct usb_host *h, unsigned dev, unsigned ports, enum usb_dev_state then)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_hc *hc = usb_hc_of(h, dev);

	if (d->phase == 0) {
		// A hub runs single-TT (its alternate setting 0, USB 2.0 11.23.1).
		hc->ops->dev_update(hc, dev, d->ep0_mps, ports, d->hub_think, false);
		begin(h, dev);
	} else if (op_done(h, dev, hc->ops->dev_update_poll(hc, dev), "context update")) {
		usb_dev_next(h, dev, then);
	}
}

static void step_config(struct usb_host *h, unsigned dev, bool head)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_config_info c;
	const char *why;
	size_t n;

	if (d->phase == 0) {
		usb_ctl(h, dev, TYPE_IN, REQ_GET_DESCRIPTOR, USB_DESC_CONFIG << 8, 0,
			head ? 9 : d->config_len);
		begin(h, dev);
		return;
	}
	if (ctl_wait(h, dev, "GET_DESCRIPTOR(configuration)", &n, false) != USB_DONE)
		return;
	if (head) {
		if (!usb_parse_config_head(d->buf.virt, n, &c, &why))
			return bad_descriptor(h, dev, why);
		d->config_len = c.total < USB_DEV_BUF_BYTES ? c.total : USB_DEV_BUF_BYTES;
		return usb_dev_next(h, dev, DEV_CONFIG);
	}
	if (!usb_parse_config(d->buf.virt, n, &c, &why))
		return bad_descriptor(h, dev, why);
	d->config = c.value;
	d->iface = c.iface;
	d->ep = c.ep;
	d->ep_mps = c.ep_mps;
	d->ep_interval = c.ep_interval;
	d->is_hub = c.function == USB_FN_HUB;
	if (c.function == USB_FN_OTHER)
		usb_dev_next(h, dev, DEV_IDLE);	// neither keyboard nor hub: not ours to use
	else
		usb_dev_next(h, dev, d->is_hub ? DEV_HUB_DESC : DEV_SET_CONFIG);
}

static void step_hub_desc(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];
	bool ss = d->where.speed == USB_SPEED_SUPER;
	struct usb_hub_info hub;
	const char *why;
	size_t n;

	if (d->phase == 0) {
		usb_ctl(h, dev, TYPE_IN | TYPE_CLASS_DEVICE, REQ_GET_DESCRIPTOR,
			(ss ? USB_DESC_SS_HUB : USB_DESC_HUB) << 8, 0, ss ? 12 : 64);
		begin(h, dev);
	} else if (ctl_wait(h, dev, "GET_DESCRIPTOR(hub)", &n, false) == USB_DONE) {
		if (!usb_parse_hub(d->buf.virt, n, ss, &hub, &why))
			return bad_descriptor(h, dev, why);
		if (hub.ports > USB_MAX_HUB_PORTS)
			usb_dev_warn(h, dev, "hub has %u ports: only the first %u are watched",
				     hub.ports, USB_MAX_HUB_PORTS);
		d->hub_ports = hub.ports > USB_MAX_HUB_PORTS ? USB_MAX_HUB_PORTS : hub.ports;
		d->hub_power_ms = hub.power_ms;
		d->hub_think = hub.think;
		usb_dev_next(h, dev, DEV_HUB_UPDATE);
	}
}

static void step_request(struct usb_host *h, unsigned dev, const char *name, uint8_t type,
			 uint8_t request, uint16_t value, uint16_t index, enum usb_dev_state then)
{
	struct usb_device *d = &h->devs[dev];
	bool stall_ok = type == TYPE_CLASS_IFACE;	// SET_PROTOCOL, SET_IDLE
	enum usb_step s;
	size_t n;

	if (d->phase == 0) {
		usb_ctl(h, dev, type, request, value, index, 0);
		begin(h, dev);
		return;
	}
	s = ctl_wait(h, dev, name, &n, stall_ok);
	if (s == USB_DONE || s == USB_STALL)
		usb_dev_next(h, dev, then);
}

static void step_hub_power(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];

	if (d->hub_next == d->hub_ports) {
		d->hub_next = 0;
		usb_dev_next(h, dev, DEV_HUB_SETTLE);
		d->deadline = usb_now(h) + 1000u * d->hub_power_ms;
		return;
	}
	step_request(h, dev, "SET_FEATURE(PORT_POWER)", TYPE_CLASS_PORT, REQ_SET_FEATURE,
		     HUB_PORT_POWER, (uint16_t)(d->hub_next + 1), DEV_HUB_POWER);
	if (d->state == DEV_HUB_POWER && d->phase == 0)
		d->hub_next++;
}

static void step_intr_open(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_hc *hc = usb_hc_of(h, dev);

	if (d->phase == 0) {
		hc->ops->intr_open(hc, dev, d->ep, d->ep_mps, d->ep_interval, d->buf);
		begin(h, dev);
	} else if (op_done(h, dev, hc->ops->intr_open_poll(hc, dev), "interrupt endpoint setup")) {
		usb_dev_next(h, dev, DEV_RUNNING);
		h->generation++;
	}
}

static void queue_keys(struct usb_host *h, const char *keys, size_t n)
{
	for (size_t i = 0; i < n && h->key_head - h->key_tail < USB_KEY_QUEUE; i++)
		h->keys[h->key_head++ % USB_KEY_QUEUE] = (uint8_t)keys[i];
}

static void step_keyboard(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_hc *hc = usb_hc_of(h, dev);
	size_t n;
	enum usb_step s = hc->ops->intr_poll(hc, dev, &n);
	char keys[6];

	if (s == USB_PENDING)
		return;
	if (s != USB_DONE)
		return usb_dev_lost(h, dev, "its keyboard reports stopped (the endpoint failed)");
	if (n < USB_REPORT_BYTES)
		return;	// not a boot report: ignored
	queue_keys(h, keys, usb_report_keys(d->report, d->buf.virt, keys));
	mem_copy(d->report, d->buf.virt, USB_REPORT_BYTES);
}

void usb_dev_step(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];

	switch ((enum usb_dev_state)d->state) {
	case DEV_SETUP: return step_setup(h, dev);
	case DEV_DESC8: return step_device_desc(h, dev, 8);
	case DEV_SET_ADDRESS: return step_set_address(h, dev);
	case DEV_RECOVERY:
		if (usb_now(h) >= d->deadline)
			usb_dev_next(h, dev, DEV_UPDATE);
		return;
	case DEV_UPDATE:
		// The default address is free once the device has its own.
		usb_dev_release_enum(h, dev);
		return step_update(h, dev, 0, DEV_DESC18);
	case DEV_DESC18: return step_device_desc(h, dev, 18);
	case DEV_CONFIG9: return step_config(h, dev, true);
	case DEV_CONFIG: return step_config(h, dev, false);
	case DEV_HUB_DESC: return step_hub_desc(h, dev);
	case DEV_HUB_UPDATE: return step_update(h, dev, d->hub_ports, DEV_SET_CONFIG);
	case DEV_SET_CONFIG:
		return step_request(h, dev, "SET_CONFIGURATION", 0, REQ_SET_CONFIGURATION, d->config,
				    0, !d->is_hub ? DEV_SET_PROTOCOL :
				    d->where.speed == USB_SPEED_SUPER ? DEV_HUB_DEPTH : DEV_HUB_POWER);
	case DEV_HUB_DEPTH:
		return step_request(h, dev, "SET_HUB_DEPTH", TYPE_CLASS_DEVICE, REQ_SET_HUB_DEPTH,
				    d->depth, 0, DEV_HUB_POWER);
	case DEV_HUB_POWER: return step_hub_power(h, dev);
	case DEV_HUB_SETTLE:
		if (usb_now(h) >= d->deadline)
			usb_dev_next(h, dev, DEV_RUNNING);
		return;
	case DEV_SET_PROTOCOL:
		return step_request(h, dev, "SET_PROTOCOL(boot)", TYPE_CLASS_IFACE, REQ_SET_PROTOCOL,
				    0, d->iface, DEV_SET_IDLE);
	case DEV_SET_IDLE:
		return step_request(h, dev, "SET_IDLE", TYPE_CLASS_IFACE, REQ_SET_IDLE, 0, d->iface,
				    DEV_INTR_OPEN);
	case DEV_INTR_OPEN: return step_intr_open(h, dev);
	case DEV_RUNNING:
		return d->is_hub ? usb_hub_step(h, dev) : step_keyboard(h, dev);
	case DEV_LOST:
		if (usb_now(h) >= d->deadline)
			usb_dev_fail(h, dev, d->lost);
		return;
	case DEV_IDLE: return;
	case DEV_RELEASE: return usb_dev_release_step(h, dev);
	}
}
