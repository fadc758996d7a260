// SPDX-License-Identifier: GPL-2.0-or-later
// xHCI device contexts (6.2): the input context the driver fills for a
// command, 32 or 64 bytes a context as HCCPARAMS1's CSZ says.
#include "memstr.h"
#include "usb/xhci.h"

#define EP_TYPE_CONTROL 4
#define EP_TYPE_INTR_IN 7
#define EP_CERR 3

// Protocol speed IDs of the default mapping (7.2.1).
static uint32_t speed_id(enum usb_speed s)
{
	static const uint8_t ids[] = { [USB_SPEED_LOW] = 2, [USB_SPEED_FULL] = 1,
				       [USB_SPEED_HIGH] = 3, [USB_SPEED_SUPER] = 4 };
	return ids[s];
}

uint32_t *xhci_input_control(struct usb_hc *hc, unsigned dev)
{
	return xhci_of(hc)->dev[dev].in.virt;
}

uint32_t *xhci_input_ctx(struct usb_hc *hc, unsigned dev, unsigned dci)
{
	struct xhci *x = xhci_of(hc);

	return (uint32_t *)((uint8_t *)x->dev[dev].in.virt + x->ctx_bytes * (dci + 1u));
}

uint32_t *xhci_output_ctx(struct usb_hc *hc, unsigned dev, unsigned dci)
{
	struct xhci *x = xhci_of(hc);

	return (uint32_t *)((uint8_t *)x->dev[dev].out.virt + x->ctx_bytes * dci);
}

static void clear_input(struct usb_hc *hc, unsigned dev, uint32_t add)
{
	uint32_t *ctl = xhci_input_control(hc, dev);

	ctl[0] = 0;
	ctl[1] = add;
}

static void ep_ctx(uint32_t *ep, unsigned type, unsigned mps, unsigned interval, uint64_t deq,
		   unsigned avg)
{
	mem_set(ep, 0, 20);
	ep[0] = (uint32_t)interval << 16;
	ep[1] = EP_CERR << 1 | type << 3 | (uint32_t)mps << 16;
	ep[2] = (uint32_t)deq;
	ep[3] = (uint32_t)(deq >> 32);
	ep[4] = avg | (type == EP_TYPE_INTR_IN ? (uint32_t)mps << 16 : 0);
}

void xhci_ctx_address(struct usb_hc *hc, unsigned dev, const struct usb_dev_where *where,
		      unsigned mps)
{
	struct xhci *x = xhci_of(hc);
	struct xhci_dev *d = &x->dev[dev];
	uint32_t *slot = xhci_input_ctx(hc, dev, 0);

	mem_set(d->in.virt, 0, x->ctx_bytes * 33u);
	clear_input(hc, dev, 3);	// the slot and EP0
	slot[0] = (where->route & 0xfffff) | speed_id(where->speed) << 20 | 1u << 27;
	slot[1] = (uint32_t)where->root_port << 16;
	if (where->tt_hub != USB_NO_DEVICE)
		slot[2] = x->dev[where->tt_hub].slot | (uint32_t)where->tt_port << 8;
	ep_ctx(xhci_input_ctx(hc, dev, 1), EP_TYPE_CONTROL, mps, 0, xhci_ring_next(&d->ep0), 8);
}

void xhci_ctx_hub(struct usb_hc *hc, unsigned dev, unsigned ports, unsigned think, bool mtt)
{
	uint32_t *slot = xhci_input_ctx(hc, dev, 0);

	clear_input(hc, dev, 1);	// the slot alone (Configure Endpoint, 4.6.6)
	slot[0] = (slot[0] & ~(1u << 25)) | 1u << 26 | (mtt ? 1u << 25 : 0);
	slot[1] = (slot[1] & 0x00ffffff) | (uint32_t)ports << 24;
	slot[2] = (slot[2] & ~(3u << 16)) | (think & 3) << 16;
}

// The interrupt endpoint's Interval (6.2.3.6): 2^Interval * 125 us, from
// bInterval in frames (full and low speed) or as an exponent (high, super).
static unsigned intr_interval(enum usb_speed s, unsigned binterval)
{
	unsigned i = 3;

	if (s >= USB_SPEED_HIGH)
		return binterval > 16 ? 15 : binterval - 1;
	while (i < 10 && (2u << i) <= binterval * 8)
		i++;
	return i;
}

void xhci_ctx_intr(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned interval)
{
	struct xhci_dev *d = &xhci_of(hc)->dev[dev];
	uint32_t *slot = xhci_input_ctx(hc, dev, 0);
	unsigned entries = slot[0] >> 27;

	clear_input(hc, dev, 1u | 1u << d->intr_dci);
	if (entries < d->intr_dci)
		slot[0] = (slot[0] & 0x07ffffff) | (uint32_t)d->intr_dci << 27;
	ep_ctx(xhci_input_ctx(hc, dev, d->intr_dci), EP_TYPE_INTR_IN, mps,
	       intr_interval(d->speed, interval), xhci_ring_next(&d->intr), mps);
}
