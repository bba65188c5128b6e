// The C side of CurlTransport: libcurl's header, and typed wrappers for its variadic curl_easy_setopt and
// curl_easy_getinfo, which Swift cannot call.
#ifndef LINKD_CCURL_SHIM_H
#define LINKD_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*linkd_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode linkd_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_callback(CURL *handle, CURLoption option, linkd_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode linkd_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline long linkd_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
