// SPDX-License-Identifier: GPL-2.0-or-later
// Boot keyboard reports (HID 1.11 appendix B): 8 bytes, modifiers, a
// reserved byte, then up to 6 usage codes of the keys held down. A key is
// pressed when its code is in a report and was not in the one before.
#ifndef RAMSIFT_LIB_USB_REPORT_H
#define RAMSIFT_LIB_USB_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "usb/host.h"	// USB_REPORT_BYTES

// The character of usage code usage (HID usage table, page 7) with shift
// held or not: ASCII letters, digits and punctuation, 27 for Esc, '\r'
// for Enter, 8 for Backspace, '\t' for Tab; -1 for any other key.
int usb_key_char(uint8_t usage, bool shift);

// The characters of the keys pressed in report cur that were not in prev,
// in report order, into out (room for 6); returns how many. A report of
// phantom keys (ErrorRollOver, code 1) presses nothing.
size_t usb_report_keys(const uint8_t prev[USB_REPORT_BYTES], const uint8_t cur[USB_REPORT_BYTES],
		       char out[6]);

#endif
