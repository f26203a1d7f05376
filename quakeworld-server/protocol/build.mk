# quakeworld-server/protocol: libqwproto.a, the QuakeWorld protocol 28 wire format (no sockets,
# no game) that qwsv and the bots share, and its CMocka tests (included by
# quakeworld-server/Makefile, and by clients/Makefile for qwbot). Compiled with $(TM_CFLAGS) so
# that the message writers have transactional clones: programs linking it link -litm.
PROTO       := $(TOP)/quakeworld-server/protocol
PROTO_LIB   := $(LIBDIR)/libqwproto.a
PROTO_OBJS  := $(call objects,$(wildcard $(PROTO)/*.c))
PROTO_TESTS := $(call programs,$(wildcard $(PROTO)/tests/test_*.c))
# The clc_move checksum table (quakeworld-server/server/README.md says where it comes from).
QW_CHKTBL   := $(SHARED)/quake/protocol/chktbl.bin

$(PROTO_LIB): $(PROTO_OBJS)
$(PROTO_OBJS): CFLAGS_PART := $(TM_CFLAGS) -I$(PROTO)
$(PROTO_TESTS): $(PROTO_LIB)
$(PROTO_TESTS): private CFLAGS_PART := $(TM_CFLAGS) -I$(PROTO)
$(PROTO_TESTS): private LDLIBS_PART := -lcmocka $(LIBTM_LDFLAGS) -litm -lm
BUILT += $(PROTO_OBJS) $(PROTO_TESTS)

define check_protocol
@for t in $(PROTO_TESTS); do \
	  $(TEST_CASE) qwproto-$${t##*/test_} --timeout 60 -- $$t $(QW_CHKTBL) || exit 1; \
	done
endef
