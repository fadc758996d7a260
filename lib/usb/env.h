// SPDX-License-Identifier: GPL-2.0-or-later
// What the USB stack needs from whoever runs it: the image (src/usbhost.c)
// or a simulator (tests/usb/). The stack itself touches no hardware: every
// register, every PCI configuration word and the clock go through here.
#ifndef RAMSIFT_LIB_USB_ENV_H
#define RAMSIFT_LIB_USB_ENV_H

#include <stddef.h>
#include <stdint.h>

struct usb_env {
	void *ctx;
	// Microseconds on a clock that only goes forward.
	uint64_t (*now_us)(void *ctx);
	// A controller's registers, by physical address (its BAR plus offset).
	uint32_t (*mmio_read32)(void *ctx, uint64_t addr);
	void (*mmio_write32)(void *ctx, uint64_t addr, uint32_t value);
	// PCI configuration space of the function bdf (bus << 8 | dev << 3 | fn).
	uint32_t (*pci_read32)(void *ctx, uint32_t bdf, uint16_t offset);
	void (*pci_write32)(void *ctx, uint32_t bdf, uint16_t offset, uint32_t value);
	// One whole log line, without its newline: a warning naming the
	// controller or device that misbehaved and what was done about it.
	void (*warn)(void *ctx, const char *line);
};

// The memory the controllers may read and write (rings, contexts,
// transfer buffers): one block, identity of virt and phys not assumed.
// The caller keeps it out of the tested ranges while the stack runs.
struct usb_mem {
	void *virt;
	uint64_t phys;
	size_t bytes;
};

#endif
