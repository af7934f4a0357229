#ifndef SEEDGEN_LIBCRYPTO_SHIM_H
#define SEEDGEN_LIBCRYPTO_SHIM_H

// SHA-256 and SHA-512 only, through libcrypto's context functions: a context is a plain C
// struct, so a Swift value holding one copies as a hasher should. OpenSSL 3 marks them
// deprecated in favour of EVP; they stay supported, and EVP's context is a heap object.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

#endif
