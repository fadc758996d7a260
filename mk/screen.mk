# SPDX-License-Identifier: GPL-2.0-or-later
# The screen: the built-in 8x16 font (lib/screen/font.h), generated at build
# time by tools/psf2c from a console font of Debian's console-setup-linux
# (tools/deps.sh installs it), and compiled into the image and into the host
# library like a source of lib/.

FONT_PSF ?= /usr/share/consolefonts/FullGreek-VGA16.psf.gz
FONT_SRC := $(B)/gen/font8x16.c

$(FONT_PSF):
	@echo "$@ is missing: install Debian's console-setup-linux (make deps)" >&2; exit 1

$(B)/host/psf2c: tools/psf2c.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

$(FONT_SRC): $(FONT_PSF) tools/font-licence.txt $(B)/host/psf2c
	$(call say,GEN,$@)mkdir -p $(@D) && gzip -dc $(FONT_PSF) | \
		$(B)/host/psf2c $(notdir $(FONT_PSF)) tools/font-licence.txt >$@

IMG_OBJS += $(B)/image/$(FONT_SRC).o
$(B)/ramsift.elf: $(B)/image/$(FONT_SRC).o
HOST_LIB_OBJS += $(B)/host/$(FONT_SRC).o
$(B)/host/libramsift.a: $(B)/host/$(FONT_SRC).o

# The screen scenarios' reader (tests/e2e/screen-*.sh): reads the text back
# from a screendump with the same font, or from the VGA text buffer, and
# compares it with the serial log; also writes PNGs. Built like the unit
# tests; lib/ on the quote path only, so it gets the C library's <string.h>.
$(B)/host/screencheck: tests/screen/screencheck.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(filter-out -Ilib,$(HOST_CFLAGS)) -iquote lib \
		-o $@ $< $(HOST_LINK) $(HOST_LDFLAGS)
