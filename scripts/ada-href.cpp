// What linkd's differential test asks of ada: the href of a parsed URL, through a plain C function (ada's own C
// API returns its strings as structs by value, which Swift cannot call through a function pointer).
#include <cstring>
#include <string_view>

#include "ada.h"

// Parses `length` bytes at `input`; writes the href to `output` and returns its length, or -1 when ada refuses the
// input, -2 when the href does not fit in `capacity` bytes.
extern "C" long linkd_ada_href(const char* input, size_t length, char* output, size_t capacity) {
    auto url = ada::parse<ada::url_aggregator>(std::string_view(input, length));
    if (!url) return -1;
    std::string_view href = url->get_href();
    if (href.size() > capacity) return -2;
    std::memcpy(output, href.data(), href.size());
    return static_cast<long>(href.size());
}
