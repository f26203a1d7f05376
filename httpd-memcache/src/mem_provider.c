/* The ten callbacks of the mod_cache storage provider "mem". Every access to shared state
 * (the cache index, reference counts, the complete flag, which head block an object
 * publishes) happens inside MEM_CRITICAL sections, whose bodies are the transaction_safe
 * functions named *_in_section below (under the cache's mutex in lock mode, a transaction in
 * tm mode). What is immutable once published (the body of a complete object, a head block, a
 * key) is read outside them. A request's private view of an object is a mem_request_t,
 * reached through cache_object_t.vobj. */
#include "mem_provider.h"
#include "mem_body.h"
#include "mem_config.h"
#include "mem_log.h"
#include "mem_instance.h"
#include "mem_object.h"
#include "mem_vary.h"

#include <stdlib.h>
#include <string.h>

#include <http_log.h>
#include <http_request.h>
#include <apr_buckets.h>
#include <apr_strings.h>

APLOG_USE_MODULE(mem_cache);

/* First size of a streamed (unknown-length) body's buffer; it doubles up to
 * MCacheMaxStreamingBuffer. */
#define STREAM_INITIAL_CAPACITY 16384

typedef struct mem_request {
    mem_instance_t *instance;   /* the cache the object belongs to */
    mem_object_t *object;
    apr_pool_t *pool;           /* pool of the main request: the reference lives as long */
    int creator;                /* this request created the object and fills it */
    int streamed;               /* length unknown at create time */
    apr_off_t expected_length;  /* Content-Length, or -1 when streamed */
    int body_done;              /* EOS stored */
    int failed;                 /* storing gave up */
    mem_head_t *head;           /* head block seen at open time */
    mem_head_t *pending_head;   /* head of a revalidation, published at commit */
    mem_object_t *vary_list;    /* between the two steps of a lookup that found a vary list */
} mem_request_t;

typedef enum {
    PUBLISH_OK,
    PUBLISH_BEING_STORED, /* the key holds an incomplete response: another request stores it */
    PUBLISH_STORED,       /* the key holds a complete response, stored since the lookup missed */
    PUBLISH_REFUSED       /* no room (or no memory) for it */
} publish_result_t;
typedef enum { OPEN_MISS, OPEN_HIT, OPEN_HIT_INVALIDATED, OPEN_VARIES } open_result_t;

static apr_status_t release_request_reference(void *opaque);

static request_rec *main_request(request_rec *r)
{
    while (r->main)
        r = r->main;
    return r;
}

/* A request's view of the cache, in the main request's pool with the cleanup that drops its
 * reference: a subrequest's pool dies before the main request has sent the body (and before
 * the main pool's cleanups run), so neither may live there. */
static mem_request_t *new_request(request_rec *r, mem_instance_t *instance)
{
    apr_pool_t *pool = main_request(r)->pool;
    mem_request_t *request = apr_pcalloc(pool, sizeof(*request));
    request->instance = instance;
    request->pool = pool;
    apr_pool_cleanup_register(pool, request, release_request_reference, apr_pool_cleanup_null);
    return request;
}

/* ---- bodies of critical sections (transaction_safe; run by MEM_CRITICAL) ---- */

/* Drops the cache's reference if object is still the one indexed under its key. */
LIBTM_SAFE static void unindex_in_section(cache_cache_t *cache, mem_object_t *object)
{
    if (cache_cache_remove(cache, object))
        mem_object_release(object);
}

/* Whether object may be served: a variant only while its vary list is the one indexed under
 * its URL's key (the list's own key). */
LIBTM_SAFE static int list_still_indexed(cache_cache_t *cache, const mem_object_t *object)
{
    const mem_object_t *list = object->vary_list;
    return !list || cache_cache_find(cache, &list->key) == list;
}

/* What a response found under the key it would be stored under says. */
LIBTM_SAFE static publish_result_t taken_by(const mem_object_t *found)
{
    return found->complete ? PUBLISH_STORED : PUBLISH_BEING_STORED;
}

LIBTM_SAFE static publish_result_t insert_in_section(cache_cache_t *cache, mem_object_t *object)
{
    if (cache_cache_insert(cache, object) != CACHE_INSERT_OK)
        return PUBLISH_REFUSED;
    object->refcount++; /* the cache's reference */
    return PUBLISH_OK;
}

/* The vary list a new variant joins: the one indexed under the URL's key when it has the same
 * names, else new_list (the first variant, or the origin now varies on other headers), which
 * replaces what was there: an older list, whose variants become unreachable, or a complete
 * response that did not vary. A response still being stored there without Vary keeps the key.
 * *published says whether new_list went into the cache. */
LIBTM_SAFE static publish_result_t join_list_in_section(cache_cache_t *cache, mem_object_t *new_list,
                                                        mem_object_t **list, int *published)
{
    mem_object_t *found = cache_cache_find(cache, &new_list->key);
    if (found && found->kind == MEM_OBJECT_VARY_LIST &&
        cache_key_equal(&found->vary_names, &new_list->vary_names)) {
        *list = found;
        return PUBLISH_OK;
    }
    if (found && found->kind == MEM_OBJECT_RESPONSE && !found->complete)
        return PUBLISH_BEING_STORED;
    if (found)
        unindex_in_section(cache, found);
    if (cache_cache_insert(cache, new_list) != CACHE_INSERT_OK)
        return PUBLISH_REFUSED;
    *published = 1; /* its creator's reference is now the cache's */
    *list = new_list;
    return PUBLISH_OK;
}

/* Indexes a new, incomplete object. A response that does not vary (new_list NULL) goes under
 * its URL's key unless a response holds that key (another request stores or has stored it:
 * concurrent misses never replace each other's entries); a vary list there is replaced (the
 * origin stopped varying). A variant goes under its variant key, in the vary list that
 * join_list_in_section gives it, unless a variant of that list holds the key already (a
 * variant of a list no longer indexed is replaced). Either is refused if the insertion evicted
 * the list it needs. */
LIBTM_SAFE static publish_result_t publish_new_in_section(cache_cache_t *cache, mem_object_t *object,
                                                         mem_object_t *new_list, int *list_published)
{
    mem_object_t *found;
    if (!new_list) {
        found = cache_cache_find(cache, &object->key);
        if (found && found->kind == MEM_OBJECT_RESPONSE)
            return taken_by(found);
        if (found)
            unindex_in_section(cache, found);
        return insert_in_section(cache, object);
    }
    mem_object_t *list = NULL;
    publish_result_t joined = join_list_in_section(cache, new_list, &list, list_published);
    if (joined != PUBLISH_OK)
        return joined;
    found = cache_cache_find(cache, &object->key);
    if (found && found->kind == MEM_OBJECT_RESPONSE && list_still_indexed(cache, found))
        return taken_by(found);
    if (found)
        unindex_in_section(cache, found);
    object->vary_list = list;
    list->refcount++; /* the variant's reference */
    publish_result_t inserted = insert_in_section(cache, object);
    if (inserted == PUBLISH_OK && !list_still_indexed(cache, object)) {
        unindex_in_section(cache, object);
        inserted = PUBLISH_REFUSED;
    }
    if (inserted != PUBLISH_OK) {
        object->vary_list = NULL; /* the caller destroys the object, which nobody saw */
        mem_object_release(list);
        return inserted;
    }
    cache_cache_update(cache, list); /* in use: it should live as long as its variants */
    return PUBLISH_OK;
}

/* Drops whatever object is indexed under key; returns 1 if there was one. */
LIBTM_SAFE static int unindex_key_in_section(cache_cache_t *cache, const cache_key_t *key)
{
    mem_object_t *object = cache_cache_find(cache, key);
    if (object)
        unindex_in_section(cache, object);
    return object != NULL;
}

/* A hit: reference, priority update, and which head block is current (the block itself is
 * immutable and read after the section). */
LIBTM_SAFE static open_result_t hit_in_section(cache_cache_t *cache, mem_object_t *object,
                                               mem_request_t *request)
{
    object->refcount++;
    cache_cache_update(cache, object);
    request->object = object;
    request->head = object->head;
    return object->invalidated ? OPEN_HIT_INVALIDATED : OPEN_HIT;
}

/* The hit path under a URL's key. A vary list found there is referenced for the second step
 * (open_variant_in_section), which needs the variant key made from its names outside. The
 * request's cleanup that drops the references is registered before (a pool is not
 * transaction-safe), and does nothing when request->object stays NULL. */
LIBTM_SAFE static open_result_t open_in_section(cache_cache_t *cache, const cache_key_t *key,
                                                mem_request_t *request)
{
    mem_object_t *object = cache_cache_find(cache, key);
    if (object && object->kind == MEM_OBJECT_VARY_LIST) {
        object->refcount++;
        request->vary_list = object;
        return OPEN_VARIES;
    }
    if (!object || !object->complete || object->vary_list)
        return OPEN_MISS; /* (a variant's key that a URL happens to spell) */
    return hit_in_section(cache, object, request);
}

/* The second step of a lookup that found request->vary_list: the variant under key, if it is
 * complete, of that list, and the list is still indexed. Drops the list's reference. */
LIBTM_SAFE static open_result_t open_variant_in_section(cache_cache_t *cache, const cache_key_t *key,
                                                        mem_request_t *request)
{
    mem_object_t *list = request->vary_list;
    request->vary_list = NULL;
    mem_object_t *object = cache_cache_find(cache, key);
    open_result_t found = OPEN_MISS;
    if (object && object->complete && object->vary_list == list && list_still_indexed(cache, object)) {
        cache_cache_update(cache, list);
        found = hit_in_section(cache, object, request);
    }
    mem_object_release(list);
    return found;
}

/* Completion of a stored body: makes the object visible. A streamed object is re-indexed
 * so the cache charges its real size (which may evict others). A variant whose vary list is
 * no longer indexed (replaced, evicted) is dropped: nobody could find it. Returns whether the
 * object is now cached and complete. */
LIBTM_SAFE static int complete_in_section(cache_cache_t *cache, mem_request_t *request)
{
    mem_object_t *object = request->object;
    mem_object_t *indexed = cache_cache_find(cache, &object->key);
    if (indexed == object) {
        if (request->streamed) {
            cache_cache_remove(cache, object);
            object->size = object->body_length;
            if (cache_cache_insert(cache, object) != CACHE_INSERT_OK) {
                mem_object_release(object); /* the cache's reference */
                return 0;
            }
        }
    } else if (!indexed) {
        /* Evicted or removed while it was being filled: index it again, as 2.2 did. */
        object->size = object->body_length;
        if (insert_in_section(cache, object) != PUBLISH_OK)
            return 0;
    } else {
        return 0; /* another object owns the key; ours dies with this request */
    }
    if (!list_still_indexed(cache, object)) {
        unindex_in_section(cache, object);
        return 0;
    }
    if (object->vary_list)
        cache_cache_update(cache, object->vary_list);
    object->complete = 1;
    return 1;
}

/* A 304 revalidation refreshed the headers: publish the new head; the old block stays
 * readable by requests that still use it until the object dies. */
LIBTM_SAFE static void refresh_head_in_section(mem_request_t *request)
{
    mem_object_t *object = request->object;
    mem_head_t *old = object->head;
    if (old) {
        old->retired_next = object->retired_heads;
        object->retired_heads = old;
    }
    object->head = request->pending_head;
    object->invalidated = 0;
}

LIBTM_SAFE static void invalidate_in_section(mem_object_t *object)
{
    object->invalidated = 1;
}

/* End of a request that referenced an object: an object left incomplete is dropped from
 * the index, then this request's reference goes. */
LIBTM_SAFE static void request_done_in_section(cache_cache_t *cache, mem_object_t *object)
{
    if (!object->complete)
        unindex_in_section(cache, object);
    mem_object_release(object);
}

/* ---- helpers outside critical sections ---- */

static apr_status_t release_request_reference(void *opaque)
{
    mem_request_t *request = opaque;
    mem_object_t *object = request->object;
    free(request->pending_head); /* a revalidation that never reached commit_entity */
    request->pending_head = NULL;
    mem_instance_t *instance = request->instance;
    if (request->vary_list) /* a lookup that stopped between its two steps */
        MEM_CRITICAL(&instance->sync, mem_object_release(request->vary_list));
    if (!object)
        return APR_SUCCESS; /* a lookup that missed */
    MEM_CRITICAL(&instance->sync, request_done_in_section(instance->cache, object));
    return APR_SUCCESS;
}

static cache_object_t *make_cache_object(request_rec *r, const char *key, mem_request_t *request)
{
    cache_object_t *cache_object = apr_pcalloc(r->pool, sizeof(*cache_object));
    cache_object->key = apr_pstrdup(r->pool, key);
    cache_object->vobj = request;
    return cache_object;
}

/* Gives up storing: drops the incomplete object from the index. */
static apr_status_t store_failed(request_rec *r, mem_request_t *request, const char *why)
{
    mem_object_t *object = request->object;
    mem_instance_t *instance = request->instance;
    ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r, MCLOGNO(00007) "mod_mem_cache: not caching %s: %s",
                  object->key.text, why);
    request->failed = 1;
    mem_instance_count(instance, MEM_COUNT_NOT_STORED);
    MEM_CRITICAL(&instance->sync, unindex_in_section(instance->cache, object));
    return APR_EGENERAL;
}

/* The reason a body outgrew its limit, naming the directive that sets that limit. */
static const char *too_long_reason(request_rec *r, const mem_request_t *request)
{
    if (!request->streamed)
        return "body longer than its Content-Length";
    const char *directive;
    apr_size_t limit = mem_config_streaming_limit(mem_config_of(r->server), &directive);
    return apr_psprintf(r->pool, "body of unknown length passed %" APR_SIZE_T_FMT " bytes, the "
                        "%s limit", limit, directive);
}

/* What create_entity publishes, built before its critical section. (In memory, and made by a
 * function that is not inlined: a transaction's begin returns twice, and GCC warns that locals
 * kept in registers across it may be clobbered.) */
typedef struct new_entry {
    const char *key;      /* the object's: its URL's key, or its variant key */
    mem_object_t *object; /* incomplete, with the creator's reference */
    mem_object_t *list;   /* the vary list a variant would join, or NULL */
} new_entry_t;

/* The object for a response to store under url_key (its vary list too if it varies), or 0
 * when it is not to be cached (logged and counted). */
__attribute__((noinline)) static int prepare_entry(request_rec *r, const char *url_key,
                                                   apr_off_t length, mem_instance_t *instance,
                                                   new_entry_t *entry)
{
    const mem_cache_config_t *config = mem_config_of(r->server);
    /* mod_cache calls store_headers with these tables next, so they say what is stored. */
    int star;
    const char *vary_names = mem_vary_names(r->pool, r->headers_out, r->err_headers_out, &star);
    const char *declined = NULL;
    apr_size_t capacity = 0;
    if (star) {
        declined = "Vary: * (no later request can match it)";
    } else if (length < 0) {
        const char *directive;
        apr_size_t limit = mem_config_streaming_limit(config, &directive);
        if (limit == 0)
            declined = apr_psprintf(r->pool, "its length is unknown and %s is 0", directive);
        capacity = STREAM_INITIAL_CAPACITY < limit ? STREAM_INITIAL_CAPACITY : limit;
    } else if ((apr_size_t)length < config->min_object_size ||
               (apr_size_t)length > config->max_object_size) {
        declined = apr_psprintf(r->pool, "%" APR_OFF_T_FMT " bytes is outside MCacheMinObjectSize.."
                                "MCacheMaxObjectSize (%" APR_SIZE_T_FMT "..%" APR_SIZE_T_FMT ")",
                                length, config->min_object_size, config->max_object_size);
    } else {
        capacity = (apr_size_t)length;
    }
    if (declined) {
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r,
                      MCLOGNO(00008) "mod_mem_cache: not caching %s: %s", url_key,
                      declined);
        mem_instance_count(instance, MEM_COUNT_NOT_STORED);
        return 0;
    }
    entry->key = vary_names ? mem_vary_key(r->pool, url_key, vary_names, r->headers_in) : url_key;
    entry->object = mem_object_create(entry->key, capacity, &instance->sync);
    entry->list = vary_names ? mem_vary_list_create(url_key, vary_names, &instance->sync) : NULL;
    if (!entry->object || (vary_names && !entry->list)) {
        if (entry->object)
            mem_object_destroy(entry->object);
        return 0;
    }
    entry->object->size = length < 0 ? 0 : (size_t)length;
    return 1;
}

/* ---- the provider callbacks ---- */

static int mem_create_entity(cache_handle_t *h, request_rec *r, const char *key, apr_off_t length,
                             apr_bucket_brigade *unused)
{
    (void)unused;
    mem_instance_t *instance = mem_config_of(r->server)->instance;
    if (!instance || !instance->cache)
        return DECLINED;
    new_entry_t entry;
    if (!prepare_entry(r, key, length, instance, &entry))
        return DECLINED;

    publish_result_t result;
    int list_published = 0;
    MEM_CRITICAL(&instance->sync, result = publish_new_in_section(instance->cache, entry.object,
                                                                  entry.list, &list_published));
    if (entry.list && !list_published)
        mem_object_destroy(entry.list); /* never visible to anyone else */
    if (result != PUBLISH_OK) {
        static const char *const why[] = {
            [PUBLISH_BEING_STORED] = "another request is storing it",
            [PUBLISH_STORED] = "another request has stored it since the lookup",
            [PUBLISH_REFUSED] = "does not fit in the cache"};
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r,
                      MCLOGNO(00009) "mod_mem_cache: not caching %s: %s",
                      entry.key, why[result]);
        mem_instance_count(instance, MEM_COUNT_NOT_STORED);
        mem_object_destroy(entry.object); /* never visible to anyone else */
        return DECLINED;
    }

    mem_request_t *request = new_request(r, instance);
    request->object = entry.object;
    request->creator = 1;
    request->streamed = length < 0;
    request->expected_length = length;
    h->cache_obj = make_cache_object(r, entry.key, request);
    return OK;
}

static int mem_open_entity(cache_handle_t *h, request_rec *r, const char *key)
{
    mem_instance_t *instance = mem_config_of(r->server)->instance;
    if (!instance || !instance->cache)
        return DECLINED;
    mem_request_t *request = new_request(r, instance);
    cache_key_t lookup;
    cache_key_init(&lookup, key);
    open_result_t found;
    MEM_CRITICAL(&instance->sync, found = open_in_section(instance->cache, &lookup, request));
    if (found == OPEN_VARIES) {
        /* The list's names are immutable and the request holds a reference to it. */
        cache_key_init(&lookup, mem_vary_key(r->pool, lookup.text, request->vary_list->body,
                                             r->headers_in));
        MEM_CRITICAL(&instance->sync,
                     found = open_variant_in_section(instance->cache, &lookup, request));
    }
    if (found == OPEN_MISS) {
        mem_instance_count(instance, MEM_COUNT_MISSES);
        return DECLINED;
    }
    mem_instance_count(instance, MEM_COUNT_HITS);
    /* A variant's handle carries its own key (as mod_cache_disk's does): remove_url by it
     * removes that variant. */
    h->cache_obj = make_cache_object(r, lookup.text, request);
    if (request->head)
        h->cache_obj->info = request->head->info;
    if (found == OPEN_HIT_INVALIDATED)
        h->cache_obj->info.control.invalidated = 1; /* makes mod_cache revalidate */
    h->req_hdrs = NULL;
    h->resp_hdrs = NULL;
    return OK;
}

static apr_status_t mem_recall_headers(cache_handle_t *h, request_rec *r)
{
    mem_request_t *request = h->cache_obj->vobj;
    mem_head_unpack(request->head, r->pool, &h->req_hdrs, &h->resp_hdrs);
    return APR_SUCCESS;
}

/* The body is shared: an immortal bucket points at it, and this request's reference keeps
 * it alive until the main request's pool is destroyed (after the data went out). */
static apr_status_t mem_recall_body(cache_handle_t *h, apr_pool_t *pool, apr_bucket_brigade *bb)
{
    (void)pool;
    mem_object_t *object = ((mem_request_t *)h->cache_obj->vobj)->object;
    if (object->body_length > 0)
        APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_immortal_create(object->body, object->body_length,
                                                               bb->bucket_alloc));
    return APR_SUCCESS;
}

static apr_status_t mem_store_headers(cache_handle_t *h, request_rec *r, cache_info *info)
{
    mem_request_t *request = h->cache_obj->vobj;
    mem_head_t *head = mem_head_build(info, ap_cache_cacheable_headers_in(r),
                                      ap_cache_cacheable_headers_out(r));
    if (!head)
        return APR_ENOMEM;
    if (request->creator) {
        /* Nobody reads an incomplete object: the creator writes it without synchronisation. */
        mem_object_t *object = request->object;
        free(object->head);
        object->head = head;
    } else {
        free(request->pending_head);
        request->pending_head = head;
    }
    h->cache_obj->info = *info;
    return APR_SUCCESS;
}

/* Makes room for a streamed body of needed bytes, up to limit. */
static int grow_body(mem_object_t *object, apr_size_t needed, apr_size_t limit)
{
    if (needed <= object->body_capacity)
        return 1;
    if (needed > limit)
        return 0;
    apr_size_t capacity = object->body_capacity * 2;
    if (capacity < needed)
        capacity = needed;
    if (capacity > limit)
        capacity = limit;
    char *body = mem_body_resize(object->body, object->body_capacity, capacity);
    if (!body)
        return 0;
    object->body = body;
    object->body_capacity = capacity;
    return 1;
}

static apr_status_t mem_store_body(cache_handle_t *h, request_rec *r, apr_bucket_brigade *in,
                                   apr_bucket_brigade *out)
{
    mem_request_t *request = h->cache_obj->vobj;
    mem_object_t *object = request->object;
    if (!request->creator || request->failed)
        return APR_EGENERAL;
    const mem_cache_config_t *config = mem_config_of(r->server);
    const char *directive;
    apr_size_t limit = request->streamed ? mem_config_streaming_limit(config, &directive)
                                         : (apr_size_t)request->expected_length;
    apr_size_t stored_now = 0;

    while (!APR_BRIGADE_EMPTY(in)) {
        apr_bucket *bucket = APR_BRIGADE_FIRST(in);
        if (APR_BUCKET_IS_EOS(bucket)) {
            request->body_done = 1;
            APR_BUCKET_REMOVE(bucket);
            APR_BRIGADE_INSERT_TAIL(out, bucket);
            break;
        }
        if (APR_BUCKET_IS_FLUSH(bucket)) {
            APR_BUCKET_REMOVE(bucket);
            APR_BRIGADE_INSERT_TAIL(out, bucket);
            return APR_SUCCESS; /* let the flush reach the client now */
        }
        if (APR_BUCKET_IS_METADATA(bucket)) {
            APR_BUCKET_REMOVE(bucket);
            APR_BRIGADE_INSERT_TAIL(out, bucket);
            continue;
        }
        const char *data;
        apr_size_t length;
        apr_status_t rv = apr_bucket_read(bucket, &data, &length, APR_BLOCK_READ);
        if (rv != APR_SUCCESS)
            return store_failed(r, request, "reading the response failed");
        if (object->body_length + length > limit)
            return store_failed(r, request, too_long_reason(r, request));
        if (!grow_body(object, object->body_length + length, limit))
            return store_failed(r, request, "out of memory");
        memcpy(object->body + object->body_length, data, length);
        object->body_length += length;
        APR_BUCKET_REMOVE(bucket);
        APR_BRIGADE_INSERT_TAIL(out, bucket);
        stored_now += length;
        if (stored_now >= config->read_size)
            break; /* hand it on: the client gets data, and these buckets' memory is freed */
    }

    if (request->body_done) {
        if (r->connection->aborted)
            return store_failed(r, request, "client connection aborted");
        if (!request->streamed && object->body_length != (apr_size_t)request->expected_length)
            return store_failed(r, request, "body shorter than its Content-Length");
        if (object->body_length < config->min_object_size ||
            object->body_length > config->max_object_size)
            return store_failed(r, request, apr_psprintf(r->pool, "%" APR_SIZE_T_FMT " bytes is "
                                "outside MCacheMinObjectSize..MCacheMaxObjectSize (%" APR_SIZE_T_FMT
                                "..%" APR_SIZE_T_FMT ")", object->body_length,
                                config->min_object_size, config->max_object_size));
        if (request->streamed && object->body_length > 0 &&
            object->body_length < object->body_capacity) {
            char *body = mem_body_resize(object->body, object->body_capacity, object->body_length);
            if (body) {
                object->body = body;
                object->body_capacity = object->body_length;
            }
        }
    }
    return APR_SUCCESS;
}

static apr_status_t mem_commit_entity(cache_handle_t *h, request_rec *r)
{
    mem_request_t *request = h->cache_obj->vobj;
    mem_instance_t *instance = request->instance;
    if (request->pending_head) {
        MEM_CRITICAL(&instance->sync, refresh_head_in_section(request));
        request->pending_head = NULL; /* now owned by the object */
        return APR_SUCCESS;
    }
    if (!request->creator || request->failed || !request->body_done)
        return APR_SUCCESS;
    int cached;
    MEM_CRITICAL(&instance->sync, cached = complete_in_section(instance->cache, request));
    mem_instance_count(instance, cached ? MEM_COUNT_STORED : MEM_COUNT_NOT_STORED);
    if (cached)
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r,
                      MCLOGNO(00010) "mod_mem_cache: stored %s (%" APR_SIZE_T_FMT
                      " bytes)", request->object->key.text, request->object->body_length);
    else
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r,
                      MCLOGNO(00011) "mod_mem_cache: not caching %s: it no "
                      "longer fits in the cache, another request replaced it, or its Vary list "
                      "was replaced",
                      request->object->key.text);
    return APR_SUCCESS;
}

static apr_status_t mem_invalidate_entity(cache_handle_t *h, request_rec *r)
{
    (void)r;
    mem_request_t *request = h->cache_obj->vobj;
    MEM_CRITICAL(&request->instance->sync, invalidate_in_section(request->object));
    return APR_SUCCESS;
}

static int mem_remove_entity(cache_handle_t *h)
{
    mem_request_t *request = h->cache_obj->vobj;
    mem_instance_t *instance = request->instance;
    MEM_CRITICAL(&instance->sync, unindex_in_section(instance->cache, request->object));
    return OK;
}

/* mod_cache calls every provider with the same handle, which may belong to another
 * provider: go by the key only. Our handles of variants carry the variant's key; a URL's key
 * that holds a vary list removes the list, and with it every variant's visibility. */
static int mem_remove_url(cache_handle_t *h, request_rec *r)
{
    mem_instance_t *instance = mem_config_of(r->server)->instance;
    if (!instance || !instance->cache || !h || !h->cache_obj || !h->cache_obj->key)
        return OK;
    cache_key_t key;
    cache_key_init(&key, h->cache_obj->key);
    int removed;
    MEM_CRITICAL(&instance->sync, removed = unindex_key_in_section(instance->cache, &key));
    if (removed)
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r,
                      MCLOGNO(00012) "mod_mem_cache: removed %s", key.text);
    return OK;
}

const cache_provider mem_cache_provider = {
    .remove_entity = mem_remove_entity,
    .store_headers = mem_store_headers,
    .store_body = mem_store_body,
    .recall_headers = mem_recall_headers,
    .recall_body = mem_recall_body,
    .create_entity = mem_create_entity,
    .open_entity = mem_open_entity,
    .remove_url = mem_remove_url,
    .commit_entity = mem_commit_entity,
    .invalidate_entity = mem_invalidate_entity,
};
