// SPDX-License-Identifier: GPL-2.0-or-later
// A device's transfers on EHCI: endpoint 0's QH in the async ring with a
// setup, data and status qTD per control transfer, and one interrupt-IN QH
// in the interrupt chain with one qTD, queued again at the poll after each
// report (the report's buffer stays the caller's until then).
// Full/low-speed devices behind a high-speed hub get split transactions
// (the hub's address and port in each QH: ehci_qh_caps). Changing a linked
// QH's address or packet size unlinks it first and waits for the doorbell
// (4.8.2), so the controller never runs a QH half rewritten.
#include "usb/ehci.h"

enum ehci_ctl_phase { CTL_IDLE, CTL_RELOAD, CTL_RUN };

static struct ehci_dev *dev_of(struct usb_hc *hc, unsigned dev)
{
	return &ehci_of(hc)->dev[dev];
}

static bool take_pieces(struct usb_hc *hc, struct ehci_dev *d)
{
	if (d->ready)
		return true;
	if (!ehci_take(hc, EHCI_QH_SIZE, 32, &d->qh0, "a device's QH") ||
	    !ehci_take(hc, EHCI_QH_SIZE, 32, &d->qhi, "a device's QH"))
		return false;
	for (unsigned i = 0; i < EHCI_CTL_TDS; i++)
		if (!ehci_take(hc, EHCI_TD_SIZE, 32, &d->td[i], "a device's qTD"))
			return false;
	if (!ehci_take(hc, EHCI_TD_SIZE, 32, &d->tdi, "a device's qTD") ||
	    !ehci_take(hc, 8, 8, &d->setup, "a setup packet"))
		return false;
	d->ready = true;
	return true;
}

void ehci_dev_setup(struct usb_hc *hc, unsigned dev, const struct usb_dev_where *where,
		    unsigned mps)
{
	struct ehci *e = ehci_of(hc);
	struct ehci_dev *d = dev_of(hc, dev);

	d->ctl_phase = CTL_IDLE;
	d->qh0_stale = false;
	if (!take_pieces(hc, d))
		return;
	d->where = *where;
	d->addr = 0;
	d->ep0_mps = (uint16_t)mps;
	ehci_qh_fill(d->qh0, ehci_qh_char(where, 0, 0, mps), ehci_qh_caps(where, false));
	ehci_link_after(e->async_head, d->qh0);
	d->qh0_linked = true;
}

enum usb_step ehci_dev_setup_poll(struct usb_hc *hc, unsigned dev, uint8_t *address)
{
	*address = 0;	// the core sends SET_ADDRESS
	return dev_of(hc, dev)->qh0_linked ? USB_DONE : USB_FAILED;
}

void ehci_dev_address(struct usb_hc *hc, unsigned dev, uint8_t address)
{
	struct ehci_dev *d = dev_of(hc, dev);

	d->addr = address;
	d->qh0_stale = true;
}

void ehci_dev_update(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned ports,
		     unsigned think, bool mtt)
{
	struct ehci_dev *d = dev_of(hc, dev);

	(void)ports, (void)think, (void)mtt;	// a hub's TT needs nothing from EHCI
	if (mps != d->ep0_mps) {
		d->ep0_mps = (uint16_t)mps;
		d->qh0_stale = true;
	}
}

enum usb_step ehci_dev_update_poll(struct usb_hc *hc, unsigned dev)
{
	(void)hc, (void)dev;
	return USB_DONE;	// the QH is reloaded before the next control transfer
}

static uint32_t phys32(struct usb_buf b)
{
	return (uint32_t)b.phys;
}

// Queue setup, data (when any) and status on endpoint 0's QH.
static void control_queue(struct ehci_dev *d)
{
	struct usb_buf status = d->td[2];
	uint32_t back = d->ctl_in ? EHCI_TD_PID_OUT : EHCI_TD_PID_IN;
	uint32_t first = d->ctl_data ? phys32(d->td[1]) : phys32(status);

	ehci_td_fill(status, d->ctl_data ? back : EHCI_TD_PID_IN, true, 0, 0, EHCI_LINK_T,
		     EHCI_LINK_T);
	if (d->ctl_data)	// a short IN packet ends the data stage: on to status
		ehci_td_fill(d->td[1], d->ctl_in ? EHCI_TD_PID_IN : EHCI_TD_PID_OUT, true, d->ctl_buf.phys,
			     d->ctl_len, phys32(status), phys32(status));
	ehci_td_fill(d->td[0], EHCI_TD_PID_SETUP, false, d->setup.phys, 8, first, EHCI_LINK_T);
	__asm__ volatile("" ::: "memory");	// the qTDs are whole before the QH points at them
	ehci_qh_queue(d->qh0, d->td[0].phys);
}


void ehci_control(struct usb_hc *hc, unsigned dev, const struct usb_setup *setup,
		  struct usb_buf data)
{
	struct ehci_dev *d = dev_of(hc, dev);
	uint8_t *pkt = d->setup.virt;

	if (!d->qh0_linked) {
		d->ctl_phase = CTL_IDLE;
		return;
	}
	pkt[0] = setup->type;
	pkt[1] = setup->request;
	pkt[2] = (uint8_t)setup->value, pkt[3] = (uint8_t)(setup->value >> 8);
	pkt[4] = (uint8_t)setup->index, pkt[5] = (uint8_t)(setup->index >> 8);
	pkt[6] = (uint8_t)setup->length, pkt[7] = (uint8_t)(setup->length >> 8);
	d->ctl_buf = data;
	d->ctl_len = setup->length;
	d->ctl_data = setup->length != 0;
	d->ctl_in = setup->type & 0x80;
	if (d->qh0_stale) {
		ehci_unlink(ehci_of(hc)->async_head, d->qh0);
		d->ticket = ehci_doorbell_ask(hc);
		d->ctl_phase = CTL_RELOAD;
		return;
	}
	control_queue(d);
	d->ctl_phase = CTL_RUN;
}

// How a retired qTD ended: a halt with no error bit is a STALL handshake.
static enum usb_step td_result(uint32_t token)
{
	if (token & EHCI_TD_ACTIVE)
		return USB_PENDING;
	if (!(token & EHCI_TD_HALTED))
		return USB_DONE;
	if (token & (EHCI_TD_XACT | EHCI_TD_BABBLE | EHCI_TD_BUFERR))
		return USB_FAILED;
	return USB_STALL;
}

// The reload: once the doorbell says the controller let go of the
// unlinked QH, rewrite its endpoint words and link it again.
static enum usb_step control_reload(struct usb_hc *hc, struct ehci_dev *d)
{
	if (!ehci_doorbell_done(hc, d->ticket))
		return USB_PENDING;
	ehci_qh_fill(d->qh0, ehci_qh_char(&d->where, d->addr, 0, d->ep0_mps),
		     ehci_qh_caps(&d->where, false));
	ehci_link_after(ehci_of(hc)->async_head, d->qh0);
	d->qh0_stale = false;
	control_queue(d);
	d->ctl_phase = CTL_RUN;
	return USB_PENDING;
}

enum usb_step ehci_control_poll(struct usb_hc *hc, unsigned dev, size_t *actual)
{
	struct ehci_dev *d = dev_of(hc, dev);
	unsigned first = d->ctl_data ? 0 : 1;

	*actual = 0;
	if (d->ctl_phase == CTL_RELOAD)
		return control_reload(hc, d);
	if (d->ctl_phase != CTL_RUN)
		return USB_FAILED;
	for (unsigned i = 0; i < EHCI_CTL_TDS; i++) {
		enum usb_step r;

		if (i == 1 && first)
			continue;
		r = td_result(ehci_word(d->td[i], TD_TOKEN));
		if (r != USB_DONE)
			return r;
	}
	if (d->ctl_data)
		*actual = d->ctl_len - EHCI_TD_BYTES(ehci_word(d->td[1], TD_TOKEN));
	d->ctl_phase = CTL_IDLE;
	return USB_DONE;
}

static void intr_queue(struct ehci_dev *d)
{
	ehci_td_fill(d->tdi, EHCI_TD_PID_IN, false, d->report.phys, d->intr_len, EHCI_LINK_T,
		     EHCI_LINK_T);
	__asm__ volatile("" ::: "memory");
	ehci_qh_queue(d->qhi, d->tdi.phys);
}

void ehci_intr_open(struct usb_hc *hc, unsigned dev, unsigned ep, unsigned mps,
		    unsigned interval, struct usb_buf buf)
{
	struct ehci_dev *d = dev_of(hc, dev);

	(void)interval;	// polled every frame: at least as often as any interval asks
	if (!d->qh0_linked)
		return;
	d->report = buf;
	d->intr_len = (uint16_t)mps;
	ehci_qh_fill(d->qhi, ehci_qh_char(&d->where, d->addr, ep, mps),
		     ehci_qh_caps(&d->where, true));
	intr_queue(d);
	d->intr_armed = true;
	d->intr_errors = 0;
	ehci_link_after(ehci_of(hc)->intr_head, d->qhi);
	d->qhi_linked = true;
}

enum usb_step ehci_intr_open_poll(struct usb_hc *hc, unsigned dev)
{
	return dev_of(hc, dev)->qhi_linked ? USB_DONE : USB_FAILED;
}

enum usb_step ehci_intr_poll(struct usb_hc *hc, unsigned dev, size_t *actual)
{
	struct ehci_dev *d = dev_of(hc, dev);
	uint32_t token;
	enum usb_step r;

	*actual = 0;
	if (!d->qhi_linked)
		return USB_FAILED;
	// The last report stayed the caller's until now: ask for the next
	// only once it was read, so the controller never writes over it.
	if (!d->intr_armed) {
		intr_queue(d);
		d->intr_armed = true;
		return USB_PENDING;
	}
	token = ehci_word(d->tdi, TD_TOKEN);
	r = td_result(token);
	if (r != USB_PENDING)
		d->intr_armed = false;
	if (r == USB_DONE) {
		*actual = d->intr_len - EHCI_TD_BYTES(token);
		d->intr_errors = 0;
	}
	// Transaction errors come first when a device behind a hub leaves,
	// before the hub reports it: ask again for a while, then give up.
	if (r == USB_FAILED && ++d->intr_errors < EHCI_INTR_RETRIES)
		return USB_PENDING;
	return r;
}

void ehci_dev_release(struct usb_hc *hc, unsigned dev)
{
	struct ehci *e = ehci_of(hc);
	struct ehci_dev *d = dev_of(hc, dev);

	d->ctl_phase = CTL_IDLE;
	d->rel_periodic = d->qhi_linked && ehci_unlink(e->intr_head, d->qhi);
	if (d->rel_periodic)
		d->frame0 = (uint16_t)ehci_op_read(hc, EHCI_FRINDEX);
	d->rel_async = d->qh0_linked && ehci_unlink(e->async_head, d->qh0);
	if (d->rel_async)
		d->ticket = ehci_doorbell_ask(hc);
	else if (d->qh0_stale && d->qh0_linked)	// unlinked by a reload: its doorbell is asked
		d->rel_async = true;
	d->qh0_linked = d->qhi_linked = false;
}

enum usb_step ehci_dev_release_poll(struct usb_hc *hc, unsigned dev)
{
	struct ehci_dev *d = dev_of(hc, dev);

	if (d->rel_periodic && !ehci_halted(hc)) {
		// The controller reads a frame's list within the frame: two
		// frames (16 micro-frames) after the unlink it holds none.
		uint16_t now = (uint16_t)ehci_op_read(hc, EHCI_FRINDEX);

		if (((now - d->frame0) & 0x3fff) < 16)
			return USB_PENDING;
	}
	d->rel_periodic = false;
	if (d->rel_async && !ehci_doorbell_done(hc, d->ticket))
		return USB_PENDING;
	d->rel_async = false;
	return USB_DONE;
}
