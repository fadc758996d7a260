// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated xHCI controller's registers (capability, operational,
// runtime, doorbells, USBLEGSUP and Supported Protocol capabilities), its
// root ports, and the usb_env around it. The rings are simxhci_ring.c's.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../unit/contains.h"
#include "simxhci.h"
#include "memstr.h"

#define OP 0x40u
#define RT 0x1000u
#define DB 0x2000u
#define XCAP 0x800u
#define PORT_CHANGES 0x00fe0000u

static uint32_t port_speed_bits(const struct simdev *d)
{
	return simx_speed_id(d->speed) << 10;
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
	if (s->gone || s->power_state || !(s->pci_command & 2))
		return 0xffffffffu;
	if (s->woken && s->now < s->woken_at + 10000)
		simx_fault(s, "register 0x%x read within 10 ms of D0", off);
	if (off < OP)
		return read_cap(s, off);
	if (off >= XCAP && off < RT)
		return read_cap(s, off);
	if (off < XCAP && (s->usbcmd & 2) && s->now < s->reset_at + 1000)
		simx_fault(s, "register 0x%x read within 1 ms of HCRST", off);
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
		d->reset_at = s->now;
		simx_port_event(s, p);
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
		s->reset_at = s->now;
		return;
	}
	if ((v & 1) && !(s->usbcmd & 1)) {
		s->cmd_deq = s->crcr & ~0x3full;
		s->cmd_ccs = s->crcr & 1;
		s->ev_idx = 0;
		s->ev_pcs = 1;
		simx_check_start(s);
	}
	s->usbcmd = v & 1;
	s->usbsts = (v & 1) || s->halt_stuck ? 0 : 1;
}

static void mmio_write(void *ctx, uint64_t addr, uint32_t v)
{
	struct simx *s = ctx;
	uint32_t off = (uint32_t)(addr - SIMX_BAR);

	s->accesses++;
	if (s->gone || s->power_state || !(s->pci_command & 2))
		return;
	if ((s->usbcmd & 1) && !(s->pci_command & 4))
		simx_fault(s, "running without bus mastering");
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
		simx_run_commands(s);
	else if (off > DB && off <= DB + 4 * SIMX_SLOTS)
		simx_run_endpoint(s, (off - DB) / 4, v & 0xff);
}

static uint64_t now_us(void *ctx)
{
	struct simx *s = ctx;

	return s->now += 10;
}

// Configuration space: the command and status registers, a capability
// list holding the power management capability at 0x40.
static uint32_t pci_read(void *ctx, uint32_t bdf, uint16_t off)
{
	struct simx *s = ctx;

	(void)bdf;
	s->accesses++;
	if (s->pci_gone)
		return 0xffffffffu;
	switch (off) {
	case 0x04: return s->pci_command | 1u << 20;
	case 0x34: return 0x40;
	case 0x40: return 1u | 0x0003u << 16;	// PM, no next, version 3
	case 0x44: return s->power_state;
	}
	return 0;
}

static void pci_write(void *ctx, uint32_t bdf, uint16_t off, uint32_t v)
{
	struct simx *s = ctx;

	(void)bdf;
	s->accesses++;
	if (off == 0x04) {
		if (v >> 16)
			simx_fault(s, "PCI status bits 0x%x written (write 1 to clear)", v >> 16);
		s->pci_command = v & 0xffff;
	} else if (off == 0x44) {
		if ((v & 3) == 0 && s->power_state) {
			s->woken = true;
			s->woken_at = s->now;
		}
		s->power_state = v & 3;
	}
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
	simdev_clock = &s->now;
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
	s->pci_command = 0x0006;	// memory space and bus master on, as a BIOS leaves it
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
	simx_port_event(s, port);
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
