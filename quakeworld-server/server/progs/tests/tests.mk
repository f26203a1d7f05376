# Tests of the QuakeC interpreter (included from ../progs.mk). The test program is
# tests/qc/*.qc, compiled at test time by Debian's fteqcc (scripts/deps.sh installs it).
QCVM_TESTDIR := $(OBJDIR)/progs/tests
QCVM_QCDIR   := $(CURDIR)/$(QCVM_DIR)/tests/qc
QCVM_DAT     := $(QCVM_TESTDIR)/tests.dat
QCVM_QCSRCS  := $(addprefix $(QCVM_QCDIR)/,$(shell sed 1d $(QCVM_DIR)/tests/qc/progs.src))
QCVM_TLIBS   := $(QCVM_LIB) -lcmocka $(LDLIBS)
QWPROGS      := $(SHARED)/quake/qw/qwprogs.dat

QCVM_TEST_UNITS  := $(QCVM_TESTDIR)/test_qc
QCVM_TEST_LOAD   := $(QCVM_TESTDIR)/test_qc_load
QCVM_TEST_ASAN   := $(QCVM_TESTDIR)/test_qc_load_asan $(QCVM_TESTDIR)/test_qc_asan
QCVM_TEST_TM     := $(QCVM_TESTDIR)/test_qc_tm
QCVM_TEST_QW     := $(QCVM_TESTDIR)/test_qc_qwprogs
QCVM_BENCH       := $(BIN)/qc-bench
QCVM_TEST_DEPS   := $(wildcard $(QCVM_DIR)/*.h $(QCVM_DIR)/tests/*.h)

$(QCVM_TESTDIR):
	mkdir -p $@

# fteqcc reads the sources named in a progs.src and writes the output named on its first
# line; the copy in the build directory names them by absolute path.
$(QCVM_DAT): $(QCVM_DIR)/tests/qc/progs.src $(QCVM_QCSRCS) | $(QCVM_TESTDIR)
	@command -v fteqcc >/dev/null || { echo "fteqcc not found: run scripts/deps.sh (Debian package fteqcc)"; exit 1; }
	{ echo $(notdir $@); sed 1d $< | sed 's|^|$(QCVM_QCDIR)/|'; } > $(QCVM_TESTDIR)/progs.src
	cd $(QCVM_TESTDIR) && fteqcc -srcfile progs.src > fteqcc.out 2>&1 || { cat fteqcc.out; exit 1; }
	@grep -q "^Compile Complete" $(QCVM_TESTDIR)/fteqcc.out && test -s $@ || { cat $(QCVM_TESTDIR)/fteqcc.out; rm -f $@; exit 1; }

$(QCVM_TESTDIR)/%: $(QCVM_DIR)/tests/%.c $(QCVM_LIB) $(QCVM_TEST_DEPS) | $(QCVM_TESTDIR)
	$(CC) $(ALLCFLAGS) -I$(LIBTM_INCLUDE) $< -o $@ $(QCVM_TLIBS)

$(QCVM_BENCH): $(QCVM_DIR)/tests/qc_bench.c $(QCVM_LIB) $(QCVM_TEST_DEPS) | $(BIN)
	$(CC) $(ALLCFLAGS) -I$(LIBTM_INCLUDE) $< -o $@ $(QCVM_LIB) $(LDLIBS)

# The loader and unit tests again under AddressSanitizer and UBSan: the whole library
# without -fgnu-tm (GCC 12 refuses sanitizers on it), QC_WITHOUT_TM leaving out the TM loop.
$(QCVM_TESTDIR)/%_asan: $(QCVM_DIR)/tests/%.c $(QCVM_SRCS) $(QCVM_TEST_DEPS) | $(QCVM_TESTDIR)
	$(CC) $(CSTD) $(WARN) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -DQC_WITHOUT_TM $< $(QCVM_SRCS) -o $@ -lcmocka -lm

QCVM_TESTS := $(QCVM_DAT) $(QCVM_TEST_UNITS) $(QCVM_TEST_LOAD) $(QCVM_TEST_ASAN) $(QCVM_TEST_TM) \
              $(QCVM_TEST_QW) $(QCVM_BENCH)

check-run: qcvm-check-run
.PHONY: qcvm-check-run
qcvm-check-run: $(QCVM_TESTS)
	@$(TEST_CASE) qc-units --timeout 60 -- $(QCVM_TEST_UNITS) $(QCVM_DAT)
	@$(TEST_CASE) qc-bad-progs --timeout 120 -- $(QCVM_TEST_LOAD) $(QCVM_DAT)
	@$(TEST_CASE) qc-bad-progs-asan --timeout 300 -- $(QCVM_TESTDIR)/test_qc_load_asan $(QCVM_DAT)
	@$(TEST_CASE) qc-units-asan --timeout 120 -- $(QCVM_TESTDIR)/test_qc_asan $(QCVM_DAT)
	@$(TEST_CASE) qc-transactions --timeout 120 --tm -- $(QCVM_TEST_TM) $(QCVM_DAT)
	@$(TEST_CASE) qc-transactions-orec --timeout 120 -- env LIBTM_ALGO=orec $(QCVM_TEST_TM) $(QCVM_DAT)
	@$(TEST_CASE) qc-transactions-norec --timeout 120 -- env LIBTM_ALGO=norec $(QCVM_TEST_TM) $(QCVM_DAT)
	@$(TEST_CASE) qc-qwprogs --timeout 60 --tm -- $(QCVM_TEST_QW) $(QWPROGS)
	@$(TEST_CASE) qc-bench-smoke --timeout 60 -- $(QCVM_BENCH) --progs $(QCVM_DAT) --iterations 2000 --repeat 1
