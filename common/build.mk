# common: the small C pieces several programs share, plain C (no TM): cmdline.c, the option
# engine every program's command line runs on; whole_file.c, reading a whole file. Included
# by quakeworld-server/Makefile (qwsv, qwmapgen, the QuakeC interpreter) and clients/Makefile
# (qwbot). libtm/bench compiles cmdline.c itself, once per variant (its own Makefile).
COMMON         := $(TOP)/common
COMMON_CMDLINE := $(call objects,$(COMMON)/cmdline.c)
COMMON_WHOLE_FILE := $(call objects,$(COMMON)/whole_file.c)
COMMON_OBJS    := $(COMMON_CMDLINE) $(COMMON_WHOLE_FILE)
COMMON_INCLUDE := -I$(COMMON)
$(COMMON_OBJS): CFLAGS_PART :=
BUILT += $(COMMON_OBJS)
