// SPDX-License-Identifier: GPL-2.0-or-later
// PCI configuration mechanism 1 (see pci_config.h).
#include "io.h"
#include "pci_config.h"

#define PCI_CONFIG_ADDR	0xcf8
#define PCI_CONFIG_DATA	0xcfc
#define PCI_CONFIG_ENABLE (1u << 31)

// Configuration header offsets (PCI Local Bus 3.0 section 6.1).
#define PCI_ID		0x00	// vendor (low 16 bits), device
#define PCI_COMMAND	0x04
#define PCI_CLASS	0x08	// revision, prog-if, subclass, class (high byte)
#define PCI_HEADER	0x0c	// header type in bits 23:16
#define PCI_BAR0	0x10
#define PCI_COMMAND_MEMORY (1u << 1)
#define PCI_COMMAND_MASTER (1u << 2)
#define PCI_MULTIFUNCTION (1u << 23)
#define PCI_BAR_IO	1u
#define PCI_BAR_TYPE	(3u << 1)
#define PCI_BAR_TYPE_64	(2u << 1)
#define PCI_ABSENT	0xffff

static void select(uint32_t bdf, uint16_t offset)
{
	outl(PCI_CONFIG_ADDR, PCI_CONFIG_ENABLE | (bdf & 0xffff) << 8 | (offset & 0xfc));
}

uint32_t pci_read32(uint32_t bdf, uint16_t offset)
{
	select(bdf, offset);
	return inl(PCI_CONFIG_DATA);
}

void pci_write32(uint32_t bdf, uint16_t offset, uint32_t value)
{
	select(bdf, offset);
	outl(PCI_CONFIG_DATA, value);
}

void pci_write8(uint32_t bdf, uint16_t offset, uint8_t value)
{
	select(bdf, offset);
	outb((uint16_t)(PCI_CONFIG_DATA + (offset & 3)), value);
}

// Whether bdf is there and of class/subclass; its identity into *f.
static bool matches(uint32_t bdf, uint8_t class, uint8_t subclass, struct pci_function *f)
{
	uint32_t id = pci_read32(bdf, PCI_ID);
	if ((id & 0xffff) == PCI_ABSENT)
		return false;
	uint32_t cls = pci_read32(bdf, PCI_CLASS);
	if (cls >> 24 != class || (cls >> 16 & 0xff) != subclass)
		return false;
	*f = (struct pci_function){ bdf, id & 0xffff, id >> 16, cls >> 8 & 0xff };
	return true;
}

size_t pci_find_class(uint8_t class, uint8_t subclass, struct pci_function *out, size_t cap)
{
	size_t n = 0;

	for (uint32_t bus = 0; bus < 256; bus++)
		for (uint32_t dev = 0; dev < 32; dev++) {
			uint32_t first = PCI_BDF(bus, dev, 0);
			if ((pci_read32(first, PCI_ID) & 0xffff) == PCI_ABSENT)
				continue;
			bool multi = pci_read32(first, PCI_HEADER) & PCI_MULTIFUNCTION;
			for (uint32_t fn = 0; fn < (multi ? 8u : 1u); fn++) {
				struct pci_function f;
				if (matches(PCI_BDF(bus, dev, fn), class, subclass, &f) && n++ < cap)
					out[n - 1] = f;
			}
		}
	return n;
}

bool pci_bar0_memory(uint32_t bdf, uint64_t *addr)
{
	uint32_t lo = pci_read32(bdf, PCI_BAR0);
	if (lo & PCI_BAR_IO)
		return false;
	uint64_t a = lo & ~0xfu;
	if ((lo & PCI_BAR_TYPE) == PCI_BAR_TYPE_64)
		a |= (uint64_t)pci_read32(bdf, PCI_BAR0 + 4) << 32;
	*addr = a;
	return a != 0;
}

void pci_enable_memory_master(uint32_t bdf)
{
	uint32_t cmd = pci_read32(bdf, PCI_COMMAND) & 0xffff;	// the status half is write-1-to-clear
	pci_write32(bdf, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
}
