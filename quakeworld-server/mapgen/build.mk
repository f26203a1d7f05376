# quakeworld-server/mapgen: qwmapgen (build/bin/qwmapgen), its library (libqwmapgen.a: box map
# -> BSP29, which the world tests also use to generate maps in memory) and its tests (included
# by quakeworld-server/Makefile). Plain C: only the program and the tests link the
# transactional world library, so they link with $(TM_CFLAGS).
MAPGEN       := $(TOP)/quakeworld-server/mapgen
MAPGEN_MAIN  := $(call objects,$(MAPGEN)/main.c)
MAPGEN_OBJS  := $(call objects,$(filter-out $(MAPGEN)/main.c,$(wildcard $(MAPGEN)/*.c)))
MAPGEN_TESTS := $(call programs,$(wildcard $(MAPGEN)/tests/test_*.c))
QWMAPGEN     := $(BIN)/qwmapgen

$(MAPGEN_LIB): $(MAPGEN_OBJS)
$(MAPGEN_OBJS) $(MAPGEN_MAIN): CFLAGS_PART = -I$(MAPGEN) -I$(WORLD) $(COMMON_INCLUDE)
$(QWMAPGEN): $(MAPGEN_MAIN) $(COMMON_CMDLINE) $(MAPGEN_LIB) $(WORLD_LIB) $(PROTO_LIB)
$(QWMAPGEN): private LDLIBS_PART := -lm $(TM_CFLAGS) $(LIBTM_LDFLAGS)
$(MAPGEN_TESTS): $(MAPGEN_LIB) $(WORLD_LIB) $(PROTO_LIB)
$(MAPGEN_TESTS): private CFLAGS_PART = -I$(MAPGEN) -I$(WORLD) -I$(PROTO)
$(MAPGEN_TESTS): private LDLIBS_PART := -lcmocka -lm $(TM_CFLAGS) $(LIBTM_LDFLAGS)
BUILT += $(MAPGEN_MAIN) $(MAPGEN_OBJS) $(MAPGEN_TESTS)

define check_mapgen
@$(TEST_CASE) qwmapgen-help -- $(QWMAPGEN) --help
@$(TEST_CASE) qwmapgen-cli -- env QW_TMPDIR=/tmp $(MAPGEN)/tests/cli.sh $(QWMAPGEN)
@$(TEST_CASE) qwmapgen-mvdsv --timeout 120 -- env QW_SHARED=$(SHARED) QW_TMPDIR=/tmp \
	    $(MAPGEN)/tests/mvdsv_loads_map.sh $(QWMAPGEN) 27701
@$(TEST_CASE) qwmapgen-ezquake --timeout 90 -- env QW_SHARED=$(SHARED) QW_TMPDIR=/tmp \
	    $(MAPGEN)/tests/ezquake_plays_map.sh $(QWMAPGEN) 27703
$(call run_tests,qwmapgen,$(MAPGEN_TESTS))
endef
