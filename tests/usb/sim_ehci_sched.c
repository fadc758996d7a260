// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated EHCI controller's schedules (sim_ehci.h): each frame, the
// frame list's entry (4.6) and the QHs it links to, one transaction per
// interrupt QH, then the async ring (4.8) from ASYNCLISTADDR, every QH's
// qTDs until one NAKs, stalls or ends. The queue advances as 4.10 says:
// a qTD's words copied into the QH's overlay, its token written back when
// it retires, a short IN packet following the alternate pointer. Pointers
// outside the DMA block halt the controller with a host system error.
#include "memstr.h"

#include "sim_ehci.h"
#include "usb/ehci_regs.h"

#define SIM_WALK_MAX 64		// nodes one list walk visits (a broken list loops)

static uint32_t *dma(struct sim_ehci *s, uint32_t phys, size_t bytes)
{
	if (phys < s->mem_phys || phys - s->mem_phys > s->mem_bytes ||
	    s->mem_bytes - (phys - s->mem_phys) < bytes) {
		s->bad_dma++;
		s->sts |= EHCI_STS_HSE | EHCI_STS_HALTED;
		s->cmd &= ~EHCI_CMD_RS;
		return NULL;
	}
	return (uint32_t *)(s->mem + (phys - s->mem_phys));
}

static uint32_t enabled_ports(const struct sim_ehci *s)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < s->ports; i++)
		if ((s->portsc[i] & EHCI_PORT_PE) && !(s->portsc[i] & EHCI_PORT_OWNER))
			m |= 1u << i;
	return m;
}

// Copy n bytes between the transfer's buffer (the overlay's pages and
// current offset) and data; false when a page lies outside the DMA block.
static bool buffer_move(struct sim_ehci *s, uint32_t *ov, uint8_t *data, unsigned n, bool in)
{
	unsigned page = (ov[TD_TOKEN] >> 12) & 7;
	unsigned off = ov[TD_BUF0] & 0xfff;

	while (n) {
		unsigned chunk = 4096 - off < n ? 4096 - off : n;
		uint8_t *at;

		if (page > 4 || !(at = (uint8_t *)dma(s, (ov[TD_BUF0 + page] & ~0xfffu) + off, chunk)))
			return false;
		if (in)
			mem_copy(at, data, chunk);
		else
			mem_copy(data, at, chunk);
		data += chunk, n -= chunk, off += chunk;
		if (off == 4096)
			page++, off = 0;
	}
	ov[TD_BUF0] = (ov[TD_BUF0] & ~0xfffu) | off;
	ov[TD_TOKEN] = (ov[TD_TOKEN] & ~(7u << 12)) | (page << 12);
	return true;
}

// Retire the overlay's qTD: the token back into the qTD, then the next one.
static void retire(struct sim_ehci *s, uint32_t *qh, bool short_in)
{
	uint32_t *td = dma(s, qh[QH_CUR], TD_WORDS * 4);

	if (!td)
		return;
	qh[QH_OVERLAY + TD_TOKEN] &= ~EHCI_TD_ACTIVE;
	td[TD_TOKEN] = qh[QH_OVERLAY + TD_TOKEN];
	if (short_in && !(qh[QH_OVERLAY + TD_ALT] & EHCI_LINK_T))
		qh[QH_OVERLAY + TD_NEXT] = qh[QH_OVERLAY + TD_ALT];
	if (td[TD_TOKEN] & EHCI_TD_IOC)
		s->sts |= EHCI_STS_INT;
}

static void halt(struct sim_ehci *s, uint32_t *qh, uint32_t why)
{
	qh[QH_OVERLAY + TD_TOKEN] |= EHCI_TD_HALTED | why;
	retire(s, qh, false);
	s->sts |= EHCI_STS_ERR;
}

// One packet of the overlay's transfer: false when the QH is done for
// now (NAK, halt, the qTD retired, or an error).
static bool packet(struct sim_ehci *s, uint32_t *qh, bool periodic)
{
	uint32_t *ov = &qh[QH_OVERLAY];
	uint32_t pid = ov[TD_TOKEN] & (3u << 8), left = EHCI_TD_BYTES(ov[TD_TOKEN]);
	unsigned mps = (qh[QH_CHAR] >> 16) & 0x7ff, n = left < mps ? left : mps;
	uint8_t data[1024];
	struct sim_ehci_xact x = {
		.enabled_ports = enabled_ports(s), .addr = qh[QH_CHAR] & 0x7f,
		.ep = (qh[QH_CHAR] >> 8) & 0xf, .pid = pid, .data = data, .len = n,
		.toggle = ov[TD_TOKEN] & EHCI_TD_TOGGLE, .qh_char = qh[QH_CHAR],
		.qh_caps = qh[QH_CAPS], .periodic = periodic,
	};
	int got;

	if (mps == 0 || mps > sizeof data) {
		halt(s, qh, EHCI_TD_BABBLE);
		return false;
	}
	if (pid != EHCI_TD_PID_IN && !buffer_move(s, ov, data, n, false))
		return false;
	got = s->bus.transact(s->bus.ctx, &x);
	if (got == SIM_NAK)
		return false;
	if (got == SIM_STALL) {
		halt(s, qh, 0);
		return false;
	}
	if (got == SIM_SILENT) {	// 4.15.1.1: three strikes
		unsigned cerr = (ov[TD_TOKEN] >> 10) & 3;

		ov[TD_TOKEN] = (ov[TD_TOKEN] & ~(3u << 10)) | ((cerr ? cerr - 1 : 0) << 10);
		if (cerr <= 1)
			halt(s, qh, EHCI_TD_XACT);
		return false;
	}
	if ((unsigned)got > n) {
		halt(s, qh, EHCI_TD_BABBLE);
		return false;
	}
	if (pid == EHCI_TD_PID_IN && !buffer_move(s, ov, data, (unsigned)got, true))
		return false;
	left -= (unsigned)got;
	ov[TD_TOKEN] = ((ov[TD_TOKEN] & ~(0x7fffu << 16)) | EHCI_TD_BYTES_SET(left)) ^
		       EHCI_TD_TOGGLE;
	if (left == 0 || (pid == EHCI_TD_PID_IN && (unsigned)got < mps))
		retire(s, qh, left != 0);
	return !periodic;	// a periodic QH moves one packet a frame
}

// Load the next qTD into the overlay when the overlay is idle (4.10.2).
static bool advance(struct sim_ehci *s, uint32_t *qh)
{
	uint32_t next = qh[QH_OVERLAY + TD_NEXT], *td, toggle;

	if (qh[QH_OVERLAY + TD_TOKEN] & EHCI_TD_HALTED)
		return false;
	if (qh[QH_OVERLAY + TD_TOKEN] & EHCI_TD_ACTIVE)
		return true;
	if (next & EHCI_LINK_T)
		return false;
	if (!(td = dma(s, EHCI_LINK_ADDR(next), TD_WORDS * 4)) || !(td[TD_TOKEN] & EHCI_TD_ACTIVE))
		return false;
	toggle = qh[QH_OVERLAY + TD_TOKEN] & EHCI_TD_TOGGLE;
	qh[QH_CUR] = EHCI_LINK_ADDR(next);
	mem_copy(&qh[QH_OVERLAY], td, TD_WORDS * 4);
	if (!(qh[QH_CHAR] & EHCI_QH_DTC))
		qh[QH_OVERLAY + TD_TOKEN] = (qh[QH_OVERLAY + TD_TOKEN] & ~EHCI_TD_TOGGLE) | toggle;
	return true;
}

static void run_qh(struct sim_ehci *s, uint32_t *qh, bool periodic)
{
	// Each qTD moves at least a packet or stops: 64 bounds a broken chain.
	for (unsigned n = 0; n < SIM_WALK_MAX && advance(s, qh); n++)
		if (!packet(s, qh, periodic))
			return;
}

static void run_periodic(struct sim_ehci *s)
{
	uint32_t *frames = dma(s, s->periodic_base & ~0xfffu, EHCI_FRAMES * 4), link;

	if (!frames)
		return;
	link = frames[(s->frindex >> 3) % EHCI_FRAMES];
	for (unsigned n = 0; n < SIM_WALK_MAX && !(link & EHCI_LINK_T); n++) {
		uint32_t *qh;

		if (!(qh = dma(s, EHCI_LINK_ADDR(link), QH_WORDS * 4)))
			return;
		if (EHCI_LINK_TYPE(link) != 1) {	// the driver queues QHs only
			s->bad_links++;
			return;
		}
		if (qh[QH_CAPS] & 0xff)	// an S-mask: runs in this frame
			run_qh(s, qh, true);
		link = qh[QH_LINK];
	}
}

// The async walk read the QH at phys: it may cache its endpoint words
// until the next doorbell is answered.
static void async_seen(struct sim_ehci *s, uint32_t phys, const uint32_t *qh)
{
	unsigned free = 32;

	for (unsigned i = 0; i < 32; i++) {
		if (s->seen[i].phys == phys) {
			if ((s->seen[i].chr != qh[QH_CHAR] || s->seen[i].caps != qh[QH_CAPS]) &&
			    s->seen[i].iaa == s->iaa_answers)
				s->bad_rewrites++;
			free = i;
			break;
		}
		if (!s->seen[i].phys && free == 32)
			free = i;
	}
	if (free < 32)
		s->seen[free] = (typeof(s->seen[0])){ phys, qh[QH_CHAR], qh[QH_CAPS], s->iaa_answers };
}

static void run_async(struct sim_ehci *s)
{
	uint32_t link = s->async_addr | EHCI_LINK_QH;

	for (unsigned n = 0; n < SIM_WALK_MAX; n++) {
		uint32_t *qh = dma(s, EHCI_LINK_ADDR(link), QH_WORDS * 4);

		if (!qh)
			return;
		async_seen(s, EHCI_LINK_ADDR(link), qh);
		run_qh(s, qh, false);
		link = qh[QH_LINK];
		if ((link & EHCI_LINK_T) || EHCI_LINK_TYPE(link) != 1) {
			s->bad_links++;	// 4.8: the async list is a ring of QHs
			return;
		}
		if (EHCI_LINK_ADDR(link) == EHCI_LINK_ADDR(s->async_addr))
			return;
	}
}

void sim_ehci_frame(struct sim_ehci *s)
{
	if (s->cmd & EHCI_CMD_PSE)
		run_periodic(s);
	if ((s->cmd & EHCI_CMD_ASE) && !(s->sts & EHCI_STS_HALTED))
		run_async(s);
	if (s->cmd & EHCI_CMD_IAAD) {	// the ring was walked: unlinked QHs are let go
		s->cmd &= ~EHCI_CMD_IAAD;
		s->sts |= EHCI_STS_IAA;
		s->iaa_answers++;
	}
	s->frindex = (s->frindex + 8) & 0x3fff;
	if ((s->frindex >> 3) % EHCI_FRAMES == 0)
		s->sts |= EHCI_STS_FLR;
}
