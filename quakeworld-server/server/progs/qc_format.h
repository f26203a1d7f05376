/* The progs.dat file format, version 6 (Quake and QuakeWorld): header, tables, opcodes.
 * Everything in the file is little-endian; the loader copies each table out of the file
 * (so offsets need not be aligned) and checks it before anything else reads it. */
#ifndef QC_FORMAT_H
#define QC_FORMAT_H

#include <stdint.h>

#define QC_PROGS_VERSION 6
#define QC_QUAKEWORLD_CRC 54730 /* header CRC of QuakeWorld's defs.qc (qwprogs.dat) */

/* The header: 15 little-endian int32. Each table is {offset in bytes, count of entries}, the
 * string table's count is its size in bytes, entityfields is the size of one entity's fields
 * in 32-bit words. */
enum {
    QC_HDR_VERSION, QC_HDR_CRC,
    QC_HDR_OFS_STATEMENTS, QC_HDR_NUM_STATEMENTS,
    QC_HDR_OFS_GLOBALDEFS, QC_HDR_NUM_GLOBALDEFS,
    QC_HDR_OFS_FIELDDEFS, QC_HDR_NUM_FIELDDEFS,
    QC_HDR_OFS_FUNCTIONS, QC_HDR_NUM_FUNCTIONS,
    QC_HDR_OFS_STRINGS, QC_HDR_NUM_STRINGS,
    QC_HDR_OFS_GLOBALS, QC_HDR_NUM_GLOBALS,
    QC_HDR_ENTITYFIELDS,
    QC_HDR_WORDS
};
#define QC_HEADER_SIZE (QC_HDR_WORDS * 4)

/* Sizes of one table entry in the file. */
#define QC_STATEMENT_SIZE 8  /* uint16 op; int16 a, b, c */
#define QC_DEF_SIZE 8        /* uint16 type; uint16 ofs; int32 name */
#define QC_FUNCTION_SIZE 36  /* int32 first_statement, parm_start, locals, profile, name, file,
                              * numparms; uint8 parm_size[8] */
#define QC_MAX_PARMS 8

/* Types of global and field definitions; bit 15 marks globals a savegame keeps. */
enum qc_type {
    QC_TYPE_VOID, QC_TYPE_STRING, QC_TYPE_FLOAT, QC_TYPE_VECTOR, QC_TYPE_ENTITY,
    QC_TYPE_FIELD, QC_TYPE_FUNCTION, QC_TYPE_POINTER,
    QC_TYPE_COUNT
};
#define QC_DEF_SAVEGLOBAL 0x8000

/* Fixed places in the globals: 0 is never used (the null value), 1..3 the return value, then
 * eight 3-word parameters; the program's own globals start at 28. */
enum {
    QC_OFS_NULL = 0,
    QC_OFS_RETURN = 1,
    QC_OFS_PARM0 = 4, /* parameter i at QC_OFS_PARM0 + 3 * i */
    QC_OFS_RESERVED = 28
};

/* The 66 opcodes of version 6, in file order. */
#define QC_OPCODES(X)                                                                        \
    X(DONE) X(MUL_F) X(MUL_V) X(MUL_FV) X(MUL_VF) X(DIV_F) X(ADD_F) X(ADD_V) X(SUB_F)        \
    X(SUB_V) X(EQ_F) X(EQ_V) X(EQ_S) X(EQ_E) X(EQ_FNC) X(NE_F) X(NE_V) X(NE_S) X(NE_E)       \
    X(NE_FNC) X(LE) X(GE) X(LT) X(GT) X(LOAD_F) X(LOAD_V) X(LOAD_S) X(LOAD_ENT)             \
    X(LOAD_FLD) X(LOAD_FNC) X(ADDRESS) X(STORE_F) X(STORE_V) X(STORE_S) X(STORE_ENT)         \
    X(STORE_FLD) X(STORE_FNC) X(STOREP_F) X(STOREP_V) X(STOREP_S) X(STOREP_ENT)              \
    X(STOREP_FLD) X(STOREP_FNC) X(RETURN) X(NOT_F) X(NOT_V) X(NOT_S) X(NOT_ENT) X(NOT_FNC)   \
    X(IF) X(IFNOT) X(CALL0) X(CALL1) X(CALL2) X(CALL3) X(CALL4) X(CALL5) X(CALL6) X(CALL7)   \
    X(CALL8) X(STATE) X(GOTO) X(AND) X(OR) X(BITAND) X(BITOR)

enum qc_opcode {
#define QC_OPCODE_ENUM(name) QC_OP_##name,
    QC_OPCODES(QC_OPCODE_ENUM)
#undef QC_OPCODE_ENUM
    QC_OP_COUNT
};

#endif
