// SPDX-License-Identifier: GPL-2.0-or-later
// The xHCI driver's parts (xhci_*.c): registers (xHCI 1.2 chapter 5), TRBs
// (6.4), the driver's state kept in struct usb_hc's drv, and what each
// part offers the others. Only the ops table (xhci_ops.c) is public.
#ifndef RAMSIFT_LIB_USB_XHCI_H
#define RAMSIFT_LIB_USB_XHCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usb/hc.h"
#include "usb/host.h"	// USB_MAX_DEVICES

// Capability registers (5.3).
#define XHCI_CAPLENGTH 0x00	// byte 0; HCIVERSION in bytes 2-3
#define XHCI_HCSPARAMS1 0x04
#define XHCI_HCSPARAMS2 0x08
#define XHCI_HCCPARAMS1 0x10
#define XHCI_DBOFF 0x14
#define XHCI_RTSOFF 0x18
#define XHCI_HCC_AC64 (1u << 0)
#define XHCI_HCC_CSZ (1u << 2)

// Operational registers (5.4), from CAPLENGTH.
#define XHCI_USBCMD 0x00
#define XHCI_USBSTS 0x04
#define XHCI_PAGESIZE 0x08
#define XHCI_CRCR 0x18
#define XHCI_DCBAAP 0x30
#define XHCI_CONFIG 0x38
#define XHCI_PORTSC(n) (0x400u + 0x10u * ((n) - 1u))
#define XHCI_CMD_RS (1u << 0)
#define XHCI_CMD_HCRST (1u << 1)
#define XHCI_STS_HCH (1u << 0)
#define XHCI_STS_CNR (1u << 11)

// PORTSC bits (5.4.8).
#define XHCI_PORT_CCS (1u << 0)
#define XHCI_PORT_PED (1u << 1)
#define XHCI_PORT_OCA (1u << 3)
#define XHCI_PORT_PR (1u << 4)
#define XHCI_PORT_PP (1u << 9)
#define XHCI_PORT_SPEED(v) (((v) >> 10) & 0xfu)
#define XHCI_PORT_PRC (1u << 21)
#define XHCI_PORT_CHANGES 0x00fe0000u	// CSC PEC WRC OCC PRC PLC CEC: write 1 to clear
#define XHCI_PORT_KEEP (XHCI_PORT_PP | 0x0e000000u)	// PP and the wake enables

// Interrupter 0 (5.5.2), from RTSOFF.
#define XHCI_IR0 0x20
#define XHCI_ERSTSZ (XHCI_IR0 + 0x08)
#define XHCI_ERSTBA (XHCI_IR0 + 0x10)
#define XHCI_ERDP (XHCI_IR0 + 0x18)
#define XHCI_ERDP_EHB (1u << 3)

// Extended capabilities (7).
#define XHCI_XCAP_LEGACY 1
#define XHCI_XCAP_PROTOCOL 2
#define XHCI_LEGACY_BIOS (1u << 16)
#define XHCI_LEGACY_OS (1u << 24)
#define XHCI_LEGCTL_SMI_ENABLES 0x0000e011u	// SMI on event, on OS ownership change, PCI, BAR
#define XHCI_LEGCTL_SMI_STATUS 0xe0000000u	// write 1 to clear

// TRBs (6.4): types, control-word bits, completion codes.
enum xhci_trb_type {
	TRB_NORMAL = 1, TRB_SETUP = 2, TRB_DATA = 3, TRB_STATUS = 4, TRB_LINK = 6,
	TRB_ENABLE_SLOT = 9, TRB_DISABLE_SLOT = 10, TRB_ADDRESS_DEVICE = 11,
	TRB_CONFIGURE_EP = 12, TRB_EVALUATE_CTX = 13, TRB_RESET_EP = 14,
	TRB_SET_TR_DEQUEUE = 16,
	TRB_EV_TRANSFER = 32, TRB_EV_COMMAND = 33, TRB_EV_PORT = 34,
};
#define TRB_CYCLE (1u << 0)
#define TRB_TC (1u << 1)		// link: toggle cycle
#define TRB_ISP (1u << 2)
#define TRB_CH (1u << 4)
#define TRB_IOC (1u << 5)
#define TRB_IDT (1u << 6)
#define TRB_DIR_IN (1u << 16)
#define TRB_TYPE(t) ((uint32_t)(t) << 10)
#define TRB_TYPE_OF(c) (((c) >> 10) & 0x3fu)
#define TRB_SLOT(s) ((uint32_t)(s) << 24)
#define TRB_EP(dci) ((uint32_t)(dci) << 16)
#define CC_SUCCESS 1
#define CC_STALL 6
#define CC_SHORT_PACKET 13

struct xhci_trb {
	uint64_t param;
	uint32_t status;
	uint32_t control;
};

// A producer ring (commands, a transfer endpoint): a segment whose last TRB
// links back to its start, toggling the cycle bit.
struct xhci_ring {
	struct usb_buf mem;
	uint16_t n;		// TRBs, the link included
	uint16_t idx;		// next to write
	uint8_t cycle;
};

// What a device's pending command or transfer came to (set from events).
struct xhci_wait {
	uint64_t trb;		// the TRB whose event ends it (0: none pending)
	bool done;
	uint8_t cc;		// completion code
	uint32_t residue;	// bytes not moved (transfers)
};

enum xhci_dev_op {
	XOP_NONE, XOP_ENABLE, XOP_ADDRESS, XOP_EVALUATE, XOP_HUB, XOP_CONFIG_EP,
	XOP_RESET_EP, XOP_SET_DEQ, XOP_DISABLE,
};

struct xhci_dev {
	bool has_mem;
	struct usb_buf in, out;		// input and output device contexts
	struct xhci_ring ep0, intr;
	uint8_t slot;			// 0: none
	uint8_t speed;			// enum usb_speed
	uint8_t op;			// enum xhci_dev_op: the command in flight or next
	bool release;			// disable the slot once the command in flight ends
	struct xhci_wait cmd;
	uint16_t mps0;			// EP0's max packet size the controller knows
	uint8_t ports;			// hub ports the controller knows
	uint8_t want_ports, want_think;	// the hub fields being sent (dev_update)
	bool want_mtt;
	// Control transfers: the request waits while EP0 is recovered from a halt.
	bool ep0_halted;
	struct usb_setup setup;
	struct usb_buf data;
	struct xhci_wait ctl;
	// The interrupt-IN endpoint.
	uint8_t intr_dci;
	uint16_t intr_mps;
	struct usb_buf intr_buf;
	bool intr_rearm;		// queue the next transfer before looking again
	struct xhci_wait intr_wait;
};

enum xhci_stage { XS_WAKE, XS_HANDOFF, XS_HALT, XS_RESET, XS_RUN, XS_RUNNING, XS_FAILED };

struct xhci {
	uint32_t op, rt, db;		// register blocks' offsets from the BAR
	uint32_t hccparams;
	uint16_t xecp;			// first extended capability, bytes from the BAR (0: none)
	uint16_t legsup;		// USBLEGSUP, bytes from the BAR (0: none)
	uint8_t ctx_bytes;		// 32 or 64 (HCCPARAMS1 CSZ)
	uint8_t max_slots;		// enabled
	uint8_t max_ports;
	uint8_t stage;			// enum xhci_stage
	bool stage_begun;
	uint64_t deadline;
	uint64_t reset_at;		// when HCRST was written
	uint64_t awake_at;		// when the function is in D0 (it was woken)
	struct usb_buf dcbaa, erst;
	struct xhci_ring cmd;
	struct xhci_ring ev;		// consumer: idx is the dequeue, cycle the consumer's
	uint8_t usb3[32];		// bit per port: a USB 3 port (Supported Protocol)
	struct xhci_dev dev[USB_MAX_DEVICES];
};

static inline struct xhci *xhci_of(struct usb_hc *hc)
{
	return (struct xhci *)(void *)hc->drv;
}

// Registers by block.
uint32_t xhci_op_read(struct usb_hc *hc, uint32_t off);
void xhci_op_write(struct usb_hc *hc, uint32_t off, uint32_t value);
void xhci_op_write64(struct usb_hc *hc, uint32_t off, uint64_t value);
void xhci_rt_write64(struct usb_hc *hc, uint32_t off, uint64_t value);
void xhci_doorbell(struct usb_hc *hc, unsigned slot, unsigned target);

// xhci_ring.c: rings and the event ring.
void xhci_ring_init(struct xhci_ring *r, struct usb_buf mem, unsigned n);
// Write one TRB (the cycle bit added); its physical address.
uint64_t xhci_ring_push(struct xhci_ring *r, uint64_t param, uint32_t status, uint32_t control);
// Where the next TRB goes, with the cycle bit (Set TR Dequeue Pointer).
uint64_t xhci_ring_next(const struct xhci_ring *r);
// Take the events that came (a bounded number) into the devices' waits.
void xhci_events(struct usb_hc *hc);

// xhci_cmd.c: a device's command; the poll drains the events first.
void xhci_command(struct usb_hc *hc, unsigned dev, enum xhci_dev_op op, uint64_t param,
		  uint32_t control);
enum usb_step xhci_command_poll(struct usb_hc *hc, unsigned dev);
// The device's memory, taken the first time its index is used.
bool xhci_dev_memory(struct usb_hc *hc, unsigned dev);

// xhci_ctx.c: the contexts (6.2).
uint32_t *xhci_input_control(struct usb_hc *hc, unsigned dev);
// Context dci (0: the slot) of the input context.
uint32_t *xhci_input_ctx(struct usb_hc *hc, unsigned dev, unsigned dci);
uint32_t *xhci_output_ctx(struct usb_hc *hc, unsigned dev, unsigned dci);
void xhci_ctx_address(struct usb_hc *hc, unsigned dev, const struct usb_dev_where *where,
		      unsigned mps);
void xhci_ctx_hub(struct usb_hc *hc, unsigned dev, unsigned ports, unsigned think, bool mtt);
void xhci_ctx_intr(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned interval);

// xhci_start.c, xhci_port.c, xhci_dev.c, xhci_xfer.c: the ops.
void xhci_start(struct usb_hc *hc);
enum usb_step xhci_start_poll(struct usb_hc *hc);
void xhci_stop(struct usb_hc *hc);
// The byte offset of the first extended capability with id after the one
// at from (0: from the first), or 0 when there is none.
uint16_t xhci_xcap_find(struct usb_hc *hc, unsigned id, uint16_t from);
// Which root ports are USB 3 (Supported Protocol capabilities, 7.2).
void xhci_read_protocols(struct usb_hc *hc);
unsigned xhci_port_count(struct usb_hc *hc);
bool xhci_port_status(struct usb_hc *hc, unsigned port, struct usb_port_status *st);
void xhci_port_clear(struct usb_hc *hc, unsigned port);
void xhci_port_reset(struct usb_hc *hc, unsigned port);
enum usb_step xhci_port_reset_poll(struct usb_hc *hc, unsigned port);
void xhci_port_disable(struct usb_hc *hc, unsigned port);
void xhci_dev_setup(struct usb_hc *hc, unsigned dev, const struct usb_dev_where *where,
		    unsigned mps);
enum usb_step xhci_dev_setup_poll(struct usb_hc *hc, unsigned dev, uint8_t *address);
void xhci_dev_update(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned ports,
		     unsigned think, bool mtt);
enum usb_step xhci_dev_update_poll(struct usb_hc *hc, unsigned dev);
void xhci_dev_release(struct usb_hc *hc, unsigned dev);
enum usb_step xhci_dev_release_poll(struct usb_hc *hc, unsigned dev);
void xhci_control(struct usb_hc *hc, unsigned dev, const struct usb_setup *setup,
		  struct usb_buf data);
enum usb_step xhci_control_poll(struct usb_hc *hc, unsigned dev, size_t *actual);
void xhci_intr_open(struct usb_hc *hc, unsigned dev, unsigned ep, unsigned mps,
		    unsigned interval, struct usb_buf buf);
enum usb_step xhci_intr_open_poll(struct usb_hc *hc, unsigned dev);
enum usb_step xhci_intr_poll(struct usb_hc *hc, unsigned dev, size_t *actual);

#endif
