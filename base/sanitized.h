/* base/sanitized.h — PTX_SANITIZED is 1 in a build with AddressSanitizer (gcc defines
 * __SANITIZE_ADDRESS__, clang answers __has_feature(address_sanitizer)), 0 otherwise: code
 * that trades compile time or test breadth for speed asks this one question. */
#ifndef BASE_SANITIZED_H
#define BASE_SANITIZED_H

#if defined(__SANITIZE_ADDRESS__)
#define PTX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTX_SANITIZED 1
#endif
#endif
#ifndef PTX_SANITIZED
#define PTX_SANITIZED 0
#endif

#endif
