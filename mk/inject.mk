# SPDX-License-Identifier: GPL-2.0-or-later
# The host fault injector used by the end-to-end tests (tests/inject/inject.c).

$(B)/host/ramsift-inject: tests/inject/inject.c lib/memtest/prng.c
	$(call say,HOSTCC,$<)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -iquote lib -o $@ $^

# Scenarios in tests/e2e hold faults with it.
E2E_DEPS += $(B)/host/ramsift-inject
