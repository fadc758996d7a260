// SPDX-License-Identifier: GPL-2.0-or-later
// xHCI root ports (4.19, 5.4.8): status, changes, reset. A USB 2 port is
// enabled by a reset; a USB 3 port trains its link and enables itself, so
// its "reset" only waits for that. Which is which comes from the Supported
// Protocol capabilities (QEMU's qemu-xhci puts its USB 2 ports after the
// USB 3 ones).
#include "usb/xhci.h"

static bool is_usb3(const struct xhci *x, unsigned port)
{
	return x->usb3[port / 8] & 1u << (port % 8);
}

void xhci_read_protocols(struct usb_hc *hc)
{
	struct xhci *x = xhci_of(hc);

	for (uint16_t at = xhci_xcap_find(hc, XHCI_XCAP_PROTOCOL, 0); at;
	     at = xhci_xcap_find(hc, XHCI_XCAP_PROTOCOL, at)) {
		uint32_t rev = usb_hc_read(hc, at);
		uint32_t ports = usb_hc_read(hc, at + 8u);
		unsigned first = ports & 0xff, count = ports >> 8 & 0xff;

		if (rev >> 24 != 3)
			continue;
		if (first == 0 || first + count - 1 > x->max_ports) {
			usb_hc_warn(hc, "Supported Protocol names ports %u-%u of %u: ignored", first,
				    first + count - 1, x->max_ports);
			continue;
		}
		for (unsigned p = first; p < first + count; p++)
			x->usb3[p / 8] |= (uint8_t)(1u << (p % 8));
	}
}

unsigned xhci_port_count(struct usb_hc *hc)
{
	return xhci_of(hc)->max_ports;
}

static enum usb_speed speed_of(uint32_t id)
{
	switch (id) {
	case 1: return USB_SPEED_FULL;
	case 2: return USB_SPEED_LOW;
	case 3: return USB_SPEED_HIGH;
	default: return USB_SPEED_SUPER;
	}
}

static bool read_port(struct usb_hc *hc, unsigned port, uint32_t *v)
{
	*v = xhci_op_read(hc, XHCI_PORTSC(port));
	if (*v != 0xffffffffu)
		return true;
	if (!hc->dead)
		usb_hc_warn(hc, "port %u reads all ones (the controller is gone): "
			    "its keyboards are forgotten", port);
	hc->dead = true;
	return false;
}

bool xhci_port_status(struct usb_hc *hc, unsigned port, struct usb_port_status *st)
{
	uint32_t v;

	if (hc->dead || !read_port(hc, port, &v))
		return false;
	// Port Status Change events come whether a device is being set up or
	// not: taken here too, they never fill the event ring.
	xhci_events(hc);
	*st = (struct usb_port_status){
		.connected = v & XHCI_PORT_CCS,
		.enabled = v & XHCI_PORT_PED,
		.changed = v & XHCI_PORT_CHANGES,
		.overcurrent = v & XHCI_PORT_OCA,
		.speed = speed_of(XHCI_PORT_SPEED(v)),
	};
	return true;
}

void xhci_port_clear(struct usb_hc *hc, unsigned port)
{
	uint32_t v;

	if (read_port(hc, port, &v))
		xhci_op_write(hc, XHCI_PORTSC(port), (v & XHCI_PORT_KEEP) | (v & XHCI_PORT_CHANGES));
}

void xhci_port_reset(struct usb_hc *hc, unsigned port)
{
	uint32_t v;

	if (!is_usb3(xhci_of(hc), port) && read_port(hc, port, &v))
		xhci_op_write(hc, XHCI_PORTSC(port), (v & XHCI_PORT_KEEP) | XHCI_PORT_PR);
}

enum usb_step xhci_port_reset_poll(struct usb_hc *hc, unsigned port)
{
	uint32_t v;

	if (!read_port(hc, port, &v) || !(v & XHCI_PORT_CCS))
		return USB_FAILED;
	if (v & XHCI_PORT_PR || !(v & XHCI_PORT_PED))
		return USB_PENDING;
	if (v & XHCI_PORT_PRC)
		xhci_op_write(hc, XHCI_PORTSC(port), (v & XHCI_PORT_KEEP) | XHCI_PORT_PRC);
	return USB_DONE;
}

void xhci_port_disable(struct usb_hc *hc, unsigned port)
{
	uint32_t v;

	if (read_port(hc, port, &v) && (v & XHCI_PORT_PED))
		xhci_op_write(hc, XHCI_PORTSC(port), (v & XHCI_PORT_KEEP) | XHCI_PORT_PED);
}
