# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift: build the bare-metal image, the host builds of lib/, and run the tests.
# Quiet unless V=1. Outputs go under build/: build/image (freestanding), build/host.

.DELETE_ON_ERROR:
.SUFFIXES:
.DEFAULT_GOAL := all

V ?= 0
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,@printf '  %-7s %s\n' '$(1)' '$(2)';)

B := build

# ---- the bare-metal image ---------------------------------------------------
CC       ?= gcc
IMG_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -MMD -MP \
	-ffreestanding -nostdlib -fno-builtin -fno-tree-loop-distribute-patterns \
	-fno-stack-protector -fno-delete-null-pointer-checks -fno-pic -fno-pie -mno-red-zone -mcmodel=kernel \
	-mgeneral-regs-only -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
	-Ilib -Ilib/hw -Isrc
IMG_ASFLAGS := -g -Wall -Werror -MMD -MP -Ilib -Isrc -D__ASSEMBLY__
IMG_LDFLAGS := -nostdlib -static -no-pie -Wl,--no-dynamic-linker -Wl,-z,max-page-size=0x1000 \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments -Wl,--build-id=none -T boot/link.ld

LIB_SRCS  := $(sort $(wildcard lib/*.c))
IMG_SRCS  := $(sort $(wildcard boot/*.S) $(wildcard src/*.c) $(wildcard src/*.S)) $(LIB_SRCS)
IMG_OBJS  := $(patsubst %,$(B)/image/%.o,$(IMG_SRCS))

$(B)/image/%.c.o: %.c
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(IMG_CFLAGS) -c $< -o $@
$(B)/image/%.S.o: %.S
	$(call say,AS,$<)mkdir -p $(@D) && $(CC) $(IMG_ASFLAGS) -c $< -o $@

$(B)/ramsift.elf: $(IMG_OBJS) boot/link.ld tools/check-image.sh
	$(call say,LD,$@)$(CC) $(IMG_LDFLAGS) -o $@ $(IMG_OBJS) -lgcc
	$(Q)sh tools/check-image.sh $@

# ---- host builds of lib/ ----------------------------------------------------
HOST_CC     ?= gcc
HOST_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -MMD -MP $(HOST_SAN) -Ilib -Itests/sim
HOST_LDFLAGS := $(HOST_SAN)

HOST_LIB_OBJS := $(patsubst %,$(B)/host/%.o,$(LIB_SRCS))
$(B)/host/%.c.o: %.c
	$(call say,HOSTCC,$<)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -c $< -o $@
$(B)/host/libramsift.a: $(HOST_LIB_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

# Unit tests: every tests/unit/test_<module>.c is one cmocka program.
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/host/unit/%,$(UNIT_SRCS))
$(B)/host/unit/%: tests/unit/%.c $(B)/host/libramsift.a
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(B)/host/libramsift.a $(HOST_LDFLAGS) -lcmocka

.PHONY: all image unit check check-unit check-e2e run iso deps clean
all: $(B)/ramsift.elf

# Further host programs, ISO assembly and test groups live in mk/*.mk; each adds
# its check target to CHECK_TARGETS.
CHECK_TARGETS := check-unit
include $(sort $(wildcard mk/*.mk))

deps:
	$(Q)sh tools/deps.sh

check-unit: $(UNIT_BINS)
	$(Q)set -e; for t in $(UNIT_BINS); do echo "  UNIT    $$t"; $$t; done

# check-deps first: a missing package then fails in a second, not a test.
check: deps
	$(Q)$(MAKE) --no-print-directory check-deps
	$(Q)$(MAKE) --no-print-directory $(CHECK_TARGETS)
	@echo "make check: all tests passed"

clean:
	rm -rf $(B)

# build/fresh holds make check-fresh's Debian root, whose /etc has *.d folders.
-include $(shell find $(B) -path $(B)/fresh -prune -o -name '*.d' -print 2>/dev/null)
