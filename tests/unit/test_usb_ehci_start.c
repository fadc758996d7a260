// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/usb/ehci_start.c against the simulated controller
// (tests/usb/sim_ehci*.c): the BIOS handoff (let go at once, after a
// while, never), HCRESET and halt that never end, registers that read all
// ones, a host system error, DMA memory above 4 GiB, and stop. Every way
// ends within a bounded number of polls, each a bounded number of register
// accesses, and a fault names itself in a warning.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contains.h"
#include "ehci_rig.h"
#include "memstr.h"
#include "usb/ehci_regs.h"

#define POLL_ACCESSES_MAX 8	// register accesses one start poll may make

static uint32_t legsup(struct ehci_rig *r)
{
	return r->sim.pci[SIM_EHCI_EECP / 4];
}

static void test_bios_lets_go(void **state)
{
	static const uint64_t release_us[] = { 0, 5000, 900000 };

	(void)state;
	for (size_t i = 0; i < sizeof release_us / sizeof release_us[0]; i++) {
		struct ehci_rig r;

		rig_init(&r, 4);
		r.sim.bios_owned = true;
		r.sim.bios_release_us = release_us[i];
		if (rig_start(&r) != USB_DONE || r.warnings)
			fail_msg("BIOS letting go after %llu us: start did not end cleanly (%u warnings: %s)",
				 (unsigned long long)release_us[i], r.warnings, r.last_warning);
		assert_true(legsup(&r) & EHCI_LEGSUP_OS_OWNED);
		assert_false(legsup(&r) & EHCI_LEGSUP_BIOS_OWNED);
		assert_int_equal(r.sim.pci[1] & 6, 6);	// memory space and bus mastering on
		assert_int_equal(r.sim.hcresets, 1);
		assert_true(r.sim.cmd & EHCI_CMD_RS);
		assert_true(r.sim.cmd & EHCI_CMD_PSE);
		assert_true(r.sim.cmd & EHCI_CMD_ASE);
		assert_int_equal(r.sim.configflag, 1);
		assert_true(r.sim.periodic_base >= RIG_DMA_PHYS);
		assert_int_equal(r.sim.periodic_base & 0xfff, 0);
		assert_true(r.most_accesses <= POLL_ACCESSES_MAX);
		assert_true(r.polls <= release_us[i] / 1000 + 10);
		assert_int_equal(rig_free(&r), 0);
	}
}

static void test_bios_never_lets_go(void **state)
{
	struct ehci_rig r;

	(void)state;
	rig_init(&r, 4);
	r.sim.bios_owned = true;
	assert_int_equal(rig_start(&r), USB_DONE);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "usb: EHCI 00:1d.0: the BIOS kept the controller for 1 s"));
	assert_true(contains(r.last_warning, "taken anyway"));
	assert_false(legsup(&r) & EHCI_LEGSUP_BIOS_OWNED);
	assert_true(legsup(&r) & EHCI_LEGSUP_OS_OWNED);
	assert_true(r.sim.cmd & EHCI_CMD_RS);
	// 1 s at a poll a millisecond, with the register accesses' own time.
	assert_true(r.polls >= 800 && r.polls <= 1010);
	assert_true(r.most_accesses <= POLL_ACCESSES_MAX);
	assert_int_equal(rig_free(&r), 0);
}

static void test_hcreset_never_clears(void **state)
{
	struct ehci_rig r;

	(void)state;
	rig_init(&r, 4);
	r.sim.hcreset_stuck = true;
	assert_int_equal(rig_start(&r), USB_FAILED);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "HCRESET did not clear within 1 s"));
	assert_true(contains(r.last_warning, "left alone"));
	assert_true(r.polls <= 1010);
	assert_true(r.most_accesses <= POLL_ACCESSES_MAX);
	assert_int_equal(rig_free(&r), 0);
}

static void test_never_halts(void **state)
{
	struct ehci_rig r;

	(void)state;
	rig_init(&r, 4);
	r.sim.cmd |= EHCI_CMD_RS;	// the firmware left it running
	r.sim.sts &= ~EHCI_STS_HALTED;
	r.sim.halt_stuck = true;
	assert_int_equal(rig_start(&r), USB_FAILED);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "did not halt within 1 s"));
	assert_int_equal(r.sim.hcresets, 0);	// never reset while running
	assert_true(r.polls <= 1010);
	assert_int_equal(rig_free(&r), 0);
}

static void test_registers_all_ones(void **state)
{
	struct ehci_rig r;

	(void)state;
	rig_init(&r, 4);
	r.sim.gone = true;	// the whole function: its configuration space too
	assert_int_equal(rig_start(&r), USB_FAILED);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "its PCI configuration space reads all ones"));
	assert_true(r.hc.dead);
	assert_int_equal(r.polls, 1);
	r.hc.ops->stop(&r.hc);	// nothing to stop, and no hang
	assert_int_equal(rig_free(&r), 0);

	rig_init(&r, 4);
	r.sim.mmio_gone = true;	// its registers only
	assert_int_equal(rig_start(&r), USB_FAILED);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "CAPLENGTH reads 0xffffffff"));
	assert_true(r.hc.dead);
	r.hc.ops->stop(&r.hc);
	assert_int_equal(rig_free(&r), 0);
}

static void test_gone_while_running(void **state)
{
	struct ehci_rig r;
	struct usb_port_status st;

	(void)state;
	rig_init(&r, 4);
	assert_int_equal(rig_start(&r), USB_DONE);
	r.sim.gone = true;
	assert_false(r.hc.ops->port_status(&r.hc, 1, &st));
	assert_true(r.hc.dead);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "port 1's PORTSC reads 0xffffffff"));
	assert_false(r.hc.ops->port_status(&r.hc, 2, &st));
	assert_int_equal(r.warnings, 1);	// said once
	assert_int_equal(rig_free(&r), 0);
}

static void test_host_system_error(void **state)
{
	struct ehci_rig r;
	struct usb_port_status st;

	(void)state;
	rig_init(&r, 4);
	assert_int_equal(rig_start(&r), USB_DONE);
	assert_true(r.hc.ops->port_status(&r.hc, 1, &st));
	r.sim.periodic_base = 0x1000;	// outside the DMA block: the next frame halts it
	sim_ehci_run(&r.sim, 2000);
	r.sim.bad_dma = 0;
	assert_false(r.hc.ops->port_status(&r.hc, 1, &st));
	assert_true(r.hc.dead);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "halted itself (USBSTS 0x"));
	assert_true(contains(r.last_warning, "a host system error): the controller is left alone"));
	assert_int_equal(rig_free(&r), 0);
}

static void test_dma_above_4g_refused(void **state)
{
	struct ehci_rig r;

	(void)state;
	rig_init(&r, 4);
	r.dma.phys = 0x100000000ull;	// where a 32-bit schedule cannot point
	assert_int_equal(rig_start(&r), USB_FAILED);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "is above 4 GiB (0x100000000), out of this driver's reach"));
	assert_false(r.sim.cmd & EHCI_CMD_RS);
	assert_int_equal(rig_free(&r), 0);
}

static void test_stop_halts_and_resets(void **state)
{
	struct ehci_rig r;
	unsigned long before;

	(void)state;
	rig_init(&r, 4);
	assert_int_equal(rig_start(&r), USB_DONE);
	before = r.sim.accesses;
	r.hc.ops->stop(&r.hc);
	assert_int_equal(r.sim.hcresets, 2);
	assert_false(r.sim.cmd & (EHCI_CMD_RS | EHCI_CMD_HCRESET));
	assert_true(r.sim.sts & EHCI_STS_HALTED);
	assert_int_equal(r.sim.configflag, 0);	// the ports back with the companions
	assert_true(r.sim.accesses - before < 100);
	assert_int_equal(r.warnings, 0);
	assert_int_equal(rig_free(&r), 0);
}

static void test_stop_bounded_when_reset_sticks(void **state)
{
	struct ehci_rig r;

	(void)state;
	rig_init(&r, 4);
	assert_int_equal(rig_start(&r), USB_DONE);
	r.sim.hcreset_stuck = true;
	r.hc.ops->stop(&r.hc);
	assert_int_equal(r.warnings, 1);
	assert_true(contains(r.last_warning, "HCRESET did not clear within 1 s when stopped"));
	// 1 s of the env's clock: each access moves it SIM_EHCI_ACCESS_US.
	assert_true(r.sim.accesses < 2 * 1000000 / SIM_EHCI_ACCESS_US);
	assert_int_equal(rig_free(&r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bios_lets_go),
		cmocka_unit_test(test_bios_never_lets_go),
		cmocka_unit_test(test_hcreset_never_clears),
		cmocka_unit_test(test_never_halts),
		cmocka_unit_test(test_registers_all_ones),
		cmocka_unit_test(test_gone_while_running),
		cmocka_unit_test(test_host_system_error),
		cmocka_unit_test(test_dma_above_4g_refused),
		cmocka_unit_test(test_stop_halts_and_resets),
		cmocka_unit_test(test_stop_bounded_when_reset_sticks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
