// SPDX-License-Identifier: GPL-2.0-or-later
// Simulated keyboards and hubs: their descriptors and requests.
#include "memstr.h"

#include "simdev.h"

const uint64_t *simdev_clock;

static const uint8_t kbd_conf[] = {
	9, 2, 34, 0, 1, 1, 0, 0xa0, 50,		// configuration 1, 34 bytes
	9, 4, 0, 0, 1, 3, 1, 1, 0,		// interface 0: HID, boot, keyboard
	9, 0x21, 0x11, 1, 0, 1, 0x22, 63, 0,	// HID descriptor
	7, 5, 0x81, 3, 8, 0, 10,		// endpoint 1 IN, interrupt, 8 bytes, 10 ms
};

static const uint8_t hub_conf[] = {
	9, 2, 25, 0, 1, 1, 0, 0xe0, 0,
	9, 4, 0, 0, 1, 9, 0, 0, 0,
	7, 5, 0x81, 3, 1, 0, 12,
};

static void device_desc(struct simdev *d, uint8_t cls, uint16_t product)
{
	const uint8_t desc[18] = {
		18, 1, 0x00, 0x02, cls, 0, d->speed == USB_SPEED_HIGH && cls == 9 ? 1 : 0,
		d->speed == USB_SPEED_HIGH ? 64 : 8, 0x34, 0x12, (uint8_t)product,
		(uint8_t)(product >> 8), 0, 1, 0, 0, 0, 1,
	};
	mem_copy(d->dev_desc, desc, sizeof desc);
}

void simdev_keyboard(struct simdev *d, enum usb_speed speed)
{
	mem_set(d, 0, sizeof *d);
	d->kind = SIMDEV_KEYBOARD;
	d->speed = speed;
	d->protocol = 1;	// report protocol until told otherwise
	device_desc(d, 0, 0x0001);
	mem_copy(d->conf, kbd_conf, sizeof kbd_conf);
	d->conf_len = sizeof kbd_conf;
}

void simdev_hub(struct simdev *d, enum usb_speed speed, unsigned nports)
{
	const uint8_t hub[9] = { 9, 0x29, (uint8_t)nports, 0, 0, 50, 0, 0, 0xff };
	const uint8_t ss_hub[12] = { 12, 0x2a, (uint8_t)nports, 0, 0, 50, 0, 0, 0, 0, 0, 0 };

	mem_set(d, 0, sizeof *d);
	d->kind = SIMDEV_HUB;
	d->speed = speed;
	d->nports = nports;
	device_desc(d, 9, 0x0002);
	mem_copy(d->conf, hub_conf, sizeof hub_conf);
	d->conf_len = sizeof hub_conf;
	if (speed == USB_SPEED_SUPER)
		mem_copy(d->hub_desc, ss_hub, sizeof ss_hub);
	else
		mem_copy(d->hub_desc, hub, sizeof hub);
	d->dev_desc[3] = speed == USB_SPEED_SUPER ? 3 : 2;	// bcdUSB 3.00
	if (speed == USB_SPEED_SUPER)
		d->dev_desc[7] = 9;	// 2^9 bytes
}

static size_t give(uint8_t *data, const void *what, size_t have, size_t want)
{
	size_t n = have < want ? have : want;

	mem_copy(data, what, n);
	return n;
}

static enum simdev_answer get_descriptor(struct simdev *d, const struct usb_setup *s,
					 uint8_t *data, size_t *len)
{
	if (d->stall_desc)
		return SIMDEV_STALL;
	switch (s->value >> 8) {
	case 1:
		*len = give(data, d->dev_desc, d->desc_cut ? d->desc_cut : 18, s->length);
		return SIMDEV_OK;
	case 2:
		*len = give(data, d->conf, d->conf_len, s->length);
		return SIMDEV_OK;
	case 0x29:
	case 0x2a:
		if (d->kind != SIMDEV_HUB || s->type != 0xa0 || (s->value >> 8) != d->hub_desc[1])
			return SIMDEV_STALL;
		*len = give(data, d->hub_desc, d->hub_desc[0], s->length);
		return SIMDEV_OK;
	}
	return SIMDEV_STALL;
}

static uint16_t port_status(const struct simdev *hub, const struct simdev_port *p)
{
	bool ss = hub->speed == USB_SPEED_SUPER;
	uint16_t st = p->powered ? (ss ? 0x0200 : 0x0100) : 0;

	if (p->dev && p->powered && ss) {
		st |= 0x0001;
	} else if (p->dev && p->powered) {
		st |= 0x0001;
		if (p->dev->speed == USB_SPEED_LOW)
			st |= 0x0200;
		if (p->dev->speed == USB_SPEED_HIGH)
			st |= 0x0400;
	}
	if (p->enabled)
		st |= 0x0002;
	if (p->resetting)
		st |= 0x0010;
	return st;
}

static enum simdev_answer hub_port_request(struct simdev *d, const struct usb_setup *s,
					   uint8_t *data, size_t *len)
{
	struct simdev_port *p;
	uint16_t st;

	if (s->index < 1 || s->index > d->nports)
		return SIMDEV_STALL;
	p = &d->ports[s->index - 1];
	switch (s->request) {
	case 0:		// GET_STATUS
		st = port_status(d, p);
		data[0] = (uint8_t)st;
		data[1] = (uint8_t)(st >> 8);
		data[2] = (uint8_t)p->change;
		data[3] = (uint8_t)(p->change >> 8);
		*len = s->length < 4 ? s->length : 4;
		return SIMDEV_OK;
	case 1:		// CLEAR_FEATURE
		if (s->value >= 16 && s->value <= 20)
			p->change &= (uint16_t)~(1u << (s->value - 16));
		else if (s->value == 1)
			p->enabled = false;
		else if (s->value == 8)
			p->powered = false;
		return SIMDEV_OK;
	case 3:		// SET_FEATURE
		if (s->value == 8) {
			if (!p->powered && p->dev)
				p->change |= 1;
			p->powered = true;
		} else if (s->value == 4 && p->dev && p->powered) {
			p->resetting = d->reset_stuck;
			p->enabled = !d->reset_stuck;
			p->change |= d->reset_stuck ? 0 : 0x10;
			p->dev->address = 0;
			p->dev->reset_at = simdev_clock ? *simdev_clock : 0;
		}
		return SIMDEV_OK;
	}
	return SIMDEV_STALL;
}

enum simdev_answer simdev_control(struct simdev *d, const struct usb_setup *s, uint8_t *data,
				  size_t *len)
{
	enum simdev_answer a = SIMDEV_STALL;

	*len = 0;
	if (d->silent)
		return SIMDEV_SILENT;
	if (s->type == 0x80 && s->request == 6)
		a = get_descriptor(d, s, data, len);
	else if (s->type == 0xa0 && s->request == 6)
		a = get_descriptor(d, s, data, len);
	else if (s->type == 0 && s->request == 9)
		d->config = (uint8_t)s->value, a = SIMDEV_OK;
	else if (s->type == 0x21 && s->request == 0x0b && d->kind == SIMDEV_KEYBOARD)
		a = d->stall_protocol ? SIMDEV_STALL : (d->protocol = (uint8_t)s->value, SIMDEV_OK);
	else if (s->type == 0x21 && s->request == 0x0a && d->kind == SIMDEV_KEYBOARD)
		a = d->stall_idle ? SIMDEV_STALL : (d->idle_set = true, SIMDEV_OK);
	else if (s->type == 0x20 && s->request == 12 && d->kind == SIMDEV_HUB &&
		 d->speed == USB_SPEED_SUPER)
		d->hub_depth = (uint8_t)s->value, d->depth_set = true, a = SIMDEV_OK;
	else if ((s->type == 0x23 || s->type == 0xa3) && d->kind == SIMDEV_HUB)
		a = hub_port_request(d, s, data, len);
	if (a == SIMDEV_OK)
		d->requests++;
	return a;
}

void simdev_press(struct simdev *kbd, uint8_t modifiers, uint8_t usage)
{
	mem_set(kbd->report, 0, sizeof kbd->report);
	kbd->report[0] = modifiers;
	kbd->report[2] = usage;
	kbd->report_ready = true;
}

void simdev_release(struct simdev *kbd)
{
	mem_set(kbd->report, 0, sizeof kbd->report);
	kbd->report_ready = true;
}

void simdev_plug(struct simdev *hub, unsigned port, struct simdev *d)
{
	struct simdev_port *p = &hub->ports[port - 1];

	if (p->dev)
		p->dev->attached = false;
	p->dev = d;
	p->enabled = false;
	if (d) {
		d->attached = true;
		d->address = 0;
	}
	if (p->powered)
		p->change |= 1;
}

struct simdev *simdev_child(struct simdev *d, unsigned port)
{
	if (d->kind != SIMDEV_HUB || port < 1 || port > d->nports || !d->ports[port - 1].enabled)
		return NULL;
	return d->ports[port - 1].dev;
}
