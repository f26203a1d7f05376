/* The MCache* directives, the per-server configuration and its merge; see mem_config.h. */
#include "mem_config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <apr_strings.h>

/* httpd 2.2's defaults. */
#define DEFAULT_CACHE_KBYTES 100
#define DEFAULT_MAX_OBJECT_COUNT 1009
#define DEFAULT_MIN_OBJECT_SIZE 1
#define DEFAULT_MAX_OBJECT_SIZE 10000
#define DEFAULT_MAX_STREAMING_BUFFER 100000
/* MCacheReadSize (new): what store_body stores before it hands the data on to the client. */
#define DEFAULT_READ_SIZE (64 * 1024)
#define MIN_READ_SIZE 1024
#define MAX_READ_SIZE (16 * 1024 * 1024)

void *mem_config_create(apr_pool_t *pool, server_rec *server)
{
    (void)server;
    mem_cache_config_t *config = apr_pcalloc(pool, sizeof(*config));
    config->max_cache_bytes = (apr_size_t)DEFAULT_CACHE_KBYTES * 1024;
    config->max_object_count = DEFAULT_MAX_OBJECT_COUNT;
    config->policy = CACHE_POLICY_GDSF;
    config->use_tm = 0;
    config->min_object_size = DEFAULT_MIN_OBJECT_SIZE;
    config->max_object_size = DEFAULT_MAX_OBJECT_SIZE;
    config->max_streaming_buffer = DEFAULT_MAX_STREAMING_BUFFER;
    config->read_size = DEFAULT_READ_SIZE;
    return config;
}

/* A virtual host's value where its section sets the directive, the main server's otherwise. */
void *mem_config_merge(apr_pool_t *pool, void *base_opaque, void *add_opaque)
{
    const mem_cache_config_t *base = base_opaque, *add = add_opaque;
    mem_cache_config_t *merged = apr_pcalloc(pool, sizeof(*merged));
#define MERGE(bit, field) merged->field = (add->set & (bit)) ? add->field : base->field
    MERGE(MEM_SET_CACHE_SIZE, max_cache_bytes);
    MERGE(MEM_SET_OBJECT_COUNT, max_object_count);
    MERGE(MEM_SET_POLICY, policy);
    MERGE(MEM_SET_SYNC, use_tm);
    MERGE(MEM_SET_MIN_OBJECT, min_object_size);
    MERGE(MEM_SET_MAX_OBJECT, max_object_size);
    MERGE(MEM_SET_STREAMING, max_streaming_buffer);
    MERGE(MEM_SET_READ_SIZE, read_size);
#undef MERGE
    merged->set = add->set;
    return merged;
}

/* httpd gives a virtual host without any MCache* directive the main server's configuration
 * itself (no merge): that one shares the main cache too. */
int mem_config_owns_cache(const server_rec *server, const server_rec *main_server)
{
    const mem_cache_config_t *config = mem_config_of(server);
    if (!server->is_virtual)
        return 1;
    return config != mem_config_of(main_server) && (config->set & MEM_SET_CACHE_SETTINGS);
}

const char *mem_config_server_name(apr_pool_t *pool, const server_rec *server)
{
    if (!server->is_virtual)
        return "the main server";
    return apr_psprintf(pool, "<VirtualHost> %s (%s:%d)",
                        server->server_hostname ? server->server_hostname : "(unnamed)",
                        server->defn_name ? server->defn_name : "?", server->defn_line_number);
}

apr_size_t mem_config_streaming_limit(const mem_cache_config_t *config,
                                      const char **limiting_directive)
{
    if (config->max_streaming_buffer < config->max_object_size) {
        *limiting_directive = "MCacheMaxStreamingBuffer";
        return config->max_streaming_buffer;
    }
    *limiting_directive = "MCacheMaxObjectSize";
    return config->max_object_size;
}

const char *mem_config_check(apr_pool_t *pool, const server_rec *server)
{
    const mem_cache_config_t *config = mem_config_of(server);
    const char *where = server->is_virtual
                            ? apr_pstrcat(pool, " in ", mem_config_server_name(pool, server), NULL)
                            : "";
    if (config->min_object_size > config->max_object_size)
        return apr_psprintf(pool, "MCacheMinObjectSize (%" APR_SIZE_T_FMT ") is larger than "
                            "MCacheMaxObjectSize (%" APR_SIZE_T_FMT ")%s",
                            config->min_object_size, config->max_object_size, where);
    if (config->max_object_size > config->max_cache_bytes)
        return apr_psprintf(pool, "MCacheMaxObjectSize (%" APR_SIZE_T_FMT " bytes) is larger than "
                            "MCacheSize (%" APR_SIZE_T_FMT " KBytes)%s: raise MCacheSize or lower "
                            "MCacheMaxObjectSize", config->max_object_size,
                            config->max_cache_bytes / 1024, where);
    return NULL;
}

/* ---- directives ---- */

static mem_cache_config_t *config_being_read(cmd_parms *cmd)
{
    return mem_config_of(cmd->server);
}

/* Parses a non-negative decimal number for directive cmd, within minimum..maximum; NULL on
 * success, else the reason. */
static const char *parse_size(cmd_parms *cmd, const char *text, apr_size_t minimum,
                              apr_size_t maximum, apr_size_t *out)
{
    char *end;
    apr_int64_t value;
    errno = 0;
    value = apr_strtoi64(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || value < 0)
        return apr_psprintf(cmd->pool, "%s: '%s' is not a non-negative whole number",
                            cmd->cmd->name, text);
    if ((apr_size_t)value < minimum)
        return apr_psprintf(cmd->pool, "%s: '%s' is too small (minimum %" APR_SIZE_T_FMT ")",
                            cmd->cmd->name, text, minimum);
    if ((apr_uint64_t)value > maximum)
        return apr_psprintf(cmd->pool, "%s: '%s' is too large (maximum %" APR_SIZE_T_FMT ")",
                            cmd->cmd->name, text, maximum);
    *out = (apr_size_t)value;
    return NULL;
}

static const char *mark_set(cmd_parms *cmd, unsigned bit, const char *error)
{
    if (!error)
        config_being_read(cmd)->set |= bit;
    return error;
}

/* The directives that take a byte or object count: cmd->info describes which. */
typedef struct size_directive {
    unsigned bit;          /* MEM_SET_* */
    size_t offset;         /* of the apr_size_t field in mem_cache_config_t */
    apr_size_t minimum, maximum; /* in the unit written */
    apr_size_t unit;       /* bytes per unit written (1024 for KBytes) */
} size_directive_t;

#define ANY_SIZE ((apr_size_t)1 << 40) /* a terabyte: surely a typing error */
static const size_directive_t cache_size = {MEM_SET_CACHE_SIZE, offsetof(mem_cache_config_t, max_cache_bytes), 1, ANY_SIZE, 1024};
static const size_directive_t object_count = {MEM_SET_OBJECT_COUNT, offsetof(mem_cache_config_t, max_object_count), 1, ANY_SIZE, 1};
static const size_directive_t min_object = {MEM_SET_MIN_OBJECT, offsetof(mem_cache_config_t, min_object_size), 0, ANY_SIZE, 1};
static const size_directive_t max_object = {MEM_SET_MAX_OBJECT, offsetof(mem_cache_config_t, max_object_size), 1, ANY_SIZE, 1};
static const size_directive_t streaming = {MEM_SET_STREAMING, offsetof(mem_cache_config_t, max_streaming_buffer), 0, ANY_SIZE, 1};
/* Below a kilobyte each bucket would be handed on by itself anyway, and the number is more
 * likely KBytes written for bytes; above 16 MiB a request holds that much of its response
 * before its client gets any. */
static const size_directive_t read_size = {MEM_SET_READ_SIZE, offsetof(mem_cache_config_t, read_size),
                                           MIN_READ_SIZE, MAX_READ_SIZE, 1};

static const char *set_size(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    const size_directive_t *directive = cmd->info;
    apr_size_t value = 0;
    const char *error = parse_size(cmd, arg, directive->minimum, directive->maximum, &value);
    if (!error)
        *(apr_size_t *)((char *)config_being_read(cmd) + directive->offset) = value * directive->unit;
    return mark_set(cmd, directive->bit, error);
}

/* The directives that take a word: each word and the value it selects, in one table per
 * directive that its parser, its error message and the names in logs all read. */
typedef struct word_value {
    const char *word;
    int value;
} word_value_t;

/* Unlike 2.2 (which tested strcasecmp backwards), the word selects the algorithm it names. */
static const word_value_t policy_words[] = {
    {"LRU", CACHE_POLICY_LRU}, {"GDSF", CACHE_POLICY_GDSF}, {NULL, 0}};
static const word_value_t sync_words[] = {{"lock", 0}, {"tm", 1}, {NULL, 0}};

/* Parses arg for directive cmd (any case); NULL on success, else the reason listing the words. */
static const char *parse_word(cmd_parms *cmd, const char *arg, const word_value_t *words, int *out)
{
    for (const word_value_t *w = words; w->word; w++)
        if (!strcasecmp(arg, w->word)) {
            *out = w->value;
            return NULL;
        }
    const char *choices = words[0].word; /* "A or B", "A, B or C" */
    for (const word_value_t *w = words + 1; w->word; w++)
        choices = apr_pstrcat(cmd->pool, choices, w[1].word ? ", " : " or ", w->word, NULL);
    return apr_psprintf(cmd->pool, "%s: '%s' is not %s", cmd->cmd->name, arg, choices);
}

static const char *word_of(const word_value_t *words, int value)
{
    for (const word_value_t *w = words; w->word; w++)
        if (w->value == value)
            return w->word;
    return "?";
}

const char *mem_config_policy_name(cache_policy_t policy)
{
    return word_of(policy_words, (int)policy);
}

const char *mem_config_sync_name(int use_tm)
{
    return word_of(sync_words, use_tm);
}

static const char *set_removal_algorithm(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    int policy = 0;
    const char *error = parse_word(cmd, arg, policy_words, &policy);
    if (!error)
        config_being_read(cmd)->policy = (cache_policy_t)policy;
    return mark_set(cmd, MEM_SET_POLICY, error);
}

static const char *set_sync(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    int use_tm = 0;
    const char *error = parse_word(cmd, arg, sync_words, &use_tm);
    if (!error)
        config_being_read(cmd)->use_tm = use_tm;
    return mark_set(cmd, MEM_SET_SYNC, error);
}

/* RSRC_CONF: the main server and <VirtualHost>; httpd itself rejects them in <Directory>,
 * <Location> and .htaccess with an error naming the directive. */
const command_rec mem_config_directives[] = {
    AP_INIT_TAKE1("MCacheSize", set_size, (void *)&cache_size, RSRC_CONF,
                  "Maximum memory used by the cache, in KBytes (default 100)"),
    AP_INIT_TAKE1("MCacheMaxObjectCount", set_size, (void *)&object_count, RSRC_CONF,
                  "Maximum number of cached objects (default 1009)"),
    AP_INIT_TAKE1("MCacheMinObjectSize", set_size, (void *)&min_object, RSRC_CONF,
                  "Smallest body cached, in bytes (default 1)"),
    AP_INIT_TAKE1("MCacheMaxObjectSize", set_size, (void *)&max_object, RSRC_CONF,
                  "Largest body cached, in bytes (default 10000)"),
    AP_INIT_TAKE1("MCacheMaxStreamingBuffer", set_size, (void *)&streaming, RSRC_CONF,
                  "Largest body of unknown length buffered for caching, in bytes (default 100000, "
                  "at most MCacheMaxObjectSize)"),
    AP_INIT_TAKE1("MCacheReadSize", set_size, (void *)&read_size, RSRC_CONF,
                  "Bytes of a response stored before they are handed on to the client (default "
                  "65536, 1024 to 16777216)"),
    AP_INIT_TAKE1("MCacheRemovalAlgorithm", set_removal_algorithm, NULL, RSRC_CONF,
                  "Eviction policy: LRU or GDSF (default GDSF)"),
    AP_INIT_TAKE1("MCacheSync", set_sync, NULL, RSRC_CONF,
                  "Synchronisation of the cache: lock (one mutex) or tm (transactions)"),
    {NULL}
};
