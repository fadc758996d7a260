// SPDX-License-Identifier: GPL-2.0-or-later
// PCI configuration space through mechanism 1 (ports 0xcf8/0xcfc, PCI Local
// Bus 3.0 section 3.2.2.3.2): the 256 bytes of each function's header, a
// bounded scan of every bus for functions of one class, and the decoding of
// a memory BAR. Facts only: whoever scans decides what a function is for.
#ifndef RAMSIFT_SRC_X86_PCI_CONFIG_H
#define RAMSIFT_SRC_X86_PCI_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// A function's address as one number: bus << 8 | device << 3 | function.
#define PCI_BDF(bus, dev, fn) ((uint32_t)(bus) << 8 | (uint32_t)(dev) << 3 | (uint32_t)(fn))
#define PCI_BUS(bdf)	((bdf) >> 8 & 0xff)
#define PCI_DEV(bdf)	((bdf) >> 3 & 0x1f)
#define PCI_FN(bdf)	((bdf) & 7)

// The header's dword at offset (rounded down to 4; 0-255). A function
// that is not there reads 0xffffffff.
uint32_t pci_read32(uint32_t bdf, uint16_t offset);
void pci_write32(uint32_t bdf, uint16_t offset, uint32_t value);
// One byte at offset (0-255), the rest of its dword untouched.
void pci_write8(uint32_t bdf, uint16_t offset, uint8_t value);

struct pci_function {
	uint32_t bdf;
	uint16_t vendor, device;
	uint8_t prog_if;
};

// Every function of class and subclass (all 256 buses, 32 devices, the
// functions a multi-function device has), in bus order, at most cap into
// out. Returns how many there are, even beyond cap.
size_t pci_find_class(uint8_t class, uint8_t subclass, struct pci_function *out, size_t cap);

// BAR0 of bdf as a memory address (32 or 64 bits wide, the flag bits
// cleared) into *addr; false when it is an I/O BAR or unassigned (0).
bool pci_bar0_memory(uint32_t bdf, uint64_t *addr);

// Let the function answer memory cycles and master the bus (command
// register bits 1 and 2), its other bits kept.
void pci_enable_memory_master(uint32_t bdf);

#endif
