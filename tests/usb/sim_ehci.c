// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated EHCI controller's registers and PCI configuration space
// (sim_ehci.h). Written from the EHCI 1.0 specification's register
// descriptions (2.2, 2.3, 2.1.7), as strict as the hardware: a port reset
// released before 50 ms leaves the port disabled, PE cannot be set by a
// write, HCRESET on a running controller is ignored.
#include "memstr.h"

#include "sim_ehci.h"
#include "usb/ehci_regs.h"

void sim_ehci_init(struct sim_ehci *s, uint64_t mmio, uint32_t bdf, void *mem, uint64_t mem_phys,
		   size_t mem_bytes, unsigned ports)
{
	mem_set(s, 0, sizeof *s);
	s->mmio = mmio;
	s->bdf = bdf;
	s->mem = mem;
	s->mem_phys = mem_phys;
	s->mem_bytes = mem_bytes;
	s->ports = ports;
	s->bios_release_us = SIM_NEVER;
	s->cmd = EHCI_CMD_ITC_8;
	s->sts = EHCI_STS_HALTED;
	s->pci[0] = 0x24cd8086;			// an Intel ICH4 EHCI
	s->pci[SIM_EHCI_EECP / 4] = EHCI_LEGSUP_ID;	// no next capability
}

uint64_t sim_ehci_now(void *ctx)
{
	return ((struct sim_ehci *)ctx)->now_us;
}

static void tick(struct sim_ehci *s)
{
	s->accesses++;
	s->now_us += SIM_EHCI_ACCESS_US;
}

static bool companion_owns(const struct sim_ehci *s, unsigned i)
{
	return s->companions && (s->portsc[i] & EHCI_PORT_OWNER);
}

// Follow the bus: a device came or went on root port i.
static void port_sync(struct sim_ehci *s, unsigned i)
{
	enum usb_speed speed = USB_SPEED_FULL;
	bool powered = !s->ppc || (s->portsc[i] & EHCI_PORT_PP);
	bool here = powered && s->bus.attached && s->bus.attached(s->bus.ctx, i + 1, &speed);
	uint32_t *sc = &s->portsc[i];

	if (here != s->present[i]) {
		s->present[i] = here;
		if (!here && s->companions)
			*sc &= ~EHCI_PORT_OWNER;	// back to EHCI when it leaves (4.2.2)
		*sc = (*sc & ~(EHCI_PORT_CCS | EHCI_PORT_PE | EHCI_PORT_PR | EHCI_PORT_LS_MASK)) |
		      EHCI_PORT_CSC;
		s->sts |= EHCI_STS_PCD;
	}
	*sc &= ~(EHCI_PORT_CCS | EHCI_PORT_LS_MASK);
	if (here && !companion_owns(s, i)) {
		*sc |= EHCI_PORT_CCS;
		if (!(*sc & EHCI_PORT_PE))	// before a reset, a low-speed device pulls D- up (K)
			*sc |= speed == USB_SPEED_LOW ? EHCI_PORT_LS_K : (2u << 10);
	}
}

static void port_reset_end(struct sim_ehci *s, unsigned i)
{
	enum usb_speed speed = USB_SPEED_FULL;

	s->portsc[i] &= ~EHCI_PORT_PR;
	s->pr_reads[i] = 1;	// PR reads 1 once more: the controller finishing the reset
	if (!s->present[i] || s->now_us - s->pr_since[i] < 50000)
		return;
	s->bus.attached(s->bus.ctx, i + 1, &speed);
	if (speed != USB_SPEED_HIGH)
		return;	// the chirp found no high-speed device: not enabled
	s->portsc[i] |= EHCI_PORT_PE;
	s->bus.reset(s->bus.ctx, i + 1);
}

static void port_write(struct sim_ehci *s, unsigned i, uint32_t v)
{
	uint32_t *sc = &s->portsc[i];

	*sc &= ~(v & EHCI_PORT_RWC);
	if (!(v & EHCI_PORT_PE))
		*sc &= ~EHCI_PORT_PE;
	if (s->ppc)
		*sc = (*sc & ~EHCI_PORT_PP) | (v & EHCI_PORT_PP);
	if (s->companions && s->configflag)
		*sc = (*sc & ~EHCI_PORT_OWNER) | (v & EHCI_PORT_OWNER);
	if ((v & EHCI_PORT_PR) && !(*sc & EHCI_PORT_PR)) {
		*sc = (*sc | EHCI_PORT_PR) & ~EHCI_PORT_PE;
		s->pr_since[i] = s->now_us;
	} else if (!(v & EHCI_PORT_PR) && (*sc & EHCI_PORT_PR)) {
		port_reset_end(s, i);
	}
	port_sync(s, i);
}

static uint32_t port_read(struct sim_ehci *s, unsigned i)
{
	port_sync(s, i);
	if (s->pr_reads[i]) {
		s->pr_reads[i]--;
		return s->portsc[i] | EHCI_PORT_PR;
	}
	return s->portsc[i];
}

static void hc_reset(struct sim_ehci *s)
{
	s->hcresets++;
	s->cmd = EHCI_CMD_ITC_8 | EHCI_CMD_HCRESET;
	s->sts = EHCI_STS_HALTED;
	s->intr = s->frindex = s->periodic_base = s->async_addr = s->ctrlds = 0;
	s->configflag = 0;
	s->hcreset_at = s->now_us + 100;
	for (unsigned i = 0; i < s->ports; i++) {
		s->portsc[i] = (s->ppc ? 0 : EHCI_PORT_PP) | (s->companions ? EHCI_PORT_OWNER : 0);
		s->present[i] = false;
		s->pr_reads[i] = 0;
	}
}

static uint32_t cmd_read(struct sim_ehci *s)
{
	if ((s->cmd & EHCI_CMD_HCRESET) && !s->hcreset_stuck && s->now_us >= s->hcreset_at)
		s->cmd &= ~EHCI_CMD_HCRESET;
	return s->cmd;
}

static void cmd_write(struct sim_ehci *s, uint32_t v)
{
	if (v & EHCI_CMD_HCRESET) {
		if (s->sts & EHCI_STS_HALTED)	// 2.3.1: reset only a halted controller
			hc_reset(s);
		return;
	}
	s->cmd = v;
	if (v & EHCI_CMD_RS)
		s->sts &= ~EHCI_STS_HALTED;
	else if (!s->halt_stuck)
		s->sts |= EHCI_STS_HALTED;
	s->sts = (s->sts & ~(EHCI_STS_PSS | EHCI_STS_ASS)) |
		 ((v & EHCI_CMD_PSE) ? EHCI_STS_PSS : 0) | ((v & EHCI_CMD_ASE) ? EHCI_STS_ASS : 0);
}

static void configflag_write(struct sim_ehci *s, uint32_t v)
{
	s->configflag = v & 1;
	for (unsigned i = 0; i < s->ports && s->companions; i++) {
		if (s->configflag)
			s->portsc[i] &= ~EHCI_PORT_OWNER;
		else
			s->portsc[i] |= EHCI_PORT_OWNER;
		port_sync(s, i);
	}
}

static uint32_t *op_reg(struct sim_ehci *s, uint32_t off)
{
	switch (off) {
	case EHCI_USBINTR:
		return &s->intr;
	case EHCI_FRINDEX:
		return &s->frindex;
	case EHCI_CTRLDSSEGMENT:
		return &s->ctrlds;
	case EHCI_PERIODICLISTBASE:
		return &s->periodic_base;
	case EHCI_ASYNCLISTADDR:
		return &s->async_addr;
	default:
		return NULL;
	}
}

static uint32_t cap_read(const struct sim_ehci *s, uint32_t off)
{
	switch (off) {
	case EHCI_CAPLENGTH:
		return 0x01000000u | SIM_EHCI_CAPLENGTH;	// HCIVERSION 1.00
	case EHCI_HCSPARAMS:
		return s->ports | (s->ppc ? EHCI_HCS_PPC : 0) | (s->companions << 12);
	case EHCI_HCCPARAMS:
		return (uint32_t)SIM_EHCI_EECP << 8;
	default:
		return 0;
	}
}

uint32_t sim_ehci_mmio_read(void *ctx, uint64_t addr)
{
	struct sim_ehci *s = ctx;
	uint32_t off = (uint32_t)(addr - s->mmio), *reg;

	tick(s);
	if (s->gone || s->mmio_gone)
		return 0xffffffffu;
	if (off < SIM_EHCI_CAPLENGTH)
		return cap_read(s, off);
	off -= SIM_EHCI_CAPLENGTH;
	if (off == EHCI_USBCMD)
		return cmd_read(s);
	if (off == EHCI_USBSTS)
		return s->sts;
	if (off == EHCI_CONFIGFLAG)
		return s->configflag;
	if (off >= EHCI_PORTSC(0) && off < EHCI_PORTSC(s->ports))
		return port_read(s, (off - EHCI_PORTSC(0)) / 4);
	reg = op_reg(s, off);
	return reg ? *reg : 0;
}

void sim_ehci_mmio_write(void *ctx, uint64_t addr, uint32_t value)
{
	struct sim_ehci *s = ctx;
	uint32_t off = (uint32_t)(addr - s->mmio) - SIM_EHCI_CAPLENGTH, *reg;

	tick(s);
	if (s->gone || s->mmio_gone || addr - s->mmio < SIM_EHCI_CAPLENGTH)
		return;
	if (off == EHCI_USBCMD)
		cmd_write(s, value);
	else if (off == EHCI_USBSTS)
		s->sts &= ~(value & EHCI_STS_RWC);
	else if (off == EHCI_CONFIGFLAG)
		configflag_write(s, value);
	else if (off >= EHCI_PORTSC(0) && off < EHCI_PORTSC(s->ports))
		port_write(s, (off - EHCI_PORTSC(0)) / 4, value);
	else if ((reg = op_reg(s, off)))
		*reg = value;
}

static void bios_follow(struct sim_ehci *s)
{
	uint32_t *leg = &s->pci[SIM_EHCI_EECP / 4];

	if (s->bios_owned)
		*leg |= EHCI_LEGSUP_BIOS_OWNED;
	if (s->os_asked && s->bios_owned && s->bios_release_us != SIM_NEVER &&
	    s->now_us - s->os_asked_at >= s->bios_release_us) {
		s->bios_owned = false;
		*leg &= ~EHCI_LEGSUP_BIOS_OWNED;
	}
}

uint32_t sim_ehci_pci_read(void *ctx, uint32_t bdf, uint16_t offset)
{
	struct sim_ehci *s = ctx;

	tick(s);
	if (s->gone || bdf != s->bdf || offset >= 256 || (offset & 3))
		return 0xffffffffu;
	bios_follow(s);
	return s->pci[offset / 4];
}

void sim_ehci_pci_write(void *ctx, uint32_t bdf, uint16_t offset, uint32_t value)
{
	struct sim_ehci *s = ctx;

	tick(s);
	if (s->gone || bdf != s->bdf || offset >= 256 || (offset & 3))
		return;
	if (offset == SIM_EHCI_EECP) {
		if ((value & EHCI_LEGSUP_OS_OWNED) && !s->os_asked) {
			s->os_asked = true;
			s->os_asked_at = s->now_us;
		}
		if (!(value & EHCI_LEGSUP_BIOS_OWNED))	// an OS that takes it by force
			s->bios_owned = false;
		s->pci[offset / 4] = (value & (EHCI_LEGSUP_BIOS_OWNED | EHCI_LEGSUP_OS_OWNED)) |
				     EHCI_LEGSUP_ID;
		bios_follow(s);
		return;
	}
	s->pci[offset / 4] = value;
}

void sim_ehci_run(struct sim_ehci *s, uint64_t us)
{
	uint64_t end = s->now_us + us;

	while (s->frame_us + 1000 <= end) {
		s->frame_us += 1000;
		if (s->now_us < s->frame_us)
			s->now_us = s->frame_us;
		for (unsigned i = 0; i < s->ports; i++)
			port_sync(s, i);
		if ((s->cmd & EHCI_CMD_RS) && !(s->sts & EHCI_STS_HALTED))
			sim_ehci_frame(s);
	}
	if (s->now_us < end)
		s->now_us = end;
}
