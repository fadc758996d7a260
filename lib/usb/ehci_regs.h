// SPDX-License-Identifier: GPL-2.0-or-later
// EHCI 1.0 registers and in-memory structures, the one definition the
// driver (lib/usb/ehci*.c) and the simulator (tests/usb/sim_ehci*.c) share.
// Section numbers are those of the EHCI specification, revision 1.0.
#ifndef RAMSIFT_LIB_USB_EHCI_REGS_H
#define RAMSIFT_LIB_USB_EHCI_REGS_H

// 2.2 capability registers, from the BAR.
#define EHCI_CAPLENGTH	0x00	// low byte: where the operational registers start
#define EHCI_HCSPARAMS	0x04
#define EHCI_HCCPARAMS	0x08
#define EHCI_HCS_N_PORTS(v)	((v) & 0xf)
#define EHCI_HCS_PPC		(1u << 4)	// ports have power switches
#define EHCI_HCC_64BIT		(1u << 0)
#define EHCI_HCC_EECP(v)	(((v) >> 8) & 0xff)

// 2.3 operational registers, from BAR + CAPLENGTH.
#define EHCI_USBCMD	0x00
#define EHCI_USBSTS	0x04
#define EHCI_USBINTR	0x08
#define EHCI_FRINDEX	0x0c
#define EHCI_CTRLDSSEGMENT 0x10
#define EHCI_PERIODICLISTBASE 0x14
#define EHCI_ASYNCLISTADDR 0x18
#define EHCI_CONFIGFLAG	0x40
#define EHCI_PORTSC(i)	(0x44 + 4 * (i))	// i from 0

#define EHCI_CMD_RS		(1u << 0)
#define EHCI_CMD_HCRESET	(1u << 1)
#define EHCI_CMD_PSE		(1u << 4)
#define EHCI_CMD_ASE		(1u << 5)
#define EHCI_CMD_IAAD		(1u << 6)	// ring the async doorbell
#define EHCI_CMD_ITC_8		(8u << 16)	// the reset value: 1 ms

#define EHCI_STS_INT		(1u << 0)
#define EHCI_STS_ERR		(1u << 1)
#define EHCI_STS_PCD		(1u << 2)
#define EHCI_STS_FLR		(1u << 3)
#define EHCI_STS_HSE		(1u << 4)	// host system error: the controller halted itself
#define EHCI_STS_IAA		(1u << 5)
#define EHCI_STS_RWC		0x3fu
#define EHCI_STS_HALTED		(1u << 12)
#define EHCI_STS_PSS		(1u << 14)
#define EHCI_STS_ASS		(1u << 15)

// 2.3.9 PORTSC. CSC, PEC and OCC are write-1-to-clear.
#define EHCI_PORT_CCS		(1u << 0)
#define EHCI_PORT_CSC		(1u << 1)
#define EHCI_PORT_PE		(1u << 2)
#define EHCI_PORT_PEC		(1u << 3)
#define EHCI_PORT_OCC		(1u << 5)
#define EHCI_PORT_PR		(1u << 8)
#define EHCI_PORT_LS_MASK	(3u << 10)
#define EHCI_PORT_LS_K		(1u << 10)	// a low-speed device, before reset
#define EHCI_PORT_PP		(1u << 12)
#define EHCI_PORT_OWNER		(1u << 13)	// 1: the companion controller owns it
#define EHCI_PORT_RWC		(EHCI_PORT_CSC | EHCI_PORT_PEC | EHCI_PORT_OCC)

// 2.1.7 the legacy support capability in PCI configuration space (EECP).
#define EHCI_LEGSUP_ID		0x01
#define EHCI_LEGSUP_BIOS_OWNED	(1u << 16)
#define EHCI_LEGSUP_OS_OWNED	(1u << 24)
#define EHCI_LEGCTLSTS		4	// from the capability: SMI enables, low 16 bits

// 3.1 link pointers (frame list, QH horizontal link, qTD next).
#define EHCI_LINK_T		1u	// terminate
#define EHCI_LINK_QH		(1u << 1)
#define EHCI_LINK_TYPE(v)	(((v) >> 1) & 3)
#define EHCI_LINK_ADDR(v)	((v) & ~0x1fu)
#define EHCI_FRAMES		1024	// the frame list's entries (FLS 0), 4 KiB

// 3.5 qTD token.
#define EHCI_TD_PING		(1u << 0)
#define EHCI_TD_SPLITXSTATE	(1u << 1)
#define EHCI_TD_MISSED		(1u << 2)
#define EHCI_TD_XACT		(1u << 3)
#define EHCI_TD_BABBLE		(1u << 4)
#define EHCI_TD_BUFERR		(1u << 5)
#define EHCI_TD_HALTED		(1u << 6)
#define EHCI_TD_ACTIVE		(1u << 7)
#define EHCI_TD_PID_OUT		(0u << 8)
#define EHCI_TD_PID_IN		(1u << 8)
#define EHCI_TD_PID_SETUP	(2u << 8)
#define EHCI_TD_PID(v)		(((v) >> 8) & 3)
#define EHCI_TD_CERR_3		(3u << 10)
#define EHCI_TD_IOC		(1u << 15)
#define EHCI_TD_BYTES(v)	(((v) >> 16) & 0x7fff)
#define EHCI_TD_BYTES_SET(n)	((uint32_t)(n) << 16)
#define EHCI_TD_TOGGLE		(1u << 31)

// 3.6 QH endpoint characteristics (word 1) and capabilities (word 2).
#define EHCI_QH_ADDR(a)		((uint32_t)(a) & 0x7f)
#define EHCI_QH_EP(e)		(((uint32_t)(e) & 0xf) << 8)
#define EHCI_QH_EPS_FULL	(0u << 12)
#define EHCI_QH_EPS_LOW		(1u << 12)
#define EHCI_QH_EPS_HIGH	(2u << 12)
#define EHCI_QH_EPS(v)		(((v) >> 12) & 3)
#define EHCI_QH_DTC		(1u << 14)	// the toggle comes from each qTD
#define EHCI_QH_HEAD		(1u << 15)	// head of the reclamation list
#define EHCI_QH_MAXPKT(n)	(((uint32_t)(n) & 0x7ff) << 16)
#define EHCI_QH_CONTROL		(1u << 27)	// a full/low-speed control endpoint
#define EHCI_QH_SMASK(m)	((uint32_t)(m) & 0xff)
#define EHCI_QH_CMASK(m)	(((uint32_t)(m) & 0xff) << 8)
#define EHCI_QH_HUB(a)		(((uint32_t)(a) & 0x7f) << 16)
#define EHCI_QH_PORT(p)		(((uint32_t)(p) & 0x7f) << 23)
#define EHCI_QH_MULT_1		(1u << 30)

// The words of a qTD (3.5) and of a QH (3.6), 32-bit addressing.
enum ehci_td_word { TD_NEXT, TD_ALT, TD_TOKEN, TD_BUF0, TD_WORDS = 8 };
enum ehci_qh_word { QH_LINK, QH_CHAR, QH_CAPS, QH_CUR, QH_OVERLAY, QH_WORDS = 12 };

#endif
