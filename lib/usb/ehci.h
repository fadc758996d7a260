// SPDX-License-Identifier: GPL-2.0-or-later
// The EHCI driver's state and what its files share (internal to
// lib/usb/ehci*.c): ehci_start.c takes and resets the controller,
// ehci_port.c drives the root ports, ehci_sched.c builds queue heads and
// qTDs and links them into the schedules, ehci_xfer.c runs a device's
// control and interrupt transfers. All of it lives in struct usb_hc's drv.
#ifndef RAMSIFT_LIB_USB_EHCI_H
#define RAMSIFT_LIB_USB_EHCI_H

#include <stdbool.h>
#include <stdint.h>

#include "usb/ehci_regs.h"
#include "usb/hc.h"
#include "usb/host.h"

#define EHCI_MAX_PORTS 15	// N_PORTS is 4 bits
#define EHCI_RESET_US 50000u	// a root port's reset (USB 2.0 7.1.7.5: TDRSTR)
// Allocations: QH and qTD sizes leave room for the 64-bit layouts
// (Appendix B), whose extra words stay zero.
#define EHCI_QH_SIZE 128
#define EHCI_TD_SIZE 64
#define EHCI_CTL_TDS 3		// setup, data, status
// Interrupt qTDs that end in transaction errors (three tries each) before
// the endpoint counts as failed: about 0.8 s at a poll a millisecond.
#define EHCI_INTR_RETRIES 200

struct ehci_dev {
	bool ready;		// its DMA pieces are taken (once per index)
	struct usb_buf qh0, qhi;	// endpoint 0's QH, the interrupt-IN QH
	struct usb_buf td[EHCI_CTL_TDS], tdi, setup;
	bool qh0_linked, qhi_linked;
	bool qh0_stale;		// address or max packet changed: reload before use
	struct usb_dev_where where;
	uint8_t addr;
	uint16_t ep0_mps;
	uint8_t ctl_phase;	// enum ehci_ctl_phase (ehci_xfer.c)
	bool ctl_data, ctl_in;
	uint16_t ctl_len;
	struct usb_buf ctl_buf;
	uint16_t intr_len;
	bool intr_armed;	// the interrupt qTD is queued
	uint16_t intr_errors;	// its transaction errors in a row
	struct usb_buf report;
	uint32_t ticket;	// the async doorbell that frees endpoint 0's QH
	uint16_t frame0;	// FRINDEX when the interrupt QH was unlinked
	bool rel_async, rel_periodic;
};

struct ehci_port {
	uint8_t state;		// enum ehci_port_state (ehci_port.c)
	uint64_t since;		// when the reset began, env->now_us
};

struct ehci {
	uint32_t op;		// operational registers' offset (CAPLENGTH)
	unsigned ports;
	unsigned companions;	// N_CC: controllers that take full/low-speed devices
	uint8_t start_state;	// enum ehci_start_state (ehci_start.c)
	uint64_t deadline;
	uint16_t legsup;	// EECP: the legacy support capability, 0 when none
	bool schedules;		// frame list and the two head QHs are taken
	struct usb_buf frames, async_head, intr_head;
	// The async doorbell (4.8.2): started counts the doorbells rung,
	// done those answered; a QH unlinked before doorbell n started is
	// free once done >= n.
	uint32_t iaa_started, iaa_done, iaa_wanted;
	bool iaa_ringing;
	struct ehci_port port[EHCI_MAX_PORTS];
	struct ehci_dev dev[USB_MAX_DEVICES];
};

_Static_assert(sizeof(struct ehci) <= USB_HC_DRV_BYTES, "EHCI state fits usb_hc's drv");

static inline struct ehci *ehci_of(struct usb_hc *hc)
{
	return (struct ehci *)hc->drv;
}

static inline uint32_t ehci_op_read(struct usb_hc *hc, uint32_t reg)
{
	return usb_hc_read(hc, ehci_of(hc)->op + reg);
}

static inline void ehci_op_write(struct usb_hc *hc, uint32_t reg, uint32_t value)
{
	usb_hc_write(hc, ehci_of(hc)->op + reg, value);
}

// A 32-bit word of a QH or qTD the controller also reads and writes.
static inline uint32_t ehci_word(struct usb_buf b, unsigned word)
{
	return ((volatile uint32_t *)b.virt)[word];
}

static inline void ehci_set_word(struct usb_buf b, unsigned word, uint32_t value)
{
	((volatile uint32_t *)b.virt)[word] = value;
}

// ehci_sched.c
// A zeroed piece of the DMA block the controller can reach (below 4 GiB);
// false, with a warning naming what, when there is no room.
bool ehci_take(struct usb_hc *hc, size_t bytes, size_t align, struct usb_buf *out,
	       const char *what);
// The frame list and the two head QHs, once; false (warned) when no room.
bool ehci_schedules_take(struct usb_hc *hc);
// Fill the qTD td: a transfer of len bytes at buf (phys) with PID pid
// (EHCI_TD_PID_*), data toggle toggle, then next (a qTD's phys, or
// EHCI_LINK_T), alt likewise. Leaves it active.
void ehci_td_fill(struct usb_buf td, uint32_t pid, bool toggle, uint64_t buf, unsigned len,
		  uint32_t next, uint32_t alt);
// Set QH qh's endpoint words and an idle overlay (nothing queued).
void ehci_qh_fill(struct usb_buf qh, uint32_t chr, uint32_t caps);
// Queue the qTD at td_phys on the idle QH qh (clears a halt).
void ehci_qh_queue(struct usb_buf qh, uint64_t td_phys);
// Link qh after the head of the async ring or of the interrupt chain.
void ehci_link_after(struct usb_buf head, struct usb_buf qh);
// Unlink qh from the list that starts at head; false when it was not there.
bool ehci_unlink(struct usb_buf head, struct usb_buf qh);
// QH words 1 and 2 for an endpoint of the device at where, address addr.
uint32_t ehci_qh_char(const struct usb_dev_where *where, uint8_t addr, unsigned ep,
		      unsigned mps);
uint32_t ehci_qh_caps(const struct usb_dev_where *where, bool periodic);

// The ops (lib/usb/hc.h says what each does).
void ehci_start(struct usb_hc *hc);
enum usb_step ehci_start_poll(struct usb_hc *hc);
void ehci_stop(struct usb_hc *hc);
void ehci_port_reset(struct usb_hc *hc, unsigned port);
enum usb_step ehci_port_reset_poll(struct usb_hc *hc, unsigned port);
bool ehci_port_status(struct usb_hc *hc, unsigned port, struct usb_port_status *st);
void ehci_port_clear(struct usb_hc *hc, unsigned port);
void ehci_port_disable(struct usb_hc *hc, unsigned port);
void ehci_dev_setup(struct usb_hc *hc, unsigned dev, const struct usb_dev_where *where,
		    unsigned mps);
enum usb_step ehci_dev_setup_poll(struct usb_hc *hc, unsigned dev, uint8_t *address);
void ehci_dev_address(struct usb_hc *hc, unsigned dev, uint8_t address);
void ehci_dev_update(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned ports,
		     unsigned think, bool mtt);
enum usb_step ehci_dev_update_poll(struct usb_hc *hc, unsigned dev);
void ehci_control(struct usb_hc *hc, unsigned dev, const struct usb_setup *setup,
		  struct usb_buf data);
enum usb_step ehci_control_poll(struct usb_hc *hc, unsigned dev, size_t *actual);
void ehci_intr_open(struct usb_hc *hc, unsigned dev, unsigned ep, unsigned mps,
		    unsigned interval, struct usb_buf buf);
enum usb_step ehci_intr_open_poll(struct usb_hc *hc, unsigned dev);
enum usb_step ehci_intr_poll(struct usb_hc *hc, unsigned dev, size_t *actual);
void ehci_dev_release(struct usb_hc *hc, unsigned dev);
enum usb_step ehci_dev_release_poll(struct usb_hc *hc, unsigned dev);


// ehci_start.c
// True when the controller is halted (or gone): no schedule runs.
bool ehci_halted(struct usb_hc *hc);
// The async doorbell: ask for one (returns its number), and move it on.
uint32_t ehci_doorbell_ask(struct usb_hc *hc);
bool ehci_doorbell_done(struct usb_hc *hc, uint32_t ticket);

#endif
