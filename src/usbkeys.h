// SPDX-License-Identifier: GPL-2.0-or-later
// USB keyboards for keypoll.c: the PCI scan for USB host controllers, the
// stack (lib/usb) run on the xHCI and EHCI ones over a DMA block in the
// working memory, its keys, and the keyboards it names. Entered on the BSP
// only.
#ifndef RAMSIFT_SRC_USBKEYS_H
#define RAMSIFT_SRC_USBKEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/cmdline.h"

// Find the USB host controllers on PCI (unless cfg says usb=off, which
// touches none) and log them, one usb: line each; the registers of those
// to be read are handed to paging_add_device(). Before the page tables for
// all RAM are built.
void usbkeys_find(const struct config *cfg);

// Take the xHCI and EHCI controllers found, with the stack's memory at
// physical mem (WORK_USB_BYTES, lib/run/ram.h; below 4 GiB,
// identity-mapped), and let their keyboards enumerate for up to 2 s.
// Nothing when none was found.
void usbkeys_start(uint64_t mem);

// Whether the stack runs (its DMA block is in use).
bool usbkeys_running(void);

// The longest list of keyboards kept, its terminator included.
#define USBKEYS_DESCRIBE_LEN 400

// The keyboards, for the keys: line ("" when none); returns the length.
size_t usbkeys_describe(char *buf, size_t size);

// One bounded step of the stack; the next key as a character, -1 when
// none. A change in the set of keyboards is logged.
int usbkeys_read(void);

// Before the working memory moves: halt the controllers (no more DMA).
void usbkeys_stop(void);

// After it moved to mem: take the controllers again (keys typed while the
// keyboards enumerate again are lost).
void usbkeys_moved(uint64_t mem);

#endif
