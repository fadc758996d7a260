# SPDX-License-Identifier: GPL-2.0-or-later
# Host unit tests of image code in src/ that has no hardware in it: they may
# include src/ headers (the Makefile's unit rule gives them only lib/).
# test_spinlock: the lock of src/x86/spinlock.h, CPU ids passed by hand.

$(B)/host/unit/test_spinlock: HOST_CFLAGS += -iquote src
# test_barrier: the barrier and stall watch of src/x86/barrier.h on host threads.
$(B)/host/unit/test_barrier: HOST_CFLAGS += -iquote src -pthread
# test_log: src/log.c's line length and cut mark, the consoles a buffer.
$(B)/host/unit/test_log: HOST_CFLAGS += -iquote src
