// SPDX-License-Identifier: GPL-2.0-or-later
// EHCI queue heads and qTDs (3.5, 3.6) and the two schedules they hang in:
// the async ring (control transfers), whose head is a QH that never runs,
// and the interrupt chain every frame-list entry points at, headed likewise
// by an idle QH. A device's QHs are linked after a head and unlinked by
// walking from it; the caller waits (doorbell, frames) before reusing one.
#include "usb/ehci.h"

bool ehci_take(struct usb_hc *hc, size_t bytes, size_t align, struct usb_buf *out,
	       const char *what)
{
	if (!usb_dma_take(hc->dma, bytes, align, out)) {
		usb_hc_warn(hc, "no room left in the USB memory for %s: the controller is left alone",
			    what);
		return false;
	}
	if (out->phys + bytes > 0x100000000ull) {
		usb_hc_warn(hc, "the USB memory for %s is above 4 GiB (0x%llx), out of this driver's reach: the controller is left alone",
			    what, (unsigned long long)out->phys);
		return false;
	}
	return true;
}

static uint32_t qh_link(struct usb_buf qh)
{
	return (uint32_t)qh.phys | EHCI_LINK_QH;
}

bool ehci_schedules_take(struct usb_hc *hc)
{
	struct ehci *e = ehci_of(hc);

	if (e->schedules)
		return true;
	if (!ehci_take(hc, EHCI_FRAMES * 4, 4096, &e->frames, "the frame list") ||
	    !ehci_take(hc, EHCI_QH_SIZE, 32, &e->async_head, "the async ring's head") ||
	    !ehci_take(hc, EHCI_QH_SIZE, 32, &e->intr_head, "the interrupt chain's head"))
		return false;
	// The async head: the reclamation head (H), halted so it never runs.
	ehci_qh_fill(e->async_head, EHCI_QH_HEAD | EHCI_QH_EPS_HIGH | EHCI_QH_MAXPKT(64),
		     EHCI_QH_MULT_1);
	ehci_set_word(e->async_head, QH_OVERLAY + TD_TOKEN, EHCI_TD_HALTED);
	ehci_set_word(e->async_head, QH_LINK, qh_link(e->async_head));
	// The interrupt head: a high-speed QH with nothing queued, so the
	// controller reads it each frame and moves on.
	ehci_qh_fill(e->intr_head, EHCI_QH_EPS_HIGH | EHCI_QH_MAXPKT(64),
		     EHCI_QH_MULT_1 | EHCI_QH_SMASK(1));
	ehci_set_word(e->intr_head, QH_LINK, EHCI_LINK_T);
	for (unsigned i = 0; i < EHCI_FRAMES; i++)
		ehci_set_word(e->frames, i, qh_link(e->intr_head));
	e->schedules = true;
	return true;
}

void ehci_td_fill(struct usb_buf td, uint32_t pid, bool toggle, uint64_t buf, unsigned len,
		  uint32_t next, uint32_t alt)
{
	uint32_t page = (uint32_t)buf & ~0xfffu;

	ehci_set_word(td, TD_NEXT, next);
	ehci_set_word(td, TD_ALT, alt);
	for (unsigned i = 0; i < 5; i++)
		ehci_set_word(td, TD_BUF0 + i, i ? page + 0x1000 * i : (uint32_t)buf);
	ehci_set_word(td, TD_TOKEN, EHCI_TD_ACTIVE | EHCI_TD_CERR_3 | pid | EHCI_TD_IOC |
				    EHCI_TD_BYTES_SET(len) | (toggle ? EHCI_TD_TOGGLE : 0));
}

void ehci_qh_fill(struct usb_buf qh, uint32_t chr, uint32_t caps)
{
	ehci_set_word(qh, QH_CHAR, chr);
	ehci_set_word(qh, QH_CAPS, caps);
	ehci_set_word(qh, QH_CUR, 0);
	for (unsigned i = QH_OVERLAY; i < QH_WORDS; i++)
		ehci_set_word(qh, i, 0);
	ehci_set_word(qh, QH_OVERLAY + TD_NEXT, EHCI_LINK_T);
	ehci_set_word(qh, QH_OVERLAY + TD_ALT, EHCI_LINK_T);
}

void ehci_qh_queue(struct usb_buf qh, uint64_t td_phys)
{
	// The overlay is idle (not active): the controller follows its next
	// pointer. Keep the data toggle the overlay carries (DTC clear).
	uint32_t token = ehci_word(qh, QH_OVERLAY + TD_TOKEN) & EHCI_TD_TOGGLE;

	ehci_set_word(qh, QH_OVERLAY + TD_ALT, EHCI_LINK_T);
	ehci_set_word(qh, QH_OVERLAY + TD_NEXT, (uint32_t)td_phys);
	ehci_set_word(qh, QH_OVERLAY + TD_TOKEN, token);
}

void ehci_link_after(struct usb_buf head, struct usb_buf qh)
{
	ehci_set_word(qh, QH_LINK, ehci_word(head, QH_LINK));
	__asm__ volatile("" ::: "memory");	// the new QH is whole before it is reachable
	ehci_set_word(head, QH_LINK, qh_link(qh));
}

bool ehci_unlink(struct usb_buf head, struct usb_buf qh)
{
	struct usb_buf at = head;

	// A list holds the head and at most every device's QH.
	for (unsigned n = 0; n <= USB_MAX_DEVICES; n++) {
		uint32_t link = ehci_word(at, QH_LINK);

		if ((link & EHCI_LINK_T) || EHCI_LINK_ADDR(link) == (uint32_t)head.phys)
			return false;
		if (EHCI_LINK_ADDR(link) == (uint32_t)qh.phys) {
			ehci_set_word(at, QH_LINK, ehci_word(qh, QH_LINK));
			return true;
		}
		at.virt = (uint8_t *)head.virt + (EHCI_LINK_ADDR(link) - head.phys);
		at.phys = EHCI_LINK_ADDR(link);
	}
	return false;
}

static uint32_t eps_of(enum usb_speed speed)
{
	switch (speed) {
	case USB_SPEED_LOW:
		return EHCI_QH_EPS_LOW;
	case USB_SPEED_FULL:
		return EHCI_QH_EPS_FULL;
	default:
		return EHCI_QH_EPS_HIGH;
	}
}

uint32_t ehci_qh_char(const struct usb_dev_where *where, uint8_t addr, unsigned ep,
		      unsigned mps)
{
	uint32_t chr = EHCI_QH_ADDR(addr) | EHCI_QH_EP(ep) | eps_of(where->speed) |
		       EHCI_QH_MAXPKT(mps);

	if (ep == 0)
		chr |= EHCI_QH_DTC;	// each control stage sets its own toggle
	if (ep == 0 && where->speed != USB_SPEED_HIGH)
		chr |= EHCI_QH_CONTROL;
	return chr;
}

uint32_t ehci_qh_caps(const struct usb_dev_where *where, bool periodic)
{
	uint32_t caps = EHCI_QH_MULT_1;

	if (where->speed != USB_SPEED_HIGH)	// split transactions through the hub's TT (4.12)
		caps |= EHCI_QH_HUB(where->tt_hub_addr) | EHCI_QH_PORT(where->tt_port);
	if (periodic)	// start in micro-frame 0; full/low speed: complete in 2, 3 and 4
		caps |= EHCI_QH_SMASK(0x01) |
			(where->speed != USB_SPEED_HIGH ? EHCI_QH_CMASK(0x1c) : 0);
	return caps;
}
