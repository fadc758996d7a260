// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated EHCI controller's bus over simulated devices (sim_ehci_tree.h).
#include "sim_ehci_tree.h"
#include "memstr.h"
#include "usb/ehci_regs.h"

// Where a transaction's device is: the device, and for a full/low-speed
// one the nearest high-speed hub above it and that hub's port.
struct found {
	struct simdev *dev;
	uint8_t tt_hub, tt_port;
};

static bool search(struct simdev *d, uint8_t addr, struct found *f, uint8_t tt_hub,
		   uint8_t tt_port, unsigned depth)
{
	if (!d || !d->attached || depth > 6)
		return false;
	if (d->address == addr) {
		*f = (struct found){ d, tt_hub, tt_port };
		return true;
	}
	if (d->kind != SIMDEV_HUB || d->address == 0)
		return false;
	for (unsigned i = 0; i < d->nports; i++) {
		bool tt_here = d->speed == USB_SPEED_HIGH;

		if (d->ports[i].enabled &&
		    search(d->ports[i].dev, addr, f, tt_here ? d->address : tt_hub,
			   tt_here ? (uint8_t)(i + 1) : tt_port, depth + 1))
			return true;
	}
	return false;
}

static bool find(struct sim_ehci_tree *t, uint32_t enabled, uint8_t addr, struct found *f)
{
	for (unsigned p = 0; p < SIM_EHCI_PORTS; p++)
		if ((enabled & (1u << p)) && search(t->root[p], addr, f, 0, 0, 0))
			return true;
	return false;
}

bool sim_ehci_reaches(enum usb_speed speed, uint8_t tt_hub, uint8_t tt_port,
		      const struct sim_ehci_xact *x)
{
	unsigned eps = speed == USB_SPEED_HIGH ? 2 : speed == USB_SPEED_LOW ? 1 : 0;

	if (EHCI_QH_EPS(x->qh_char) != eps)
		return false;
	if (eps == 2)
		return !x->periodic || (x->qh_caps & 0xff);
	if (((x->qh_caps >> 16) & 0x7f) != tt_hub || ((x->qh_caps >> 23) & 0x7f) != tt_port)
		return false;
	if (x->ep == 0 && !(x->qh_char & EHCI_QH_CONTROL))
		return false;
	return !x->periodic || ((x->qh_caps & 0xff) && (x->qh_caps & 0xff00));
}

static struct sim_tree_ctl *ctl_of(struct sim_ehci_tree *t, struct simdev *d)
{
	struct sim_tree_ctl *free = NULL;

	for (unsigned i = 0; i < SIM_TREE_DEVICES; i++) {
		if (t->ctl[i].dev == d)
			return &t->ctl[i];
		if (!t->ctl[i].dev && !free)
			free = &t->ctl[i];
	}
	if (free)
		free->dev = d;
	return free;
}

static int answer(enum simdev_answer a, int ok)
{
	return a == SIMDEV_OK ? ok : a == SIMDEV_STALL ? SIM_STALL : SIM_SILENT;
}

static int setup_stage(struct simdev *d, struct sim_tree_ctl *c, const uint8_t *pkt)
{
	if (d->silent)
		return SIM_SILENT;
	c->setup = (struct usb_setup){ .type = pkt[0], .request = pkt[1],
				       .value = (uint16_t)(pkt[2] | pkt[3] << 8),
				       .index = (uint16_t)(pkt[4] | pkt[5] << 8),
				       .length = (uint16_t)(pkt[6] | pkt[7] << 8) };
	c->len = c->done = 0;
	c->answer = SIMDEV_OK;
	if (c->setup.length > sizeof c->data)
		c->setup.length = sizeof c->data;
	if ((c->setup.type & 0x80) && c->setup.length)	// an IN data stage: answer now
		c->answer = simdev_control(d, &c->setup, c->data, &c->len);
	return 8;
}

static int control(struct simdev *d, struct sim_tree_ctl *c, const struct sim_ehci_xact *x)
{
	bool data_in = (c->setup.type & 0x80) && c->setup.length;
	unsigned n;

	if (x->pid == EHCI_TD_PID_SETUP)
		return setup_stage(d, c, x->data);
	if (x->pid == EHCI_TD_PID_IN && data_in) {
		n = (unsigned)(c->len - c->done) < x->len ? (unsigned)(c->len - c->done) : x->len;
		mem_copy(x->data, c->data + c->done, n);
		c->done += n;
		return answer(c->answer, (int)n);
	}
	if (x->pid == EHCI_TD_PID_OUT && !data_in && c->done + x->len <= sizeof c->data &&
	    c->done < c->setup.length) {	// an OUT data stage
		mem_copy(c->data + c->done, x->data, x->len);
		c->done += x->len;
		return (int)x->len;
	}
	if (x->pid == EHCI_TD_PID_IN && c->setup.type == 0 && c->setup.request == 5) {
		// SET_ADDRESS, which simdev leaves to the controller (xHCI
		// sets it): the new address holds after the status stage.
		d->address = (uint8_t)c->setup.value;
		return 0;
	}
	if (x->pid == EHCI_TD_PID_IN)	// the status stage of a request without IN data
		return answer(simdev_control(d, &c->setup, c->data, &c->len), 0);
	return answer(c->answer, 0);	// the status stage after IN data
}

static int interrupt_in(struct simdev *d, const struct sim_ehci_xact *x)
{
	uint8_t bitmap[2] = { 0, 0 };
	unsigned n = 1 + d->nports / 8;

	if (d->kind == SIMDEV_KEYBOARD) {
		if (!d->report_ready)
			return SIM_NAK;
		d->report_ready = false;
		mem_copy(x->data, d->report, x->len < 8 ? x->len : 8);
		return x->len < 8 ? (int)x->len : 8;
	}
	if (d->kind != SIMDEV_HUB)
		return SIM_STALL;
	for (unsigned i = 0; i < d->nports; i++)
		if (d->ports[i].change)
			bitmap[(i + 1) / 8] |= (uint8_t)(1u << ((i + 1) % 8));
	if (!bitmap[0] && !bitmap[1])
		return SIM_NAK;
	n = n < x->len ? n : x->len;
	mem_copy(x->data, bitmap, n);
	return (int)n;
}

static int transact(void *ctx, const struct sim_ehci_xact *x)
{
	struct sim_ehci_tree *t = ctx;
	struct found f;
	struct sim_tree_ctl *c;

	if (!find(t, x->enabled_ports, x->addr, &f))
		return SIM_SILENT;
	if (!sim_ehci_reaches(f.dev->speed, f.tt_hub, f.tt_port, x)) {
		t->bad_route++;
		return SIM_SILENT;
	}
	if (x->ep != 0)
		return interrupt_in(f.dev, x);
	c = ctl_of(t, f.dev);
	return c ? control(f.dev, c, x) : SIM_SILENT;
}

static bool attached(void *ctx, unsigned port, enum usb_speed *speed)
{
	struct simdev *d = ((struct sim_ehci_tree *)ctx)->root[port - 1];

	if (!d)
		return false;
	*speed = d->speed;
	return true;
}

static void reset(void *ctx, unsigned port)
{
	struct simdev *d = ((struct sim_ehci_tree *)ctx)->root[port - 1];

	if (d)
		d->address = 0;
}

void sim_ehci_tree_attach(struct sim_ehci *s, struct sim_ehci_tree *t)
{
	for (unsigned p = 0; p < SIM_EHCI_PORTS; p++)
		if (t->root[p])
			t->root[p]->attached = true;
	s->bus = (struct sim_ehci_bus){ .ctx = t, .attached = attached, .reset = reset,
					.transact = transact };
}
