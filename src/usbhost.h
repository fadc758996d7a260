// SPDX-License-Identifier: GPL-2.0-or-later
// The USB stack's environment in the image (lib/usb/env.h): the TSC clock
// in microseconds, the controllers' registers through the identity map,
// PCI configuration space through src/x86/pci, warnings as log lines.
#ifndef RAMSIFT_SRC_USBHOST_H
#define RAMSIFT_SRC_USBHOST_H

#include "usb/env.h"

// The one environment; the page tables must map the controllers' BARs.
const struct usb_env *usbhost_env(void);

#endif
