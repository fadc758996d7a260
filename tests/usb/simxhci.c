// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated xHCI controller: registers, command ring, event ring,
// EP0 and interrupt-IN transfer rings over simdev devices. What a real
// controller would refuse or misread (DMA outside the block, a context
// with the wrong speed or TT fields, an overflowing event ring) counts as
// a fault the tests assert to be zero.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "../unit/contains.h"
#include "simxhci.h"
#include "string.h"

#define OP 0x40u
#define RT 0x1000u
#define DB 0x2000u
#define XCAP 0x800u
#define PORT_CHANGES 0x00fe0000u

static void fault(struct simx *s, const char *fmt, ...)
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
		fault(s, "DMA at 0x%llx (%zu bytes) outside the block", (unsigned long long)phys, len);
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

	if ((s->erdp & ~0xfull) == next && s->ev_idx + 1 != size)
		fault(s, "event ring full");
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
	fault(s, "link TRBs loop");
	return false;
}

static unsigned speed_id(enum usb_speed sp)
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
	for (uint32_t r = route; r && d; r >>= 4) {
		if (d->speed == USB_SPEED_HIGH && d->kind == SIMDEV_HUB) {
			tt = d;
			tt_port = r & 0xf;
		}
		d = simdev_follow(d, r & 0xf);
	}
	if (!d)
		return NULL;
	if ((slot[0] >> 20 & 0xf) != speed_id(d->speed))
		fault(s, "slot context speed %u for a device of speed id %u", slot[0] >> 20 & 0xf,
		      speed_id(d->speed));
	if (d->speed <= USB_SPEED_FULL && tt &&
	    ((slot[2] & 0xff) != simx_slot_of(s, tt) || (slot[2] >> 8 & 0xff) != tt_port))
		fault(s, "TT fields slot %u port %u, want slot %u port %u", slot[2] & 0xff,
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
		fault(s, "Address Device with no output context for slot %u", id);
	d = locate(s, slot);
	if (!d || !d->attached)
		return 4;	// USB transaction error: nothing answers there
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
	fault(s, "unknown command TRB type %u", type);
	return 5;
}

static void run_commands(struct simx *s)
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
		fault(s, "EP0 ring has TRB type %u where a Setup TRB belongs", t[0][3] >> 10 & 0x3f);
		return;
	}
	has_data = (t[1][3] >> 10 & 0x3f) == 3;
	setup = (struct usb_setup){ (uint8_t)t[0][0], (uint8_t)(t[0][0] >> 8),
				    (uint16_t)(t[0][0] >> 16), (uint16_t)t[0][1],
				    (uint16_t)(t[0][1] >> 16) };
	if (has_data && !(setup.type & 0x80))
		mem_copy(buf, dma(s, (uint64_t)t[1][1] << 32 | t[1][0], t[1][2] & 0x1ffff),
		       t[1][2] & 0x1ffff);
	if (!sl->dev->attached)
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
	if (!sl->dev->attached) {
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

static void run_endpoint(struct simx *s, unsigned id, unsigned dci)
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
			run_endpoint(s, id, dci);
}

static uint32_t port_speed_bits(const struct simdev *d)
{
	return speed_id(d->speed) << 10;
}

static bool is_usb3(const struct simx *s, unsigned port)
{
	return port <= s->usb3_ports;
}

static void hc_reset(struct simx *s)
{
	s->usbcmd = 0;
	s->usbsts = 1;
	s->config = 0;
	s->crcr = s->dcbaap = s->erstba = s->erdp = 0;
	mem_set(s->slots, 0, sizeof s->slots);
	for (unsigned p = 1; p <= s->root.nports; p++) {
		struct simdev *d = s->root.ports[p - 1].dev;

		s->portsc[p - 1] = 1u << 9;
		if (d)
			s->portsc[p - 1] |= 1 | 1u << 17 | port_speed_bits(d) |
					    (is_usb3(s, p) ? 2 : 0);
	}
}

static uint32_t read_cap(struct simx *s, uint32_t off)
{
	unsigned ports = s->usb3_ports + s->usb2_ports;

	switch (off) {
	case 0x00: return 0x01100000u | OP;
	case 0x04: return SIMX_SLOTS | 1u << 8 | ports << 24;
	case 0x08: return (s->scratchpads & 0x1f) << 27 | (s->scratchpads >> 5) << 21;
	case 0x10: return 1u | (s->csz64 ? 4u : 0) | ((s->legacy ? XCAP : XCAP + 0x10) / 4) << 16;
	case 0x14: return DB;
	case 0x18: return RT;
	case XCAP:
		if (s->bios_left > 0 && (s->legsup & 1u << 24) && --s->bios_left == 0)
			s->legsup &= ~(1u << 16);
		return 1u | 4u << 8 | s->legsup;
	case XCAP + 4: return s->legctl;
	case XCAP + 0x10: return 2u | 4u << 8 | 0x03000000u;
	case XCAP + 0x14: case XCAP + 0x24: return 0x20425355u;	// "USB "
	case XCAP + 0x18: return 1u | s->usb3_ports << 8;
	case XCAP + 0x20: return 2u | 0x02000000u;
	case XCAP + 0x28: return (s->usb3_ports + 1) | s->usb2_ports << 8;
	}
	return 0;
}

static uint32_t read_op(struct simx *s, uint32_t off)
{
	switch (off) {
	case 0x00:
		if ((s->usbcmd & 2) && s->reset_left >= 0 && s->reset_left-- == 0) {
			hc_reset(s);
			s->cnr_left = s->cnr_polls;
		}
		return s->usbcmd;
	case 0x04:
		if (s->cnr_left > 0 || s->cnr_left < 0) {
			if (s->cnr_left > 0)
				s->cnr_left--;
			return s->usbsts | 1u << 11;
		}
		return s->usbsts;
	case 0x08: return 1;
	case 0x30: return (uint32_t)s->dcbaap;
	case 0x34: return (uint32_t)(s->dcbaap >> 32);
	case 0x38: return s->config;
	}
	if (off >= 0x400 && off < 0x400 + 0x10u * s->root.nports && (off & 0xf) == 0)
		return s->portsc[(off - 0x400) / 0x10];
	return 0;
}

static uint32_t mmio_read(void *ctx, uint64_t addr)
{
	struct simx *s = ctx;
	uint32_t off = (uint32_t)(addr - SIMX_BAR);

	s->accesses++;
	if (s->gone)
		return 0xffffffffu;
	if (off < OP)
		return read_cap(s, off);
	if (off >= XCAP && off < RT)
		return read_cap(s, off);
	if (off < XCAP)
		return read_op(s, off - OP);
	return 0;
}

static void write_port(struct simx *s, unsigned p, uint32_t v)
{
	uint32_t *sc = &s->portsc[p - 1];
	struct simdev *d = s->root.ports[p - 1].dev;

	*sc &= ~(v & PORT_CHANGES);
	if (v & 2)
		*sc &= ~2u;
	*sc |= v & (1u << 9);
	if ((v & 0x10) && d && !is_usb3(s, p)) {
		*sc |= 2u | 1u << 21;
		d->address = 0;
	}
}

static void set_64(uint64_t *r, uint32_t off, uint32_t v)
{
	if (off & 4)
		*r = (*r & 0xffffffffull) | (uint64_t)v << 32;
	else
		*r = (*r & ~0xffffffffull) | v;
}

static void write_usbcmd(struct simx *s, uint32_t v)
{
	if (v & 2) {
		s->usbcmd = 2;
		s->reset_left = s->reset_polls;
		return;
	}
	if ((v & 1) && !(s->usbcmd & 1)) {
		s->cmd_deq = s->crcr & ~0x3full;
		s->cmd_ccs = s->crcr & 1;
		s->ev_idx = 0;
		s->ev_pcs = 1;
	}
	s->usbcmd = v & 1;
	s->usbsts = (v & 1) ? 0 : 1;
}

static void mmio_write(void *ctx, uint64_t addr, uint32_t v)
{
	struct simx *s = ctx;
	uint32_t off = (uint32_t)(addr - SIMX_BAR);

	s->accesses++;
	if (s->gone)
		return;
	if (off == XCAP) {
		if ((v & 1u << 24) && !(s->legsup & 1u << 24))
			s->bios_left = s->bios_polls;
		s->legsup = v & (1u << 16 | 1u << 24);
		if (s->bios_left == 0)
			s->legsup &= ~(1u << 16);
	}
	else if (off == XCAP + 4)
		s->legctl = v & 0xe011u;	// the SMI enables; the status bits read 0
	else if (off == OP)
		write_usbcmd(s, v);
	else if (off == OP + 0x18 || off == OP + 0x1c)
		set_64(&s->crcr, off - (OP + 0x18), v);
	else if (off == OP + 0x30 || off == OP + 0x34)
		set_64(&s->dcbaap, off - (OP + 0x30), v);
	else if (off == OP + 0x38)
		s->config = v & 0xff;
	else if (off >= OP + 0x400 && off < OP + 0x400 + 0x10u * s->root.nports)
		write_port(s, (off - OP - 0x400) / 0x10 + 1, v);
	else if (off == RT + 0x28)
		s->erstsz = v;
	else if (off == RT + 0x30 || off == RT + 0x34)
		set_64(&s->erstba, off - (RT + 0x30), v);
	else if (off == RT + 0x38 || off == RT + 0x3c)
		set_64(&s->erdp, off - (RT + 0x38), v);
	else if (off == DB)
		run_commands(s);
	else if (off > DB && off <= DB + 4 * SIMX_SLOTS)
		run_endpoint(s, (off - DB) / 4, v & 0xff);
}

static uint64_t now_us(void *ctx)
{
	struct simx *s = ctx;

	return s->now += 10;
}

static uint32_t pci_read(void *ctx, uint32_t bdf, uint16_t off)
{
	(void)ctx, (void)bdf, (void)off;
	return 0xffffffffu;
}

static void pci_write(void *ctx, uint32_t bdf, uint16_t off, uint32_t v)
{
	(void)ctx, (void)bdf, (void)off, (void)v;
}

static void warn(void *ctx, const char *line)
{
	struct simx *s = ctx;

	if (getenv("TEST_WARNINGS_VERBOSE"))
		printf("warning: %s\n", line);
	if (s->warnings < SIMX_WARNINGS)
		snprintf(s->warning[s->warnings], sizeof s->warning[0], "%s", line);
	s->warnings++;
}

void simx_init(struct simx *s, unsigned usb3, unsigned usb2)
{
	static _Alignas(4096) uint8_t mem[SIMX_MEM_BYTES];

	mem_set(s, 0, sizeof *s);
	mem_set(mem, 0xa5, sizeof mem);	// the stack must clear what it uses
	s->mem = mem;
	s->usb3_ports = usb3;
	s->usb2_ports = usb2;
	s->root.kind = SIMDEV_HUB;
	s->root.nports = usb3 + usb2;
	s->reset_polls = 3;
	s->cnr_polls = 2;
	s->bios_polls = 5;
	s->usbsts = 0;
	s->usbcmd = 1;		// running, as a BIOS leaves it
	s->legsup = 1u << 16;	// BIOS-owned (seen when legacy is set)
	s->env = (struct usb_env){ .ctx = s, .now_us = now_us, .mmio_read32 = mmio_read,
				   .mmio_write32 = mmio_write, .pci_read32 = pci_read,
				   .pci_write32 = pci_write, .warn = warn };
	for (unsigned p = 1; p <= s->root.nports; p++)
		s->portsc[p - 1] = 1u << 9;
}

struct usb_mem simx_mem(struct simx *s)
{
	return (struct usb_mem){ .virt = s->mem, .phys = SIMX_MEM_PHYS, .bytes = SIMX_MEM_BYTES };
}

void simx_plug(struct simx *s, unsigned port, struct simdev *d)
{
	uint32_t *sc = &s->portsc[port - 1];

	simdev_plug(&s->root, port, d);
	*sc = (*sc & (1u << 9)) | 1u << 17;
	if (d)
		*sc |= 1 | port_speed_bits(d) | (is_usb3(s, port) ? 2 : 0);
}

unsigned simx_slot_of(const struct simx *s, const struct simdev *d)
{
	for (unsigned i = 1; i <= SIMX_SLOTS; i++)
		if (s->slots[i].enabled && s->slots[i].dev == d)
			return i;
	return 0;
}

bool simx_warned(const struct simx *s, const char *text)
{
	for (unsigned i = 0; i < s->warnings && i < SIMX_WARNINGS; i++)
		if (contains(s->warning[i], text))
			return true;
	return false;
}
