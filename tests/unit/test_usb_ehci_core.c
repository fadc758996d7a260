// SPDX-License-Identifier: GPL-2.0-or-later
// The USB stack (lib/usb/usb.h) on the EHCI driver, against the simulated
// controller and the core's simulated devices: a high-speed keyboard on a
// root port; a full-speed keyboard behind a high-speed hub (the rate-
// matching hub of Intel chipsets: split transactions); two levels of hubs;
// two keyboards at once; unplug and replug; a keyboard that never answers
// and one that stalls its descriptor. Each ends, warned where it failed,
// within a bounded number of polls, each poll a bounded number of register
// accesses; and the simulated bus saw no transaction that would not have
// reached its device.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "ehci_rig.h"
#include "sim_ehci_tree.h"
#include "memstr.h"
#include "usb/ehci_regs.h"
#include "usb/usb.h"

#define POLL_ACCESSES_MAX 8	// register accesses one usb_poll may make
#define SETTLE_POLLS 3000	// a simulated millisecond apart

static struct usb_host host;

struct world {
	struct ehci_rig r;
	struct sim_ehci_tree tree;
	struct simdev dev[6];
	unsigned long most;	// register accesses in one usb_poll
};

static struct world w;

static void world_up(void)
{
	const struct usb_controller_info ehci = { USB_HC_EHCI, RIG_BDF, RIG_MMIO };

	rig_init(&w.r, 4);
	sim_ehci_tree_attach(&w.r.sim, &w.tree);
	usb_init(&host, &w.r.env, (struct usb_mem){ w.r.mem, RIG_DMA_PHYS, RIG_DMA_BYTES });
	assert_true(usb_add(&host, &ehci));
}

static int setup(void **state)
{
	(void)state;
	mem_set(&w, 0, sizeof w);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	usb_stop(&host);
	assert_true(w.r.sim.sts & EHCI_STS_HALTED);	// halted and reset: no DMA
	assert_int_equal(w.r.sim.hcresets, 2);
	assert_int_equal(w.r.sim.configflag, 0);
	assert_int_equal(w.tree.bad_route, 0);
	if (getenv("TEST_WARNINGS_VERBOSE"))
		fprintf(stderr, "    most register accesses in one poll: %lu\n", w.most);
	assert_true(w.most <= POLL_ACCESSES_MAX);
	assert_int_equal(rig_free(&w.r), 0);
	return 0;
}

static void poll_once(void)
{
	unsigned long before = w.r.sim.accesses;

	usb_poll(&host);
	if (w.r.sim.accesses - before > w.most)
		w.most = w.r.sim.accesses - before;
	sim_ehci_run(&w.r.sim, 1000);
}

// Poll until the stack is not busy (at least 300 polls: hubs power up);
// the polls it took.
static unsigned settle(void)
{
	unsigned n;

	for (n = 1; n <= SETTLE_POLLS; n++) {
		poll_once();
		if (n >= 300 && !usb_busy(&host))
			return n;
	}
	fail_msg("still busy after %u polls", SETTLE_POLLS);
	return n;
}

static void expect_keyboards(const char *want)
{
	char got[200];

	usb_describe(&host, got, sizeof got);
	if (!str_eq(got, want))
		fail_msg("keyboards \"%s\", want \"%s\"", got, want);
}

// Press usage on kbd: the character usb_key gives within a few polls.
static int type(struct simdev *kbd, uint8_t usage)
{
	int c = -1;

	simdev_press(kbd, 0, usage);
	for (unsigned n = 0; n < 20 && c < 0; n++) {
		poll_once();
		c = usb_key(&host);
	}
	simdev_release(kbd);
	for (unsigned n = 0; n < 5; n++)
		poll_once();
	return c;
}

static void test_high_speed_keyboard_on_root_port(void **state)
{
	(void)state;
	simdev_keyboard(&w.dev[0], USB_SPEED_HIGH);
	w.tree.root[1] = &w.dev[0];
	world_up();
	settle();
	expect_keyboards("USB keyboard at EHCI 00:1d.0 port 2");
	assert_int_equal(w.dev[0].protocol, 0);	// SET_PROTOCOL boot
	assert_true(w.dev[0].idle_set);
	assert_int_equal(type(&w.dev[0], 4), 'a');
	assert_int_equal(type(&w.dev[0], 0x29), 27);	// Esc
	assert_int_equal(w.r.warnings, 0);
}

static void test_full_speed_keyboard_behind_rate_matching_hub(void **state)
{
	(void)state;
	simdev_hub(&w.dev[0], USB_SPEED_HIGH, 4);
	simdev_keyboard(&w.dev[1], USB_SPEED_FULL);
	simdev_plug(&w.dev[0], 3, &w.dev[1]);
	w.tree.root[0] = &w.dev[0];
	world_up();
	settle();
	expect_keyboards("USB keyboard at EHCI 00:1d.0 port 1 (hub port 3)");
	assert_int_equal(type(&w.dev[1], 0x16), 's');
	assert_int_equal(w.r.warnings, 0);
}

// A full-speed keyboard on a root port goes to the companion controller:
// one warning, the driver's, and the port is not read.
static void test_full_speed_keyboard_handed_over(void **state)
{
	(void)state;
	simdev_keyboard(&w.dev[0], USB_SPEED_FULL);
	w.tree.root[2] = &w.dev[0];
	rig_init(&w.r, 4);
	w.r.sim.companions = 2;
	sim_ehci_tree_attach(&w.r.sim, &w.tree);
	usb_init(&host, &w.r.env, (struct usb_mem){ w.r.mem, RIG_DMA_PHYS, RIG_DMA_BYTES });
	assert_true(usb_add(&host, &(struct usb_controller_info){ USB_HC_EHCI, RIG_BDF, RIG_MMIO }));
	settle();
	expect_keyboards("");
	assert_int_equal(w.r.warnings, 1);
	assert_true(str_starts_with(w.r.last_warning, "usb: EHCI 00:1d.0: port 3 holds a full/low-speed "
				    "device: handed to the companion controller"));
}

static void test_two_levels_of_hubs(void **state)
{
	(void)state;
	simdev_hub(&w.dev[0], USB_SPEED_HIGH, 4);
	simdev_hub(&w.dev[1], USB_SPEED_FULL, 4);	// its TT is the high-speed hub's
	simdev_keyboard(&w.dev[2], USB_SPEED_LOW);
	simdev_plug(&w.dev[0], 2, &w.dev[1]);
	simdev_plug(&w.dev[1], 4, &w.dev[2]);
	w.tree.root[3] = &w.dev[0];
	world_up();
	settle();
	expect_keyboards("USB keyboard at EHCI 00:1d.0 port 4 (hub port 2, hub port 4)");
	assert_int_equal(type(&w.dev[2], 0x13), 'p');
	assert_int_equal(w.r.warnings, 0);
}

static void test_two_keyboards(void **state)
{
	(void)state;
	simdev_keyboard(&w.dev[0], USB_SPEED_HIGH);
	simdev_hub(&w.dev[1], USB_SPEED_HIGH, 4);
	simdev_keyboard(&w.dev[2], USB_SPEED_FULL);
	simdev_plug(&w.dev[1], 1, &w.dev[2]);
	w.tree.root[0] = &w.dev[0];
	w.tree.root[2] = &w.dev[1];
	world_up();
	settle();
	expect_keyboards("USB keyboard at EHCI 00:1d.0 port 1, "
			 "USB keyboard at EHCI 00:1d.0 port 3 (hub port 1)");
	assert_int_equal(type(&w.dev[0], 0x15), 'r');
	assert_int_equal(type(&w.dev[2], 0x1c), 'y');
	assert_int_equal(w.r.warnings, 0);
}

static void test_unplug_and_replug(void **state)
{
	unsigned gen;

	(void)state;
	simdev_hub(&w.dev[0], USB_SPEED_HIGH, 4);
	simdev_keyboard(&w.dev[1], USB_SPEED_FULL);
	simdev_keyboard(&w.dev[2], USB_SPEED_HIGH);
	simdev_plug(&w.dev[0], 2, &w.dev[1]);
	w.tree.root[0] = &w.dev[0];
	w.tree.root[1] = &w.dev[2];
	world_up();
	settle();
	gen = usb_generation(&host);
	simdev_plug(&w.dev[0], 2, NULL);	// out of the hub
	w.tree.root[1] = NULL;			// out of the root port
	w.dev[2].attached = false;
	settle();
	expect_keyboards("");
	assert_true(usb_generation(&host) != gen);
	simdev_plug(&w.dev[0], 4, &w.dev[1]);	// back, elsewhere
	w.tree.root[1] = &w.dev[2];
	w.dev[2].attached = true;
	settle();
	expect_keyboards("USB keyboard at EHCI 00:1d.0 port 2, "	// in the order enumerated
			 "USB keyboard at EHCI 00:1d.0 port 1 (hub port 4)");
	assert_int_equal(type(&w.dev[1], 0x14), 'q');
	assert_int_equal(type(&w.dev[2], 0x38), '/');
	assert_int_equal(w.r.warnings, 0);
}

static void test_silent_keyboard_warned(void **state)
{
	(void)state;
	simdev_keyboard(&w.dev[0], USB_SPEED_HIGH);
	w.dev[0].silent = true;
	simdev_keyboard(&w.dev[1], USB_SPEED_HIGH);
	w.tree.root[0] = &w.dev[0];
	w.tree.root[2] = &w.dev[1];
	world_up();
	settle();
	expect_keyboards("USB keyboard at EHCI 00:1d.0 port 3");	// the other still works
	assert_int_equal(w.r.warnings, 1);
	assert_true(str_starts_with(w.r.last_warning,
				    "usb: EHCI 00:1d.0 port 1: GET_DESCRIPTOR(device, 8) failed"));
	assert_int_equal(type(&w.dev[1], 4), 'a');
}

static void test_stalled_descriptor_warned(void **state)
{
	(void)state;
	simdev_hub(&w.dev[0], USB_SPEED_HIGH, 4);
	simdev_keyboard(&w.dev[1], USB_SPEED_FULL);
	w.dev[1].stall_desc = true;
	simdev_plug(&w.dev[0], 1, &w.dev[1]);
	w.tree.root[0] = &w.dev[0];
	world_up();
	settle();
	expect_keyboards("");
	assert_int_equal(w.r.warnings, 1);
	assert_true(str_starts_with(w.r.last_warning, "usb: EHCI 00:1d.0 port 1 (hub port 1): GET_DESCRIPTOR"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_high_speed_keyboard_on_root_port, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_speed_keyboard_behind_rate_matching_hub, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_two_levels_of_hubs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_keyboards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unplug_and_replug, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_speed_keyboard_handed_over, setup, teardown),
		cmocka_unit_test_setup_teardown(test_silent_keyboard_warned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stalled_descriptor_warned, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
