# quakeworld-server/server: qwsv, the QuakeWorld server (Atomic Quake frame, -sync
# lock|region|stm|stmlock|none), and its tests (tests/tests.mk); included by
# quakeworld-server/Makefile. Every server file is compiled with $(TM_CFLAGS); the program links
# the transactional libqwproto-tm.a and libitm (libtm when built, else GCC's) through
# $(LIBTM_LDFLAGS) -litm.
SERVER      := $(TOP)/quakeworld-server/server
SV_MAIN     := $(call objects,$(SERVER)/main.c)
# every .c of the server's folders (admin, game, qcgame, net, sched, stats, sync, ...) but main.c, the
# tests and the QuakeC interpreter (progs/build.mk: a library of its own)
SV_ALL_SRCS := $(filter-out $(SERVER)/tests/% $(SERVER)/progs/%,$(wildcard $(SERVER)/*.c $(SERVER)/*/*.c))
SV_SRCS     := $(filter-out $(SERVER)/main.c,$(SV_ALL_SRCS))
SV_OBJS     := $(call objects,$(SV_SRCS))
SV_LIB      := $(OBJ)/quakeworld-server/server/libqwsv.a
# the QuakeC interpreter (progs/build.mk, included below): the game in qcgame/ runs on it
QCVM_LIB    := $(LIBDIR)/libqcvm.a
QWSV        := $(BIN)/qwsv
SV_INCLUDES := -I$(SERVER) -I$(PROTO) -I$(WORLD) -I$(LIBTM_INCLUDE) $(COMMON_INCLUDE)
SV_CFLAGS   := $(TM_CFLAGS) -pthread $(SV_INCLUDES)
SV_LDLIBS   := $(LIBTM_LDFLAGS) -litm -pthread -lm -lnettle -lz

$(SV_LIB): $(SV_OBJS) $(COMMON_CMDLINE)
$(SV_OBJS) $(SV_MAIN): CFLAGS_PART := $(SV_CFLAGS)
# relink when libtm appears or changes (a link while only libitm.a exists would be static)
$(QWSV): $(SV_MAIN) $(SV_LIB) $(QCVM_LIB) $(WORLD_LIB) $(PROTO_TM_LIB) $(wildcard $(LIBTM_DIR)/libitm.so.1)
$(QWSV): private LDFLAGS_PART := -fgnu-tm -pthread
$(QWSV): private LDLIBS_PART := $(SV_LDLIBS)
BUILT += $(SV_MAIN) $(SV_OBJS)

include $(SERVER)/tests/tests.mk $(SERVER)/progs/build.mk
