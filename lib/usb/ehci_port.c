// SPDX-License-Identifier: GPL-2.0-or-later
// EHCI root ports (2.3.9, 4.2.2): status, change bits, and the reset as a
// state machine, a register access or two a poll. A port enabled after its
// 50 ms reset holds a high-speed device; one that is connected but not
// enabled, or shows a low-speed K state before the reset, holds a
// full/low-speed device, which is handed to the companion controller (not
// read by ramsift: a warning says so and what to do).
#include "usb/ehci.h"

enum ehci_port_state { PS_IDLE, PS_RESET, PS_RELEASE, PS_FAILED };

static uint32_t portsc(struct usb_hc *hc, unsigned port)
{
	return ehci_op_read(hc, EHCI_PORTSC(port - 1));
}

static void portsc_set(struct usb_hc *hc, unsigned port, uint32_t value)
{
	ehci_op_write(hc, EHCI_PORTSC(port - 1), value);
}

static struct ehci_port *port_of(struct usb_hc *hc, unsigned port)
{
	return &ehci_of(hc)->port[port - 1];
}

// Once a round of the ports (at port 1): whether the controller stopped
// itself (a host system error: a DMA it could not make, 2.3.2).
static bool stopped_itself(struct usb_hc *hc)
{
	uint32_t sts = ehci_op_read(hc, EHCI_USBSTS);

	if (sts == 0xffffffffu || !(sts & (EHCI_STS_HSE | EHCI_STS_HALTED)))
		return false;
	usb_hc_warn(hc, "halted itself (USBSTS 0x%08x%s): the controller is left alone", sts,
		    (sts & EHCI_STS_HSE) ? ", a host system error" : "");
	hc->dead = true;
	return true;
}

bool ehci_port_status(struct usb_hc *hc, unsigned port, struct usb_port_status *st)
{
	uint32_t sc = portsc(hc, port);

	if (port == 1 && sc != 0xffffffffu && stopped_itself(hc))
		return false;
	if (sc == 0xffffffffu) {
		if (!hc->dead)
			usb_hc_warn(hc, "port %u's PORTSC reads 0xffffffff: the controller no longer answers and is left alone",
				    port);
		hc->dead = true;
		return false;
	}
	st->connected = sc & EHCI_PORT_CCS;
	st->enabled = sc & EHCI_PORT_PE;
	st->changed = sc & EHCI_PORT_RWC;
	st->overcurrent = sc & (1u << 4);
	st->companion = sc & EHCI_PORT_OWNER;
	if (st->enabled)
		st->speed = USB_SPEED_HIGH;
	else if ((sc & EHCI_PORT_LS_MASK) == EHCI_PORT_LS_K)
		st->speed = USB_SPEED_LOW;
	else
		st->speed = USB_SPEED_FULL;
	return true;
}

void ehci_port_clear(struct usb_hc *hc, unsigned port)
{
	uint32_t sc = portsc(hc, port);

	// Written back as read: the change bits set are cleared, the rest
	// stays (PE written 1 cannot enable a port).
	if (sc != 0xffffffffu && (sc & EHCI_PORT_RWC))
		portsc_set(hc, port, sc);
}

void ehci_port_disable(struct usb_hc *hc, unsigned port)
{
	uint32_t sc = portsc(hc, port);

	if (sc != 0xffffffffu)
		portsc_set(hc, port, sc & ~(EHCI_PORT_RWC | EHCI_PORT_PE));
	port_of(hc, port)->state = PS_IDLE;
}

// A full/low-speed device on a root port belongs to the companion (4.2.2).
static enum usb_step hand_over(struct usb_hc *hc, unsigned port, uint32_t sc)
{
	if (ehci_of(hc)->companions == 0) {
		usb_hc_warn(hc, "port %u holds a full/low-speed device and there is no companion controller: it is not read (plug it in behind a USB 2.0 hub)",
			    port);
	} else {
		usb_hc_warn(hc, "port %u holds a full/low-speed device: handed to the companion controller, which ramsift does not read (use another port or a USB 2.0 hub)",
			    port);
		portsc_set(hc, port, (sc & ~(EHCI_PORT_RWC | EHCI_PORT_PE)) | EHCI_PORT_OWNER);
	}
	port_of(hc, port)->state = PS_FAILED;
	return USB_FAILED;
}

void ehci_port_reset(struct usb_hc *hc, unsigned port)
{
	struct ehci_port *p = port_of(hc, port);
	uint32_t sc = portsc(hc, port);

	if (sc == 0xffffffffu || !(sc & EHCI_PORT_CCS)) {
		p->state = PS_FAILED;
		return;
	}
	if ((sc & EHCI_PORT_LS_MASK) == EHCI_PORT_LS_K) {
		hand_over(hc, port, sc);
		return;
	}
	portsc_set(hc, port, (sc & ~(EHCI_PORT_RWC | EHCI_PORT_PE)) | EHCI_PORT_PR);
	p->since = usb_hc_now(hc);
	p->state = PS_RESET;
}

enum usb_step ehci_port_reset_poll(struct usb_hc *hc, unsigned port)
{
	struct ehci_port *p = port_of(hc, port);
	uint32_t sc;

	switch (p->state) {
	case PS_RESET:
		if (usb_hc_now(hc) - p->since < EHCI_RESET_US)
			return USB_PENDING;
		sc = portsc(hc, port);
		portsc_set(hc, port, sc & ~(EHCI_PORT_RWC | EHCI_PORT_PR));
		p->state = PS_RELEASE;
		return USB_PENDING;
	case PS_RELEASE:
		sc = portsc(hc, port);
		if (sc == 0xffffffffu || !(sc & EHCI_PORT_CCS))
			break;
		if (sc & EHCI_PORT_PR)	// the controller ends it within 2 ms (2.3.9)
			return USB_PENDING;
		if (!(sc & EHCI_PORT_PE))
			return hand_over(hc, port, sc);
		p->state = PS_IDLE;
		return USB_DONE;
	default:
		break;
	}
	p->state = PS_FAILED;
	return USB_FAILED;
}
