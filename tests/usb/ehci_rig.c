// SPDX-License-Identifier: GPL-2.0-or-later
// The EHCI driver's test rig (ehci_rig.h).
#include <stdio.h>
#include <stdlib.h>

#include "ehci_rig.h"
#include "memstr.h"

static void rig_warn(void *ctx, const char *line)
{
	struct ehci_rig *r = ctx;
	size_t n = str_len(line);

	if (n >= sizeof r->last_warning)
		n = sizeof r->last_warning - 1;
	mem_copy(r->last_warning, line, n);
	r->last_warning[n] = '\0';
	r->warnings++;
	if (getenv("TEST_WARNINGS_VERBOSE"))
		fprintf(stderr, "    warning: %s\n", line);
}

// The env's hooks take the rig; the controller is its first member.
void rig_init(struct ehci_rig *r, unsigned ports)
{
	mem_set(r, 0, sizeof *r);
	r->mem = aligned_alloc(4096, RIG_DMA_BYTES);
	sim_ehci_init(&r->sim, RIG_MMIO, RIG_BDF, r->mem, RIG_DMA_PHYS, RIG_DMA_BYTES, ports);
	r->env = (struct usb_env){
		.ctx = r, .now_us = sim_ehci_now, .mmio_read32 = sim_ehci_mmio_read,
		.mmio_write32 = sim_ehci_mmio_write, .pci_read32 = sim_ehci_pci_read,
		.pci_write32 = sim_ehci_pci_write,
	};
	r->env.warn = rig_warn;
	r->dma = (struct usb_dma){ .virt = r->mem, .phys = RIG_DMA_PHYS, .bytes = RIG_DMA_BYTES };
	r->hc.ops = &usb_ehci_ops;
	r->hc.env = &r->env;
	r->hc.dma = &r->dma;
	r->hc.bdf = RIG_BDF;
	r->hc.mmio = RIG_MMIO;
	mem_copy(r->hc.name, "EHCI 00:1d.0", 13);
}

unsigned long rig_free(struct ehci_rig *r)
{
	free(r->mem);
	return r->sim.bad_dma + r->sim.bad_links + r->sim.bad_rewrites;
}

enum usb_step rig_poll(struct ehci_rig *r, enum usb_step (*fn)(struct ehci_rig *r, void *arg),
		       void *arg, unsigned max_polls)
{
	for (r->polls = 1; r->polls <= max_polls; r->polls++) {
		unsigned long before = r->sim.accesses;
		enum usb_step got = fn(r, arg);

		if (r->sim.accesses - before > r->most_accesses)
			r->most_accesses = r->sim.accesses - before;
		if (got != USB_PENDING)
			return got;
		sim_ehci_run(&r->sim, 1000);
	}
	return USB_PENDING;
}

static enum usb_step start_poll(struct ehci_rig *r, void *arg)
{
	(void)arg;
	return r->hc.ops->start_poll(&r->hc);
}

enum usb_step rig_start(struct ehci_rig *r)
{
	r->hc.ops->start(&r->hc);
	return rig_poll(r, start_poll, NULL, 3000);
}
