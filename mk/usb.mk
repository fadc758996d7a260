# SPDX-License-Identifier: GPL-2.0-or-later
# The USB stack's unit tests (tests/unit/test_usb_*.c) link the controller
# simulators and simulated devices of tests/usb/ besides lib/; they run in
# check-unit with the others (a static pattern rule: it wins over the
# Makefile's for the other unit tests).

USB_SIM_OBJS := $(patsubst %,$(B)/host/%.o,$(sort $(wildcard tests/usb/*.c)))
USB_UNIT_BINS := $(filter $(B)/host/unit/test_usb_%,$(UNIT_BINS))
$(USB_UNIT_BINS): $(B)/host/unit/%: tests/unit/%.c $(USB_SIM_OBJS) $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -iquote tests/usb -o $@ $< \
		$(USB_SIM_OBJS) $(HOST_LINK) $(HOST_LDFLAGS) -lcmocka
