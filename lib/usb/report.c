// SPDX-License-Identifier: GPL-2.0-or-later
// Boot keyboard report decoding: new keys, and their characters by the US
// layout (what the BIOS and the PS/2 path assume too).
#include "usb/report.h"

#define USAGE_A 0x04
#define USAGE_Z 0x1d
#define USAGE_1 0x1e
#define USAGE_0 0x27
#define USAGE_ROLLOVER 0x01
#define MOD_SHIFT 0x22		// left and right shift

// Usage codes 0x28 .. 0x38: Enter, Esc, Backspace, Tab, space, then the
// punctuation keys; unshifted and shifted.
static const char punct[2][18] = {
	"\r\x1b\b\t -=[]\\#;'`,./",
	"\r\x1b\b\t _+{}|~:\"~<>?",
};

int usb_key_char(uint8_t usage, bool shift)
{
	if (usage >= USAGE_A && usage <= USAGE_Z)
		return (shift ? 'A' : 'a') + usage - USAGE_A;
	if (usage >= USAGE_1 && usage <= USAGE_0) {
		if (shift)
			return "!@#$%^&*()"[usage - USAGE_1];
		return usage == USAGE_0 ? '0' : '1' + usage - USAGE_1;
	}
	if (usage >= 0x28 && usage <= 0x38)
		return (unsigned char)punct[shift][usage - 0x28];
	return -1;
}

static bool held(const uint8_t r[USB_REPORT_BYTES], uint8_t usage)
{
	for (int i = 2; i < USB_REPORT_BYTES; i++)
		if (r[i] == usage)
			return true;
	return false;
}

size_t usb_report_keys(const uint8_t prev[USB_REPORT_BYTES], const uint8_t cur[USB_REPORT_BYTES],
		       char out[6])
{
	bool shift = (cur[0] & MOD_SHIFT) != 0;
	size_t n = 0;

	if (held(cur, USAGE_ROLLOVER))
		return 0;
	for (int i = 2; i < USB_REPORT_BYTES; i++) {
		int c = usb_key_char(cur[i], shift);

		if (cur[i] != 0 && c >= 0 && !held(prev, cur[i]))
			out[n++] = (char)c;
	}
	return n;
}
