// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of lib/usb/desc.c and lib/usb/report.c: what a device
// sends is untrusted. An input is the bytes of a descriptor as a device
// answered a GET_DESCRIPTOR; every parser reads them all (device,
// configuration head, whole configuration, USB 2 and USB 3 hub), and the
// first 16 bytes are also two boot keyboard reports (previous, current).
// Checked after each: what desc.h promises of an accepted descriptor (the
// ranges of its fields), and of a configuration taken as a keyboard, that
// the interface and endpoint are the first ones a plain walk of the
// descriptor chain finds; of the report decoder, that every key it gives
// is a key of the current report not held in the previous one. Built by
// clang with -fsanitize=fuzzer (make fuzz-usbdesc), or by gcc with
// tests/fuzz/replay.c's main (make check-fuzz-corpus).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usb/desc.h"
#include "usb/report.h"
#include "fail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_device(const uint8_t *b, size_t n)
{
	struct usb_device_desc d;
	const char *why = NULL;

	if (!usb_parse_device(b, n, &d, &why)) {
		FAIL_IF(why == NULL || why[0] == '\0');
		return;
	}
	FAIL_IF(n < 8 || b[1] != USB_DESC_DEVICE);
	FAIL_IF(d.mps0 != 8 && d.mps0 != 16 && d.mps0 != 32 && d.mps0 != 64 && d.mps0 != 512);
	FAIL_IF(n >= 18 && d.configs == 0);
}

// The first boot keyboard interface (alternate setting 0) of the chain
// in b's first len bytes, and its first interrupt-IN endpoint: their
// offsets, or 0.
static void first_keyboard(const uint8_t *b, size_t len, size_t *iface, size_t *ep)
{
	*iface = *ep = 0;
	for (size_t at = b[0]; at + 2 <= len && b[at] >= 2 && b[at] <= len - at; at += b[at]) {
		const uint8_t *d = b + at;

		if (d[1] == USB_DESC_INTERFACE && *iface)
			return;
		if (d[1] == USB_DESC_INTERFACE && d[0] >= 9 && d[3] == 0 && d[5] == 3 && d[6] == 1 &&
		    d[7] == 1)
			*iface = at;
		else if (d[1] == USB_DESC_ENDPOINT && *iface && !*ep && (d[2] & 0x80) &&
			 (d[3] & 3) == 3)
			*ep = at;
	}
}

static void check_config(const uint8_t *b, size_t n)
{
	struct usb_config_info c;
	const char *why = NULL;
	size_t iface, ep, len;

	if (usb_parse_config_head(b, n, &c, &why))
		FAIL_IF(c.total < 9 || n < 9);
	if (!usb_parse_config(b, n, &c, &why)) {
		FAIL_IF(why == NULL || why[0] == '\0');
		return;
	}
	FAIL_IF(c.function != USB_FN_OTHER && c.function != USB_FN_KEYBOARD &&
		c.function != USB_FN_HUB);
	if (c.function != USB_FN_KEYBOARD)
		return;
	FAIL_IF(c.ep < 1 || c.ep > 15 || c.ep_mps < 8 || c.ep_mps > USB_EP_MPS_MAX ||
		c.ep_interval == 0);
	len = n < c.total ? n : c.total;
	first_keyboard(b, len, &iface, &ep);
	FAIL_IF(iface == 0 || ep == 0);
	FAIL_IF(c.iface != b[iface + 2] || c.ep != (b[ep + 2] & 0x0f));
}

static void check_hub(const uint8_t *b, size_t n, bool ss)
{
	struct usb_hub_info h;
	const char *why = NULL;

	if (!usb_parse_hub(b, n, ss, &h, &why)) {
		FAIL_IF(why == NULL || why[0] == '\0');
		return;
	}
	FAIL_IF(h.ports == 0 || (ss && h.ports > 15) || h.think > 3 || h.power_ms > 510);
}

static bool held(const uint8_t *r, uint8_t usage)
{
	for (int i = 2; i < 8; i++)
		if (r[i] == usage)
			return true;
	return false;
}

static void check_report(const uint8_t *prev, const uint8_t *cur)
{
	char keys[6];
	size_t n = usb_report_keys(prev, cur, keys), k = 0;

	FAIL_IF(n > 6);
	for (int i = 2; i < 8 && k < n; i++) {
		int c = usb_key_char(cur[i], (cur[0] & 0x22) != 0);

		if (cur[i] == 0 || c < 0 || held(prev, cur[i]))
			continue;
		FAIL_IF(keys[k++] != (char)c);
	}
	FAIL_IF(k != n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_device(data, size);
	check_config(data, size);
	check_hub(data, size, false);
	check_hub(data, size, true);
	if (size >= 16)
		check_report(data, data + 8);
	return 0;
}
