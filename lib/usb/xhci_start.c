// SPDX-License-Identifier: GPL-2.0-or-later
// Taking an xHCI controller (4.2, 4.22.1): its PCI function on and in D0,
// from the BIOS (USBLEGSUP), halt,
// reset (HCRST, then CNR), its memory (device context array, scratchpad
// buffers, command ring, one event ring), run. Each wait is a stage of
// start_poll with its own USB_HC_WAIT_US deadline.
#include "usb/pci.h"
#include "usb/xhci.h"

#define CMD_TRBS 64
#define EVENT_TRBS 64
#define MAX_SCRATCHPADS 256
#define MAX_SLOTS 32
#define XCAP_STEPS 64		// extended capabilities walked at most
#define XHCI_RESET_QUIET_US 1000
#define STOP_READS 4000000u	// a stop's wait, should the clock stand still

static uint32_t cap_read(struct usb_hc *hc, uint32_t off)
{
	return usb_hc_read(hc, off);
}

static bool all_ones(struct usb_hc *hc, uint32_t v)
{
	if (v != 0xffffffffu)
		return false;
	usb_hc_warn(hc, "its registers read all ones (the controller is gone): left alone");
	hc->dead = true;
	return true;
}

uint16_t xhci_xcap_find(struct usb_hc *hc, unsigned id, uint16_t from)
{
	struct xhci *x = xhci_of(hc);
	uint32_t at = from ? from : x->xecp;

	for (unsigned i = 0; at && i < XCAP_STEPS; i++) {
		uint32_t v = cap_read(hc, at);
		uint32_t next = (v >> 8 & 0xff) * 4u;

		if (v == 0xffffffffu)
			return 0;
		if ((v & 0xff) == id && at != from)
			return (uint16_t)at;
		if (next == 0 || at + next > 0xffff)
			return 0;
		at += next;
	}
	return 0;
}

void xhci_start(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);

	enum usb_pci p = usb_pci_enable(hc);

	*x = (struct xhci){ .stage = p == USB_PCI_GONE ? XS_FAILED : XS_WAKE };
	if (p == USB_PCI_WOKEN)
		x->awake_at = usb_hc_now(hc) + USB_PCI_D0_US;
}

// The capability registers, once the function is awake.
static enum usb_step wake(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);
	uint32_t caplen;

	if (usb_hc_now(hc) < x->awake_at)
		return USB_PENDING;
	caplen = cap_read(hc, XHCI_CAPLENGTH);
	if (all_ones(hc, caplen))
		return USB_FAILED;
	x->op = caplen & 0xff;
	x->rt = cap_read(hc, XHCI_RTSOFF) & ~0x1fu;
	x->db = cap_read(hc, XHCI_DBOFF) & ~0x3u;
	x->hccparams = cap_read(hc, XHCI_HCCPARAMS1);
	x->xecp = (uint16_t)((x->hccparams >> 16) * 4u);
	x->ctx_bytes = x->hccparams & XHCI_HCC_CSZ ? 64 : 32;
	x->max_ports = (uint8_t)(cap_read(hc, XHCI_HCSPARAMS1) >> 24);
	x->legsup = xhci_xcap_find(hc, XHCI_XCAP_LEGACY, 0);
	x->stage = XS_HANDOFF;
	return USB_PENDING;
}

static void enter(struct usb_hc *hc, enum xhci_stage s)
{
	struct xhci *x = xhci_of(hc);

	x->stage = (uint8_t)s;
	x->stage_begun = false;
}

static bool expired(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);

	if (!x->stage_begun) {
		x->stage_begun = true;
		x->deadline = usb_hc_now(hc) + USB_HC_WAIT_US;
	}
	return usb_hc_now(hc) >= x->deadline;
}

static void quiet_smis(struct usb_hc *hc)
{
	uint32_t ctl = usb_hc_read(hc, xhci_of(hc)->legsup + 4u);

	usb_hc_write(hc, xhci_of(hc)->legsup + 4u,
		     (ctl & ~XHCI_LEGCTL_SMI_ENABLES) | XHCI_LEGCTL_SMI_STATUS);
}

static enum usb_step handoff(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);
	uint32_t v;

	if (x->legsup == 0)
		return enter(hc, XS_HALT), USB_PENDING;
	v = usb_hc_read(hc, x->legsup);
	if (all_ones(hc, v))
		return USB_FAILED;
	if (!x->stage_begun && (v & XHCI_LEGACY_BIOS))
		usb_hc_write(hc, x->legsup, v | XHCI_LEGACY_OS);
	if (v & XHCI_LEGACY_BIOS) {
		if (!expired(hc))
			return USB_PENDING;
		usb_hc_warn(hc, "the BIOS kept it for 1 s after being asked (USBLEGSUP): "
			    "taken anyway");
		usb_hc_write(hc, x->legsup, (v & ~XHCI_LEGACY_BIOS) | XHCI_LEGACY_OS);
	}
	quiet_smis(hc);
	enter(hc, XS_HALT);
	return USB_PENDING;
}

static enum usb_step halt(struct usb_hc *hc)
{
	uint32_t sts = xhci_op_read(hc, XHCI_USBSTS);

	if (all_ones(hc, sts))
		return USB_FAILED;
	if (sts & XHCI_STS_HCH) {
		xhci_op_write(hc, XHCI_USBCMD, XHCI_CMD_HCRST);
		xhci_of(hc)->reset_at = usb_hc_now(hc);
		enter(hc, XS_RESET);
		return USB_PENDING;
	}
	if (!xhci_of(hc)->stage_begun)
		xhci_op_write(hc, XHCI_USBCMD, xhci_op_read(hc, XHCI_USBCMD) & ~XHCI_CMD_RS);
	if (!expired(hc))
		return USB_PENDING;
	usb_hc_warn(hc, "did not halt within 1 s (USBSTS.HCH stayed 0): left alone");
	return USB_FAILED;
}

static enum usb_step reset(struct usb_hc *hc)
{
	uint32_t cmd, sts;

	// Some Intel controllers must not be read for 1 ms after HCRST (Linux
	// waits so for all of theirs).
	if (usb_hc_now(hc) < xhci_of(hc)->reset_at + XHCI_RESET_QUIET_US)
		return USB_PENDING;
	cmd = xhci_op_read(hc, XHCI_USBCMD);
	sts = xhci_op_read(hc, XHCI_USBSTS);
	if (all_ones(hc, cmd) || all_ones(hc, sts))
		return USB_FAILED;
	if (!(cmd & XHCI_CMD_HCRST) && !(sts & XHCI_STS_CNR)) {
		enter(hc, XS_RUN);
		return USB_PENDING;
	}
	if (!expired(hc))
		return USB_PENDING;
	usb_hc_warn(hc, "did not finish its reset within 1 s (%s stayed set): left alone",
		    cmd & XHCI_CMD_HCRST ? "USBCMD.HCRST" : "USBSTS.CNR");
	return USB_FAILED;
}

static bool scratchpads(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);
	uint32_t p2 = cap_read(hc, XHCI_HCSPARAMS2);
	unsigned n = (p2 >> 27 & 0x1f) | (p2 >> 21 & 0x1f) << 5;
	struct usb_buf array, page;

	if (n == 0)
		return true;
	if (n > MAX_SCRATCHPADS) {
		usb_hc_warn(hc, "asks for %u scratchpad pages, more than %u: left alone", n,
			    MAX_SCRATCHPADS);
		return false;
	}
	if (!(xhci_op_read(hc, XHCI_PAGESIZE) & 1)) {
		usb_hc_warn(hc, "does not take 4 KiB pages (PAGESIZE): left alone");
		return false;
	}
	if (!usb_dma_take(hc->dma, 8u * n, 64, &array))
		goto full;
	for (unsigned i = 0; i < n; i++) {
		if (!usb_dma_take(hc->dma, 4096, 4096, &page))
			goto full;
		((volatile uint64_t *)array.virt)[i] = page.phys;
	}
	((volatile uint64_t *)x->dcbaa.virt)[0] = array.phys;
	return true;
full:
	usb_hc_warn(hc, "no DMA memory left for its %u scratchpad pages: left alone", n);
	return false;
}

static bool memory(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);
	struct usb_buf cmd, ev;

	if (!(x->hccparams & XHCI_HCC_AC64) && hc->dma->phys + hc->dma->bytes > 0x100000000ull) {
		usb_hc_warn(hc, "reaches only the first 4 GiB and its memory is above: left alone");
		return false;
	}
	if (!usb_dma_take(hc->dma, 8u * (x->max_slots + 1u), 64, &x->dcbaa) ||
	    !usb_dma_take(hc->dma, 16 * CMD_TRBS, 64, &cmd) ||
	    !usb_dma_take(hc->dma, 16 * EVENT_TRBS, 64, &ev) ||
	    !usb_dma_take(hc->dma, 16, 64, &x->erst)) {
		usb_hc_warn(hc, "no DMA memory left for its rings: left alone");
		return false;
	}
	xhci_ring_init(&x->cmd, cmd, CMD_TRBS);
	x->ev = (struct xhci_ring){ .mem = ev, .n = EVENT_TRBS, .cycle = 1 };
	((volatile uint64_t *)x->erst.virt)[0] = ev.phys;
	((volatile uint32_t *)x->erst.virt)[2] = EVENT_TRBS;
	return scratchpads(hc);
}

static enum usb_step run(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);
	uint32_t sts;

	if (!x->stage_begun) {
		unsigned slots = cap_read(hc, XHCI_HCSPARAMS1) & 0xff;

		x->max_slots = (uint8_t)(slots < MAX_SLOTS ? slots : MAX_SLOTS);
		if (x->max_slots == 0 || !memory(hc))
			return USB_FAILED;
		xhci_read_protocols(hc);
		xhci_op_write(hc, XHCI_CONFIG, x->max_slots);
		xhci_op_write64(hc, XHCI_DCBAAP, x->dcbaa.phys);
		xhci_op_write64(hc, XHCI_CRCR, x->cmd.mem.phys | 1);
		usb_hc_write(hc, x->rt + XHCI_ERSTSZ, 1);
		xhci_rt_write64(hc, XHCI_ERDP, x->ev.mem.phys);
		xhci_rt_write64(hc, XHCI_ERSTBA, x->erst.phys);
		xhci_op_write(hc, XHCI_USBCMD, XHCI_CMD_RS);
		(void)expired(hc);
	}
	sts = xhci_op_read(hc, XHCI_USBSTS);
	if (all_ones(hc, sts))
		return USB_FAILED;
	if (!(sts & XHCI_STS_HCH)) {
		for (unsigned p = 1; p <= x->max_ports; p++) {
			uint32_t v = xhci_op_read(hc, XHCI_PORTSC(p));

			if (!(v & XHCI_PORT_PP))
				xhci_op_write(hc, XHCI_PORTSC(p), (v & XHCI_PORT_KEEP) | XHCI_PORT_PP);
		}
		enter(hc, XS_RUNNING);
		return USB_DONE;
	}
	if (!expired(hc))
		return USB_PENDING;
	usb_hc_warn(hc, "did not run within 1 s (USBSTS.HCH stayed 1): left alone");
	return USB_FAILED;
}

enum usb_step xhci_start_poll(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);
	enum usb_step s = USB_FAILED;

	switch ((enum xhci_stage)x->stage) {
	case XS_WAKE: s = wake(hc); break;
	case XS_HANDOFF: s = handoff(hc); break;
	case XS_HALT: s = halt(hc); break;
	case XS_RESET: s = reset(hc); break;
	case XS_RUN: s = run(hc); break;
	case XS_RUNNING: return USB_DONE;
	case XS_FAILED: return USB_FAILED;
	}
	if (s == USB_FAILED)
		x->stage = XS_FAILED;
	return s;
}

// Waits for the operational register off's bit to read set (or clear),
// USB_HC_WAIT_US at most.
static bool wait_bit(struct usb_hc *hc, uint32_t off, uint32_t bit, bool set)
{
	uint64_t end = usb_hc_now(hc) + USB_HC_WAIT_US;

	for (uint32_t n = 0; n < STOP_READS; n++) {
		uint32_t v = xhci_op_read(hc, off);

		if (v == 0xffffffffu)
			return false;
		if (((v & bit) != 0) == set)
			return true;
		if (usb_hc_now(hc) >= end)
			return false;
	}
	return false;
}

void xhci_stop(struct usb_hc *hc)
{
	if (hc->dead || xhci_of(hc)->stage == XS_FAILED)
		return;
	xhci_op_write(hc, XHCI_USBCMD, xhci_op_read(hc, XHCI_USBCMD) & ~XHCI_CMD_RS);
	if (!wait_bit(hc, XHCI_USBSTS, XHCI_STS_HCH, true)) {
		usb_hc_warn(hc, "did not halt within 1 s when stopped: it may still read memory");
		return;
	}
	xhci_op_write(hc, XHCI_USBCMD, XHCI_CMD_HCRST);
	for (uint64_t end = usb_hc_now(hc) + XHCI_RESET_QUIET_US, n = 0;
	     n < STOP_READS && usb_hc_now(hc) < end; n++)
		;	// the quiet time after HCRST, as in reset()
	if (!wait_bit(hc, XHCI_USBCMD, XHCI_CMD_HCRST, false) ||
	    !wait_bit(hc, XHCI_USBSTS, XHCI_STS_CNR, false))
		usb_hc_warn(hc, "did not finish its reset within 1 s when stopped");
}
