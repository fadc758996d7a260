// SPDX-License-Identifier: GPL-2.0-or-later
// xHCI rings (4.9): producer rings the driver writes (commands, transfers)
// and the one event ring it reads, whose events end the devices' waits.
#include "usb/xhci.h"

// Events taken per call: a poll's work stays bounded however many came.
#define XHCI_EVENTS_PER_POLL 16

static volatile struct xhci_trb *trb_at(const struct xhci_ring *r, unsigned i)
{
	return (volatile struct xhci_trb *)r->mem.virt + i;
}

void xhci_ring_init(struct xhci_ring *r, struct usb_buf mem, unsigned n)
{
	volatile struct xhci_trb *link;

	r->mem = mem;
	r->n = (uint16_t)n;
	r->idx = 0;
	r->cycle = 1;
	for (unsigned i = 0; i < n; i++)
		*trb_at(r, i) = (struct xhci_trb){ 0, 0, 0 };
	link = trb_at(r, n - 1);
	link->param = mem.phys;
	link->control = TRB_TYPE(TRB_LINK) | TRB_TC;
}

uint64_t xhci_ring_push(struct xhci_ring *r, uint64_t param, uint32_t status, uint32_t control)
{
	volatile struct xhci_trb *t = trb_at(r, r->idx);
	uint64_t at = r->mem.phys + 16u * r->idx;

	t->param = param;
	t->status = status;
	// The cycle bit last: the controller owns the TRB once it matches.
	t->control = (control & ~TRB_CYCLE) | r->cycle;
	if (++r->idx == r->n - 1) {
		volatile struct xhci_trb *link = trb_at(r, r->idx);

		link->control = TRB_TYPE(TRB_LINK) | TRB_TC | (control & TRB_CH) | r->cycle;
		r->cycle ^= 1;
		r->idx = 0;
	}
	return at;
}

uint64_t xhci_ring_next(const struct xhci_ring *r)
{
	return (r->mem.phys + 16u * r->idx) | r->cycle;
}

static void end_wait(struct xhci_wait *w, uint32_t status)
{
	w->done = true;
	w->cc = (uint8_t)(status >> 24);
}

static struct xhci_dev *dev_of_slot(struct xhci *x, unsigned slot)
{
	for (unsigned i = 0; i < USB_MAX_DEVICES; i++)
		if (slot && x->dev[i].slot == slot)
			return &x->dev[i];
	return NULL;
}

static void command_event(struct xhci *x, const struct xhci_trb *e)
{
	for (unsigned i = 0; i < USB_MAX_DEVICES; i++) {
		struct xhci_dev *d = &x->dev[i];

		if (d->cmd.trb != e->param || d->cmd.done)
			continue;
		end_wait(&d->cmd, e->status);
		if (d->op == XOP_ENABLE && d->cmd.cc == CC_SUCCESS)
			d->slot = (uint8_t)(e->control >> 24);
		return;
	}
}

static void transfer_event(struct xhci *x, const struct xhci_trb *e)
{
	struct xhci_dev *d = dev_of_slot(x, e->control >> 24);
	unsigned dci = (e->control >> 16) & 0x1f;
	uint8_t cc = (uint8_t)(e->status >> 24);
	struct xhci_wait *w;

	if (!d)
		return;
	if (dci == 1)
		w = &d->ctl;
	else if (dci == d->intr_dci)
		w = &d->intr_wait;
	else
		return;
	if (w->trb == 0 || w->done)
		return;
	if (cc != CC_SUCCESS && cc != CC_SHORT_PACKET)
		return end_wait(w, e->status);	// a STALL or an error, on whichever TRB
	if (cc == CC_SHORT_PACKET)
		w->residue = e->status & 0xffffff;
	// A control transfer's short data stage is followed by its status stage.
	if (e->param == w->trb)
		end_wait(w, (uint32_t)CC_SUCCESS << 24);
}

void xhci_events(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);
	unsigned taken = 0;

	while (taken < XHCI_EVENTS_PER_POLL) {
		volatile struct xhci_trb *v = trb_at(&x->ev, x->ev.idx);
		struct xhci_trb e;

		// The cycle bit first: the controller writes it last.
		e.control = v->control;
		if ((e.control & TRB_CYCLE) != x->ev.cycle)
			break;
		e.param = v->param;
		e.status = v->status;
		if (TRB_TYPE_OF(e.control) == TRB_EV_COMMAND)
			command_event(x, &e);
		else if (TRB_TYPE_OF(e.control) == TRB_EV_TRANSFER)
			transfer_event(x, &e);
		if (++x->ev.idx == x->ev.n) {
			x->ev.idx = 0;
			x->ev.cycle ^= 1;
		}
		taken++;
	}
	if (taken)
		xhci_rt_write64(hc, XHCI_ERDP, (x->ev.mem.phys + 16u * x->ev.idx) | XHCI_ERDP_EHB);
}
