# The QuakeC interpreter library (progs/), included from the server's Makefile, which
# provides OBJDIR, LIBDIR, ALLCFLAGS (with $(TM_CFLAGS)), LDLIBS and the check-run target.
#   $(QCVM_LIB)    libqcvm.a, built with -fgnu-tm (the loop is transaction_pure)
#   check-run      also runs the library's tests (progs/tests/tests.mk)
QCVM_DIR  := progs
QCVM_SRCS := $(wildcard $(QCVM_DIR)/*.c)
QCVM_OBJS := $(QCVM_SRCS:%.c=$(OBJDIR)/%.o)
QCVM_LIB  := $(LIBDIR)/libqcvm.a

all: $(QCVM_LIB)

$(QCVM_LIB): $(QCVM_OBJS) | $(LIBDIR)
	rm -f $@
	ar rcs $@ $^

$(LIBDIR):
	mkdir -p $@

include $(QCVM_DIR)/tests/tests.mk

clean: qcvm-clean
.PHONY: qcvm-clean
qcvm-clean:
	rm -f $(QCVM_LIB) $(QCVM_BENCH)

-include $(QCVM_OBJS:.o=.d)

# Threaded dispatch: keep each opcode's own "next instruction" jump (GCC would otherwise merge
# them into one shared indirect jump, costing a jump and a branch-prediction slot per opcode).
$(OBJDIR)/progs/qc_loop.o: ALLCFLAGS += -fno-gcse -fno-crossjumping
