// SPDX-License-Identifier: GPL-2.0-or-later
// Descriptor parsing: every byte read is inside what the device sent, every
// length field is checked against what arrived before it is trusted.
#include "usb/desc.h"

static uint16_t le16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static bool bad(const char **why, const char *what)
{
	*why = what;
	return false;
}

static bool mps0_valid(uint8_t m)
{
	return m == 8 || m == 16 || m == 32 || m == 64;
}

bool usb_parse_device(const uint8_t *b, size_t len, struct usb_device_desc *d, const char **why)
{
	if (len < 8)
		return bad(why, "device descriptor shorter than 8 bytes");
	if (b[1] != USB_DESC_DEVICE)
		return bad(why, "device descriptor has the wrong type");
	if (b[0] < (len < 18 ? 8 : 18))
		return bad(why, "device descriptor's bLength is too small");
	d->bcd_usb = le16(b + 2);
	d->cls = b[4];
	d->subclass = b[5];
	d->protocol = b[6];
	if (d->bcd_usb >= 0x300 && b[7] == 9)
		d->mps0 = 512;	// USB 3 gives an exponent
	else if (mps0_valid(b[7]))
		d->mps0 = b[7];
	else
		return bad(why, "device descriptor's bMaxPacketSize0 is not 8, 16, 32 or 64");
	if (len < 18)
		return true;
	d->vendor = le16(b + 8);
	d->product = le16(b + 10);
	d->configs = b[17];
	if (d->configs == 0)
		return bad(why, "device descriptor offers no configuration");
	return true;
}

bool usb_parse_config_head(const uint8_t *b, size_t len, struct usb_config_info *c,
			   const char **why)
{
	if (len < 9)
		return bad(why, "configuration descriptor shorter than 9 bytes");
	if (b[1] != USB_DESC_CONFIG || b[0] < 9)
		return bad(why, "configuration descriptor has the wrong type or bLength");
	c->total = le16(b + 2);
	c->value = b[5];
	if (c->total < 9)
		return bad(why, "configuration descriptor's wTotalLength is under 9");
	return true;
}

// The endpoint descriptor at e (bLength >= 7) as the interface's interrupt
// IN endpoint, when it is one and none was found yet.
static bool take_endpoint(const uint8_t *e, struct usb_config_info *c, const char **why)
{
	uint16_t mps = le16(e + 4) & 0x7ff;

	if ((e[2] & 0x80) == 0 || (e[3] & 3) != 3 || c->ep != 0)
		return true;
	if ((e[2] & 0x0f) == 0)
		return bad(why, "interrupt endpoint descriptor names endpoint 0");
	if (mps > USB_EP_MPS_MAX)
		return bad(why, "interrupt endpoint's wMaxPacketSize is over 512");
	// A keyboard's reports are 8 bytes; a hub's status bitmap may be one.
	if (mps < (c->function == USB_FN_KEYBOARD ? 8 : 1))
		return bad(why, "interrupt endpoint's wMaxPacketSize is too small for its reports");
	if (e[6] == 0)
		return bad(why, "interrupt endpoint's bInterval is 0");
	c->ep = e[2] & 0x0f;
	c->ep_mps = mps;
	c->ep_interval = e[6];
	return true;
}

static enum usb_function interface_function(const uint8_t *i)
{
	if (i[3] != 0)		// an alternate setting: never selected
		return USB_FN_OTHER;
	if (i[5] == USB_CLASS_HID && i[6] == 1 && i[7] == 1)
		return USB_FN_KEYBOARD;
	if (i[5] == USB_CLASS_HUB)
		return USB_FN_HUB;
	return USB_FN_OTHER;
}

bool usb_parse_config(const uint8_t *b, size_t len, struct usb_config_info *c, const char **why)
{
	// The interface being walked, and whether it is the one kept.
	enum usb_function current = USB_FN_OTHER;
	bool keeping = false;

	if (!usb_parse_config_head(b, len, c, why))
		return false;
	if (len > c->total)
		len = c->total;
	c->function = USB_FN_OTHER;
	c->ep = 0;
	for (size_t at = b[0]; at < len;) {
		const uint8_t *d = b + at;
		size_t rest = len - at;

		if (rest < 2 || d[0] < 2 || d[0] > rest)
			return bad(why, "a descriptor in the configuration runs past its end");
		if (d[1] == USB_DESC_INTERFACE) {
			if (d[0] < 9)
				return bad(why, "interface descriptor's bLength is under 9");
			current = interface_function(d);
			keeping = c->function == USB_FN_OTHER ||
				  (c->function == USB_FN_HUB && current == USB_FN_KEYBOARD);
			if (keeping && current != USB_FN_OTHER) {
				c->function = current;
				c->iface = d[2];
				c->ep = 0;
			}
		} else if (d[1] == USB_DESC_ENDPOINT && keeping && current != USB_FN_OTHER) {
			if (d[0] < 7)
				return bad(why, "endpoint descriptor's bLength is under 7");
			if (!take_endpoint(d, c, why))
				return false;
		}
		at += d[0];
	}
	if (c->function == USB_FN_KEYBOARD && c->ep == 0)
		return bad(why, "keyboard interface has no interrupt-IN endpoint");
	return true;
}

bool usb_parse_hub(const uint8_t *b, size_t len, bool ss, struct usb_hub_info *h, const char **why)
{
	size_t need = ss ? 12 : 7;

	if (len < need || b[0] < need)
		return bad(why, "hub descriptor is too short");
	if (b[1] != (ss ? USB_DESC_SS_HUB : USB_DESC_HUB))
		return bad(why, "hub descriptor has the wrong type");
	if (b[2] == 0 || (ss && b[2] > 15))
		return bad(why, "hub descriptor's bNbrPorts is out of range");
	h->ports = b[2];
	h->power_ms = (uint16_t)(b[5] * 2);
	h->think = ss ? 0 : (uint8_t)((le16(b + 3) >> 5) & 3);
	return true;
}
