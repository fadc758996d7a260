# SPDX-License-Identifier: GPL-2.0-or-later
# The USB simulators (tests/usb/: simulated controllers and devices), one
# archive linked into the USB unit tests (tests/unit/test_usb_*.c), first
# so that they may use lib/.

USB_SIM_OBJS := $(patsubst %,$(B)/host/%.o,$(sort $(wildcard tests/usb/*.c)))
$(B)/host/tests/usb/%: HOST_CFLAGS += -iquote tests/usb
$(B)/host/libusb-sim.a: $(USB_SIM_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
$(filter $(B)/host/unit/test_usb_%,$(UNIT_BINS)): $(B)/host/libusb-sim.a
$(B)/host/unit/test_usb_%: HOST_CFLAGS += -iquote tests/usb
$(B)/host/unit/test_usb_%: HOST_LINK := $(B)/host/libusb-sim.a $(HOST_LINK)
