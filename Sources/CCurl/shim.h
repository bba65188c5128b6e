// The C side of CurlTransport: libcurl's header, loaded at run time. linkd does not link libcurl (and its thirty
// libraries): `linkd open` never needs it, nor does a daemon until it talks to a backend or fetches an app's
// association files, and loading it costs every start. The first request dlopen()s it; the typed wrappers below
// also stand in for the variadic curl_easy_setopt and curl_easy_getinfo, which Swift cannot call.
#ifndef LINKD_CCURL_SHIM_H
#define LINKD_CCURL_SHIM_H

#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef size_t (*linkd_curl_data_callback)(char *data, size_t size, size_t count, void *context);

struct linkd_curl_api {
    int loaded;
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
};

/// Loads libcurl.so.4 into `api` and initialises it; 0 when it cannot be loaded. Call once (Swift: a `static let`).
static inline int linkd_curl_load(struct linkd_curl_api *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return 0;
    CURLcode (*global_init)(long) = (CURLcode (*)(long))dlsym(library, "curl_global_init");
    api->easy_init = (CURL * (*)(void)) dlsym(library, "curl_easy_init");
    api->easy_cleanup = (void (*)(CURL *))dlsym(library, "curl_easy_cleanup");
    api->easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(library, "curl_easy_setopt");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(library, "curl_easy_perform");
    api->easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(library, "curl_easy_getinfo");
    api->slist_append = (struct curl_slist * (*)(struct curl_slist *, const char *)) dlsym(library, "curl_slist_append");
    api->slist_free_all = (void (*)(struct curl_slist *))dlsym(library, "curl_slist_free_all");
    if (global_init == NULL || api->easy_init == NULL || api->easy_cleanup == NULL || api->easy_setopt == NULL
        || api->easy_perform == NULL || api->easy_getinfo == NULL || api->slist_append == NULL
        || api->slist_free_all == NULL || global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return 0;
    api->loaded = 1;
    return 1;
}

// The typed stand-ins for the variadic calls; `api` is a loaded table.
static inline CURLcode linkd_curl_set_long(const struct linkd_curl_api *api, CURL *handle, CURLoption option, long value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_string(
    const struct linkd_curl_api *api, CURL *handle, CURLoption option, const char *value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_pointer(
    const struct linkd_curl_api *api, CURL *handle, CURLoption option, void *value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_callback(
    const struct linkd_curl_api *api, CURL *handle, CURLoption option, linkd_curl_data_callback value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_list(
    const struct linkd_curl_api *api, CURL *handle, CURLoption option, struct curl_slist *value) {
    return api->easy_setopt(handle, option, value);
}

static inline long linkd_curl_response_code(const struct linkd_curl_api *api, CURL *handle) {
    long code = 0;
    api->easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

/// Whether the transfer just performed got as far as sending its request: connected (through any TLS handshake),
/// so that some of the request may have reached the server (`CURLINFO_PRETRANSFER_TIME_T`, 0 when it never did).
static inline int linkd_curl_got_to_sending(const struct linkd_curl_api *api, CURL *handle) {
    curl_off_t microseconds = 0;
    if (api->easy_getinfo(handle, CURLINFO_PRETRANSFER_TIME_T, &microseconds) != CURLE_OK) return 1;
    return microseconds > 0;
}

/// The certificate check's result (OpenSSL's X509_V_* code) of the transfer just performed.
static inline long linkd_curl_verify_result(const struct linkd_curl_api *api, CURL *handle) {
    long result = 0;
    api->easy_getinfo(handle, CURLINFO_SSL_VERIFYRESULT, &result);
    return result;
}

#endif
