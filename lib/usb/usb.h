// SPDX-License-Identifier: GPL-2.0-or-later
// A polled USB host stack for boot-protocol keyboards: xHCI and EHCI
// controllers, hubs, several keyboards at once. No interrupts, no waiting:
// every call does a bounded amount of work (a bounded number of register
// accesses) and returns; usb_poll() moves each controller, port and device
// one step. Its only DMA is into the usb_mem block it was given.
#ifndef RAMSIFT_LIB_USB_USB_H
#define RAMSIFT_LIB_USB_USB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usb/env.h"
#include "usb/host.h"	// struct usb_host: all the stack's state, no allocation

enum usb_hc_kind { USB_HC_XHCI, USB_HC_EHCI };

struct usb_controller_info {
	enum usb_hc_kind kind;
	uint32_t bdf;		// PCI bus << 8 | device << 3 | function
	uint64_t mmio;		// physical address of its registers (BAR0)
};

// Forget everything; the stack will use env and the memory block mem.
void usb_init(struct usb_host *h, const struct usb_env *env, struct usb_mem mem);

// Take the controller from the firmware (bounded handoff), reset and start
// it. False, with a warning through env->warn, when it misbehaves, there
// is no room left, or too many are taken; it is then left alone.
bool usb_add(struct usb_host *h, const struct usb_controller_info *c);

// One bounded step of every controller, port and device.
void usb_poll(struct usb_host *h);

// The next key pressed on any keyboard as a character (ASCII, 27 for Esc,
// '\r' for Enter), or -1 when none is waiting.
int usb_key(struct usb_host *h);

// True while a controller's ports are still settling or a device is being
// enumerated: the caller may poll until false (bounded by the stack's own
// deadlines) before naming the keyboards.
bool usb_busy(const struct usb_host *h);

// The keyboards in use, for the keys: line, e.g. "USB keyboard at xHCI
// 00:04.0 port 5 (hub port 1, hub port 3)", several joined by ", "; ""
// when none. Returns the length written (always NUL-terminated).
size_t usb_describe(const struct usb_host *h, char *buf, size_t size);

// A number that changes whenever the set of keyboards changes (plugged in,
// enumerated, unplugged).
unsigned usb_generation(const struct usb_host *h);

// Halt and reset every controller taken: no DMA once it returns (bounded).
void usb_stop(struct usb_host *h);

#endif
