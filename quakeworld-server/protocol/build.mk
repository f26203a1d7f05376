# quakeworld-server/protocol: libqwproto, the QuakeWorld protocol 28 wire format (no sockets, no
# game) -- messages, netchan, user commands, entity deltas, the walker of server messages, the
# map checksums -- and its CMocka tests (included by quakeworld-server/Makefile, and by
# clients/Makefile for qwbot). Built twice: libqwproto.a in plain C for the clients and tools,
# libqwproto-tm.a with $(TM_CFLAGS) for qwsv, whose transactions write messages (its
# LIBTM_SAFE functions get transactional clones, and what links them links -litm).
PROTO        := $(TOP)/quakeworld-server/protocol
PROTO_SRCS   := $(wildcard $(PROTO)/*.c)
PROTO_LIB    := $(LIBDIR)/libqwproto.a
PROTO_TM_LIB := $(LIBDIR)/libqwproto-tm.a
PROTO_OBJS   := $(call objects,$(PROTO_SRCS))
PROTO_TM_OBJS := $(call tm_objects,$(PROTO_SRCS))
PROTO_TESTS  := $(call programs,$(wildcard $(PROTO)/tests/test_*.c))
# The clc_move checksum table (quakeworld-server/server/README.md says where it comes from).
QW_CHKTBL    := $(SHARED)/quake/protocol/chktbl.bin

$(PROTO_LIB): $(PROTO_OBJS)
$(PROTO_TM_LIB): $(PROTO_TM_OBJS)
$(PROTO_OBJS): CFLAGS_PART := -I$(PROTO)
$(PROTO_TM_OBJS): CFLAGS_PART := $(TM_CFLAGS) -I$(PROTO)
$(PROTO_TESTS): $(PROTO_LIB)
$(PROTO_TESTS): private CFLAGS_PART := -I$(PROTO)
$(PROTO_TESTS): private LDLIBS_PART := -lcmocka -lm
BUILT += $(PROTO_OBJS) $(PROTO_TM_OBJS) $(PROTO_TESTS)

define check_protocol
@for t in $(PROTO_TESTS); do \
	  $(TEST_CASE) qwproto-$${t##*/test_} --timeout 60 -- $$t $(QW_CHKTBL) || exit 1; \
	done
endef
