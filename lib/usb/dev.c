// SPDX-License-Identifier: GPL-2.0-or-later
// The device table: a device taken for a port that finished its reset,
// its control requests, and its end (unplugged, failed, or lost and
// never back), released by its controller.
#include "memstr.h"
#include "usb/core.h"

struct usb_hc *usb_hc_of(struct usb_host *h, unsigned dev)
{
	return &h->hcs[h->devs[dev].hc];
}

static struct usb_port *port_of(struct usb_host *h, unsigned dev)
{
	const struct usb_device *d = &h->devs[dev];

	if (d->where.parent == USB_NO_DEVICE)
		return &h->root[d->hc][d->where.root_port - 1];
	return &h->devs[d->where.parent].ports[d->where.hub_port - 1];
}

void usb_ctl(struct usb_host *h, unsigned dev, uint8_t type, uint8_t request, uint16_t value,
	     uint16_t index, uint16_t length)
{
	struct usb_setup s = { type, request, value, index, length };

	usb_hc_of(h, dev)->ops->control(usb_hc_of(h, dev), dev, &s, h->devs[dev].buf);
}

enum usb_step usb_ctl_poll(struct usb_host *h, unsigned dev, size_t *actual)
{
	return usb_hc_of(h, dev)->ops->control_poll(usb_hc_of(h, dev), dev, actual);
}

unsigned usb_dev_new(struct usb_host *h, unsigned hc, const struct usb_dev_where *where,
		     unsigned depth)
{
	char place[80];

	for (unsigned i = 0; i < USB_MAX_DEVICES; i++) {
		struct usb_device *d = &h->devs[i];
		struct usb_buf buf = d->buf;

		if (d->used)
			continue;
		if (!buf.virt && !usb_dma_take(&h->dma, USB_DEV_BUF_BYTES, 64, &buf)) {
			usb_place_text(h, hc, where, place, sizeof place);
			usb_warn(h, "%s: no DMA memory left for its device: left alone", place);
			return USB_NO_DEVICE;
		}
		mem_set(d, 0, sizeof *d);
		d->used = true;
		d->buf = buf;
		d->hc = (uint8_t)hc;
		d->where = *where;
		d->depth = (uint8_t)depth;
		d->state = DEV_SETUP;
		d->deadline = usb_now(h) + USB_RESET_RECOVERY_US;
		for (unsigned p = 0; p < USB_MAX_HUB_PORTS; p++)
			d->ports[p].child = USB_NO_DEVICE;
		return i;
	}
	usb_place_text(h, hc, where, place, sizeof place);
	usb_warn(h, "%s: more than %u USB devices: this one is left alone", place, USB_MAX_DEVICES);
	return USB_NO_DEVICE;
}

bool usb_dev_settling(const struct usb_device *d)
{
	return d->state != DEV_RUNNING && d->state != DEV_IDLE;
}

void usb_dev_release_enum(struct usb_host *h, unsigned dev)
{
	if (h->hc_enum[h->devs[dev].hc] == dev)
		h->hc_enum[h->devs[dev].hc] = USB_NO_DEVICE;
}

void usb_dev_remove(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];

	if (d->state == DEV_RELEASE)
		return;
	if (d->is_hub)
		for (unsigned p = 0; p < USB_MAX_HUB_PORTS; p++)
			if (d->ports[p].child != USB_NO_DEVICE) {
				usb_dev_remove(h, d->ports[p].child);
				d->ports[p].child = USB_NO_DEVICE;
			}
	if (d->state == DEV_RUNNING && !d->is_hub)
		h->generation++;
	usb_dev_release_enum(h, dev);
	d->state = DEV_RELEASE;
	d->phase = 0;
}

void usb_dev_fail(struct usb_host *h, unsigned dev, const char *what)
{
	struct usb_port *port = port_of(h, dev);

	usb_dev_warn(h, dev, "%s: device left alone, its port disabled until replugged", what);
	usb_dev_remove(h, dev);
	port->child = USB_NO_DEVICE;
	port->state = PORT_FAILED;
}

void usb_dev_next(struct usb_host *h, unsigned dev, enum usb_dev_state s)
{
	h->devs[dev].state = (uint8_t)s;
	h->devs[dev].phase = 0;
	h->devs[dev].deadline = usb_now(h) + USB_STEP_US;
}

void usb_dev_lost(struct usb_host *h, unsigned dev, const char *why)
{
	struct usb_device *d = &h->devs[dev];

	if (d->state == DEV_RUNNING && !d->is_hub)
		h->generation++;
	d->lost = why;
	usb_dev_next(h, dev, DEV_LOST);
}

void usb_dev_release_step(struct usb_host *h, unsigned dev)
{
	struct usb_device *d = &h->devs[dev];
	struct usb_hc *hc = usb_hc_of(h, dev);

	if (h->hc_state[d->hc] != HC_RUNNING) {
		d->used = false;
	} else if (d->phase == 0) {
		hc->ops->dev_release(hc, dev);
		d->phase = 1;
		d->deadline = usb_now(h) + USB_STEP_US;
	} else if (hc->ops->dev_release_poll(hc, dev) != USB_PENDING) {
		d->used = false;
	} else if (usb_now(h) >= d->deadline) {
		usb_dev_warn(h, dev, "the controller did not release the device within 1 s: "
			     "its slot is forgotten");
		d->used = false;
	}
}
