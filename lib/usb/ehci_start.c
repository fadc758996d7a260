// SPDX-License-Identifier: GPL-2.0-or-later
// Taking an EHCI controller from the firmware and running it, one bounded
// step a poll: its PCI function on and awake (lib/usb/pci.h), the BIOS
// handoff through the legacy support capability in PCI configuration space
// (2.1.7; the BIOS gets USB_HC_WAIT_US to let go, then it is taken
// anyway), halt, HCRESET (each bounded likewise), then the schedules and
// Run. Also the async doorbell, and stop.
#include "usb/ehci.h"
#include "usb/pci.h"

enum ehci_start_state {
	ST_WAKE, ST_HANDOFF, ST_HALT, ST_RESET, ST_RUN, ST_DONE, ST_FAILED,
};

// A register read all ones: the controller is gone (unplugged, or its BAR
// no longer decodes). Warned once; the core then leaves it alone.
static bool gone(struct usb_hc *hc, uint32_t value, const char *reg)
{
	if (value != 0xffffffffu)
		return false;
	if (!hc->dead)
		usb_hc_warn(hc, "%s reads 0xffffffff: the controller no longer answers and is left alone",
			    reg);
	hc->dead = true;
	return true;
}

// The legacy support capability's offset in configuration space, 0 if none.
static uint16_t find_legsup(struct usb_hc *hc, uint32_t hccparams)
{
	unsigned at = EHCI_HCC_EECP(hccparams);

	// Capabilities live past the standard header (>= 0x40); a list is
	// short, a loop in a broken one is cut at 48 entries.
	for (unsigned n = 0; n < 48 && at >= 0x40 && (at & 3) == 0; n++) {
		uint32_t cap = hc->env->pci_read32(hc->env->ctx, hc->bdf, (uint16_t)at);

		if ((cap & 0xff) == EHCI_LEGSUP_ID)
			return (uint16_t)at;
		at = (cap >> 8) & 0xff;
	}
	return 0;
}

static enum usb_step fail(struct usb_hc *hc)
{
	ehci_of(hc)->start_state = ST_FAILED;
	return USB_FAILED;
}

static void enter(struct usb_hc *hc, enum ehci_start_state state)
{
	ehci_of(hc)->start_state = (uint8_t)state;
	ehci_of(hc)->deadline = usb_hc_now(hc) + USB_HC_WAIT_US;
}

// Wait for an operational register's bits under mask to read want:
// USB_DONE when they do, USB_PENDING for up to 1 s in the state, then
// USB_FAILED with "late (NAME 0x...): the controller is left alone".
static enum usb_step wait_reg(struct usb_hc *hc, uint32_t reg, const char *name, uint32_t mask,
			      uint32_t want, const char *late)
{
	uint32_t v = ehci_op_read(hc, reg);

	if (gone(hc, v, name))
		return fail(hc);
	if ((v & mask) == want)
		return USB_DONE;
	if (usb_hc_now(hc) < ehci_of(hc)->deadline)
		return USB_PENDING;
	usb_hc_warn(hc, "%s (%s 0x%08x): the controller is left alone", late, name, v);
	return fail(hc);
}

void ehci_start(struct usb_hc *hc)
{
	struct ehci *e = ehci_of(hc);
	enum usb_pci p = usb_pci_enable(hc);

	e->start_state = ST_WAKE;
	e->deadline = usb_hc_now(hc) + (p == USB_PCI_WOKEN ? USB_PCI_D0_US : 0);
	if (p == USB_PCI_GONE) {
		e->start_state = ST_FAILED;
		hc->dead = true;
	}
}

// Once the function is awake: its capability registers, and the handoff
// asked for.
static enum usb_step step_wake(struct usb_hc *hc)
{
	struct ehci *e = ehci_of(hc);
	uint32_t cap, hcs, hcc;

	if (usb_hc_now(hc) < e->deadline)
		return USB_PENDING;
	cap = usb_hc_read(hc, EHCI_CAPLENGTH);
	hcs = usb_hc_read(hc, EHCI_HCSPARAMS);
	hcc = usb_hc_read(hc, EHCI_HCCPARAMS);
	if (gone(hc, cap, "CAPLENGTH") || gone(hc, hcs, "HCSPARAMS") || gone(hc, hcc, "HCCPARAMS"))
		return fail(hc);
	e->op = cap & 0xff;
	e->ports = EHCI_HCS_N_PORTS(hcs);
	e->companions = (hcs >> 12) & 0xf;
	if (e->op < 0x10 || e->ports == 0) {
		usb_hc_warn(hc, "CAPLENGTH 0x%x, HCSPARAMS 0x%x make no sense: the controller is left alone",
			    cap, hcs);
		return fail(hc);
	}
	e->legsup = find_legsup(hc, hcc);
	if (e->legsup) {
		uint32_t leg = hc->env->pci_read32(hc->env->ctx, hc->bdf, e->legsup);

		hc->env->pci_write32(hc->env->ctx, hc->bdf, e->legsup, leg | EHCI_LEGSUP_OS_OWNED);
	}
	enter(hc, ST_HANDOFF);
	return USB_PENDING;
}

// Stop the firmware's SMIs (USBLEGCTLSTS: enables low, write-1-to-clear
// status high).
static void quiet_smis(struct usb_hc *hc)
{
	hc->env->pci_write32(hc->env->ctx, hc->bdf, ehci_of(hc)->legsup + EHCI_LEGCTLSTS,
			     0xffff0000u);
}

static enum usb_step step_handoff(struct usb_hc *hc)
{
	struct ehci *e = ehci_of(hc);
	uint32_t leg;

	if (e->legsup) {
		leg = hc->env->pci_read32(hc->env->ctx, hc->bdf, e->legsup);
		if (gone(hc, leg, "USBLEGSUP"))
			return fail(hc);
		if (leg & EHCI_LEGSUP_BIOS_OWNED) {
			if (usb_hc_now(hc) < e->deadline)
				return USB_PENDING;
			usb_hc_warn(hc, "the BIOS kept the controller for 1 s after the handoff request (USBLEGSUP 0x%08x): taken anyway",
				    leg);
			hc->env->pci_write32(hc->env->ctx, hc->bdf, e->legsup,
					     (leg & ~EHCI_LEGSUP_BIOS_OWNED) | EHCI_LEGSUP_OS_OWNED);
		}
		quiet_smis(hc);
	}
	ehci_op_write(hc, EHCI_USBINTR, 0);
	ehci_op_write(hc, EHCI_USBCMD, ehci_op_read(hc, EHCI_USBCMD) & ~EHCI_CMD_RS);
	enter(hc, ST_HALT);
	return USB_PENDING;
}

static enum usb_step step_halt(struct usb_hc *hc)
{
	enum usb_step r = wait_reg(hc, EHCI_USBSTS, "USBSTS", EHCI_STS_HALTED, EHCI_STS_HALTED,
				   "did not halt within 1 s of clearing Run");

	if (r != USB_DONE)
		return r;
	ehci_op_write(hc, EHCI_USBCMD, EHCI_CMD_HCRESET);
	enter(hc, ST_RESET);
	return USB_PENDING;
}

static void start_schedules(struct usb_hc *hc)
{
	struct ehci *e = ehci_of(hc);

	ehci_op_write(hc, EHCI_CTRLDSSEGMENT, 0);
	ehci_op_write(hc, EHCI_USBINTR, 0);
	ehci_op_write(hc, EHCI_PERIODICLISTBASE, (uint32_t)e->frames.phys);
	ehci_op_write(hc, EHCI_ASYNCLISTADDR, (uint32_t)e->async_head.phys);
	ehci_op_write(hc, EHCI_USBCMD, EHCI_CMD_ITC_8 | EHCI_CMD_PSE | EHCI_CMD_ASE | EHCI_CMD_RS);
	// Route every port to this controller (4.2.1); power the ports when
	// they have switches.
	ehci_op_write(hc, EHCI_CONFIGFLAG, 1);
	if (EHCI_HCS_PPC & usb_hc_read(hc, EHCI_HCSPARAMS))
		for (unsigned i = 0; i < e->ports; i++)
			ehci_op_write(hc, EHCI_PORTSC(i),
				      (ehci_op_read(hc, EHCI_PORTSC(i)) & ~(EHCI_PORT_RWC | EHCI_PORT_PE)) |
					      EHCI_PORT_PP);
}

static enum usb_step step_reset(struct usb_hc *hc)
{
	enum usb_step r = wait_reg(hc, EHCI_USBCMD, "USBCMD", EHCI_CMD_HCRESET, 0,
				   "HCRESET did not clear within 1 s");

	if (r != USB_DONE)
		return r;
	if (!ehci_schedules_take(hc))
		return fail(hc);
	start_schedules(hc);
	enter(hc, ST_RUN);
	return USB_PENDING;
}

static enum usb_step step_run(struct usb_hc *hc)
{
	enum usb_step r = wait_reg(hc, EHCI_USBSTS, "USBSTS", EHCI_STS_HALTED, 0,
				   "still halted 1 s after Run was set");

	if (r == USB_DONE)
		ehci_of(hc)->start_state = ST_DONE;
	return r;
}

enum usb_step ehci_start_poll(struct usb_hc *hc)
{
	switch (ehci_of(hc)->start_state) {
	case ST_WAKE:
		return step_wake(hc);
	case ST_HANDOFF:
		return step_handoff(hc);
	case ST_HALT:
		return step_halt(hc);
	case ST_RESET:
		return step_reset(hc);
	case ST_RUN:
		return step_run(hc);
	case ST_DONE:
		return USB_DONE;
	default:
		return USB_FAILED;
	}
}

bool ehci_halted(struct usb_hc *hc)
{
	uint32_t sts = ehci_op_read(hc, EHCI_USBSTS);

	return gone(hc, sts, "USBSTS") || (sts & EHCI_STS_HALTED);
}

uint32_t ehci_doorbell_ask(struct usb_hc *hc)
{
	struct ehci *e = ehci_of(hc);

	e->iaa_wanted = e->iaa_started + 1;
	return e->iaa_wanted;
}

// Ring the doorbell when a QH waits for one and none is ringing; note its
// answer (USBSTS IAA) when it comes. One or two register accesses.
static void doorbell_step(struct usb_hc *hc)
{
	struct ehci *e = ehci_of(hc);

	if (e->iaa_ringing) {
		if (!(ehci_op_read(hc, EHCI_USBSTS) & EHCI_STS_IAA))
			return;
		ehci_op_write(hc, EHCI_USBSTS, EHCI_STS_IAA);
		e->iaa_ringing = false;
		e->iaa_done = e->iaa_started;
	}
	if (e->iaa_wanted > e->iaa_started) {
		ehci_op_write(hc, EHCI_USBCMD, ehci_op_read(hc, EHCI_USBCMD) | EHCI_CMD_IAAD);
		e->iaa_started++;
		e->iaa_ringing = true;
	}
}

bool ehci_doorbell_done(struct usb_hc *hc, uint32_t ticket)
{
	struct ehci *e = ehci_of(hc);

	if (e->iaa_done >= ticket)
		return true;
	if (ehci_halted(hc)) {	// no schedule runs: nothing holds a QH
		e->iaa_ringing = false;
		e->iaa_done = e->iaa_started = e->iaa_wanted;
		return true;
	}
	doorbell_step(hc);
	return e->iaa_done >= ticket;
}

// Wait, by the env's clock, until reg & mask equals want; false at
// USB_HC_WAIT_US or when the registers read all ones.
static bool wait_for(struct usb_hc *hc, uint32_t reg, uint32_t mask, uint32_t want)
{
	uint64_t end = usb_hc_now(hc) + USB_HC_WAIT_US;

	for (;;) {
		uint32_t v = ehci_op_read(hc, reg);

		if (v == 0xffffffffu)
			return false;
		if ((v & mask) == want)
			return true;
		if (usb_hc_now(hc) >= end)
			return false;
	}
}

void ehci_stop(struct usb_hc *hc)
{
	if (hc->dead || ehci_of(hc)->start_state == ST_FAILED || !ehci_of(hc)->op)
		return;	// gone, left alone as found, never reached, or stopped already
	ehci_op_write(hc, EHCI_USBCMD,
		      ehci_op_read(hc, EHCI_USBCMD) & ~(EHCI_CMD_RS | EHCI_CMD_PSE | EHCI_CMD_ASE));
	if (!wait_for(hc, EHCI_USBSTS, EHCI_STS_HALTED, EHCI_STS_HALTED))
		usb_hc_warn(hc, "did not halt within 1 s when stopped: reset anyway");
	ehci_op_write(hc, EHCI_USBCMD, EHCI_CMD_HCRESET);
	if (!wait_for(hc, EHCI_USBCMD, EHCI_CMD_HCRESET, 0))
		usb_hc_warn(hc, "HCRESET did not clear within 1 s when stopped: the controller may still be in reset");
	ehci_of(hc)->start_state = ST_FAILED;
}
