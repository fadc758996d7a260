// SPDX-License-Identifier: GPL-2.0-or-later
// The USB stack over the simulated xHCI controller (tests/usb/): keyboards
// at a root port, behind one and two hubs, two at once, unplugged and
// replugged; and every fault (a device that is silent, stalls or sends a
// bad descriptor; a controller that never finishes its reset, a BIOS that
// never lets go, registers reading all ones) ending in a warning that
// names the item, within a bounded number of polls, each poll making at
// most POLL_ACCESSES register accesses.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contains.h"
#include "simxhci.h"
#include "memstr.h"
#include "usb/usb.h"

#define POLL_ACCESSES 12	// register accesses one usb_poll may make (7 seen)
#define POLL_US 1000		// simulated time between polls
#define SETTLE_POLLS 3000	// enough for a few enumerations and the 1 s timeouts
#define BDF_00_04_0 (4u << 3)

#define USAGE_A 0x04
#define USAGE_Q 0x14
#define USAGE_ESC 0x29
#define USAGE_SLASH 0x38
#define MOD_LSHIFT 0x02

static struct simx sim;
static struct usb_host host;
static struct simdev kbd, kbd2, hub, hub2;

static void machine(unsigned usb3, unsigned usb2)
{
	simx_init(&sim, usb3, usb2);
	usb_init(&host, &sim.env, simx_mem(&sim));
}

static bool add(void)
{
	struct usb_controller_info c = { USB_HC_XHCI, BDF_00_04_0, SIMX_BAR };

	return usb_add(&host, &c);
}

static void poll_once(void)
{
	unsigned long before = sim.accesses;

	sim.now += POLL_US;
	simx_tick(&sim);
	usb_poll(&host);
	if (sim.accesses - before > POLL_ACCESSES)
		fail_msg("one usb_poll made %lu register accesses, more than %u",
			 sim.accesses - before, POLL_ACCESSES);
}

// Polls until the stack is no longer busy: how many polls it took.
static unsigned settle(void)
{
	for (unsigned n = 0; n < SETTLE_POLLS; n++) {
		poll_once();
		if (!usb_busy(&host))
			return n;
	}
	fail_msg("still busy after %u polls", SETTLE_POLLS);
	return SETTLE_POLLS;
}

static void polls(unsigned n)
{
	while (n--)
		poll_once();
}

static void expect_describe(const char *want)
{
	char text[256];

	usb_describe(&host, text, sizeof text);
	if (!str_eq(text, want))
		fail_msg("usb_describe: \"%s\", want \"%s\"", text, want);
}

static void expect_clean(void)
{
	if (sim.faults)
		fail_msg("%u simulator faults, the first: %s", sim.faults, sim.fault);
	if (sim.warnings)
		fail_msg("%u warnings, the first: %s", sim.warnings, sim.warning[0]);
}

// Press and release a key on k; the character usb_key gives.
static int type(struct simdev *k, uint8_t modifiers, uint8_t usage)
{
	int c;

	simdev_press(k, modifiers, usage);
	polls(3);
	simdev_release(k);
	polls(3);
	c = usb_key(&host);
	if (usb_key(&host) != -1)
		fail_msg("one key press gave more than one key");
	return c;
}

static void expect_keys(struct simdev *k)
{
	assert_int_equal(type(k, 0, USAGE_A), 'a');
	assert_int_equal(type(k, MOD_LSHIFT, USAGE_A), 'A');
	assert_int_equal(type(k, MOD_LSHIFT, USAGE_SLASH), '?');
	assert_int_equal(type(k, 0, USAGE_ESC), 27);
	assert_int_equal(type(k, 0, USAGE_Q), 'q');
}

static void test_root_keyboard(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
	assert_int_equal(kbd.protocol, 0);	// SET_PROTOCOL(boot)
	assert_true(kbd.idle_set);
	assert_int_equal(kbd.config, 1);
	expect_keys(&kbd);
	assert_int_equal(usb_key(&host), -1);
	expect_clean();
}

static void test_root_keyboard_64byte_contexts(void **state)
{
	(void)state;
	machine(2, 2);
	sim.csz64 = true;
	sim.scratchpads = 3;
	simdev_keyboard(&kbd, USB_SPEED_HIGH);
	simx_plug(&sim, 3, &kbd);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 3");
	expect_keys(&kbd);
	expect_clean();
}

static void test_behind_one_hub(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_hub(&hub, USB_SPEED_FULL, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	kbd.dev_desc[7] = 64;	// EP0 of 64 bytes: Evaluate Context tells the controller
	simdev_plug(&hub, 3, &kbd);
	simx_plug(&sim, 5, &hub);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5 (hub port 3)");
	assert_int_equal(sim.slots[simx_slot_of(&sim, &kbd)].mps[1], 64);
	// The hub's slot says it is one, with its ports (Configure Endpoint).
	assert_int_equal(sim.slots[simx_slot_of(&sim, &hub)].slot_ctx[0] >> 26 & 1, 1);
	assert_int_equal(sim.slots[simx_slot_of(&sim, &hub)].slot_ctx[1] >> 24, 4);
	expect_keys(&kbd);
	expect_clean();
}

static void test_behind_two_hubs(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_hub(&hub, USB_SPEED_HIGH, 4);
	simdev_hub(&hub2, USB_SPEED_FULL, 4);
	simdev_keyboard(&kbd, USB_SPEED_LOW);
	simdev_plug(&hub2, 3, &kbd);
	simdev_plug(&hub, 1, &hub2);
	simx_plug(&sim, 6, &hub);
	assert_true(add());
	settle();
	// The simulator faults on wrong TT fields (the high-speed hub, its port 1).
	expect_describe("USB keyboard at xHCI 00:04.0 port 6 (hub port 1, hub port 3)");
	expect_keys(&kbd);
	expect_clean();
}

// More devices than the stack holds: two 8-port hubs full of keyboards
// are 18 devices; 16 are used, the other two named in a warning each.
static void test_too_many_devices(void **state)
{
	static struct simdev kbds[16];
	char text[1024];
	unsigned named = 0;

	(void)state;
	machine(4, 4);
	simdev_hub(&hub, USB_SPEED_FULL, 8);
	simdev_hub(&hub2, USB_SPEED_FULL, 8);
	for (unsigned i = 0; i < 16; i++) {
		simdev_keyboard(&kbds[i], USB_SPEED_FULL);
		simdev_plug(i < 8 ? &hub : &hub2, i % 8 + 1, &kbds[i]);
	}
	simx_plug(&sim, 5, &hub);
	simx_plug(&sim, 6, &hub2);
	assert_true(add());
	settle();
	usb_describe(&host, text, sizeof text);
	for (const char *at = text; *at; at++)
		named += str_starts_with(at, "USB keyboard at ");
	assert_int_equal(named, 14);
	assert_int_equal(sim.warnings, 2);
	assert_true(contains(sim.warning[0], "usb: xHCI 00:04.0 port 6 (hub port "));
	assert_true(contains(sim.warning[0], "): more than 16 USB devices: this one is left alone"));
	for (unsigned i = 0; i < 16; i++)
		if (kbds[i].protocol == 0)
			assert_int_equal(type(&kbds[i], 0, USAGE_A), 'a');
	assert_int_equal(sim.faults, 0);
}

// A USB 3 hub is two hubs: a SuperSpeed one on a USB 3 root port (here
// with a SuperSpeed disk on its port 1: enumerated, not used) and a USB 2
// one on a USB 2 root port, where the keyboard is.
static void test_usb3_hub(void **state)
{
	struct simdev disk;

	(void)state;
	machine(4, 4);
	simdev_hub(&hub, USB_SPEED_SUPER, 4);
	simdev_hub(&hub2, USB_SPEED_HIGH, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simdev_keyboard(&disk, USB_SPEED_SUPER);
	disk.dev_desc[3] = 3;
	disk.dev_desc[7] = 9;		// 2^9 bytes
	disk.conf[14] = 8;		// mass storage, not a keyboard
	simdev_plug(&hub, 1, &disk);
	simdev_plug(&hub2, 2, &kbd);
	simx_plug(&sim, 2, &hub);
	simx_plug(&sim, 6, &hub2);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 6 (hub port 2)");
	assert_true(hub.depth_set);
	assert_int_equal(hub.hub_depth, 0);
	assert_int_equal(hub.config, 1);
	assert_int_not_equal(simx_slot_of(&sim, &disk), 0);
	assert_int_equal(sim.slots[simx_slot_of(&sim, &disk)].mps[1], 512);
	assert_int_equal(disk.config, 0);	// left unconfigured
	expect_keys(&kbd);
	expect_clean();
}

static void test_two_keyboards(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simdev_keyboard(&kbd2, USB_SPEED_FULL);
	simdev_hub(&hub, USB_SPEED_FULL, 4);
	simdev_plug(&hub, 2, &kbd2);
	simx_plug(&sim, 5, &kbd);
	simx_plug(&sim, 7, &hub);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5, "
			"USB keyboard at xHCI 00:04.0 port 7 (hub port 2)");
	expect_keys(&kbd);
	expect_keys(&kbd2);
	expect_clean();
}

static void test_unplug_replug(void **state)
{
	unsigned gen;

	(void)state;
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	gen = usb_generation(&host);
	simx_plug(&sim, 5, NULL);
	settle();
	polls(10);
	expect_describe("");
	assert_int_not_equal(usb_generation(&host), gen);
	gen = usb_generation(&host);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 6, &kbd);
	polls(20);
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 6");
	assert_int_not_equal(usb_generation(&host), gen);
	expect_keys(&kbd);
	expect_clean();
}

// Unplugged and plugged in again between two polls: the port still shows
// a connection but the controller disabled it, and the keyboard (at
// address 0 again) is enumerated anew.
static void test_quick_replug(void **state)
{
	unsigned gen, slot;

	(void)state;
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	gen = usb_generation(&host);
	slot = simx_slot_of(&sim, &kbd);
	simx_plug(&sim, 5, NULL);
	simx_plug(&sim, 5, &kbd);
	polls(20);
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
	assert_int_not_equal(usb_generation(&host), gen);
	assert_int_not_equal(kbd.address, 0);
	assert_int_not_equal(simx_slot_of(&sim, &kbd), 0);
	if (sim.slots[slot].enabled && sim.slots[slot].dev == &kbd && slot != kbd.address)
		fail_msg("the old slot %u still holds the keyboard", slot);
	expect_keys(&kbd);
	expect_clean();
}

// A port that comes and goes 100 times with no device being set up: its
// Port Status Change events do not fill the event ring (64 TRBs), and a
// keyboard then plugged in is used.
static void test_port_events_drained(void **state)
{
	(void)state;
	machine(4, 4);
	assert_true(add());
	settle();
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	for (int i = 0; i < 100; i++) {
		simx_plug(&sim, 7, i % 2 ? NULL : &kbd);
		polls(2);
	}
	simx_plug(&sim, 5, &kbd);
	polls(20);
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
	expect_keys(&kbd);
	expect_clean();
}

static void test_hub_unplug_removes_children(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_hub(&hub, USB_SPEED_FULL, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simdev_plug(&hub, 4, &kbd);
	simx_plug(&sim, 8, &hub);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 8 (hub port 4)");
	simdev_plug(&hub, 4, NULL);	// the keyboard off the hub
	polls(20);
	settle();
	expect_describe("");
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simdev_plug(&hub, 1, &kbd);
	polls(20);
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 8 (hub port 1)");
	simx_plug(&sim, 8, NULL);	// the hub and all on it
	polls(20);
	settle();
	expect_describe("");
	for (unsigned i = 1; i <= SIMX_SLOTS; i++)
		if (sim.slots[i].enabled)
			fail_msg("slot %u still enabled after its devices left", i);
	expect_clean();
}

// A keyboard with a fault at root port 5: the warning it ends in.
static void expect_device_fault(void (*spoil)(struct simdev *), const char *want)
{
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	spoil(&kbd);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	expect_describe("");
	if (sim.warnings != 1 || !contains(sim.warning[0], "usb: xHCI 00:04.0 port 5: ") ||
	    !contains(sim.warning[0], want))
		fail_msg("%u warnings, the first \"%s\"; want one naming port 5 with \"%s\"",
			 sim.warnings, sim.warnings ? sim.warning[0] : "", want);
	if (sim.portsc[4] & 2)
		fail_msg("the failed device's port is still enabled");
	polls(2000);	// not retried while it stays plugged in
	assert_int_equal(sim.warnings, 1);
	if (sim.faults)
		fail_msg("simulator fault: %s", sim.fault);
}

static void silent(struct simdev *d) { d->silent = true; }
static void stalls(struct simdev *d) { d->stall_desc = true; }
static void short_descriptor(struct simdev *d) { d->desc_cut = 12; }
static void endpoint_past_end(struct simdev *d) { d->conf[27] = 40; }
static void no_endpoint(struct simdev *d) { d->conf[28] = 6; d->conf[29] = 6; }

static void test_device_faults(void **state)
{
	(void)state;
	expect_device_fault(silent, "GET_DESCRIPTOR(device, 8) got no answer within 1 s");
	expect_device_fault(stalls, "was refused (STALL)");
	expect_device_fault(short_descriptor, "bad descriptor (device descriptor shorter than 18");
	expect_device_fault(endpoint_past_end, "bad descriptor (a descriptor in the configuration "
			    "runs past its end)");
	expect_device_fault(no_endpoint, "keyboard interface has no interrupt-IN endpoint");
}

// SET_PROTOCOL and SET_IDLE may be refused: the keyboard is used anyway,
// and after the STALL EP0 is recovered (Reset Endpoint, Set TR Dequeue
// Pointer) for the next request.
static void test_class_stalls_tolerated(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	kbd.stall_protocol = true;
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
	assert_true(kbd.idle_set);	// the request after the STALL got through
	expect_keys(&kbd);
	expect_clean();

	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	kbd.stall_idle = true;
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
	expect_keys(&kbd);
	expect_clean();
}

// A hub whose port reset never ends: that port is named and disabled,
// and the keyboard on its other port is used.
static void test_hub_reset_stuck(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_hub(&hub, USB_SPEED_FULL, 4);
	hub.reset_stuck = true;
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simdev_plug(&hub, 2, &kbd);
	simx_plug(&sim, 5, &hub);
	assert_true(add());
	settle();
	expect_describe("");
	assert_int_equal(sim.warnings, 1);
	assert_true(contains(sim.warning[0], "usb: xHCI 00:04.0 port 5: its port 2 did not finish "
				"its reset within 1 s: port disabled"));
	hub.reset_stuck = false;
	simdev_keyboard(&kbd2, USB_SPEED_FULL);
	simdev_plug(&hub, 3, &kbd2);
	polls(20);
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5 (hub port 3)");
	polls(2000);	// the stuck port is not tried again while it stays connected
	assert_int_equal(sim.warnings, 1);
	expect_keys(&kbd2);
}

// The DMA block too small for a controller's rings, or for a device.
static void test_no_memory(void **state)
{
	struct usb_mem mem;

	(void)state;
	machine(4, 4);
	mem = simx_mem(&sim);
	mem.bytes = 2048;
	usb_init(&host, &sim.env, mem);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_false(add());
	assert_true(simx_warned(&sim, "usb: xHCI 00:04.0: no DMA memory left for its rings: left alone"));

	machine(4, 4);
	mem = simx_mem(&sim);
	mem.bytes = 4096;
	usb_init(&host, &sim.env, mem);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	expect_describe("");
	assert_true(simx_warned(&sim, "no DMA memory left for a device's contexts and rings"));
	assert_int_equal(sim.faults, 0);
}

static void test_describe_cut(void **state)
{
	char text[24];
	size_t n;

	(void)state;
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	n = usb_describe(&host, text, sizeof text);
	assert_int_equal(n, sizeof text - 1);
	assert_string_equal(text, "USB keyboard at xHCI 00");
	assert_int_equal(usb_describe(&host, text, 1), 0);
	assert_string_equal(text, "");
}

static void expect_start_fault(const char *want, bool taken)
{
	bool added;

	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	added = add();
	if (added != taken)
		fail_msg("usb_add said %d, want %d", added, taken);
	if (sim.warnings != 1 || !contains(sim.warning[0], "usb: xHCI 00:04.0: ") ||
	    !contains(sim.warning[0], want))
		fail_msg("%u warnings, the first \"%s\"; want one with \"%s\"", sim.warnings,
			 sim.warnings ? sim.warning[0] : "", want);
	if (sim.now > 3000000)
		fail_msg("usb_add took %llu us of simulated time", (unsigned long long)sim.now);
}

// The controller's halt and reset each wait 1 s at most.
static void test_reset_never_ends(void **state)
{
	(void)state;
	machine(4, 4);
	sim.reset_polls = -1;
	expect_start_fault("did not finish its reset within 1 s (USBCMD.HCRST stayed set)", false);
	machine(4, 4);
	sim.cnr_polls = -1;
	expect_start_fault("did not finish its reset within 1 s (USBSTS.CNR stayed set)", false);
	machine(4, 4);
	sim.halt_stuck = true;
	expect_start_fault("did not halt within 1 s (USBSTS.HCH stayed 0): left alone", false);
	usb_poll(&host);
	expect_describe("");
}

static void test_bios_handoff(void **state)
{
	(void)state;
	machine(4, 4);
	sim.legacy = true;
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	assert_int_equal(sim.legsup, 1u << 24);		// the OS owns it, the BIOS let go
	assert_int_equal(sim.legctl & 0xe011u, 0);	// its SMIs off
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
	expect_clean();

	machine(4, 4);
	sim.legacy = true;
	sim.bios_polls = -1;
	expect_start_fault("the BIOS kept it for 1 s after being asked (USBLEGSUP): taken anyway",
			   true);
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
}

static void test_registers_all_ones(void **state)
{
	unsigned gen;

	(void)state;
	machine(4, 4);
	sim.gone = true;
	expect_start_fault("its registers read all ones (the controller is gone): left alone",
			   false);
	machine(4, 4);
	sim.gone = sim.pci_gone = true;
	expect_start_fault("its PCI configuration space reads all ones: left alone", false);

	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	gen = usb_generation(&host);
	sim.gone = true;	// removed while in use
	polls(20);
	assert_false(usb_busy(&host));
	expect_describe("");
	assert_int_not_equal(usb_generation(&host), gen);
	assert_int_equal(sim.warnings, 1);
	assert_true(contains(sim.warning[0], "reads all ones (the controller is gone)"));
	usb_stop(&host);
}

// Left by the firmware in D3hot with memory decoding and bus mastering
// off: woken to D0, 10 ms let pass, both turned on, and it works.
static void test_asleep(void **state)
{
	(void)state;
	machine(4, 4);
	sim.power_state = 3;
	sim.pci_command = 0;
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	assert_int_equal(sim.power_state, 0);
	assert_int_equal(sim.pci_command & 6, 6);
	settle();
	expect_describe("USB keyboard at xHCI 00:04.0 port 5");
	expect_keys(&kbd);
	expect_clean();
}

static void test_stop_halts(void **state)
{
	(void)state;
	machine(4, 4);
	simdev_keyboard(&kbd, USB_SPEED_FULL);
	simx_plug(&sim, 5, &kbd);
	assert_true(add());
	settle();
	usb_stop(&host);
	assert_int_equal(sim.usbcmd & 1, 0);	// halted
	assert_int_equal(sim.dcbaap, 0);	// and reset: no DMA
	expect_clean();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_keyboard),
		cmocka_unit_test(test_root_keyboard_64byte_contexts),
		cmocka_unit_test(test_behind_one_hub),
		cmocka_unit_test(test_behind_two_hubs),
		cmocka_unit_test(test_too_many_devices),
		cmocka_unit_test(test_usb3_hub),
		cmocka_unit_test(test_two_keyboards),
		cmocka_unit_test(test_unplug_replug),
		cmocka_unit_test(test_quick_replug),
		cmocka_unit_test(test_port_events_drained),
		cmocka_unit_test(test_hub_unplug_removes_children),
		cmocka_unit_test(test_device_faults),
		cmocka_unit_test(test_class_stalls_tolerated),
		cmocka_unit_test(test_hub_reset_stuck),
		cmocka_unit_test(test_no_memory),
		cmocka_unit_test(test_describe_cut),
		cmocka_unit_test(test_reset_never_ends),
		cmocka_unit_test(test_bios_handoff),
		cmocka_unit_test(test_registers_all_ones),
		cmocka_unit_test(test_asleep),
		cmocka_unit_test(test_stop_halts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
