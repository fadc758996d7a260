// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated xHCI controller's rings: the commands it runs (Enable,
// Address, Configure, Evaluate, Reset Endpoint, Set TR Dequeue, Disable),
// EP0's control TDs and the interrupt-IN transfers over simdev devices,
// the events it posts, and the DMA it does, all inside the block.
#include <stdarg.h>
#include <stdio.h>

#include "simxhci.h"
#include "memstr.h"

void simx_fault(struct simx *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (s->faults++ == 0)
		vsnprintf(s->fault, sizeof s->fault, fmt, ap);
	va_end(ap);
}

static void *dma(struct simx *s, uint64_t phys, size_t len)
{
	static uint8_t scratch[4096];

	if (phys < SIMX_MEM_PHYS || phys + len > SIMX_MEM_PHYS + SIMX_MEM_BYTES || len > 4096) {
		simx_fault(s, "DMA at 0x%llx (%zu bytes) outside the block", (unsigned long long)phys, len);
		return scratch;
	}
	return s->mem + (phys - SIMX_MEM_PHYS);
}

static uint64_t rd64(struct simx *s, uint64_t phys)
{
	uint64_t v;

	mem_copy(&v, dma(s, phys, 8), 8);
	return v;
}

static uint32_t rd32(struct simx *s, uint64_t phys)
{
	uint32_t v;

	mem_copy(&v, dma(s, phys, 4), 4);
	return v;
}

static void wr32(struct simx *s, uint64_t phys, uint32_t v)
{
	mem_copy(dma(s, phys, 4), &v, 4);
}

static void post(struct simx *s, uint64_t param, uint32_t status, uint32_t control)
{
	uint64_t base = rd64(s, s->erstba);
	unsigned size = rd32(s, s->erstba + 8) & 0xffff;
	uint64_t at = base + 16u * s->ev_idx;
	uint64_t next = base + 16u * ((s->ev_idx + 1) % size);

	if ((s->erdp & ~0xfull) == next)
		simx_fault(s, "event ring full");
	mem_copy(dma(s, at, 8), &param, 8);
	wr32(s, at + 8, status);
	wr32(s, at + 12, (control & ~1u) | s->ev_pcs);
	if (++s->ev_idx == size) {
		s->ev_idx = 0;
		s->ev_pcs ^= 1;
	}
}

// The TRB at *deq of a producer ring, links followed; false when the
// driver has not written it yet.
static bool fetch(struct simx *s, uint64_t *deq, uint8_t *ccs, uint32_t t[4])
{
	for (int hops = 0; hops < 4; hops++) {
		mem_copy(t, dma(s, *deq, 16), 16);
		if ((t[3] & 1) != *ccs)
			return false;
		if ((t[3] >> 10 & 0x3f) != 6)
			return true;
		if (t[3] & 2)
			*ccs ^= 1;
		*deq = ((uint64_t)t[1] << 32 | t[0]) & ~0xfull;
	}
	simx_fault(s, "link TRBs loop");
	return false;
}

unsigned simx_speed_id(enum usb_speed sp)
{
	static const unsigned ids[] = { 2, 1, 3, 4 };
	return ids[sp];
}

static uint32_t *in_ctx(struct simx *s, uint64_t in, unsigned i)
{
	unsigned cs = s->csz64 ? 64 : 32;

	return dma(s, in + cs * i, cs);
}

static uint32_t *out_ctx(struct simx *s, unsigned slot, unsigned dci)
{
	unsigned cs = s->csz64 ? 64 : 32;

	return dma(s, rd64(s, s->dcbaap + 8u * slot) + cs * dci, cs);
}

// Where the slot context says the device is, with the TT its speed needs checked.
static struct simdev *locate(struct simx *s, const uint32_t *slot)
{
	unsigned port = slot[1] >> 16 & 0xff;
	uint32_t route = slot[0] & 0xfffff;
	struct simdev *d, *tt = NULL;
	unsigned tt_port = 0;

	if (port < 1 || port > s->root.nports || !(s->portsc[port - 1] & 2))
		return NULL;
	d = s->root.ports[port - 1].dev;
	// Each tier's port until the route ends; a tier of 0 before a later
	// one is a route no hub could follow.
	for (uint32_t r = route; r && d; r >>= 4) {
		if (d->speed == USB_SPEED_HIGH && d->kind == SIMDEV_HUB) {
			tt = d;
			tt_port = r & 0xf;
		}
		d = simdev_child(d, r & 0xf);
	}
	if (!d)
		return NULL;
	if ((slot[0] >> 20 & 0xf) != simx_speed_id(d->speed))
		simx_fault(s, "slot context speed %u for a device of speed id %u", slot[0] >> 20 & 0xf,
		      simx_speed_id(d->speed));
	if (d->speed <= USB_SPEED_FULL && tt &&
	    ((slot[2] & 0xff) != simx_slot_of(s, tt) || (slot[2] >> 8 & 0xff) != tt_port))
		simx_fault(s, "TT fields slot %u port %u, want slot %u port %u", slot[2] & 0xff,
		      slot[2] >> 8 & 0xff, simx_slot_of(s, tt), tt_port);
	return d;
}

static void take_ep(struct simx_slot *sl, unsigned dci, const uint32_t *ep)
{
	uint64_t deq = (uint64_t)ep[3] << 32 | ep[2];

	sl->deq[dci] = deq & ~0xfull;
	sl->ccs[dci] = deq & 1;
	sl->mps[dci] = (uint16_t)(ep[1] >> 16);
	sl->running[dci] = true;
	sl->halted[dci] = false;
}

static unsigned cmd_address(struct simx *s, unsigned id, uint64_t in)
{
	struct simx_slot *sl = &s->slots[id];
	const uint32_t *ctl = in_ctx(s, in, 0), *slot = in_ctx(s, in, 1);
	struct simdev *d;

	if (id == 0 || id > SIMX_SLOTS || !sl->enabled || ctl[1] != 3)
		return 5;
	if (rd64(s, s->dcbaap + 8u * id) == 0)
		simx_fault(s, "Address Device with no output context for slot %u", id);
	d = locate(s, slot);
	if (!d || !d->attached)
		return 4;	// USB transaction error: nothing answers there
	if (d->reset_at && s->now < d->reset_at + 10000)
		simx_fault(s, "SET_ADDRESS %llu us after the port reset, not 10 ms",
			   (unsigned long long)(s->now - d->reset_at));
	sl->dev = d;
	d->address = (uint8_t)id;
	mem_copy(sl->slot_ctx, slot, 16);
	take_ep(sl, 1, in_ctx(s, in, 2));
	mem_copy(out_ctx(s, id, 0), slot, 16);
	out_ctx(s, id, 0)[3] = id | 2u << 27;
	mem_copy(out_ctx(s, id, 1), in_ctx(s, in, 2), 20);
	return 1;
}

static unsigned cmd_configure(struct simx *s, unsigned id, uint64_t in, bool evaluate)
{
	struct simx_slot *sl = &s->slots[id];
	const uint32_t *ctl = in_ctx(s, in, 0);

	if (id == 0 || id > SIMX_SLOTS || !sl->enabled || !sl->dev || ctl[0] != 0)
		return 5;
	if (evaluate) {
		if (ctl[1] & ~3u)
			return 5;
		if (ctl[1] & 2)
			sl->mps[1] = (uint16_t)(in_ctx(s, in, 2)[1] >> 16);
		return 1;
	}
	if ((ctl[1] & 3) != 1)	// what QEMU insists on too
		return 5;
	mem_copy(sl->slot_ctx, in_ctx(s, in, 1), 16);
	for (unsigned dci = 2; dci < 32; dci++)
		if (ctl[1] & 1u << dci)
			take_ep(sl, dci, in_ctx(s, in, dci + 1));
	return 1;
}

static unsigned run_command(struct simx *s, const uint32_t t[4], unsigned *slot)
{
	unsigned type = t[3] >> 10 & 0x3f, id = t[3] >> 24, ep = t[3] >> 16 & 0x1f;
	uint64_t param = (uint64_t)t[1] << 32 | t[0];
	struct simx_slot *sl = &s->slots[id <= SIMX_SLOTS ? id : 0];

	*slot = id;
	switch (type) {
	case 9:		// Enable Slot
		for (unsigned i = 1; i <= s->config && i <= SIMX_SLOTS; i++)
			if (!s->slots[i].enabled) {
				mem_set(&s->slots[i], 0, sizeof s->slots[i]);
				s->slots[i].enabled = true;
				*slot = i;
				return 1;
			}
		return 9;
	case 10:	// Disable Slot
		if (!sl->enabled || id == 0)
			return 11;
		sl->enabled = false;
		sl->dev = NULL;
		return 1;
	case 11: return cmd_address(s, id, param);
	case 12: return cmd_configure(s, id, param, false);
	case 13: return cmd_configure(s, id, param, true);
	case 14:	// Reset Endpoint
		if (!sl->enabled || !sl->halted[ep])
			return 19;
		sl->halted[ep] = false;
		return 1;
	case 16:	// Set TR Dequeue Pointer
		if (!sl->enabled || sl->halted[ep])
			return 19;
		sl->deq[ep] = param & ~0xfull;
		sl->ccs[ep] = param & 1;
		return 1;
	}
	simx_fault(s, "unknown command TRB type %u", type);
	return 5;
}

void simx_run_commands(struct simx *s)
{
	uint32_t t[4];

	while (fetch(s, &s->cmd_deq, &s->cmd_ccs, t)) {
		unsigned slot, cc = run_command(s, t, &slot);

		post(s, s->cmd_deq, cc << 24, 33u << 10 | slot << 24);
		s->cmd_deq += 16;
		s->commands++;
	}
}

static void xfer_event(struct simx *s, unsigned slot, unsigned dci, uint64_t trb, unsigned cc,
		       uint32_t residue)
{
	post(s, trb, cc << 24 | residue, 32u << 10 | dci << 16 | slot << 24);
}

// One control TD from EP0's ring: setup, optional data, status.
static void run_control(struct simx *s, unsigned id)
{
	struct simx_slot *sl = &s->slots[id];
	uint64_t deq = sl->deq[1], at[3] = { 0 };
	uint8_t ccs = sl->ccs[1];
	uint32_t t[3][4];
	static uint8_t buf[4096];
	struct usb_setup setup;
	bool has_data;
	size_t n;
	enum simdev_answer a;

	for (int i = 0; i < 3; i++) {
		if (!fetch(s, &deq, &ccs, t[i]))
			return;
		at[i] = deq;
		deq += 16;
		if ((t[i][3] >> 10 & 0x3f) == 4)
			break;
	}
	if ((t[0][3] >> 10 & 0x3f) != 2) {
		simx_fault(s, "EP0 ring has TRB type %u where a Setup TRB belongs", t[0][3] >> 10 & 0x3f);
		return;
	}
	has_data = (t[1][3] >> 10 & 0x3f) == 3;
	setup = (struct usb_setup){ (uint8_t)t[0][0], (uint8_t)(t[0][0] >> 8),
				    (uint16_t)(t[0][0] >> 16), (uint16_t)t[0][1],
				    (uint16_t)(t[0][1] >> 16) };
	if (has_data && !(setup.type & 0x80))
		mem_copy(buf, dma(s, (uint64_t)t[1][1] << 32 | t[1][0], t[1][2] & 0x1ffff),
		       t[1][2] & 0x1ffff);
	if (!sl->dev->attached || sl->dev->address != id)
		a = SIMDEV_STALL, setup.length = 0xffff;	// marked below as an error
	else
		a = simdev_control(sl->dev, &setup, buf, &n);
	if (a == SIMDEV_SILENT)
		return;
	if (a != SIMDEV_OK) {
		sl->halted[1] = true;
		xfer_event(s, id, 1, has_data ? at[1] : at[0], setup.length == 0xffff ? 4 : 6, 0);
		return;
	}
	if (has_data && (setup.type & 0x80)) {
		size_t want = t[1][2] & 0x1ffff;

		mem_copy(dma(s, (uint64_t)t[1][1] << 32 | t[1][0], n), buf, n < want ? n : want);
		if (n < want && (t[1][3] & 4))
			xfer_event(s, id, 1, at[1], 13, (uint32_t)(want - n));
	}
	xfer_event(s, id, 1, has_data ? at[2] : at[1], 1, 0);
	sl->deq[1] = deq;
	sl->ccs[1] = ccs;
}

static void run_intr(struct simx *s, unsigned id, unsigned dci)
{
	struct simx_slot *sl = &s->slots[id];
	uint64_t deq = sl->deq[dci];
	uint8_t ccs = sl->ccs[dci];
	uint32_t t[4], len;

	if (!fetch(s, &deq, &ccs, t))
		return;
	len = t[2] & 0x1ffff;
	if (!sl->dev->attached || sl->dev->address != id) {
		sl->halted[dci] = true;
		return xfer_event(s, id, dci, deq, 4, len);
	}
	if (sl->dev->kind != SIMDEV_KEYBOARD || !sl->dev->report_ready)
		return;
	mem_copy(dma(s, (uint64_t)t[1] << 32 | t[0], len < 8 ? len : 8), sl->dev->report,
	       len < 8 ? len : 8);
	sl->dev->report_ready = false;
	xfer_event(s, id, dci, deq, len > 8 ? 13 : 1, len > 8 ? len - 8 : 0);
	sl->deq[dci] = deq + 16;
	sl->ccs[dci] = ccs;
}

void simx_run_endpoint(struct simx *s, unsigned id, unsigned dci)
{
	struct simx_slot *sl = &s->slots[id];

	if (id == 0 || id > SIMX_SLOTS || !sl->enabled || !sl->dev || dci < 1 || dci > 31 ||
	    !sl->running[dci] || sl->halted[dci] || !(s->usbcmd & 1))
		return;
	if (dci == 1)
		run_control(s, id);
	else
		run_intr(s, id, dci);
}

void simx_tick(struct simx *s)
{
	for (unsigned id = 1; id <= SIMX_SLOTS; id++)
		for (unsigned dci = 2; dci < 32; dci++)
			simx_run_endpoint(s, id, dci);
}

void simx_check_start(struct simx *s)
{
	uint64_t array = s->scratchpads ? rd64(s, s->dcbaap) : 0;

	if (s->dcbaap & 63 || s->crcr & 0x30 || s->config == 0)
		simx_fault(s, "started with DCBAAP 0x%llx, CRCR 0x%llx, %u slots",
		      (unsigned long long)s->dcbaap, (unsigned long long)s->crcr, s->config);
	for (unsigned i = 0; i < s->scratchpads; i++) {
		uint64_t page = rd64(s, array + 8u * i);

		if (page & 4095 || page < SIMX_MEM_PHYS || page >= SIMX_MEM_PHYS + SIMX_MEM_BYTES)
			simx_fault(s, "scratchpad %u at 0x%llx", i, (unsigned long long)page);
		for (unsigned j = 0; j < i; j++)
			if (rd64(s, array + 8u * j) == page)
				simx_fault(s, "scratchpads %u and %u share a page", j, i);
	}
}

void simx_port_event(struct simx *s, unsigned port)
{
	if ((s->usbcmd & 1) && s->erstba)	// running with its event ring
		post(s, (uint64_t)port << 24, 1u << 24, 34u << 10);
}
