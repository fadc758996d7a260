// SPDX-License-Identifier: GPL-2.0-or-later
// Which driver runs which kind of controller.
#ifndef RAMSIFT_LIB_USB_DRIVERS_H
#define RAMSIFT_LIB_USB_DRIVERS_H

#include "usb/hc.h"
#include "usb/usb.h"

// The ops of kind's driver, or NULL when there is none.
const struct usb_hc_ops *usb_driver(enum usb_hc_kind kind);

// "xHCI", "EHCI": how a kind without a driver is named (a driver's ops say it).
const char *usb_kind_name(enum usb_hc_kind kind);

#endif
