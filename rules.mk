# Pattern rules of the C programs and libraries of quakeworld-server and clients (included by
# their Makefiles after config.mk). Each folder's build.mk lists what it builds, with the
# flags of those targets; everything else is here. Outputs mirror their sources under build/:
#   $(OBJ)/PATH.o   from PATH.c: an object, compiled with the target's CFLAGS_PART
#   $(OBJ)/tm/PATH.o  the same for a source built twice, once with $(TM_CFLAGS) (its part sets
#                   them): libqwproto is plain for the clients and transactional for qwsv
#   $(OBJ)/PATH     from PATH.c: a test program of one source, compiled with CFLAGS_PART and
#                   linked with the .o and .a files among its prerequisites and LDLIBS_PART
#   LIB.a           a static library of the objects among its prerequisites
#   $(BIN)/NAME     a program of the .o and .a files among its prerequisites, linked with
#                   LDFLAGS_PART and LDLIBS_PART
# A build.mk adds what it compiles to BUILT. At its end the Makefile makes BUILT depend on
# the makefiles (they hold the flags: a changed flag recompiles) and includes $(DEPFILES), the
# header dependencies that -MMD wrote.

# Every part may include <libtm.h> (the TM annotations and the _ITM_* entries programs call).
# -MMD writes PATH.dep beside each output (not .d: the layout before these rules wrote .d files
# with relative paths, which would stop an existing build tree).
COMPILE = $(CC) $(CSTD) $(WARN) $(CFLAGS) -I$(LIBTM_INCLUDE) $(CFLAGS_PART) -MMD -MP -MF $(@:.o=).dep

$(OBJ)/%.o: $(TOP)/%.c
	@mkdir -p $(@D)
	$(COMPILE) -c $< -o $@

$(OBJ)/tm/%.o: $(TOP)/%.c
	@mkdir -p $(@D)
	$(COMPILE) -c $< -o $@

$(OBJ)/%: $(TOP)/%.c
	@mkdir -p $(@D)
	$(COMPILE) $< -o $@ $(filter %.o %.a,$^) $(LDLIBS_PART)

%.a:
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $(filter %.o,$^)

$(BIN)/%:
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS_PART) $(filter %.o %.a,$^) -o $@ $(LDLIBS_PART)

# Where a .c becomes an object or a test program: $(call objects,SOURCES),
# $(call tm_objects,SOURCES), $(call programs,SOURCES)
objects = $(patsubst $(TOP)/%.c,$(OBJ)/%.o,$(1))
tm_objects = $(patsubst $(TOP)/%.c,$(OBJ)/tm/%.o,$(1))
programs = $(patsubst $(TOP)/%.c,$(OBJ)/%,$(1))

DEPFILES = $(addsuffix .dep,$(BUILT:.o=))

# $(call run_tests,PREFIX,PROGRAMS[,--tm]): one harness case per program, named PREFIX-NAME where
# NAME is the program's name without test_ and with - for _ (--tm: programs that run
# transactions, also run with LIBTM_HTM=0, see scripts/test-case). The tests read the free maps
# from $(SHARED)/quake (skipping what needs them when absent) and write under $(BUILD)/tmp.
define run_tests
@for t in $(2); do \
	  n=$$(basename $$t | sed 's/^test_//; s/_/-/g'); \
	  $(TEST_CASE) $(1)-$$n --timeout 120 $(3) -- env QW_SHARED=$(SHARED) QW_BIN=$(BIN) \
	      QW_TMPDIR=$(BUILD)/tmp $$t; \
	done
endef
