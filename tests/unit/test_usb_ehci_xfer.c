// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/usb/ehci_port.c, ehci_sched.c and ehci_xfer.c through
// the driver's ops, against the simulated controller and scripted probe
// devices: root-port resets (high speed enabled; full and low speed handed
// to the companion, or not, with a warning), control transfers (data in,
// none, short, stalled, unanswered), the address change (its QH reloaded
// after the doorbell), split transactions to a full-speed device behind a
// high-speed hub, interrupt reports on two devices at once, release, and
// a device unplugged and plugged in again.
// The probes check each transaction's QH fields: one that would not reach
// them on a real bus (wrong address, speed, hub or port, missing masks)
// gets no answer.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contains.h"
#include "ehci_rig.h"
#include "sim_ehci_tree.h"
#include "memstr.h"
#include "usb/ehci_regs.h"

#define PROBES 2
#define PORT_POLL_ACCESSES 3	// register accesses one port reset poll may make

struct probe {
	unsigned port;			// root port (from 1), 0: none
	enum usb_speed port_speed;	// what the root port sees (a hub's, when behind one)
	enum usb_speed speed;		// the probe's own
	uint8_t tt_hub, tt_port;	// behind a high-speed hub: its address and port
	uint8_t addr;
	bool stall, silent;
	uint8_t setup[8];
	unsigned setups, bad, sent;	// sent: bytes of this data stage so far
	uint8_t answer[64];
	unsigned answer_len;
	uint8_t report[8];
	bool report_ready;
};

static struct probe probes[PROBES];

static bool bus_attached(void *ctx, unsigned port, enum usb_speed *speed)
{
	(void)ctx;
	for (unsigned i = 0; i < PROBES; i++)
		if (probes[i].port == port) {
			*speed = probes[i].port_speed;
			return true;
		}
	return false;
}

static void bus_reset(void *ctx, unsigned port)
{
	(void)ctx;
	for (unsigned i = 0; i < PROBES; i++)
		if (probes[i].port == port)
			probes[i].addr = 0;
}

static int probe_answer(struct probe *p, const struct sim_ehci_xact *x)
{
	if (p->silent)
		return SIM_SILENT;
	if (x->pid == EHCI_TD_PID_SETUP) {
		mem_copy(p->setup, x->data, 8);
		p->setups++;
		p->sent = 0;
		return p->stall ? SIM_STALL : 8;
	}
	if (x->ep != 0) {
		if (!p->report_ready)
			return SIM_NAK;
		p->report_ready = false;
		mem_copy(x->data, p->report, 8);
		return 8;
	}
	if (x->pid == EHCI_TD_PID_IN && x->len) {	// the data stage
		unsigned left = p->answer_len - p->sent, n = left < x->len ? left : x->len;

		mem_copy(x->data, p->answer + p->sent, n);
		p->sent += n;
		return (int)n;
	}
	if (p->setup[1] == 5 && x->pid == EHCI_TD_PID_IN)	// SET_ADDRESS's status stage
		p->addr = p->setup[2];
	return 0;
}

static int bus_transact(void *ctx, const struct sim_ehci_xact *x)
{
	(void)ctx;
	for (unsigned i = 0; i < PROBES; i++) {
		struct probe *p = &probes[i];

		if (!p->port || p->addr != x->addr)
			continue;
		if (!(x->enabled_ports & (1u << (p->port - 1))) ||
		    !sim_ehci_reaches(p->speed, p->tt_hub, p->tt_port, x)) {
			p->bad++;
			return SIM_SILENT;
		}
		return probe_answer(p, x);
	}
	return SIM_SILENT;
}

static void rig_up(struct ehci_rig *r, unsigned companions)
{
	mem_set(probes, 0, sizeof probes);
	rig_init(r, 4);
	r->sim.companions = companions;
	r->sim.bus = (struct sim_ehci_bus){ .attached = bus_attached, .reset = bus_reset,
					    .transact = bus_transact };
	assert_int_equal(rig_start(r), USB_DONE);
}

static enum usb_step reset_poll(struct ehci_rig *r, void *arg)
{
	return r->hc.ops->port_reset_poll(&r->hc, *(unsigned *)arg);
}

static enum usb_step reset_port(struct ehci_rig *r, unsigned port)
{
	r->most_accesses = 0;
	r->hc.ops->port_reset(&r->hc, port);
	return rig_poll(r, reset_poll, &port, 200);
}

static void test_port_reset_high_speed(void **state)
{
	struct ehci_rig r;
	struct usb_port_status st;

	(void)state;
	rig_up(&r, 1);
	probes[0] = (struct probe){ .port = 2, .port_speed = USB_SPEED_HIGH, .speed = USB_SPEED_HIGH };
	sim_ehci_run(&r.sim, 1000);
	assert_true(r.hc.ops->port_status(&r.hc, 2, &st));
	assert_true(st.connected && st.changed && !st.enabled);
	r.hc.ops->port_clear(&r.hc, 2);
	assert_true(r.hc.ops->port_status(&r.hc, 2, &st));
	assert_false(st.changed);
	assert_int_equal(reset_port(&r, 2), USB_DONE);
	// 50 ms held, a poll a millisecond; then PR's release is seen.
	assert_true(r.polls >= 50 && r.polls <= 55);
	assert_true(r.most_accesses <= PORT_POLL_ACCESSES);
	assert_true(r.hc.ops->port_status(&r.hc, 2, &st));
	assert_true(st.enabled && st.speed == USB_SPEED_HIGH && !st.companion);
	assert_int_equal(r.warnings, 0);
	r.hc.ops->port_disable(&r.hc, 2);
	assert_true(r.hc.ops->port_status(&r.hc, 2, &st));
	assert_false(st.enabled);
	assert_int_equal(rig_free(&r), 0);
}

static void test_port_full_speed_to_companion(void **state)
{
	struct ehci_rig r;
	struct usb_port_status st;

	(void)state;
	rig_up(&r, 1);
	probes[0] = (struct probe){ .port = 1, .port_speed = USB_SPEED_FULL, .speed = USB_SPEED_FULL };
	assert_int_equal(reset_port(&r, 1), USB_FAILED);
	assert_true(contains(r.last_warning, "port 1 holds a full/low-speed device: handed to the companion"));
	assert_true(r.hc.ops->port_status(&r.hc, 1, &st));
	assert_true(st.companion && !st.connected);
	assert_int_equal(rig_free(&r), 0);

	rig_up(&r, 0);
	probes[0] = (struct probe){ .port = 1, .port_speed = USB_SPEED_FULL, .speed = USB_SPEED_FULL };
	assert_int_equal(reset_port(&r, 1), USB_FAILED);
	assert_true(contains(r.last_warning, "there is no companion controller: it is not read"));
	assert_int_equal(rig_free(&r), 0);
}

static void test_port_low_speed_not_reset(void **state)
{
	struct ehci_rig r;
	struct usb_port_status st;

	(void)state;
	rig_up(&r, 1);
	probes[0] = (struct probe){ .port = 3, .port_speed = USB_SPEED_LOW, .speed = USB_SPEED_LOW };
	assert_int_equal(reset_port(&r, 3), USB_FAILED);
	assert_int_equal(r.polls, 1);	// handed on at once, never reset (4.2.2)
	assert_int_equal(r.warnings, 1);
	assert_true(r.hc.ops->port_status(&r.hc, 3, &st));
	assert_true(st.companion);
	assert_int_equal(rig_free(&r), 0);
}

static void test_port_unplugged_during_reset(void **state)
{
	struct ehci_rig r;
	unsigned port = 2;

	(void)state;
	rig_up(&r, 1);
	probes[0] = (struct probe){ .port = 2, .port_speed = USB_SPEED_HIGH, .speed = USB_SPEED_HIGH };
	r.hc.ops->port_reset(&r.hc, port);
	assert_int_equal(rig_poll(&r, reset_poll, &port, 20), USB_PENDING);
	probes[0].port = 0;
	assert_int_equal(rig_poll(&r, reset_poll, &port, 100), USB_FAILED);
	assert_int_equal(r.warnings, 0);
	assert_int_equal(rig_free(&r), 0);
}

struct ctl {
	unsigned dev;
	struct usb_setup setup;
	struct usb_buf buf;
	size_t actual;
};

static enum usb_step control_poll(struct ehci_rig *r, void *arg)
{
	struct ctl *c = arg;

	return r->hc.ops->control_poll(&r->hc, c->dev, &c->actual);
}

static enum usb_step control(struct ehci_rig *r, struct ctl *c)
{
	r->most_accesses = 0;
	r->hc.ops->control(&r->hc, c->dev, &c->setup, c->buf);
	return rig_poll(r, control_poll, c, 100);
}

// A probe on port (high speed) or behind a high-speed hub there, set up
// as device dev at the default address.
static void plug(struct ehci_rig *r, unsigned dev, unsigned port, enum usb_speed speed,
		 struct ctl *c)
{
	struct usb_dev_where where = { .speed = speed, .root_port = (uint8_t)port };
	uint8_t address = 1;

	probes[dev] = (struct probe){ .port = port, .port_speed = USB_SPEED_HIGH, .speed = speed };
	if (speed != USB_SPEED_HIGH) {
		probes[dev].tt_hub = where.tt_hub_addr = 3;
		probes[dev].tt_port = where.tt_port = 2;
		where.parent = 0;
		where.hub_port = 2;
	}
	assert_int_equal(reset_port(r, port), USB_DONE);
	r->hc.ops->dev_setup(&r->hc, dev, &where, speed == USB_SPEED_HIGH ? 64 : 8);
	assert_int_equal(r->hc.ops->dev_setup_poll(&r->hc, dev, &address), USB_DONE);
	assert_int_equal(address, 0);
	*c = (struct ctl){ .dev = dev };
	assert_true(usb_dma_take(&r->dma, 64, 64, &c->buf));
}

// SET_ADDRESS, as the core sends it, then the driver told.
static void set_address(struct ehci_rig *r, struct ctl *c, uint8_t addr)
{
	c->setup = (struct usb_setup){ .type = 0, .request = 5, .value = addr };
	assert_int_equal(control(r, c), USB_DONE);
	assert_int_equal(c->actual, 0);
	assert_int_equal(probes[c->dev].addr, addr);
	r->hc.ops->dev_address(&r->hc, c->dev, addr);
}

static const uint8_t descriptor[18] = { 18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x27, 0x06, 0x01, 0x00 };

static void get_descriptor(struct ehci_rig *r, struct ctl *c, uint16_t length)
{
	c->setup = (struct usb_setup){ .type = 0x80, .request = 6, .value = 0x100, .length = length };
	assert_int_equal(control(r, c), USB_DONE);
}

static void test_control_in_and_address(void **state)
{
	struct ehci_rig r;
	struct ctl c;

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 2, USB_SPEED_HIGH, &c);
	mem_copy(probes[0].answer, descriptor, 18);
	probes[0].answer_len = 18;
	get_descriptor(&r, &c, 18);
	assert_int_equal(c.actual, 18);
	assert_memory_equal(c.buf.virt, descriptor, 18);
	assert_memory_equal(probes[0].setup, ((uint8_t[]){ 0x80, 6, 0, 1, 0, 0, 18, 0 }), 8);
	assert_true(r.polls <= 3);
	set_address(&r, &c, 7);
	r.hc.ops->dev_update(&r.hc, 0, 64, 0, 0, false);
	assert_int_equal(r.hc.ops->dev_update_poll(&r.hc, 0), USB_DONE);
	probes[0].answer_len = 8;	// a short answer ends the data stage early
	get_descriptor(&r, &c, 18);
	assert_int_equal(c.actual, 8);
	assert_int_equal(probes[0].bad, 0);
	assert_int_equal(r.warnings, 0);
	assert_int_equal(r.sim.bad_dma, 0);
	assert_int_equal(rig_free(&r), 0);
}

static void test_control_stall_then_recovers(void **state)
{
	struct ehci_rig r;
	struct ctl c;

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 1, USB_SPEED_HIGH, &c);
	probes[0].stall = true;
	c.setup = (struct usb_setup){ .type = 0x21, .request = 0x0b, .value = 0, .length = 0 };
	assert_int_equal(control(&r, &c), USB_STALL);
	probes[0].stall = false;
	probes[0].answer_len = 18;
	get_descriptor(&r, &c, 18);
	assert_int_equal(c.actual, 18);
	assert_int_equal(rig_free(&r), 0);
}

static void test_control_silent_device_fails(void **state)
{
	struct ehci_rig r;
	struct ctl c;

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 1, USB_SPEED_HIGH, &c);
	probes[0].silent = true;
	c.setup = (struct usb_setup){ .type = 0x80, .request = 6, .value = 0x100, .length = 18 };
	assert_int_equal(control(&r, &c), USB_FAILED);
	assert_true(r.polls <= 5);	// three errors, then the qTD halts
	assert_true(r.most_accesses <= 4);
	assert_int_equal(rig_free(&r), 0);
}

struct intr {
	unsigned dev;
	size_t actual;
};

static enum usb_step intr_poll(struct ehci_rig *r, void *arg)
{
	struct intr *i = arg;

	return r->hc.ops->intr_poll(&r->hc, i->dev, &i->actual);
}

static void open_intr(struct ehci_rig *r, struct ctl *c)
{
	r->hc.ops->intr_open(&r->hc, c->dev, 1, 8, 10, c->buf);
	assert_int_equal(r->hc.ops->intr_open_poll(&r->hc, c->dev), USB_DONE);
}

static void test_split_full_speed_behind_hub(void **state)
{
	static const uint8_t key_a[8] = { 0, 0, 4 };
	struct ehci_rig r;
	struct ctl c;
	struct intr in = { .dev = 0 };

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 4, USB_SPEED_FULL, &c);
	probes[0].answer_len = 18;
	mem_copy(probes[0].answer, descriptor, 18);
	get_descriptor(&r, &c, 18);	// 8-byte packets, through the hub's TT
	assert_int_equal(c.actual, 18);
	assert_memory_equal(c.buf.virt, descriptor, 18);
	open_intr(&r, &c);
	assert_int_equal(rig_poll(&r, intr_poll, &in, 20), USB_PENDING);	// NAKs
	mem_copy(probes[0].report, key_a, 8);
	probes[0].report_ready = true;
	assert_int_equal(rig_poll(&r, intr_poll, &in, 5), USB_DONE);
	assert_int_equal(in.actual, 8);
	assert_memory_equal(c.buf.virt, key_a, 8);
	probes[0].report[2] = 5;	// the next report waits until the last was read
	probes[0].report_ready = true;
	sim_ehci_run(&r.sim, 5000);
	assert_memory_equal(c.buf.virt, key_a, 8);
	assert_int_equal(rig_poll(&r, intr_poll, &in, 5), USB_DONE);
	assert_int_equal(((uint8_t *)c.buf.virt)[2], 5);
	assert_int_equal(probes[0].bad, 0);
	assert_int_equal(rig_free(&r), 0);
}

static void test_split_fields_checked(void **state)
{
	struct ehci_rig r;
	struct ctl c;

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 4, USB_SPEED_FULL, &c);
	probes[0].tt_port = 5;	// the device is not where the QH says
	c.setup = (struct usb_setup){ .type = 0x80, .request = 6, .value = 0x100, .length = 18 };
	assert_int_equal(control(&r, &c), USB_FAILED);
	assert_true(probes[0].bad > 0);
	assert_int_equal(rig_free(&r), 0);
}

static void test_two_devices_reports(void **state)
{
	struct ehci_rig r;
	struct ctl c0, c1;
	struct intr in0 = { .dev = 0 }, in1 = { .dev = 1 };

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 1, USB_SPEED_HIGH, &c0);
	set_address(&r, &c0, 1);
	plug(&r, 1, 3, USB_SPEED_FULL, &c1);
	set_address(&r, &c1, 2);
	open_intr(&r, &c0);
	open_intr(&r, &c1);
	for (unsigned round = 0; round < 3; round++) {
		probes[0].report[2] = (uint8_t)(4 + round);
		probes[1].report[2] = (uint8_t)(30 + round);
		probes[0].report_ready = probes[1].report_ready = true;
		assert_int_equal(rig_poll(&r, intr_poll, &in0, 5), USB_DONE);
		assert_int_equal(rig_poll(&r, intr_poll, &in1, 5), USB_DONE);
		assert_int_equal(((uint8_t *)c0.buf.virt)[2], 4 + round);
		assert_int_equal(((uint8_t *)c1.buf.virt)[2], 30 + round);
	}
	assert_int_equal(probes[0].bad + probes[1].bad, 0);
	assert_int_equal(rig_free(&r), 0);
}

static enum usb_step release_poll(struct ehci_rig *r, void *arg)
{
	return r->hc.ops->dev_release_poll(&r->hc, *(unsigned *)arg);
}

// The QH for USB address addr in the list from head (the async ring or
// the interrupt chain), 0 when none.
static uint32_t listed_qh(struct ehci_rig *r, uint32_t head, uint8_t addr)
{
	uint32_t at = head;

	for (unsigned n = 0; n < 64; n++) {
		uint32_t *qh = (uint32_t *)((uint8_t *)r->mem + (at - RIG_DMA_PHYS));

		if (at != head && (qh[QH_CHAR] & 0x7f) == addr)
			return at;
		if (qh[QH_LINK] & EHCI_LINK_T || EHCI_LINK_ADDR(qh[QH_LINK]) == head)
			return 0;
		at = EHCI_LINK_ADDR(qh[QH_LINK]);
	}
	return 0;
}

static void test_release_unlinks(void **state)
{
	struct ehci_rig r;
	struct ctl c0, c1;
	struct intr in1 = { .dev = 1 };
	unsigned dev = 0;
	uint32_t *frames, qh0, qhi;

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 1, USB_SPEED_HIGH, &c0);
	set_address(&r, &c0, 1);
	plug(&r, 1, 2, USB_SPEED_HIGH, &c1);
	set_address(&r, &c1, 2);
	get_descriptor(&r, &c0, 18);	// their QHs reloaded with the new addresses
	get_descriptor(&r, &c1, 18);
	open_intr(&r, &c0);
	open_intr(&r, &c1);
	frames = (uint32_t *)((uint8_t *)r.mem + (r.sim.periodic_base - RIG_DMA_PHYS));
	qh0 = listed_qh(&r, r.sim.async_addr, 1);
	qhi = listed_qh(&r, EHCI_LINK_ADDR(frames[0]), 1);
	assert_true(qh0 && qhi);
	r.hc.ops->dev_release(&r.hc, 0);
	assert_int_equal(rig_poll(&r, release_poll, &dev, 10), USB_DONE);
	assert_true(r.polls >= 2);	// waited for the doorbell and two frames
	probes[0].report_ready = true;
	probes[1].report_ready = true;
	sim_ehci_run(&r.sim, 5000);
	assert_true(probes[0].report_ready);	// no one asks device 0 any more
	assert_int_equal(rig_poll(&r, intr_poll, &in1, 5), USB_DONE);
	assert_int_equal(listed_qh(&r, r.sim.async_addr, 1), 0);
	assert_int_equal(listed_qh(&r, EHCI_LINK_ADDR(frames[0]), 1), 0);
	assert_true(listed_qh(&r, r.sim.async_addr, 2) && listed_qh(&r, EHCI_LINK_ADDR(frames[0]), 2));
	(void)qh0, (void)qhi;
	assert_int_equal(rig_free(&r), 0);
}

static void test_unplug_replug(void **state)
{
	struct ehci_rig r;
	struct ctl c;
	struct intr in = { .dev = 0 };
	struct usb_port_status st;
	unsigned dev = 0;

	(void)state;
	rig_up(&r, 1);
	plug(&r, 0, 2, USB_SPEED_HIGH, &c);
	set_address(&r, &c, 4);
	get_descriptor(&r, &c, 18);
	open_intr(&r, &c);
	probes[0].port = 0;	// unplugged
	sim_ehci_run(&r.sim, 1000);
	assert_true(r.hc.ops->port_status(&r.hc, 2, &st));
	assert_true(!st.connected && !st.enabled && st.changed);
	r.hc.ops->port_clear(&r.hc, 2);
	// Nothing answers: asked again for a while (the hub above might not
	// have said yet that the device left), then failed.
	assert_int_equal(rig_poll(&r, intr_poll, &in, 1000), USB_FAILED);
	assert_true(r.polls >= 200 && r.polls <= 4 * 200 + 10);
	r.hc.ops->dev_release(&r.hc, 0);
	assert_int_equal(rig_poll(&r, release_poll, &dev, 10), USB_DONE);
	plug(&r, 0, 2, USB_SPEED_HIGH, &c);	// back, at the same index and port
	assert_true(r.hc.ops->port_status(&r.hc, 2, &st));
	assert_true(st.connected && st.enabled);
	set_address(&r, &c, 5);
	probes[0].answer_len = 18;
	get_descriptor(&r, &c, 18);
	assert_int_equal(c.actual, 18);
	open_intr(&r, &c);
	probes[0].report_ready = true;
	assert_int_equal(rig_poll(&r, intr_poll, &in, 5), USB_DONE);
	assert_int_equal(r.warnings, 0);
	assert_int_equal(rig_free(&r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_reset_high_speed),
		cmocka_unit_test(test_port_full_speed_to_companion),
		cmocka_unit_test(test_port_low_speed_not_reset),
		cmocka_unit_test(test_port_unplugged_during_reset),
		cmocka_unit_test(test_control_in_and_address),
		cmocka_unit_test(test_control_stall_then_recovers),
		cmocka_unit_test(test_control_silent_device_fails),
		cmocka_unit_test(test_split_full_speed_behind_hub),
		cmocka_unit_test(test_split_fields_checked),
		cmocka_unit_test(test_two_devices_reports),
		cmocka_unit_test(test_release_unlinks),
		cmocka_unit_test(test_unplug_replug),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
