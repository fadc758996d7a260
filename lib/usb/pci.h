// SPDX-License-Identifier: GPL-2.0-or-later
// What a controller's PCI function needs before its registers can be used
// (PCI 3.0 6.2.2, PCI PM 1.2 chapter 3): memory space and bus mastering
// on, power state D0. For every driver.
#ifndef RAMSIFT_LIB_USB_PCI_H
#define RAMSIFT_LIB_USB_PCI_H

#include "usb/hc.h"

#define USB_PCI_D0_US 10000u	// from D3hot to D0, before the registers answer

enum usb_pci { USB_PCI_READY, USB_PCI_WOKEN, USB_PCI_GONE };

// Turn on the function's memory decoding and bus mastering, and bring it
// to D0 if the firmware left it in a lower power state: USB_PCI_WOKEN
// when it did (the caller then waits USB_PCI_D0_US). USB_PCI_GONE, warned
// about and nothing done, when its configuration space reads all ones.
enum usb_pci usb_pci_enable(struct usb_hc *hc);

#endif
