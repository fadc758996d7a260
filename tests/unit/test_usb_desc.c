// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/usb/desc.c and lib/usb/report.c: descriptors a real
// keyboard, hub and composite device send, each broken in one field and
// refused with the phrase naming it; boot reports decoded to new keys.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contains.h"
#include "memstr.h"
#include "usb/desc.h"
#include "usb/report.h"

static const uint8_t keyboard[] = {
	9, 2, 34, 0, 1, 1, 0, 0xa0, 50,
	9, 4, 0, 0, 1, 3, 1, 1, 0,
	9, 0x21, 0x11, 1, 0, 1, 0x22, 63, 0,
	7, 5, 0x81, 3, 8, 0, 10,
};

// A vendor interface first; the keyboard second, an OUT endpoint before its IN one.
static const uint8_t composite[] = {
	9, 2, 57, 0, 2, 2, 0, 0xa0, 50,
	9, 4, 0, 0, 1, 0xff, 0, 0, 0,
	7, 5, 0x82, 3, 8, 0, 1,
	9, 4, 1, 0, 2, 3, 1, 1, 0,
	9, 0x21, 0x11, 1, 0, 1, 0x22, 63, 0,
	7, 5, 0x02, 3, 8, 0, 10,
	7, 5, 0x83, 3, 16, 0, 4,
};

static const uint8_t hub[] = {
	9, 2, 25, 0, 1, 1, 0, 0xe0, 0,
	9, 4, 0, 0, 1, 9, 0, 0, 0,
	7, 5, 0x81, 3, 1, 0, 12,
};

static void test_configs(void **state)
{
	struct usb_config_info c;
	const char *why = "";

	(void)state;
	assert_true(usb_parse_config(keyboard, sizeof keyboard, &c, &why));
	assert_int_equal(c.function, USB_FN_KEYBOARD);
	assert_int_equal(c.value, 1);
	assert_int_equal(c.iface, 0);
	assert_int_equal(c.ep, 1);
	assert_int_equal(c.ep_mps, 8);
	assert_int_equal(c.ep_interval, 10);

	assert_true(usb_parse_config(composite, sizeof composite, &c, &why));
	assert_int_equal(c.function, USB_FN_KEYBOARD);
	assert_int_equal(c.value, 2);
	assert_int_equal(c.iface, 1);
	assert_int_equal(c.ep, 3);
	assert_int_equal(c.ep_mps, 16);

	assert_true(usb_parse_config(hub, sizeof hub, &c, &why));
	assert_int_equal(c.function, USB_FN_HUB);
	assert_int_equal(c.ep_mps, 1);

	// Cut to its first interface: nothing of ours, and nothing wrong.
	assert_true(usb_parse_config(composite, 25, &c, &why));
	assert_int_equal(c.function, USB_FN_OTHER);
}

// One byte of the keyboard's configuration changed, and the phrase that
// must say why it is refused.
static const struct {
	size_t at;
	uint8_t value;
	size_t len;
	const char *why;
} broken[] = {
	{ 1, 3, sizeof keyboard, "wrong type or bLength" },
	{ 2, 4, sizeof keyboard, "wTotalLength is under 9" },
	{ 27, 0, sizeof keyboard, "runs past its end" },
	{ 27, 8, sizeof keyboard, "runs past its end" },
	{ 9, 8, sizeof keyboard, "interface descriptor's bLength is under 9" },
	{ 27, 6, sizeof keyboard, "endpoint descriptor's bLength is under 7" },
	{ 29, 0x80, sizeof keyboard, "names endpoint 0" },
	{ 31, 4, sizeof keyboard, "too small for its reports" },
	{ 32, 4, sizeof keyboard, "over 512" },
	{ 33, 0, sizeof keyboard, "bInterval is 0" },
	{ 30, 2, sizeof keyboard, "no interrupt-IN endpoint" },
	{ 0, 9, 8, "shorter than 9 bytes" },
};

static void test_broken_configs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
		uint8_t b[sizeof keyboard];
		struct usb_config_info c;
		const char *why = "";

		mem_copy(b, keyboard, sizeof b);
		b[broken[i].at] = broken[i].value;
		if (usb_parse_config(b, broken[i].len, &c, &why))
			fail_msg("case %zu (byte %zu = %u): accepted", i, broken[i].at, broken[i].value);
		if (!contains(why, broken[i].why))
			fail_msg("case %zu: \"%s\", want \"%s\"", i, why, broken[i].why);
	}
}

static void test_devices(void **state)
{
	uint8_t d[18] = { 18, 1, 0x00, 0x02, 0, 0, 0, 8, 0x34, 0x12, 1, 0, 0, 1, 0, 0, 0, 1 };
	struct usb_device_desc dd;
	const char *why = "";

	(void)state;
	assert_true(usb_parse_device(d, 18, &dd, &why));
	assert_int_equal(dd.mps0, 8);
	assert_int_equal(dd.vendor, 0x1234);
	assert_true(usb_parse_device(d, 8, &dd, &why));	// the first 8 bytes alone
	assert_false(usb_parse_device(d, 7, &dd, &why));
	assert_true(contains(why, "shorter than 8"));
	d[7] = 9;
	assert_false(usb_parse_device(d, 18, &dd, &why));
	assert_true(contains(why, "bMaxPacketSize0"));
	d[3] = 3;	// USB 3: 2^9
	assert_true(usb_parse_device(d, 18, &dd, &why));
	assert_int_equal(dd.mps0, 512);
	d[17] = 0;
	assert_false(usb_parse_device(d, 18, &dd, &why));
	assert_true(contains(why, "no configuration"));
	d[17] = 1;
	d[0] = 12;
	assert_false(usb_parse_device(d, 18, &dd, &why));
	assert_true(contains(why, "bLength"));
}

static void test_hubs(void **state)
{
	const uint8_t usb2[9] = { 9, 0x29, 4, 0x40, 0, 50, 0, 0, 0xff };
	const uint8_t usb3[12] = { 12, 0x2a, 15, 0, 0, 10, 0, 0, 0, 0, 0, 0 };
	struct usb_hub_info h;
	const char *why = "";
	uint8_t b[12];

	(void)state;
	assert_true(usb_parse_hub(usb2, sizeof usb2, false, &h, &why));
	assert_int_equal(h.ports, 4);
	assert_int_equal(h.power_ms, 100);
	assert_int_equal(h.think, 2);
	assert_true(usb_parse_hub(usb3, sizeof usb3, true, &h, &why));
	assert_int_equal(h.ports, 15);
	assert_false(usb_parse_hub(usb2, sizeof usb2, true, &h, &why));
	assert_true(contains(why, "too short"));
	assert_false(usb_parse_hub(usb3, sizeof usb3, false, &h, &why));
	assert_true(contains(why, "wrong type"));
	mem_copy(b, usb3, sizeof b);
	b[2] = 16;
	assert_false(usb_parse_hub(b, sizeof b, true, &h, &why));
	assert_true(contains(why, "bNbrPorts"));
	mem_copy(b, usb2, sizeof usb2);
	b[2] = 0;
	assert_false(usb_parse_hub(b, sizeof usb2, false, &h, &why));
	assert_true(contains(why, "bNbrPorts"));
}

static const struct {
	uint8_t prev[8], cur[8];
	const char *keys;
} reports[] = {
	{ { 0 }, { 0, 0, 0x04 }, "a" },
	{ { 0, 0, 0x04 }, { 0, 0, 0x04 }, "" },			// held, not pressed again
	{ { 0, 0, 0x04 }, { 0, 0, 0x04, 0x05 }, "b" },		// a second key while a is held
	{ { 0 }, { 0x02, 0, 0x04 }, "A" },			// left shift
	{ { 0 }, { 0x20, 0, 0x38 }, "?" },			// right shift, '/'
	{ { 0 }, { 0, 0, 0x29, 0x28, 0x2c }, "\x1b\r " },	// Esc, Enter, space
	{ { 0 }, { 0, 0, 0x1e, 0x27 }, "10" },
	{ { 0 }, { 0x02, 0, 0x1e }, "!" },
	{ { 0 }, { 0, 0, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01 }, "" },	// rollover: phantom
	{ { 0 }, { 0, 0, 0x3a, 0xe0 }, "" },			// F1 and a stray code: no character
	{ { 0 }, { 0, 0, 0x16, 0x13, 0x15, 0x1c, 0x05, 0x08 }, "sprybe" },
};

static void test_reports(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++) {
		char keys[7] = { 0 };
		size_t n = usb_report_keys(reports[i].prev, reports[i].cur, keys);

		if (n != str_len(reports[i].keys) || mem_cmp(keys, reports[i].keys, n) != 0)
			fail_msg("report %zu: %zu keys \"%s\", want \"%s\"", i, n, keys,
				 reports[i].keys);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_broken_configs),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_hubs),
		cmocka_unit_test(test_reports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
