# quakeworld-server/server/progs: the QuakeC interpreter (libqcvm.a) and its tests; included by
# ../build.mk. Built with $(TM_CFLAGS): the loop runs inside the server's transactions.
QCVM       := $(SERVER)/progs
QCVM_SRCS  := $(wildcard $(QCVM)/*.c)
QCVM_OBJS  := $(call objects,$(QCVM_SRCS))
QCVM_LIB   := $(LIBDIR)/libqcvm.a
$(QCVM_LIB): $(QCVM_OBJS) $(COMMON_WHOLE_FILE)
$(QCVM_OBJS): CFLAGS_PART := $(SV_CFLAGS)
# Threaded dispatch: keep each opcode's own "next instruction" jump (GCC would otherwise merge
# them into one shared indirect jump, costing a jump and a branch-prediction slot per opcode).
$(call objects,$(QCVM)/qc_loop.c): CFLAGS_PART := $(SV_CFLAGS) -fno-gcse -fno-crossjumping
BUILT += $(QCVM_OBJS)

# Tests. The test program is tests/qc/*.qc, our own QuakeC, compiled at test time by Debian's
# fteqcc (scripts/deps.sh installs it); fteqcc reads the sources named in a progs.src and writes
# the output named on its first line, so the copy in the build directory names them by
# absolute path.
QCVM_TESTDIR := $(OBJ)/quakeworld-server/server/progs/tests
QCVM_QCDIR   := $(QCVM)/tests/qc
QCVM_DAT     := $(QCVM_TESTDIR)/tests.dat
QCVM_QCSRCS  := $(addprefix $(QCVM_QCDIR)/,$(shell sed 1d $(QCVM_QCDIR)/progs.src))
QWPROGS      := $(SHARED)/quake/qw/qwprogs.dat
QCVM_UNITS   := $(call programs,$(addprefix $(QCVM)/tests/,test_qc.c test_qc_load.c test_qc_tm.c \
                                                          test_qc_qwprogs.c))
QCVM_BENCH   := $(BIN)/qc-bench

$(QCVM_DAT): $(QCVM_QCDIR)/progs.src $(QCVM_QCSRCS)
	@mkdir -p $(@D)
	@command -v fteqcc >/dev/null || { echo "fteqcc not found: run scripts/deps.sh (Debian package fteqcc)"; exit 1; }
	{ echo $(notdir $@); sed 1d $< | sed 's|^|$(QCVM_QCDIR)/|'; } > $(@D)/progs.src
	cd $(@D) && fteqcc -srcfile progs.src > fteqcc.out 2>&1 || { cat fteqcc.out; exit 1; }
	@grep -q "^Compile Complete" $(@D)/fteqcc.out && test -s $@ || { cat $(@D)/fteqcc.out; rm -f $@; exit 1; }

$(QCVM_UNITS): $(QCVM_LIB)
$(QCVM_UNITS): private CFLAGS_PART := $(SV_CFLAGS)
$(QCVM_UNITS): private LDLIBS_PART := -lcmocka $(SV_LDLIBS)
$(QCVM_BENCH): $(call objects,$(QCVM)/tests/qc_bench.c) $(QCVM_LIB)
$(call objects,$(QCVM)/tests/qc_bench.c): CFLAGS_PART := $(SV_CFLAGS)
$(QCVM_BENCH): private LDFLAGS_PART := -fgnu-tm -pthread
$(QCVM_BENCH): private LDLIBS_PART := $(SV_LDLIBS)
BUILT += $(QCVM_UNITS) $(call objects,$(QCVM)/tests/qc_bench.c)

# The loader and unit tests again under AddressSanitizer and UBSan: the whole library without
# -fgnu-tm (GCC 12 refuses sanitizers on it), QC_WITHOUT_TM leaving out the TM loop.
QCVM_ASAN := $(QCVM_TESTDIR)/test_qc_load_asan $(QCVM_TESTDIR)/test_qc_asan
$(QCVM_TESTDIR)/%_asan: $(QCVM)/tests/%.c $(QCVM_SRCS) $(wildcard $(QCVM)/*.h $(QCVM)/tests/*.h) \
                        $(COMMON)/whole_file.c $(COMMON)/whole_file.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -DQC_WITHOUT_TM -I$(LIBTM_INCLUDE) $(COMMON_INCLUDE) $< $(QCVM_SRCS) $(COMMON)/whole_file.c \
	    -o $@ -lcmocka -lm

QCVM_CHECK_PROGRAMS := $(QCVM_DAT) $(QCVM_UNITS) $(QCVM_ASAN) $(QCVM_BENCH)
define check_qcvm
@$(TEST_CASE) qc-units --timeout 60 -- $(QCVM_TESTDIR)/test_qc $(QCVM_DAT)
@$(TEST_CASE) qc-bad-progs --timeout 120 -- $(QCVM_TESTDIR)/test_qc_load $(QCVM_DAT)
@$(TEST_CASE) qc-bad-progs-asan --timeout 300 -- $(QCVM_TESTDIR)/test_qc_load_asan $(QCVM_DAT)
@$(TEST_CASE) qc-units-asan --timeout 120 -- $(QCVM_TESTDIR)/test_qc_asan $(QCVM_DAT)
@$(TEST_CASE) qc-transactions --timeout 120 --tm -- $(QCVM_TESTDIR)/test_qc_tm $(QCVM_DAT)
@$(TEST_CASE) qc-transactions-orec --timeout 120 -- env LIBTM_ALGO=orec $(QCVM_TESTDIR)/test_qc_tm $(QCVM_DAT)
@$(TEST_CASE) qc-transactions-norec --timeout 120 -- env LIBTM_ALGO=norec $(QCVM_TESTDIR)/test_qc_tm $(QCVM_DAT)
@$(TEST_CASE) qc-qwprogs --timeout 60 --tm -- $(QCVM_TESTDIR)/test_qc_qwprogs $(QWPROGS)
@$(TEST_CASE) qc-bench-smoke --timeout 60 -- $(QCVM_BENCH) --progs $(QCVM_DAT) --iterations 2000 --repeat 1
endef
