// SPDX-License-Identifier: GPL-2.0-or-later
// USB keyboards for keys.c: the PCI scan for USB host controllers, the
// xHCI and EHCI ones kept for the stack (lib/usb). Entered on the BSP only.
#ifndef RAMSIFT_SRC_USBKEYS_H
#define RAMSIFT_SRC_USBKEYS_H

#include <stdint.h>

#include "boot/cmdline.h"

// Find the USB host controllers on PCI (unless cfg says usb=off, which
// touches none) and log them, one usb: line each. Returns the end of the
// highest register block to be read (0: none), which the page tables must
// map. Before the page tables for all RAM are built.
uint64_t usbkeys_find(const struct config *cfg);

#endif
