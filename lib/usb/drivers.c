// SPDX-License-Identifier: GPL-2.0-or-later
// The driver of each kind of controller.
#include "usb/drivers.h"

const struct usb_hc_ops *usb_driver(enum usb_hc_kind kind)
{
	switch (kind) {
	case USB_HC_XHCI:
		return &usb_xhci_ops;
	case USB_HC_EHCI:
		return &usb_ehci_ops;
	}
	return NULL;
}

const char *usb_kind_name(enum usb_hc_kind kind)
{
	return kind == USB_HC_XHCI ? "xHCI" : "EHCI";
}
