// SPDX-License-Identifier: GPL-2.0-or-later
// The stack's public calls (usb.h): taking controllers, the poll that moves
// every port and device one step, the key queue, stopping.
#include <stdarg.h>

#include "fmt.h"
#include "memstr.h"
#include "usb/core.h"
#include "usb/drivers.h"

// How many times usb_add polls a controller's start: its own deadlines
// (USB_HC_WAIT_US per wait) end it first unless the clock stands still.
#define USB_START_POLLS 4000000u

uint64_t usb_now(const struct usb_host *h)
{
	return h->env->now_us(h->env->ctx);
}

void usb_warn(struct usb_host *h, const char *fmt, ...)
{
	char line[160] = "usb: ";
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(line + 5, sizeof line - 5, fmt, ap);
	va_end(ap);
	h->env->warn(h->env->ctx, line);
}

void usb_init(struct usb_host *h, const struct usb_env *env, struct usb_mem mem)
{
	mem_set(h, 0, sizeof *h);
	h->env = env;
	h->dma = (struct usb_dma){ .virt = mem.virt, .phys = mem.phys, .bytes = mem.bytes };
	for (unsigned i = 0; i < USB_MAX_HCS; i++)
		h->hc_enum[i] = USB_NO_DEVICE;
}

static bool started(struct usb_host *h, struct usb_hc *hc)
{
	for (uint32_t n = 0; n < USB_START_POLLS; n++) {
		enum usb_step s = hc->ops->start_poll(hc);

		if (s != USB_PENDING)
			return s == USB_DONE;
	}
	usb_warn(h, "%s: did not start after %u polls (the clock may not run): left alone",
		 hc->name, USB_START_POLLS);
	hc->ops->stop(hc);
	return false;
}

bool usb_add(struct usb_host *h, const struct usb_controller_info *c)
{
	const struct usb_hc_ops *ops = usb_driver(c->kind);
	unsigned i = h->nhc;
	struct usb_hc *hc = &h->hcs[i];
	char name[16];

	fmt_snprintf(name, sizeof name, "%s %02x:%02x.%x", ops ? ops->kind : usb_kind_name(c->kind),
		     (unsigned)(c->bdf >> 8 & 0xff), (unsigned)(c->bdf >> 3 & 0x1f),
		     (unsigned)(c->bdf & 7));
	if (!ops) {
		usb_warn(h, "%s: no driver for this controller in this build: left alone", name);
		return false;
	}
	if (i == USB_MAX_HCS) {
		usb_warn(h, "%s: more than %u USB controllers: this one is left alone", name,
			 USB_MAX_HCS);
		return false;
	}
	mem_set(hc, 0, sizeof *hc);
	*hc = (struct usb_hc){ .ops = ops, .env = h->env, .dma = &h->dma, .bdf = c->bdf,
			       .mmio = c->mmio };
	mem_copy(hc->name, name, sizeof name);
	ops->start(hc);
	if (!started(h, hc))
		return false;
	h->hc_ports[i] = (uint8_t)ops->port_count(hc);
	if (ops->port_count(hc) > USB_MAX_ROOT_PORTS) {
		usb_warn(h, "%s: has %u ports: only the first %u are watched", name,
			 ops->port_count(hc), USB_MAX_ROOT_PORTS);
		h->hc_ports[i] = USB_MAX_ROOT_PORTS;
	}
	mem_set(h->root[i], 0, sizeof h->root[i]);
	for (unsigned p = 0; p < USB_MAX_ROOT_PORTS; p++)
		h->root[i][p].child = USB_NO_DEVICE;
	h->hc_state[i] = HC_RUNNING;
	h->hc_enum[i] = USB_NO_DEVICE;
	h->hc_next[i] = 0;
	h->hc_scanned[i] = false;
	h->hc_started[i] = usb_now(h);
	h->nhc++;
	return true;
}

void usb_poll(struct usb_host *h)
{
	for (unsigned i = 0; i < h->nhc; i++)
		if (h->hc_state[i] == HC_RUNNING)
			usb_root_step(h, i);
	for (unsigned d = 0; d < USB_MAX_DEVICES; d++)
		if (h->devs[d].used)
			usb_dev_step(h, d);
}

int usb_key(struct usb_host *h)
{
	if (h->key_head == h->key_tail)
		return -1;
	return h->keys[h->key_tail++ % USB_KEY_QUEUE];
}

static bool port_settling(const struct usb_port *p)
{
	return p->state == PORT_DEBOUNCE || p->state == PORT_RESET || p->state == PORT_FAILED;
}

bool usb_busy(const struct usb_host *h)
{
	for (unsigned i = 0; i < h->nhc; i++) {
		if (h->hc_state[i] != HC_RUNNING)
			continue;
		if (!h->hc_scanned[i])
			return true;
		for (unsigned p = 0; p < h->hc_ports[i]; p++)
			if (port_settling(&h->root[i][p]))
				return true;
	}
	for (unsigned d = 0; d < USB_MAX_DEVICES; d++) {
		const struct usb_device *dev = &h->devs[d];

		if (!dev->used)
			continue;
		if (usb_dev_settling(dev))
			return true;
		if (dev->is_hub && dev->state == DEV_RUNNING) {
			if (!dev->hub_scanned)
				return true;
			for (unsigned p = 0; p < USB_MAX_HUB_PORTS; p++)
				if (port_settling(&dev->ports[p]))
					return true;
		}
	}
	return false;
}

unsigned usb_generation(const struct usb_host *h)
{
	return h->generation;
}

void usb_stop(struct usb_host *h)
{
	for (unsigned i = 0; i < h->nhc; i++) {
		if (h->hc_state[i] == HC_FREE)
			continue;
		h->hcs[i].ops->stop(&h->hcs[i]);
		h->hc_state[i] = HC_FREE;
	}
	for (unsigned d = 0; d < USB_MAX_DEVICES; d++)
		h->devs[d].used = false;
}
