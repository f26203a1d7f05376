/* The builtin table, the library's and the server's builtin lists, and qc_varstring. */
#include <string.h>

#include "qc_internal.h"

const struct qc_builtin_info qc_library_builtins[] = {
    { 1, "makevectors", "v_forward, v_right, v_up from the angles (pitch, yaw, roll)" },
    { 6, "break", "stops the call with the error 'break statement'" },
    { 7, "random", "a float in [0, 1] from the context's own generator" },
    { 9, "normalize", "the unit vector (0 0 0 stays 0 0 0)" },
    { 10, "error", "prints the message and self; stops the call (QC_ERR_PROGRAM)" },
    { 11, "objerror", "prints the message and self; stops the call (QC_ERR_OBJECT): the "
                      "engine removes self" },
    { 12, "vlen", "the length of a vector" },
    { 13, "vectoyaw", "the yaw of a vector in whole degrees, 0..359" },
    { 25, "dprint", "prints its strings when developer is on" },
    { 26, "ftos", "a float as text: %d when whole, else %5.1f (temporary string)" },
    { 27, "vtos", "a vector as text '%5.1f %5.1f %5.1f' (temporary string)" },
    { 28, "coredump", "prints every entity" },
    { 29, "traceon", "prints each statement from now on" },
    { 30, "traceoff", "stops traceon" },
    { 31, "eprint", "prints one entity's fields" },
    { 36, "rint", "rounds half away from zero" },
    { 37, "floor", "largest integer <= v" },
    { 38, "ceil", "smallest integer >= v" },
    { 43, "fabs", "absolute value" },
    { 51, "vectoangles", "(pitch, yaw, 0) of a vector in whole degrees" },
    { 81, "stof", "the number at the start of a string (atof)" },
    { 0, NULL, NULL }
};

const struct qc_builtin_info qc_world_builtins[] = {
    { 2, "setorigin", "sets e.origin and relinks e in the world (no touches)" },
    { 3, "setmodel", "sets e.model and e.modelindex from the precached model list (error "
                     "if not precached); for a brush model (*N) also mins/maxs/size from its "
                     "bounds; relinks" },
    { 4, "setsize", "sets e.mins, e.maxs and e.size = maxs - mins; relinks" },
    { 8, "sound", "starts sound samp on e's channel chan (vol 0..1, attenuation): "
                  "svc_sound to the clients that can hear e (PHS)" },
    { 14, "spawn", "a free entity (fields cleared), marked in use" },
    { 15, "remove", "frees e: unlinks it, clears its fields, remembers when (reuse after "
                    "0.5 s)" },
    { 16, "traceline", "traces from v1 to v2 (nomonsters: only the world and brush models) "
                       "ignoring forent; sets trace_allsolid, trace_startsolid, "
                       "trace_fraction, trace_endpos, trace_plane_normal, trace_plane_dist, "
                       "trace_ent, trace_inopen, trace_inwater (this context's own)" },
    { 17, "checkclient", "a client in the PVS of self (the candidate changes each frame), "
                         "else world" },
    { 18, "find", "the next entity after start whose string field fld equals match, or "
                  "world" },
    { 19, "precache_sound", "adds a sound to the sound list (only while spawning); returns "
                            "its argument" },
    { 20, "precache_model", "adds a model to the model list (only while spawning); returns "
                            "its argument" },
    { 21, "stuffcmd", "sends s as svc_stufftext to a client's reliable channel" },
    { 22, "findradius", "entities (solid != SOLID_NOT) within rad of org, linked through "
                        ".chain, world-terminated" },
    { 23, "bprint", "prints the concatenated strings to every client at level" },
    { 24, "sprint", "prints the concatenated strings to one client at level" },
    { 32, "walkmove", "moves self dist units along yaw as a monster step, relinking with "
                      "touches (nested QuakeC); TRUE if it moved" },
    { 34, "droptofloor", "moves self down up to 256 units onto the floor; TRUE and "
                         "FL_ONGROUND if it landed" },
    { 35, "lightstyle", "sets light style n to a string and sends it to every client" },
    { 40, "checkbottom", "TRUE if e stands on solid ground at all four corners" },
    { 41, "pointcontents", "the CONTENT_* value at a point" },
    { 44, "aim", "the direction to shoot from e (v_forward, or towards a target when "
                 "autoaim is on)" },
    { 45, "cvar", "the value of a server variable" },
    { 46, "localcmd", "adds text to the server's command buffer" },
    { 47, "nextent", "the next entity in use after e, or world" },
    { 49, "ChangeYaw", "turns self.angles_y towards self.ideal_yaw by at most self.yaw_speed" },
    { 52, "WriteByte", "appends to the message named by to (MSG_BROADCAST, MSG_ONE to "
                       "msg_entity, MSG_ALL, MSG_INIT, MSG_MULTICAST)" },
    { 53, "WriteChar", "as WriteByte, a signed byte" },
    { 54, "WriteShort", "as WriteByte, 16 bits" },
    { 55, "WriteLong", "as WriteByte, 32 bits" },
    { 56, "WriteCoord", "as WriteByte, a coordinate" },
    { 57, "WriteAngle", "as WriteByte, an angle" },
    { 58, "WriteString", "as WriteByte, a string" },
    { 59, "WriteEntity", "as WriteByte, an entity number (16 bits)" },
    { 67, "movetogoal", "moves self towards self.goalentity by step (monster navigation)" },
    { 68, "precache_file", "returns its argument (no effect)" },
    { 69, "makestatic", "writes e to the signon as a static entity and frees it" },
    { 70, "changelevel", "starts a change to the named map (once per frame)" },
    { 72, "cvar_set", "sets a server variable" },
    { 73, "centerprint", "prints the concatenated strings in the middle of a client's screen" },
    { 74, "ambientsound", "adds a looping static sound at pos to the signon" },
    { 75, "precache_model2", "as precache_model" },
    { 76, "precache_sound2", "as precache_sound" },
    { 77, "precache_file2", "as precache_file" },
    { 78, "setspawnparms", "copies client e's spawn parms into parm1..parm16 (this context's)" },
    { 79, "logfrag", "records a frag (killer, killee) in the frag log" },
    { 80, "infokey", "the value of key in serverinfo (e = world) or e's userinfo, also \"ip\" "
                     "and \"ping\" (temporary string)" },
    { 82, "multicast", "sends the multicast message to the clients that see/hear where "
                       "(MULTICAST_ALL, _PHS, _PVS, and reliable _R variants)" },
    { 0, NULL, NULL }
};

int qc_builtin_register(qc_vm *vm, int number, const char *name, qc_builtin_fn fn)
{
    if (number <= 0 || number >= QC_MAX_BUILTINS || !fn)
        return -1;
    struct qc_builtin_entry *b = &vm->builtins[number];
    if (b->library || b->world)
        return -1;
    b->world = fn;
    b->name = name;
    return 0;
}

bool qc_builtin_implemented(const qc_vm *vm, int number)
{
    if (number <= 0 || number >= QC_MAX_BUILTINS)
        return false;
    return vm->builtins[number].library || vm->builtins[number].world;
}

const char *qc_builtin_name(const qc_vm *vm, int number)
{
    if (!qc_builtin_implemented(vm, number))
        return "";
    return vm->builtins[number].name ? vm->builtins[number].name : "";
}

const char *qc_varstring(qc_ctx *ctx, int first)
{
    char text[QC_TEMP_STRING_SPACE / 4];
    size_t used = 0;
    for (int i = first; i < ctx->argc && i < QC_MAX_PARMS; i++) {
        const char *s = qc_string_get(ctx->vm, qc_parm_int(ctx, i));
        if (!s)
            s = "(bad string)";
        size_t n = strlen(s);
        if (used + n > sizeof text - 1)
            n = sizeof text - 1 - used;
        memcpy(text + used, s, n);
        used += n;
    }
    text[used] = 0;
    return qc_string_get(ctx->vm, qc_string_temp(ctx, text));
}
