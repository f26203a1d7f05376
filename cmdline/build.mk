# cmdline: the option engine every program's command line runs on (cmdline.h), one object in
# plain C; included by quakeworld-server/Makefile (qwsv, qwmapgen) and clients/Makefile
# (qwbot). libtm/bench compiles cmdline.c itself, once per variant (its own Makefile).
CMDLINE         := $(TOP)/cmdline
CMDLINE_OBJ     := $(call objects,$(CMDLINE)/cmdline.c)
CMDLINE_INCLUDE := -I$(CMDLINE)
$(CMDLINE_OBJ): CFLAGS_PART :=
BUILT += $(CMDLINE_OBJ)
